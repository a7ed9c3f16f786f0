import { Texture, texelView, type TexelArray } from '../core/texture.js';
import { FORMAT_INFO } from '../core/formats.js';
import type { TextureDescriptor } from '../core/descriptors.js';
import { TEXTURE_FORMATS, floatToHalf, type GLFormat } from './conv.js';
import { waitForFence } from './readback.js';
import type { WebGL2Device } from './device.js';

/**
 * A GL texture (`texStorage2D`), or for `sampleCount: 4` a multisampled renderbuffer that is only
 * ever an attachment and is resolved with `blitFramebuffer`. The canvas' texture is one of these
 * too (surface.ts presents it).
 */
export class WebGL2Texture extends Texture {
  readonly glTexture: WebGLTexture | null = null;
  readonly glRenderbuffer: WebGLRenderbuffer | null = null;
  readonly glFormat: GLFormat;
  readonly #device: WebGL2Device;

  constructor(device: WebGL2Device, desc: TextureDescriptor) {
    super(device, desc);
    this.#device = device;
    this.glFormat = TEXTURE_FORMATS[desc.format];
    const gl = device.gl;
    const { width, height } = desc.size;
    if ((desc.sampleCount ?? 1) > 1) {
      this.glRenderbuffer = gl.createRenderbuffer();
      gl.bindRenderbuffer(gl.RENDERBUFFER, this.glRenderbuffer);
      gl.renderbufferStorageMultisample(
        gl.RENDERBUFFER,
        desc.sampleCount ?? 4,
        this.glFormat.internalFormat,
        width,
        height,
      );
      gl.bindRenderbuffer(gl.RENDERBUFFER, null);
      return;
    }
    this.glTexture = gl.createTexture();
    device.state.bindScratchTexture(this.glTexture, device.scratchUnit);
    gl.texStorage2D(gl.TEXTURE_2D, this.mipLevelCount, this.glFormat.internalFormat, width, height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, this.mipLevelCount - 1);
  }

  /** Uploads tight-or-strided rows into a region (writeTexture), swizzling BGRA and packing halfs. */
  upload(
    mipLevel: number,
    x: number,
    y: number,
    width: number,
    height: number,
    data: Uint8Array,
    offset: number,
    bytesPerRow: number,
  ): void {
    const gl = this.#device.gl;
    const bpt = FORMAT_INFO[this.format].bytesPerTexel;
    let bytes = data.subarray(offset, offset + bytesPerRow * (height - 1) + width * bpt);
    if (this.glFormat.swizzleBGRA) bytes = swizzleBGRA(bytes);
    // typed views of float and half data need an aligned start: copy a misaligned slice
    if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
    this.#device.state.bindScratchTexture(this.glTexture, this.#device.scratchUnit);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.pixelStorei(gl.UNPACK_ROW_LENGTH, bytesPerRow / bpt);
    const view = FORMAT_INFO[this.format].float32
      ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
      : FORMAT_INFO[this.format].half
        ? new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2)
        : bytes;
    gl.texSubImage2D(
      gl.TEXTURE_2D,
      mipLevel,
      x,
      y,
      width,
      height,
      this.glFormat.format,
      this.glFormat.type,
      view,
    );
    gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 0);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
  }

  /**
   * Reads a region as RGBA (UNSIGNED_BYTE or FLOAT: the read formats every GL ES 3.0 with
   * EXT_color_buffer_float supports) into a pixel-pack buffer, waits on a fence, and repacks to
   * the format's own layout.
   */
  protected async readImpl(
    mipLevel: number,
    x: number,
    y: number,
    width: number,
    height: number,
  ): Promise<TexelArray> {
    const device = this.#device;
    const gl = device.gl;
    const float = FORMAT_INFO[this.format].kind === 'float';
    const readBytesPerTexel = float ? 16 : 4;
    const size = width * height * readBytesPerTexel;
    const staging = device.readback.acquire(size);
    device.framebuffers.bindForRead(this, mipLevel);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, staging.buffer);
    gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
    gl.readPixels(x, y, width, height, gl.RGBA, float ? gl.FLOAT : gl.UNSIGNED_BYTE, 0);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    await waitForFence(gl);
    const rgba = device.readback.finish(staging, size);
    return texelView(this.format, repackRGBA(this.format, rgba, width * height));
  }

  protected destroyImpl(): void {
    const gl = this.#device.gl;
    this.#device.framebuffers.evict(this.id);
    if (this.glTexture) gl.deleteTexture(this.glTexture);
    if (this.glRenderbuffer) gl.deleteRenderbuffer(this.glRenderbuffer);
  }
}

function swizzleBGRA(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i + 3 < out.length; i += 4) {
    out[i] = bytes[i + 2] as number;
    out[i + 2] = bytes[i] as number;
  }
  return out;
}

/** RGBA read-back data (bytes or floats) → the tight layout of `format`. */
export function repackRGBA(
  format: keyof typeof FORMAT_INFO,
  rgba: ArrayBuffer,
  texels: number,
): ArrayBuffer {
  const info = FORMAT_INFO[format];
  const n = info.components;
  if (info.kind === 'float') {
    const src = new Float32Array(rgba);
    if (info.half) {
      const out = new Uint16Array(texels * n);
      for (let t = 0; t < texels; t++)
        for (let c = 0; c < n; c++) out[t * n + c] = floatToHalf(src[t * 4 + c] as number);
      return out.buffer;
    }
    if (n === 4) return rgba;
    const out = new Float32Array(texels * n);
    for (let t = 0; t < texels; t++)
      for (let c = 0; c < n; c++) out[t * n + c] = src[t * 4 + c] as number;
    return out.buffer;
  }
  const src = new Uint8Array(rgba);
  if (format === 'bgra8unorm') return swizzleBGRA(src).buffer as ArrayBuffer;
  if (n === 4) return rgba;
  const out = new Uint8Array(texels * n);
  for (let t = 0; t < texels; t++)
    for (let c = 0; c < n; c++) out[t * n + c] = src[t * 4 + c] as number;
  return out.buffer;
}
