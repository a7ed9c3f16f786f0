/** The CPU path of a portable kernel: its JavaScript translation over the buffers' host copies. */
import { ValidationError } from '../../rhi/core/errors.js';
import { KernelError } from '../kernel-error.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Sampler } from '../../rhi/core/sampler.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { Binding, PortableModule } from './analyze.js';
import { elementCount, type Backend } from './backend.js';
import { emitJs, type JsRunContext } from './js.js';
import { runtime } from './runtime.js';
import { decodeTexels, storageImage, type DecodedTexture, type StorageImage } from './texels.js';
import { FORMAT_INFO } from '../../rhi/core/formats.js';
import type { PortableCompute } from './portable-compute.js';

type Views = { F: Float32Array; U: Uint32Array; I: Int32Array };
const views = (bytes: Uint8Array, words: number): Views => ({
  F: new Float32Array(bytes.buffer, bytes.byteOffset, words),
  U: new Uint32Array(bytes.buffer, bytes.byteOffset, words),
  I: new Int32Array(bytes.buffer, bytes.byteOffset, words),
});

export class CpuBackend implements Backend {
  readonly source: string;
  readonly #run: (ctx: JsRunContext) => void;
  constructor(
    readonly pc: PortableCompute,
    readonly m: PortableModule,
  ) {
    this.source = emitJs(m);
    this.#run = new Function('$', this.source)(runtime) as (ctx: JsRunContext) => void;
  }

  dispatch(
    _encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
    samplers: Record<string, Sampler>,
  ): void {
    const { pc } = this;
    const ctx: JsRunContext = {
      invocations: pc.invocations,
      storage: {},
      uniforms: {},
      textures: {},
      images: {},
      samplers: Object.fromEntries(
        this.m.bindings
          .filter((b) => b.space === 'sampler')
          .map((b) => [b.name, (samplers[b.name] as Sampler).descriptor]),
      ),
    };
    const shadows = new Map<Binding, Uint8Array>();
    const images = new Map<Texture, StorageImage>();
    for (const b of this.m.bindings) {
      if (b.space === 'sampler') continue;
      if (b.space === 'texture' || b.space === 'storage-texture') {
        const t = textures[b.name] as Texture;
        const shadow = t.hostShadow;
        if (!shadow || shadow.stale)
          throw new ValidationError(
            'portable-cpu-shadow',
            shadow
              ? `texture ${t.label ?? ''} (${b.name}) was written by the GPU (a render pass or a copy into it); the CPU path ${b.space === 'texture' ? 'reads textures from' : 'writes a storage texture over'} their host copies, which queue.writeTexture keeps`
              : `texture ${t.label ?? ''} (${b.name}) has no host copy: create the device with hostShadows: true before creating the texture (with TEXTURE_BINDING)`,
            pc.label,
          );
        if (b.space === 'texture')
          (ctx.textures as Record<string, DecodedTexture>)[b.name] = decodeTexels(
            t.format,
            t.width,
            t.height,
            shadow.bytes,
            t.mipLevelCount,
          );
        else {
          // texels the kernel does not store keep their contents: it writes over a copy of them
          const image = storageImage(t.format, t.width, t.height, shadow.bytes);
          images.set(t, image);
          (ctx.images as Record<string, StorageImage>)[b.name] = image;
        }
        continue;
      }
      const buffer = buffers[b.name] as Buffer;
      const shadow = buffer.hostShadow;
      if (!shadow || shadow.stale)
        throw new ValidationError(
          'portable-cpu-shadow',
          shadow
            ? `buffer ${buffer.label ?? ''} (${b.name}) was written by the GPU in a way its host copy cannot follow (a shader or a texture copy); the CPU path cannot read it`
            : `buffer ${buffer.label ?? ''} (${b.name}) has no host copy: create the device with hostShadows: true before creating the buffer`,
          pc.label,
        );
      shadows.set(b, shadow.bytes);
      const words = Math.floor(buffer.size / 4);
      if (b.space === 'uniform') ctx.uniforms[b.name] = views(shadow.bytes, words);
      else ctx.storage[b.name] = { ...views(shadow.bytes, words), length: elementCount(b, buffer) };
    }
    try {
      this.#run(ctx);
    } catch (e) {
      if (e instanceof runtime.NonUniformBarrier || e instanceof RangeError)
        throw new KernelError(pc.label, e.message);
      throw e;
    }
    for (const b of this.m.bindings)
      if (b.space === 'storage' && b.access !== 'read')
        pc.device.queue.writeBuffer(buffers[b.name] as Buffer, 0, shadows.get(b) as Uint8Array);
    for (const [t, image] of images)
      pc.device.queue.writeTexture(
        { texture: t },
        image.bytes,
        { bytesPerRow: t.width * FORMAT_INFO[t.format].bytesPerTexel },
        { width: t.width, height: t.height },
      );
  }

  destroy(): void {}
}
