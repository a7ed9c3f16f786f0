import type { Command } from './commands.js';
import type { CommandSink } from './command-encoder.js';
import type { Texture } from './texture.js';

/**
 * The finished, immutable list of commands of one encoder. Submitted once: a second submit is an
 * `EncoderStateError` (WebGPU's rule, kept on every backend).
 */
export class CommandBuffer {
  #submitted = false;
  constructor(
    readonly label: string,
    readonly commands: readonly Command[],
    /** The device whose encoder recorded it (none for a hand-made buffer in tests). */
    readonly device?: { readonly isLost: boolean },
    /** The backend's encoder that translated the commands while they were recorded, if any. */
    readonly encoded?: CommandSink,
    /**
     * What the encoder knew (none for a hand-made buffer): `device.destroyedCount` when recording
     * began — unchanged at submit, every resource the commands use is still alive — and whether a
     * pass writes timestamps.
     */
    readonly recorded?: { readonly recordedAt: number; readonly timestamps: boolean },
  ) {}

  get submitted(): boolean {
    return this.#submitted;
  }

  /** Whether a command writes `texture`: a pass attachment or resolve target, or a copy's destination. */
  writes(texture: Texture): boolean {
    return this.commands.some((c) => {
      switch (c.type) {
        case 'beginRenderPass':
          return (
            c.pass.colorAttachments.some(
              (a) => a.texture === texture || a.resolveTarget === texture,
            ) || c.pass.depthStencilAttachment?.texture === texture
          );
        case 'copyBufferToTexture':
        case 'copyTextureToTexture':
          return c.dst === texture;
        default:
          return false;
      }
    });
  }

  /** Called by the queue. */
  markSubmitted(): void {
    this.#submitted = true;
  }
}
