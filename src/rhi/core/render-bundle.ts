import { flatten } from './command-list.js';
import type { BarrierScope, Command, RecordedCommand } from './commands.js';
import type { TrackedResource } from './hazards.js';
import type { TextureFormat } from './formats.js';
import type { Device } from './device.js';

/**
 * Draws recorded once and executed by any number of render passes (WebGPU's `GPURenderBundle`):
 * `device.createRenderBundleEncoder(…)`, the draw calls of a pass, `finish()`, then
 * `pass.executeBundles([bundle])` every frame. Each draw was checked when it was recorded; a pass
 * that executes the bundle checks only what can differ — its formats, the bundle's resources still
 * alive, sampled textures that are its attachments — and tracks the bundle's reads and writes.
 * The draws read buffers as they are when the pass runs: a `queue.writeBuffer` between frames
 * changes what they draw, the recording does not.
 */
export class RenderBundle {
  readonly label: string;
  readonly device: Device;
  readonly colorFormats: readonly TextureFormat[];
  readonly depthStencilFormat: TextureFormat | undefined;
  readonly sampleCount: number;
  /** The recorded commands, in chunks (a pass's draw commands: no begin, end or viewport). */
  readonly chunks: readonly (readonly RecordedCommand[])[];
  /** The offsets of the uniform slices recorded without allocating (UniformSliceCommand). */
  readonly sliceOffsets: readonly number[];
  /** Each resource the draws read, with the scopes they read it in. */
  readonly reads: ReadonlyMap<TrackedResource, readonly (readonly BarrierScope[])[]>;
  /** Each resource the draws write (storage written by the fragment stage), with its scope. */
  readonly writes: ReadonlyMap<TrackedResource, BarrierScope>;
  /** `device.destroyedCount` at `finish()`: unchanged at execute, every resource is still alive. */
  readonly recordedAt: number;
  /** How many commands the bundle holds. */
  readonly length: number;

  constructor(init: {
    label: string;
    device: Device;
    colorFormats: readonly TextureFormat[];
    depthStencilFormat: TextureFormat | undefined;
    sampleCount: number;
    chunks: readonly (readonly RecordedCommand[])[];
    sliceOffsets: readonly number[];
    length: number;
    reads: ReadonlyMap<TrackedResource, readonly (readonly BarrierScope[])[]>;
    writes: ReadonlyMap<TrackedResource, BarrierScope>;
  }) {
    this.label = init.label;
    this.device = init.device;
    this.colorFormats = Object.freeze([...init.colorFormats]);
    this.depthStencilFormat = init.depthStencilFormat;
    this.sampleCount = init.sampleCount;
    this.chunks = init.chunks;
    this.sliceOffsets = init.sliceOffsets;
    this.length = init.length;
    this.reads = init.reads;
    this.writes = init.writes;
    this.recordedAt = init.device.destroyedCount;
  }

  /** The recorded commands in one list, each uniform slice as a `setBinding` (for tests and tracing). */
  get commands(): readonly Command[] {
    return flatten(this.chunks, this.sliceOffsets);
  }
}
