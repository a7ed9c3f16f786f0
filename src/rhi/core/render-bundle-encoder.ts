import { EncoderStateError } from './errors.js';
import { CommandList } from './command-list.js';
import { RenderCommands } from './render-commands.js';
import { RenderBundle } from './render-bundle.js';
import type { BarrierScope, Command, DrawCommand, UniformSliceCommand } from './commands.js';
import type { PassRecorder } from './command-encoder.js';
import type { TrackedResource } from './hazards.js';
import type { TextureFormat } from './formats.js';
import type { Device } from './device.js';

/** What a bundle's draws record into: its own list, and the reads and writes an executing pass tracks. */
class BundleRecorder implements PassRecorder {
  readonly list = new CommandList();
  readonly reads = new Map<TrackedResource, (readonly BarrierScope[])[]>();
  readonly writes = new Map<TrackedResource, BarrierScope>();
  constructor(
    readonly device: Device,
    readonly label: string,
  ) {}
  record(command: Command): void {
    this.list.push(command);
  }
  recordSlice(slice: UniformSliceCommand, offset: number): void {
    this.list.pushSlice(slice, offset);
  }
  recordDraw(draw: DrawCommand): void {
    this.list.push(draw);
  }
  trackRead(resource: TrackedResource, scopes: readonly BarrierScope[]): void {
    // the scope lists are a few constants: compared by identity
    let list = this.reads.get(resource);
    if (!list) this.reads.set(resource, (list = []));
    if (!list.includes(scopes)) list.push(scopes);
  }
  trackWrite(resource: TrackedResource, scope: BarrierScope): void {
    this.writes.set(resource, scope);
  }
  end(): void {
    throw new EncoderStateError(
      'a render bundle has no end(); call finish()',
      'recording',
      this.label,
    );
  }
}

/**
 * Records the draws of a render bundle (WebGPU's `GPURenderBundleEncoder`): the draw and binding
 * calls of a render pass, each checked as it is recorded against the formats the bundle is made
 * for; no viewport, scissor or pass of its own. `finish()` returns the `RenderBundle`; every call
 * after it is an `EncoderStateError`.
 */
export class RenderBundleEncoder extends RenderCommands {
  readonly #bundleRecorder: BundleRecorder;

  /** Made by `device.createRenderBundleEncoder`, which checks the formats. */
  constructor(
    device: Device,
    target: {
      label: string;
      colorFormats: readonly TextureFormat[];
      depthStencilFormat: TextureFormat | undefined;
      sampleCount: number;
    },
  ) {
    const recorder = new BundleRecorder(device, target.label);
    super(
      recorder,
      { ...target, what: 'render bundle', isAttachment: () => false },
      'bundleEncoder.finish()',
    );
    this.#bundleRecorder = recorder;
  }

  finish(): RenderBundle {
    this.open('finish');
    this.close();
    const r = this.#bundleRecorder;
    const bundle = new RenderBundle({
      label: this.label,
      device: r.device,
      colorFormats: this.colorFormats,
      depthStencilFormat: this.depthStencilFormat,
      sampleCount: this.sampleCount,
      chunks: r.list.chunks,
      sliceOffsets: r.list.sliceOffsets,
      length: r.list.length,
      reads: r.reads,
      writes: r.writes,
    });
    // the backend's form of it made now, not by the first frame that executes it (a lost device
    // makes it at its first execution after restore())
    if (!r.device.isLost) r.device.prepareRenderBundle(bundle);
    return bundle;
  }
}
