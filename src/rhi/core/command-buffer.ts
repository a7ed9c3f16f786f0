import type { Command, RecordedCommand } from './commands.js';
import { CommandList, flatten } from './command-list.js';
import type { CommandSink } from './command-encoder.js';
import type { Texture } from './texture.js';

/**
 * The finished, immutable list of commands of one encoder. Submitted once: a second submit is an
 * `EncoderStateError` (WebGPU's rule, kept on every backend).
 */
export class CommandBuffer {
  #submitted = false;
  /**
   * The commands in chunks, in order: what the queue and the backends walk, every frame (a
   * `setUniformSlice` takes its offset from `sliceOffsets`, in order).
   */
  readonly chunks: readonly (readonly RecordedCommand[])[];
  /** Each `setUniformSlice` recording's offset, in order (see UniformSliceCommand). */
  readonly sliceOffsets: readonly number[];
  #flat: readonly Command[] | null = null;
  constructor(
    readonly label: string,
    commands: readonly Command[] | CommandList,
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
  ) {
    this.chunks = commands instanceof CommandList ? commands.chunks : [commands];
    this.sliceOffsets = commands instanceof CommandList ? commands.sliceOffsets : [];
  }

  /** The commands, in order (one flat list, made at the first call). */
  get commands(): readonly Command[] {
    return (this.#flat ??= flatten(this.chunks, this.sliceOffsets));
  }

  get submitted(): boolean {
    return this.#submitted;
  }

  /** Whether a command writes `texture`: a pass attachment or resolve target, or a copy's destination. */
  writes(texture: Texture): boolean {
    // (the chunks, not the flat list: a surface asks this after every submit)
    return this.chunks.some((chunk) => chunk.some((c) => writesTexture(c, texture)));
  }

  /** Called by the queue. */
  markSubmitted(): void {
    this.#submitted = true;
  }
}

function writesTexture(c: RecordedCommand, texture: Texture): boolean {
  switch (c.type) {
    case 'beginRenderPass':
      return (
        c.pass.colorAttachments.some((a) => a.texture === texture || a.resolveTarget === texture) ||
        c.pass.depthStencilAttachment?.texture === texture
      );
    case 'copyBufferToTexture':
    case 'copyTextureToTexture':
      return c.dst === texture;
    default:
      return false;
  }
}
