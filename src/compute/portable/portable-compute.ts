/**
 * `createPortableCompute`: an ordinary WGSL compute shader (analyze.ts), run as WebGPU compute where
 * the device has it (compute-backend.ts), else as WebGL2 passes over the buffers' bytes in float
 * textures (pingpong-backend.ts), else on the CPU over the buffers' host copies (cpu-backend.ts). The
 * buffers are the user's own Ignis buffers, bound by the shader's binding names, on every path: a
 * draw reads the result from the same buffer whichever path wrote it.
 */
import { BufferUsage, TextureUsage, usageNames } from '../../rhi/core/flags.js';
import { UnsupportedFeatureError, UsageError, ValidationError } from '../../rhi/core/errors.js';
import { requireResource } from '../../rhi/core/validate/resource.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Sampler } from '../../rhi/core/sampler.js';
import type { Device } from '../../rhi/core/device.js';
import { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { BarrierScope } from '../../rhi/core/commands.js';
import { reflectWorkgroupSize } from '../../rhi/core/compute-pipeline.js';
import { FORMAT_INFO } from '../../rhi/core/formats.js';
import type { PathName } from '../paths/choose.js';
import {
  analyzeKernel,
  PortableKernelError,
  type Binding,
  type PortableModule,
} from './analyze.js';
import { TEXEL_BYTES, type Backend } from './backend.js';
import { ComputeBackend } from './compute-backend.js';
import { CpuBackend } from './cpu-backend.js';
import { gridOf, invocationsFor, type Grid } from './grid.js';
import { PingPongBackend } from './pingpong-backend.js';
import { reflectBufferBindings, type BufferBinding, type Portability } from './portability.js';
import { sizeOf } from './types.js';

/** Options of `createPortableCompute`: the WGSL, the element count, the buffers by binding name and the path. */
export interface PortableComputeOptions {
  /** An ordinary WGSL compute shader, as written for WebGPU. */
  code: string;
  entryPoint?: string;
  /**
   * The global invocation grid, `n`, `[x, y]` or `[x, y, z]` (as `dispatchThreads` takes it): the
   * compute path dispatches ceil(count / workgroup size) workgroups in each dimension, and every
   * path runs the invocations of those whole workgroups.
   */
  count: number | readonly [number, number] | readonly [number, number, number];
  /** Values of the shader's `override` declarations, by name or `@id` (WebGPU's `constants`). */
  constants?: Readonly<Record<string, number | boolean>>;
  /** Buffers by the shader's binding names (variable names); may also be given per dispatch. */
  buffers?: Readonly<Record<string, Buffer>>;
  /**
   * Textures by binding name: sampled ones (`texture_2d<f32>` read with `textureLoad`;
   * `TEXTURE_BINDING` textures of a colour format) and storage ones
   * (`texture_storage_2d<format, write>` written with `textureStore`; `storageTextureUsage(device)`
   * says the usage). The CPU path reads mip level 0 from the texture's host copy, and writes a
   * storage texture's with `queue.writeTexture` after the run.
   */
  textures?: Readonly<Record<string, Texture>>;
  /**
   * Samplers (`var s: sampler`, for `textureSampleLevel(t, s, coords, level)`) by binding name. The
   * CPU path filters level 0 of the texture's host copy as the sampler says.
   */
  samplers?: Readonly<Record<string, Sampler>>;
  /** `auto` (default) takes compute, else ping-pong, else the CPU. */
  path?: 'auto' | PathName;
  label?: string;
}

/** An ordinary WGSL compute shader of the gather shape, run on compute, a fragment ping-pong or the CPU. */
export class PortableCompute {
  readonly path: PathName;
  /** Why this path was taken, in words a user can act on. */
  readonly reason: string;
  /** The analysed kernel; null when it is not portable and runs on the compute path as written. */
  readonly module: PortableModule | null;
  /** Whether the kernel runs on every path, else the construct that keeps it on compute. */
  readonly portability: Portability;
  /** The buffer bindings the entry point uses, in binding order. */
  readonly bindings: readonly BufferBinding[];
  /** `@workgroup_size`, with the override values given. */
  readonly workgroupSize: Grid;
  readonly code: string;
  readonly entryPoint: string;
  readonly constants: Readonly<Record<string, number | boolean>>;
  readonly label: string;
  /** The scope the path's writes to the buffers are in, for explicit barriers after `dispatch`. */
  readonly writeScope: BarrierScope | null;
  #count: PortableComputeOptions['count'];
  #grid: Grid;
  readonly #declared: readonly string[];
  #buffers: Record<string, Buffer> = {};
  #textures: Record<string, Texture> = {};
  #samplers: Record<string, Sampler> = {};
  readonly #backend: Backend;

  constructor(
    readonly device: Device,
    options: PortableComputeOptions,
  ) {
    if (!options || typeof options !== 'object')
      throw new ValidationError(
        'portable-options',
        'createPortableCompute needs an options object',
      );
    this.label = options.label ?? 'portable compute';
    this.#grid = gridOf(options.count, this.label);
    this.#count = options.count;
    this.code = options.code;
    this.entryPoint = options.entryPoint ?? 'main';
    this.constants = options.constants ?? {};
    const request = options.path ?? 'auto';
    let module: PortableModule | null = null;
    try {
      module = analyzeKernel(this.label, options.code, this.entryPoint, {
        constants: this.constants,
        cpu: true,
      });
      this.portability = module.pingpongLimit
        ? { portable: true, pingpong: module.pingpongLimit }
        : { portable: true };
    } catch (e) {
      // WebGPU never refuses valid WGSL: what cannot be translated only limits the fallbacks
      const onCompute =
        request === 'compute' || (request === 'auto' && device.caps.features.compute);
      if (!(e instanceof PortableKernelError) || !onCompute) throw e;
      this.portability = { portable: false, error: e };
    }
    this.module = module;
    if (module) {
      this.bindings = module.bindings;
      this.#declared = module.declared;
      this.workgroupSize = module.workgroupSize;
    } else {
      const reflected = reflectBufferBindings(this.label, options.code, this.entryPoint);
      this.bindings = reflected.bindings;
      this.#declared = reflected.declared;
      this.workgroupSize = reflectWorkgroupSize(options.code, this.entryPoint, this.constants);
    }
    const choice = choosePortablePath(device, module, request, this.label);
    this.path = choice.path;
    this.reason = this.portability.portable
      ? choice.reason
      : `${choice.reason}; not portable to WebGL2 or the CPU: ${this.portability.error.message.split('\n')[0]?.replace(/^\[[^\]]*\] /, '')}`;
    if (options.buffers) this.setBuffers(options.buffers);
    if (options.textures) this.setTextures(options.textures);
    if (options.samplers) this.setSamplers(options.samplers);
    this.#backend =
      this.path === 'compute'
        ? new ComputeBackend(this)
        : this.path === 'pingpong'
          ? new PingPongBackend(this, module as PortableModule)
          : new CpuBackend(this, module as PortableModule);
    this.writeScope =
      this.path === 'compute' ? 'compute-write' : this.path === 'pingpong' ? 'copy-write' : null;
  }

  get count(): PortableComputeOptions['count'] {
    return this.#count;
  }

  set count(value: PortableComputeOptions['count']) {
    this.#grid = gridOf(value, this.label);
    this.#count = value;
  }

  /** The invocation grid, three-dimensional (`count` with y and z 1 where not given). */
  get grid(): Grid {
    return this.#grid;
  }

  /** Invocations a dispatch runs in x, y and z: `count` rounded up to whole workgroups, as on WebGPU. */
  get invocations(): Grid {
    return invocationsFor(this.#grid, this.workgroupSize);
  }

  /** Invocations a dispatch runs, in all. */
  get threads(): number {
    const [x, y, z] = this.invocations;
    return x * y * z;
  }

  /** Binds buffers by binding name (the others stay as they were). */
  setBuffers(buffers: Readonly<Record<string, Buffer>>): void {
    if (!buffers || typeof buffers !== 'object')
      throw new ValidationError(
        'portable-buffers',
        'buffers must be an object of buffers by binding name',
        this.label,
      );
    for (const [name, buffer] of Object.entries(buffers)) {
      const b = this.bindings.find((x) => x.name === name);
      if (!b && this.#declared.includes(name)) {
        requireResource(buffer, 'buffer', `buffers.${name}`, this.device);
        continue; // declared, but this entry point does not use it
      }
      if (!b)
        throw new ValidationError(
          'portable-unknown-buffer',
          `the shader has no binding named ${name} (bindings: ${this.#declared.join(', ') || 'none'})`,
          this.label,
        );
      if (b.space === 'texture' || b.space === 'storage-texture' || b.space === 'sampler')
        throw new ValidationError(
          'portable-unknown-buffer',
          `${name} is a ${b.space === 'texture' ? 'texture' : b.space === 'sampler' ? 'sampler' : 'storage texture'} binding: pass it in ${b.space === 'sampler' ? 'samplers' : 'textures'}, not buffers`,
          this.label,
        );
      checkBuffer(this, b, buffer);
      this.#buffers[name] = buffer;
    }
  }

  /** Binds sampled and storage textures by binding name (the others stay as they were). */
  setTextures(textures: Readonly<Record<string, Texture>>): void {
    if (!textures || typeof textures !== 'object')
      throw new ValidationError(
        'portable-textures',
        'textures must be an object of textures by binding name',
        this.label,
      );
    for (const [name, texture] of Object.entries(textures)) {
      const b = this.bindings.find((x) => x.name === name);
      if (!b || (b.space !== 'texture' && b.space !== 'storage-texture'))
        throw new ValidationError(
          'portable-textures',
          b
            ? `${name} is a ${b.space} binding: pass it in ${b.space === 'sampler' ? 'samplers' : 'buffers'}`
            : `the shader has no texture binding named ${name} (textures: ${
                this.bindings
                  .filter(isTexture)
                  .map((x) => x.name)
                  .join(', ') || 'none'
              })`,
          this.label,
        );
      checkTexture(this, b, texture);
      this.#textures[name] = texture;
    }
  }

  /** Binds samplers by binding name (the others stay as they were). */
  setSamplers(samplers: Readonly<Record<string, Sampler>>): void {
    if (!samplers || typeof samplers !== 'object')
      throw new ValidationError(
        'portable-samplers',
        'samplers must be an object of samplers by binding name',
        this.label,
      );
    for (const [name, sampler] of Object.entries(samplers)) {
      const b = this.bindings.find((x) => x.name === name);
      if (!b || b.space !== 'sampler')
        throw new ValidationError(
          'portable-samplers',
          b
            ? `${name} is a ${b.space} binding, not a sampler`
            : `the shader has no sampler binding named ${name} (samplers: ${
                this.bindings
                  .filter((x) => x.space === 'sampler')
                  .map((x) => x.name)
                  .join(', ') || 'none'
              })`,
          this.label,
        );
      requireResource(sampler, 'sampler', `samplers.${name}`, this.device);
      if (sampler.descriptor.compare !== undefined)
        throw new ValidationError(
          'portable-samplers',
          `sampler ${sampler.label ?? ''} bound to ${name} is a comparison sampler (compare: ${sampler.descriptor.compare}); textureSampleLevel takes a filtering one`,
          this.label,
        );
      this.#samplers[name] = sampler;
    }
  }

  /** Records one dispatch over the grid (the CPU path runs it now and uploads). */
  dispatch(
    encoder: CommandEncoder,
    buffers?: Readonly<Record<string, Buffer>>,
    textures?: Readonly<Record<string, Texture>>,
    samplers?: Readonly<Record<string, Sampler>>,
  ): void {
    if (!(encoder instanceof CommandEncoder))
      throw new ValidationError(
        'resource-kind',
        `dispatch takes a command encoder, got ${String(encoder)}`,
        this.label,
      );
    if (buffers) this.setBuffers(buffers);
    if (textures) this.setTextures(textures);
    if (samplers) this.setSamplers(samplers);
    const missing = this.bindings
      .filter((b) => !isTexture(b) && b.space !== 'sampler' && !this.#buffers[b.name])
      .map((b) => b.name);
    if (missing.length)
      throw new ValidationError(
        'portable-missing-buffer',
        `no buffer bound for ${missing.join(', ')}: pass them in buffers (by binding name)`,
        this.label,
      );
    const unbound = this.bindings
      .filter((b) => isTexture(b) && !this.#textures[b.name])
      .map((b) => b.name);
    if (unbound.length)
      throw new ValidationError(
        'portable-missing-buffer',
        `no texture bound for ${unbound.join(', ')}: pass them in textures (by binding name)`,
        this.label,
      );
    const outputs = this.bindings.filter((b) => b.space === 'storage' && b.access !== 'read');
    for (const o of outputs) {
      const other = this.bindings.find(
        (b) => b !== o && this.#buffers[b.name] === this.#buffers[o.name],
      );
      if (other)
        throw new ValidationError(
          'binding-writable-alias',
          `buffer ${this.#buffers[o.name]?.label ?? ''} is bound to writable ${o.name} and to ${other.name} in one dispatch (WebGPU's usage scope forbids it)`,
          this.label,
        );
    }
    const noSampler = this.bindings
      .filter((b) => b.space === 'sampler' && !this.#samplers[b.name])
      .map((b) => b.name);
    if (noSampler.length)
      throw new ValidationError(
        'portable-missing-buffer',
        `no sampler bound for ${noSampler.join(', ')}: pass them in samplers (by binding name)`,
        this.label,
      );
    for (const o of this.bindings.filter((b) => b.space === 'storage-texture')) {
      const other = this.bindings.find(
        (b) => b !== o && isTexture(b) && this.#textures[b.name] === this.#textures[o.name],
      );
      if (other)
        throw new ValidationError(
          'binding-writable-alias',
          `texture ${this.#textures[o.name]?.label ?? ''} is bound to storage texture ${o.name} and to ${other.name} in one dispatch (WebGPU's usage scope forbids it)`,
          this.label,
        );
    }
    this.#backend.dispatch(encoder, this.#buffers, this.#textures, this.#samplers);
  }

  /**
   * Declares the barrier from this path's writes to `to` on the bound writable buffers and storage
   * textures (explicit barrier mode): a compute pass's writes, the ping-pong's copies into the
   * buffers and draws into the storage textures; the CPU path's uploads need none.
   */
  barrierFor(encoder: CommandEncoder, to: BarrierScope): void {
    if (!this.writeScope) return;
    const resources = this.bindings
      .filter((b) => b.space === 'storage' && b.access !== 'read')
      .map((b) => this.#buffers[b.name])
      .filter((b): b is Buffer => !!b);
    encoder.barrier({ from: this.writeScope, to, resources });
    const images = this.bindings
      .filter((b) => b.space === 'storage-texture')
      .map((b) => this.#textures[b.name])
      .filter((t): t is Texture => !!t);
    if (images.length)
      encoder.barrier({
        from: this.path === 'pingpong' ? 'render-write' : this.writeScope,
        to,
        resources: images,
      });
  }

  destroy(): void {
    this.#backend.destroy();
  }
}

const isTexture = (b: BufferBinding): boolean =>
  b.space === 'texture' || b.space === 'storage-texture';

/**
 * The usage a texture needs to be bound to a portable kernel's `texture_storage_2d` on every path
 * `device` has: `STORAGE_BINDING` where it has storage textures (the compute path), else
 * `RENDER_ATTACHMENT` (the ping-pong draws into it); `COPY_DST` and `TEXTURE_BINDING` for the CPU
 * path (it writes the host copy a `TEXTURE_BINDING` texture keeps, then `queue.writeTexture`). Add
 * what else the texture is for.
 */
export function storageTextureUsage(device: Device): number {
  return (
    TextureUsage.COPY_DST |
    TextureUsage.TEXTURE_BINDING |
    (device.caps.features.storageTextures
      ? TextureUsage.STORAGE_BINDING
      : TextureUsage.RENDER_ATTACHMENT)
  );
}

function checkTexture(pc: PortableCompute, b: BufferBinding, texture: Texture): void {
  const name = b.name;
  requireResource(texture, 'texture', `textures.${name}`, pc.device);
  if (b.space === 'storage-texture') return checkStorageTexture(pc, b, texture);
  if (!(texture.usage & TextureUsage.TEXTURE_BINDING))
    throw new UsageError(
      `texture ${texture.label ?? ''} bound to ${name} needs TEXTURE_BINDING`,
      'TEXTURE_BINDING',
      usageNames(texture.usage, TextureUsage),
      pc.label,
    );
  if (texture.sampleCount !== 1 || FORMAT_INFO[texture.format].bytesPerTexel === 0)
    throw new ValidationError(
      'portable-textures',
      `texture ${texture.label ?? ''} bound to ${name} is ${texture.format}${texture.sampleCount > 1 ? `, ${texture.sampleCount} samples` : ''}; a texture_2d<f32> binding takes a single-sampled colour texture`,
      pc.label,
    );
}

function checkBuffer(pc: PortableCompute, binding: BufferBinding, buffer: Buffer): void {
  requireResource(buffer, 'buffer', `buffers.${binding.name}`, pc.device);
  if (!pc.module) {
    // not portable: the compute path binds it as WebGPU would, and WebGPU checks it
    const need = binding.space === 'uniform' ? BufferUsage.UNIFORM : BufferUsage.STORAGE;
    if ((buffer.usage & need) !== need)
      throw new UsageError(
        `buffer ${buffer.label ?? ''} bound to ${binding.name} needs ${usageNames(need, BufferUsage)}`,
        usageNames(need, BufferUsage),
        usageNames(buffer.usage, BufferUsage),
        pc.label,
      );
    return;
  }
  const b = binding as Binding;
  const need =
    b.space === 'uniform'
      ? BufferUsage.UNIFORM
      : BufferUsage.STORAGE |
        BufferUsage.COPY_SRC |
        (b.access === 'read' ? 0 : BufferUsage.COPY_DST);
  if ((buffer.usage & need) !== need) {
    const missing = usageNames(need & ~buffer.usage, BufferUsage);
    throw new UsageError(
      `buffer ${buffer.label ?? ''} bound to ${b.name} needs ${missing} (a portable ${b.space === 'uniform' ? 'uniform' : b.access === 'read' ? 'read-only storage array' : 'writable storage array'} needs ${usageNames(need, BufferUsage)}, so the ping-pong path can copy it)`,
      missing,
      usageNames(buffer.usage, BufferUsage),
      pc.label,
    );
  }
  if (b.space === 'uniform') {
    const size = sizeOf(b.type);
    if (buffer.size < size)
      throw new ValidationError(
        'binding-min-size',
        `buffer ${buffer.label ?? ''} (${buffer.size} bytes) is smaller than ${b.name}'s type (${size} bytes)`,
        pc.label,
      );
    return;
  }
  if (buffer.size % TEXEL_BYTES !== 0)
    throw new ValidationError(
      'portable-buffer-size',
      `buffer ${buffer.label ?? ''} bound to ${b.name} is ${buffer.size} bytes; portable storage buffers are a multiple of ${TEXEL_BYTES} bytes (one RGBA32F texel on the ping-pong path): round it up`,
      pc.label,
    );
  const stride = (b.type as { stride: number }).stride;
  if (buffer.size < b.offset + (b.single ? sizeOf(b.element as never) : stride))
    throw new ValidationError(
      'binding-min-size',
      b.single
        ? `buffer ${buffer.label ?? ''} (${buffer.size} bytes) is smaller than ${b.name}'s type (${sizeOf(b.element as never)} bytes)`
        : `buffer ${buffer.label ?? ''} (${buffer.size} bytes) holds no element of ${b.name} (${b.offset ? `${b.offset} bytes of members, then ` : ''}${stride} bytes each)`,
      pc.label,
    );
}

function choosePortablePath(
  device: Device,
  m: PortableModule | null,
  request: 'auto' | PathName,
  label: string,
): { path: PathName; reason: string } {
  const f = device.caps.features;
  if (!['auto', 'compute', 'pingpong', 'cpu'].includes(request))
    throw new ValidationError(
      'portable-path',
      `path ${String(request)} must be 'auto', 'compute', 'pingpong' or 'cpu'`,
      label,
    );
  if (request === 'compute' || (request === 'auto' && f.compute)) {
    if (!f.compute)
      throw new UnsupportedFeatureError(
        'compute',
        device.backend,
        "use path 'pingpong' or 'auto'",
        label,
      );
    return {
      path: 'compute',
      reason:
        request === 'auto'
          ? 'caps.features.compute: the WGSL runs as is'
          : "path 'compute' requested",
    };
  }
  if (!m) throw new Error('internal: a kernel that is not portable reached the fallback choice');
  const outputs = m.bindings.filter((b) => b.space === 'storage' && b.access !== 'read').length;
  const glsl = device.caps.shaderLanguage === 'glsl';
  const limit = m.pingpongLimit;
  if (request === 'pingpong' && limit) throw limit;
  if (request === 'auto' && limit && glsl && f.floatRenderTargets && !device.hostShadows)
    throw new PortableKernelError(
      limit.label,
      limit.construct,
      limit.line,
      limit.column,
      `${limit.detail}: create the device with hostShadows: true (the CPU path reads the buffers' host copies), or run it where WebGPU has compute`,
      m.code,
    );
  const pingpongOk = glsl && f.floatRenderTargets && !limit;
  if (request === 'pingpong' || (request === 'auto' && pingpongOk)) {
    if (!glsl)
      throw new UnsupportedFeatureError(
        'compute',
        device.backend,
        "the ping-pong translation emits GLSL (WebGL2); on WebGPU use path 'compute' or 'cpu'",
        label,
      );
    if (!f.floatRenderTargets)
      throw new UnsupportedFeatureError(
        'floatRenderTargets',
        device.backend,
        "use path 'cpu' (the buffers' bits travel in RGBA32F targets)",
        label,
      );
    const max = device.caps.limits.maxColorAttachments;
    const split =
      outputs > max
        ? `; ${outputs} writable arrays over ${max} colour attachments: ${Math.ceil(outputs / max)} passes per dispatch, each running the whole kernel`
        : '';
    return {
      path: 'pingpong',
      reason:
        (request === 'auto'
          ? 'no compute; float render targets: WGSL translated to a GLSL fragment pass'
          : "path 'pingpong' requested") + split,
    };
  }
  if (!device.hostShadows)
    throw new UnsupportedFeatureError(
      glsl ? 'floatRenderTargets' : 'compute',
      device.backend,
      'the CPU path reads buffers from their host copies: create the device with hostShadows: true',
      label,
    );
  const why = !glsl
    ? 'no compute on this WebGPU device (restricted) and the ping-pong translation is GLSL-only'
    : !f.floatRenderTargets
      ? 'no compute and no float render targets'
      : limit
        ? `no compute, and the ping-pong path cannot run ${limit.construct} (line ${limit.line})`
        : 'the ping-pong path is not available';
  return {
    path: 'cpu',
    reason: request === 'cpu' ? "path 'cpu' requested" : `${why}: WGSL translated to JavaScript`,
  };
}

/** Analyses `options.code` and prepares it on the best path the device has (or the one asked for). */
export function createPortableCompute(
  device: Device,
  options: PortableComputeOptions,
): PortableCompute {
  return new PortableCompute(device, options);
}

function checkStorageTexture(pc: PortableCompute, b: BufferBinding, texture: Texture): void {
  const format = b.format;
  if (format && texture.format !== format)
    throw new ValidationError(
      'portable-textures',
      `texture ${texture.label ?? ''} bound to storage texture ${b.name} is ${texture.format}; the shader declares ${format}`,
      pc.label,
      { format: texture.format, declared: format },
    );
  if (texture.mipLevelCount !== 1)
    throw new ValidationError(
      'portable-textures',
      `texture ${texture.label ?? ''} bound to storage texture ${b.name} has ${texture.mipLevelCount} mip levels; a portable storage texture has one (WebGPU binds a single level)`,
      pc.label,
    );
  const need =
    pc.path === 'compute'
      ? TextureUsage.STORAGE_BINDING
      : pc.path === 'pingpong'
        ? TextureUsage.RENDER_ATTACHMENT
        : TextureUsage.COPY_DST | TextureUsage.TEXTURE_BINDING;
  if ((texture.usage & need) !== need) {
    const missing = usageNames(need & ~texture.usage, TextureUsage);
    throw new UsageError(
      `texture ${texture.label ?? ''} bound to storage texture ${b.name} needs ${missing} on the ${pc.path} path (${
        pc.path === 'compute'
          ? 'a compute shader writes it'
          : pc.path === 'pingpong'
            ? 'a fragment pass draws into it'
            : 'the CPU path writes its host copy, which TEXTURE_BINDING keeps, and uploads it with queue.writeTexture'
      }; storageTextureUsage(device) gives the usage for every path)`,
      missing,
      usageNames(texture.usage, TextureUsage),
      pc.label,
    );
  }
}
