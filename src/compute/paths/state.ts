/** State storage shared by the paths: buffers or RGBA textures per attribute, uploads and reads. */
import { BufferUsage, TextureUsage } from '../../rhi/core/flags.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { TextureFormat } from '../../rhi/core/formats.js';
import { padToTexels, toHalfs, fromHalfs } from '../pack.js';
import type { PathContext } from './path.js';

/** Bytes of one element of one attribute: a vec4 of f32, or of f16 in half-float textures. */
export const bytesPerTexel = (ctx: Pick<PathContext, 'precision'>): number =>
  ctx.precision === 'f16' ? 8 : 16;

export function stateFormat(ctx: Pick<PathContext, 'precision'>): TextureFormat {
  return ctx.precision === 'f16' ? 'rgba16float' : 'rgba32float';
}

/** One STORAGE | VERTEX buffer per attribute, 16 bytes per element: the compute path's state, drawn without a copy. */
export function createStateBuffers(ctx: PathContext): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const a of ctx.kernel.descriptor.attributes) {
    out[a] = ctx.device.createBuffer({
      label: `${ctx.label}.${a}`,
      size: 16 * ctx.count,
      usage: BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
    });
  }
  return out;
}

/** One RGBA texture per attribute (`renderable` for the ping-pong targets). */
export function createStateTextures(
  ctx: PathContext,
  set: number,
  renderable: boolean,
): Record<string, Texture> {
  const out: Record<string, Texture> = {};
  for (const a of ctx.kernel.descriptor.attributes) {
    out[a] = ctx.device.createTexture({
      label: `${ctx.label}.${a}[${set}]`,
      size: ctx.size,
      format: stateFormat(ctx),
      usage:
        TextureUsage.TEXTURE_BINDING |
        TextureUsage.COPY_DST |
        TextureUsage.COPY_SRC |
        (renderable ? TextureUsage.RENDER_ATTACHMENT : 0),
    });
  }
  return out;
}

export function uploadTexture(ctx: PathContext, texture: Texture, data: Float32Array): void {
  const texels = padToTexels(data, ctx.size);
  ctx.device.queue.writeTexture(
    { texture },
    ctx.precision === 'f16' ? toHalfs(texels) : texels,
    { bytesPerRow: ctx.size.width * bytesPerTexel(ctx) },
    ctx.size,
  );
}

export async function readTexture(ctx: PathContext, texture: Texture): Promise<Float32Array> {
  const texels = await texture.read();
  const floats = texels instanceof Uint16Array ? fromHalfs(texels) : (texels as Float32Array);
  return floats.slice(0, 4 * ctx.count);
}

export async function readBuffer(buffer: Buffer): Promise<Float32Array> {
  return new Float32Array(await buffer.read());
}
