import { DeviceLostError, ValidationError } from './errors.js';
import { validateScissorRect, validateViewport } from './validate/pass.js';
import { assertCommandAlive } from './validate/alive.js';
import { RenderCommands, type DrawTarget } from './render-commands.js';
import { RenderBundle } from './render-bundle.js';
import { show } from './show.js';
import type { ResolvedRenderPass } from './commands.js';
import type { PassRecorder } from './command-encoder.js';
import type { Texture } from './texture.js';
import type { TextureFormat } from './formats.js';

/** Whether `texture` is an attachment (color, resolve or depth) of `pass`. */
function isAttachment(pass: ResolvedRenderPass, texture: Texture): boolean {
  // no array of the attachments: this runs for every texture bound in every frame
  if (pass.depthStencilAttachment?.texture === texture) return true;
  const colors = pass.colorAttachments;
  for (let i = 0; i < colors.length; i++) {
    const a = colors[i] as (typeof colors)[number];
    if (a.texture === texture || a.resolveTarget === texture) return true;
  }
  return false;
}

/** A pass as the draws see it: one object per pass (a pass begins every frame), formats made when asked. */
class PassTarget implements DrawTarget {
  readonly what = 'pass';
  #colorFormats: readonly TextureFormat[] | null = null;
  constructor(readonly desc: ResolvedRenderPass) {}
  get label(): string {
    return this.desc.label;
  }
  get colorFormats(): readonly TextureFormat[] {
    // made once per pass: a particle system asks at every draw
    return (this.#colorFormats ??= Object.freeze(
      this.desc.colorAttachments.map((a) => a.texture.format),
    ));
  }
  get depthStencilFormat(): TextureFormat | undefined {
    return this.desc.depthStencilAttachment?.texture.format;
  }
  get sampleCount(): number {
    return this.desc.sampleCount;
  }
  isAttachment(texture: Texture): boolean {
    return isAttachment(this.desc, texture);
  }
}

/**
 * Records draws into one render pass (the calls it shares with a render bundle are those of
 * `RenderCommands`), sets its viewport and scissor, and executes render bundles. `end()` closes
 * the pass; any call after it is an `EncoderStateError`.
 */
export class RenderPass extends RenderCommands {
  readonly #desc: ResolvedRenderPass;

  constructor(recorder: PassRecorder, desc: ResolvedRenderPass) {
    super(recorder, new PassTarget(desc), 'pass.end()');
    this.#desc = desc;
  }

  /** Width and height of the pass's attachments. */
  get width(): number {
    return this.#desc.width;
  }
  get height(): number {
    return this.#desc.height;
  }

  setViewport(
    x: number,
    y: number,
    width: number,
    height: number,
    minDepth = 0,
    maxDepth = 1,
  ): void {
    this.open('setViewport');
    validateViewport(x, y, width, height, minDepth, maxDepth, this.label);
    this.recorder.record({ type: 'setViewport', x, y, width, height, minDepth, maxDepth });
  }

  setScissorRect(x: number, y: number, width: number, height: number): void {
    this.open('setScissorRect');
    validateScissorRect(x, y, width, height, this.width, this.height, this.label);
    this.recorder.record({ type: 'setScissorRect', x, y, width, height });
  }

  /**
   * Runs the draws of each bundle in order (WebGPU's `executeBundles`). Each bundle must have been
   * made for this pass's color formats, depth format and sample count, by this device, with every
   * resource it uses still alive, and may not sample this pass's attachments. Afterwards the pass
   * has no pipeline, bindings, vertex or index buffers: set them again before drawing directly.
   */
  executeBundles(bundles: readonly RenderBundle[]): void {
    this.open('executeBundles');
    if (!Array.isArray(bundles))
      throw new ValidationError(
        'render-bundles',
        `executeBundles takes an array of render bundles, got ${show(bundles)}`,
        this.label,
      );
    const device = this.recorder.device;
    if (device.isLost)
      throw new DeviceLostError('lost', 'executeBundles after the device was lost or destroyed');
    const list: RenderBundle[] = [];
    for (let i = 0; i < bundles.length; i++) {
      const b: unknown = bundles[i];
      if (!(b instanceof RenderBundle))
        throw new ValidationError(
          'render-bundle',
          `executeBundles: entry ${i} is not a RenderBundle (bundleEncoder.finish() makes one), got ${show(b)}`,
          this.label,
          { index: i },
        );
      this.#checkBundle(b);
      list.push(b);
    }
    for (const b of list) {
      for (const [resource, scopes] of b.reads)
        for (const s of scopes) this.recorder.trackRead(resource, s);
      for (const [resource, scope] of b.writes) this.recorder.trackWrite(resource, scope);
    }
    this.recorder.record({ type: 'executeBundles', bundles: list });
    this.resetState();
  }

  #checkBundle(b: RenderBundle): void {
    const device = this.recorder.device;
    if (b.device !== device)
      throw new ValidationError(
        'render-bundle-device',
        `executeBundles: render bundle "${b.label}" was recorded on another device`,
        this.label,
      );
    const formats = this.colorFormats;
    if (
      b.colorFormats.length !== formats.length ||
      b.colorFormats.some((f, i) => f !== formats[i]) ||
      b.depthStencilFormat !== this.depthStencilFormat ||
      b.sampleCount !== this.sampleCount
    )
      throw new ValidationError(
        'render-bundle-formats',
        `Render bundle "${b.label}" was made for colors [${b.colorFormats.join(', ')}], depth ${b.depthStencilFormat ?? 'none'}, ${b.sampleCount} sample(s); the pass has [${formats.join(', ')}], depth ${this.depthStencilFormat ?? 'none'}, ${this.sampleCount} sample(s)`,
        this.label,
        {
          bundle: {
            colorFormats: [...b.colorFormats],
            depthStencilFormat: b.depthStencilFormat ?? null,
            sampleCount: b.sampleCount,
          },
          pass: {
            colorFormats: [...formats],
            depthStencilFormat: this.depthStencilFormat ?? null,
            sampleCount: this.sampleCount,
          },
        },
      );
    // nothing destroyed since the bundle was finished: every resource it uses is alive
    if (b.recordedAt !== device.destroyedCount)
      for (const chunk of b.chunks)
        for (let k = 0; k < chunk.length; k++)
          assertCommandAlive(chunk[k] as (typeof chunk)[number], 'executeBundles');
    for (const r of b.reads.keys())
      if (r.kind === 'texture' && isAttachment(this.#desc, r as Texture))
        throw new ValidationError(
          'feedback-loop',
          `Render bundle "${b.label}" samples texture "${r.label}", an attachment of this pass`,
          this.label,
          { bundle: b.label },
        );
  }

  end(): void {
    this.open('end');
    this.close();
    this.recorder.end({ type: 'endRenderPass' });
  }
}
