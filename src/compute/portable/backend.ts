/**
 * What the three paths of a portable kernel share: the interface each implements, and how the
 * buffers' bytes map onto the ping-pong path's RGBA32F textures.
 */
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Sampler } from '../../rhi/core/sampler.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { Binding } from './analyze.js';
import { TEXELS_PER_ROW } from './glsl.js';

/** Bytes a portable storage buffer's size must be a multiple of (one RGBA32F texel). */
export const TEXEL_BYTES = 16;

/** One path of a portable kernel: records (or, on the CPU, runs) a dispatch. */
export interface Backend {
  dispatch(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
    samplers: Record<string, Sampler>,
  ): void;
  destroy(): void;
}

/** Elements of `b` the buffer holds (after the members declared before the array). */
export function elementCount(b: Binding, buffer: Buffer): number {
  const stride = (b.type as { stride: number }).stride;
  const fixed = (b.type as { count: number }).count;
  const n = Math.max(0, Math.floor((buffer.size - b.offset) / stride));
  return fixed ? Math.min(fixed, n) : n;
}

/** Texture rows holding `bytes` at TEXELS_PER_ROW texels per row. */
export const rowsFor = (bytes: number): number =>
  Math.max(1, Math.ceil(bytes / TEXEL_BYTES / TEXELS_PER_ROW));

/** Copies a buffer's bytes to or from the first texels of `texture` (full rows, then the rest). */
export function copyRows(
  encoder: CommandEncoder,
  buffer: Buffer,
  texture: Texture,
  dir: 'to-texture' | 'to-buffer',
): void {
  const texels = buffer.size / TEXEL_BYTES;
  const full = Math.floor(texels / TEXELS_PER_ROW);
  const rest = texels % TEXELS_PER_ROW;
  const bytesPerRow = TEXELS_PER_ROW * TEXEL_BYTES;
  const parts: Array<{ offset: number; y: number; width: number; height: number }> = [];
  if (full) parts.push({ offset: 0, y: 0, width: TEXELS_PER_ROW, height: full });
  if (rest) parts.push({ offset: full * bytesPerRow, y: full, width: rest, height: 1 });
  for (const p of parts) {
    const b = { buffer, offset: p.offset, bytesPerRow };
    const t = { texture, origin: { x: 0, y: p.y } };
    const size = { width: p.width, height: p.height };
    if (dir === 'to-texture') encoder.copyBufferToTexture(b, t, size);
    else encoder.copyTextureToBuffer(t, b, size);
  }
}
