/**
 * `createPortableCompute`: an ordinary WGSL compute shader of the gather shape (analyze.ts), run as
 * WebGPU compute where the device has it, else as a WebGL2 fragment ping-pong over the buffers'
 * bytes in float textures (glsl.ts), else on the CPU over the buffers' host copies (js.ts). The
 * buffers are the user's own Ignis buffers, bound by the shader's binding names, on every path: a
 * draw reads the result from the same buffer whichever path wrote it.
 */
import { BufferUsage, TextureUsage, usageNames } from '../../rhi/core/flags.js';
import {
  LimitExceededError,
  UnsupportedFeatureError,
  UsageError,
  ValidationError,
} from '../../rhi/core/errors.js';
import { requireResource } from '../../rhi/core/validate/resource.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Device } from '../../rhi/core/device.js';
import { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { ComputePipeline } from '../../rhi/core/compute-pipeline.js';
import type { RenderPipeline } from '../../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../../rhi/core/shader-module.js';
import type { BarrierScope } from '../../rhi/core/commands.js';
import { UniformRing } from '../uniform-ring.js';
import type { PathName } from '../paths/choose.js';
import {
  analyzeKernel,
  PortableKernelError,
  type Binding,
  type PortableModule,
} from './analyze.js';
import {
  emitGlsl,
  emitGlslScatter,
  TEXELS_PER_ROW,
  WORD_PASSES,
  WORDS_PER_ROW,
  type GlslProgram,
} from './glsl.js';
import { gridOf, invocationsFor, workgroupsFor, type Grid } from './grid.js';
import { reflectBufferBindings, type BufferBinding, type Portability } from './portability.js';
import { reflectWorkgroupSize } from '../../rhi/core/compute-pipeline.js';
import { emitJs, type JsRunContext } from './js.js';
import { runtime } from './runtime.js';
import { decodeTexels, type DecodedTexture } from './texels.js';
import { FORMAT_INFO } from '../../rhi/core/formats.js';
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
   * Sampled textures (`texture_2d<f32>` read with `textureLoad`) by binding name: `TEXTURE_BINDING`
   * textures of a colour format. The CPU path reads mip level 0 from the texture's host copy.
   */
  textures?: Readonly<Record<string, Texture>>;
  /** `auto` (default) takes compute, else ping-pong, else the CPU. */
  path?: 'auto' | PathName;
  label?: string;
}

/** Bytes a portable storage buffer's size must be a multiple of (one RGBA32F texel). */
const TEXEL_BYTES = 16;

interface Backend {
  dispatch(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
  ): void;
  destroy(): void;
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
      });
      this.portability = { portable: true };
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
      if (b.space === 'texture')
        throw new ValidationError(
          'portable-unknown-buffer',
          `${name} is a texture binding: pass it in textures, not buffers`,
          this.label,
        );
      checkBuffer(this, b, buffer);
      this.#buffers[name] = buffer;
    }
  }

  /** Binds sampled textures by binding name (the others stay as they were). */
  setTextures(textures: Readonly<Record<string, Texture>>): void {
    if (!textures || typeof textures !== 'object')
      throw new ValidationError(
        'portable-textures',
        'textures must be an object of textures by binding name',
        this.label,
      );
    for (const [name, texture] of Object.entries(textures)) {
      const b = this.bindings.find((x) => x.name === name);
      if (!b || b.space !== 'texture')
        throw new ValidationError(
          'portable-textures',
          b
            ? `${name} is a ${b.space} binding: pass it in buffers`
            : `the shader has no texture binding named ${name} (textures: ${
                this.bindings
                  .filter((x) => x.space === 'texture')
                  .map((x) => x.name)
                  .join(', ') || 'none'
              })`,
          this.label,
        );
      checkTexture(this, name, texture);
      this.#textures[name] = texture;
    }
  }

  /** Records one dispatch over the grid (the CPU path runs it now and uploads). */
  dispatch(
    encoder: CommandEncoder,
    buffers?: Readonly<Record<string, Buffer>>,
    textures?: Readonly<Record<string, Texture>>,
  ): void {
    if (!(encoder instanceof CommandEncoder))
      throw new ValidationError(
        'resource-kind',
        `dispatch takes a command encoder, got ${String(encoder)}`,
        this.label,
      );
    if (buffers) this.setBuffers(buffers);
    if (textures) this.setTextures(textures);
    const missing = this.bindings
      .filter((b) => b.space !== 'texture' && !this.#buffers[b.name])
      .map((b) => b.name);
    if (missing.length)
      throw new ValidationError(
        'portable-missing-buffer',
        `no buffer bound for ${missing.join(', ')}: pass them in buffers (by binding name)`,
        this.label,
      );
    const unbound = this.bindings
      .filter((b) => b.space === 'texture' && !this.#textures[b.name])
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
    this.#backend.dispatch(encoder, this.#buffers, this.#textures);
  }

  /** Declares the barrier from this path's writes to `to` on the bound writable buffers (explicit barrier mode). */
  barrierFor(encoder: CommandEncoder, to: BarrierScope): void {
    if (!this.writeScope) return;
    const resources = this.bindings
      .filter((b) => b.space === 'storage' && b.access !== 'read')
      .map((b) => this.#buffers[b.name])
      .filter((b): b is Buffer => !!b);
    encoder.barrier({ from: this.writeScope, to, resources });
  }

  destroy(): void {
    this.#backend.destroy();
  }
}

/** Elements of `b` the buffer holds (after the members declared before the array). */
export function elementCount(b: Binding, buffer: Buffer): number {
  const stride = (b.type as { stride: number }).stride;
  const fixed = (b.type as { count: number }).count;
  const n = Math.max(0, Math.floor((buffer.size - b.offset) / stride));
  return fixed ? Math.min(fixed, n) : n;
}

function checkTexture(pc: PortableCompute, name: string, texture: Texture): void {
  requireResource(texture, 'texture', `textures.${name}`, pc.device);
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
  const pingpongOk = glsl && f.floatRenderTargets;
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
      : 'the ping-pong path is not available';
  return {
    path: 'cpu',
    reason: request === 'cpu' ? "path 'cpu' requested" : `${why}: WGSL translated to JavaScript`,
  };
}

class ComputeBackend implements Backend {
  readonly #module: ShaderModule;
  readonly #pipeline: ComputePipeline;
  readonly #storage: readonly BufferBinding[];
  constructor(readonly pc: PortableCompute) {
    const d = pc.device;
    this.#storage = pc.bindings.filter((b) => b.space === 'storage');
    this.#module = d.createShaderModule({ label: pc.label, code: pc.code });
    this.#pipeline = d.createComputePipeline({
      label: pc.label,
      compute: {
        module: this.#module,
        entryPoint: pc.entryPoint,
        ...(Object.keys(pc.constants).length ? { constants: pc.constants } : {}),
      },
    });
  }

  dispatch(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
  ): void {
    // checked before anything is recorded: a throw leaves the encoder as it was
    const groups = workgroupsFor(this.pc.grid, this.pc.workgroupSize);
    const max = this.pc.device.caps.limits.maxComputeWorkgroupsPerDimension;
    groups.forEach((n, i) => {
      if (n > max)
        throw new LimitExceededError(
          'maxComputeWorkgroupsPerDimension',
          n,
          max,
          `Workgroups of one dispatch in ${'xyz'[i]}`,
          this.pc.label,
        );
    });
    // the pass's own barriers (explicit barrier mode): whatever wrote the storage buffers last, a
    // dispatch (the other half of a ping-pong) or a copy, finished before this one reads them
    const storage = this.#storage.map((b) => buffers[b.name] as Buffer);
    for (const from of ['compute-write', 'copy-write'] as const)
      encoder.barrier({ from, to: 'compute-read', resources: storage });
    const pass = encoder.beginComputePass({ label: this.pc.label });
    pass.setPipeline(this.#pipeline);
    for (const b of this.pc.bindings) {
      if (b.space === 'texture') pass.setTexture(b.binding, textures[b.name] as Texture);
      else if (b.space === 'uniform') pass.setUniformBuffer(b.binding, buffers[b.name] as Buffer);
      else pass.setStorageBuffer(b.binding, buffers[b.name] as Buffer);
    }
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    pass.end();
  }

  destroy(): void {
    this.#pipeline.destroy();
    this.#module.destroy();
  }
}

/** Texture rows holding `bytes` at TEXELS_PER_ROW texels per row. */
const rowsFor = (bytes: number): number =>
  Math.max(1, Math.ceil(bytes / TEXEL_BYTES / TEXELS_PER_ROW));

/** One draw of the ping-pong path: its pipeline, the arrays it writes and how it draws. */
interface PingPongPass {
  program: GlslProgram;
  pipeline: RenderPipeline;
  modules: ShaderModule[];
  /** Scatter passes: points per invocation (else one full-screen triangle). */
  points?: number;
  /** A scatter into the array's word texture (its elements are not whole texels). */
  words?: boolean;
}

/**
 * The ping-pong path. Each storage array's buffer is copied into an RGBA32F texture (its bytes
 * unchanged); the kernel runs in one of two forms (glsl.ts) and the targets are copied back:
 * - gather, for a one-dimensional grid whose kernel writes only its own elements: a full-screen
 *   pass per `maxColorAttachments` writable arrays, one fragment per texel;
 * - scatter, for everything else: per writable array, points drawn by the invocations into a
 *   target that starts as a copy of the buffer (four passes with write masks where elements are
 *   not whole texels).
 */
class PingPongBackend implements Backend {
  readonly #ring: UniformRing;
  readonly #storage: readonly Binding[];
  readonly #writable: readonly Binding[];
  readonly #uniforms: readonly Binding[];
  /** Sampled textures the kernel reads with textureLoad (bound at their own binding numbers). */
  readonly #sampled: readonly Binding[];
  /** Bindings of the pipelines: the internal block, then one texture per storage array. */
  readonly #internalBinding: number;
  readonly #textureBinding = new Map<string, number>();
  /** Textures by binding name: inputs (copies of the buffers) and outputs (the targets). */
  readonly #inputs = new Map<string, Texture>();
  readonly #outputs = new Map<string, Texture>();
  #gather: PingPongPass[] | null = null;
  #scatter: PingPongPass[] | null = null;
  /** Word textures (one word a texel) of the scatters over elements that are not whole texels. */
  readonly #wordTextures = new Map<string, Texture>();
  #wordPasses: { unpack: RenderPipeline; pack: RenderPipeline; modules: ShaderModule[] } | null =
    null;

  constructor(
    readonly pc: PortableCompute,
    readonly m: PortableModule,
  ) {
    const storage = m.bindings.filter((b) => b.space === 'storage');
    const next = Math.max(-1, ...m.bindings.map((b) => b.binding)) + 1;
    this.#internalBinding = next;
    storage.forEach((b, i) => this.#textureBinding.set(b.name, next + 1 + i));
    this.#storage = storage;
    this.#writable = storage.filter((b) => b.access !== 'read');
    this.#uniforms = m.bindings.filter((b) => b.space === 'uniform');
    this.#sampled = m.bindings.filter((b) => b.space === 'texture');
    this.#ring = new UniformRing(pc.device, 16, 256, `${pc.label} lengths`);
    // the form the first dispatch needs is built now, so its translation errors surface here
    this.#passes();
  }

  /** Whether a dispatch over the current grid runs as a gather. */
  get gathers(): boolean {
    const [, y, z] = this.pc.grid;
    return !this.m.scatter && y === 1 && z === 1;
  }

  #pipeline(
    label: string,
    program: GlslProgram,
    vertexCode: string,
    writeMask: number,
    topology: 'triangle-list' | 'point-list',
  ): { pipeline: RenderPipeline; modules: ShaderModule[] } {
    const d = this.pc.device;
    const vs = d.createShaderModule({ label: `${label}.vert`, code: vertexCode, stage: 'vertex' });
    const fs = d.createShaderModule({
      label: `${label}.frag`,
      code: program.fragment,
      stage: 'fragment',
    });
    const pipeline = d.createRenderPipeline({
      label,
      vertex: { module: vs },
      fragment: {
        module: fs,
        targets: program.outputs.map(() => ({ format: 'rgba32float' as const, writeMask })),
      },
      primitive: { topology },
      bindings: [
        ...this.#uniforms.map((b) => ({
          binding: b.binding,
          type: 'uniform' as const,
          name: program.uniformBlocks[b.name] as string,
        })),
        { binding: this.#internalBinding, type: 'uniform', name: program.internalBlock.name },
        ...this.#storage.map((b) => ({
          binding: this.#textureBinding.get(b.name) as number,
          type: 'texture' as const,
          name: program.samplers[b.name] as string,
        })),
        ...this.#sampled.map((b) => ({
          binding: b.binding,
          type: 'texture' as const,
          name: program.textures[b.name] as string,
        })),
      ],
    });
    return { pipeline, modules: [vs, fs] };
  }

  #passes(): PingPongPass[] {
    const { pc, m } = this;
    if (this.gathers) {
      if (this.#gather) return this.#gather;
      const max = pc.device.caps.limits.maxColorAttachments;
      const names = this.#writable.map((b) => b.name);
      const groups: string[][] = [];
      for (let i = 0; i < names.length; i += max) groups.push(names.slice(i, i + max));
      this.#gather = groups.map((group, k) => {
        const program = emitGlsl(m, group);
        const label = groups.length > 1 ? `${pc.label} pass ${k + 1}/${groups.length}` : pc.label;
        return { program, ...this.#pipeline(label, program, program.vertex, 0xf, 'triangle-list') };
      });
      return this.#gather;
    }
    if (this.#scatter) return this.#scatter;
    this.#scatter = this.#writable.map((b) => {
      const program = emitGlslScatter(m, b.name);
      return {
        program,
        points: program.pointsPerInvocation,
        words: program.masked,
        ...this.#pipeline(
          `${pc.label} scatter ${b.name}`,
          program,
          program.vertex,
          0xf,
          'point-list',
        ),
      };
    });
    return this.#scatter;
  }

  /** The word texture's unpack and pack pipelines (glsl.ts, WORD_PASSES), made once. */
  #words(): { unpack: RenderPipeline; pack: RenderPipeline } {
    if (this.#wordPasses) return this.#wordPasses;
    const d = this.pc.device;
    const vs = d.createShaderModule({
      label: `${this.pc.label} words.vert`,
      code: WORD_PASSES.vertex,
      stage: 'vertex',
    });
    const make = (name: 'unpack' | 'pack'): [RenderPipeline, ShaderModule] => {
      const fs = d.createShaderModule({
        label: `${this.pc.label} ${name}.frag`,
        code: WORD_PASSES[name],
        stage: 'fragment',
      });
      const pipeline = d.createRenderPipeline({
        label: `${this.pc.label} ${name} words`,
        vertex: { module: vs },
        fragment: { module: fs, targets: [{ format: 'rgba32float' }] },
        primitive: { topology: 'triangle-list' },
        bindings: [{ binding: 0, type: 'texture', name: '_src' }],
      });
      return [pipeline, fs];
    };
    const [unpack, ufs] = make('unpack');
    const [pack, pfs] = make('pack');
    this.#wordPasses = { unpack, pack, modules: [vs, ufs, pfs] };
    return this.#wordPasses;
  }

  /** Draws a full-screen pass of `pipeline` into `target`, reading `source` as `_src`. */
  #fullScreen(
    encoder: CommandEncoder,
    pipeline: RenderPipeline,
    source: Texture,
    target: Texture,
  ): void {
    encoder.barrier({ from: 'render-write', to: 'fragment-read', resources: [source] });
    const pass = encoder.beginRenderPass({
      label: pipeline.label,
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
    });
    pass.setPipeline(pipeline);
    pass.setTexture(0, source);
    pass.draw(3);
    pass.end();
  }

  /** The word texture of writable array `name`: `WORDS_PER_ROW` wide, as many rows as its target. */
  #wordTexture(name: string, rows: number): Texture {
    const t = this.#wordTextures.get(name);
    if (t && t.height === rows) return t;
    t?.destroy();
    const texture = this.pc.device.createTexture({
      label: `${this.pc.label}.${name} words`,
      size: { width: WORDS_PER_ROW, height: rows },
      format: 'rgba32float',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    });
    this.#wordTextures.set(name, texture);
    return texture;
  }

  #texture(cache: Map<string, Texture>, name: string, rows: number, render: boolean): Texture {
    const t = cache.get(name);
    if (t && t.height === rows) return t;
    t?.destroy();
    const texture = this.pc.device.createTexture({
      label: `${this.pc.label}.${name}${render ? ' out' : ''}`,
      size: { width: TEXELS_PER_ROW, height: rows },
      format: 'rgba32float',
      usage:
        TextureUsage.TEXTURE_BINDING |
        TextureUsage.COPY_DST |
        TextureUsage.COPY_SRC |
        (render ? TextureUsage.RENDER_ATTACHMENT : 0),
    });
    cache.set(name, texture);
    return texture;
  }

  dispatch(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
  ): void {
    const { pc } = this;
    const storage = this.#storage;
    const outputs = this.#writable;
    // checked before anything is recorded: a throw leaves the encoder as it was
    const maxRows = pc.device.caps.limits.maxTextureDimension2D;
    for (const b of storage) {
      const rows = rowsFor((buffers[b.name] as Buffer).size);
      if (rows > maxRows)
        throw new LimitExceededError(
          'maxTextureDimension2D',
          rows,
          maxRows,
          `Texture rows for ${b.name}`,
          pc.label,
        );
    }
    const passes = this.#passes();
    const gather = this.gathers;
    const [dx, dy, dz] = pc.invocations;
    const outRows = Math.max(...outputs.map((b) => rowsFor((buffers[b.name] as Buffer).size)));
    // the internal block (writeBuffer copies it at once, so one array serves every dispatch)
    const words = new Uint32Array(Math.ceil((4 * (4 + storage.length)) / 16) * 4);
    words.set([dx, dy, dz, outRows]);
    storage.forEach((b, i) => (words[4 + i] = elementCount(b, buffers[b.name] as Buffer)));
    const offset = this.#ring.take();
    pc.device.queue.writeBuffer(this.#ring.buffer, offset, words);
    // buffers → textures
    const sources = storage.map((b) => buffers[b.name] as Buffer);
    encoder.barrier({ from: 'copy-write', to: 'copy-read', resources: sources });
    encoder.barrier({ from: 'compute-write', to: 'copy-read', resources: sources });
    const inputs = storage.map((b) => {
      const buffer = buffers[b.name] as Buffer;
      const texture = this.#texture(this.#inputs, b.name, rowsFor(buffer.size), false);
      copyRows(encoder, buffer, texture, 'to-texture');
      return texture;
    });
    const targets = outputs.map((b) => this.#texture(this.#outputs, b.name, outRows, true));
    // a scatter draws only the elements written: the rest of each target is the buffer as it was
    // (a copy of it; for a word texture, the array's texture spread one word a texel)
    if (!gather)
      passes.forEach((p, i) => {
        if (!p.words)
          copyRows(
            encoder,
            buffers[outputs[i]!.name] as Buffer,
            targets[i] as Texture,
            'to-texture',
          );
      });
    encoder.barrier({ from: 'copy-write', to: 'fragment-read', resources: inputs });
    for (const p of passes) {
      const k = outputs.findIndex((b) => b.name === p.program.outputs[0]);
      const wordTex = p.words ? this.#wordTexture(outputs[k]!.name, outRows) : null;
      if (wordTex)
        this.#fullScreen(
          encoder,
          this.#words().unpack,
          inputs[storage.indexOf(outputs[k]!)] as Texture,
          wordTex,
        );
      const pass = encoder.beginRenderPass({
        label: p.pipeline.label,
        colorAttachments: wordTex
          ? [{ texture: wordTex, loadOp: 'load' as const }]
          : p.program.outputs.map((name) => ({
              texture: targets[outputs.findIndex((b) => b.name === name)] as Texture,
              loadOp: gather ? ('clear' as const) : ('load' as const),
              clearValue: [0, 0, 0, 0] as const,
            })),
      });
      pass.setPipeline(p.pipeline);
      for (const u of this.#uniforms) pass.setUniformBuffer(u.binding, buffers[u.name] as Buffer);
      pass.setUniformBuffer(this.#internalBinding, this.#ring.buffer, offset, words.byteLength);
      storage.forEach((b, i) =>
        pass.setTexture(this.#textureBinding.get(b.name) as number, inputs[i] as Texture),
      );
      for (const b of this.#sampled) pass.setTexture(b.binding, textures[b.name] as Texture);
      pass.draw(p.points ? p.points * dx * dy * dz : 3);
      pass.end();
      if (wordTex) this.#fullScreen(encoder, this.#words().pack, wordTex, targets[k] as Texture);
    }
    // textures → buffers
    encoder.barrier({ from: 'render-write', to: 'copy-read', resources: targets });
    outputs.forEach((b, i) =>
      copyRows(encoder, buffers[b.name] as Buffer, targets[i] as Texture, 'to-buffer'),
    );
  }

  destroy(): void {
    for (const p of [...(this.#gather ?? []), ...(this.#scatter ?? [])]) {
      p.pipeline.destroy();
      for (const mod of p.modules) mod.destroy();
    }
    for (const t of [
      ...this.#inputs.values(),
      ...this.#outputs.values(),
      ...this.#wordTextures.values(),
    ])
      t.destroy();
    if (this.#wordPasses) {
      this.#wordPasses.unpack.destroy();
      this.#wordPasses.pack.destroy();
      for (const mod of this.#wordPasses.modules) mod.destroy();
    }
    this.#ring.destroy();
  }
}

/** Copies a buffer's bytes to or from the first texels of `texture` (full rows, then the rest). */
function copyRows(
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

type Views = { F: Float32Array; U: Uint32Array; I: Int32Array };
const views = (bytes: Uint8Array, words: number): Views => ({
  F: new Float32Array(bytes.buffer, bytes.byteOffset, words),
  U: new Uint32Array(bytes.buffer, bytes.byteOffset, words),
  I: new Int32Array(bytes.buffer, bytes.byteOffset, words),
});

class CpuBackend implements Backend {
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
  ): void {
    const { pc } = this;
    const ctx: JsRunContext = {
      invocations: pc.invocations,
      storage: {},
      uniforms: {},
      textures: {},
    };
    const shadows = new Map<Binding, Uint8Array>();
    for (const b of this.m.bindings) {
      if (b.space === 'texture') {
        const t = textures[b.name] as Texture;
        const shadow = t.hostShadow;
        if (!shadow || shadow.stale)
          throw new ValidationError(
            'portable-cpu-shadow',
            shadow
              ? `texture ${t.label ?? ''} (${b.name}) was written by the GPU (a render pass or a copy into it); the CPU path reads textures from their host copies, which queue.writeTexture keeps`
              : `texture ${t.label ?? ''} (${b.name}) has no host copy: create the device with hostShadows: true before creating the texture (with TEXTURE_BINDING)`,
            pc.label,
          );
        (ctx.textures as Record<string, DecodedTexture>)[b.name] = decodeTexels(
          t.format,
          t.width,
          t.height,
          shadow.bytes,
        );
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
    this.#run(ctx);
    for (const b of this.m.bindings)
      if (b.space === 'storage' && b.access !== 'read')
        pc.device.queue.writeBuffer(buffers[b.name] as Buffer, 0, shadows.get(b) as Uint8Array);
  }

  destroy(): void {}
}

/** Analyses `options.code` and prepares it on the best path the device has (or the one asked for). */
export function createPortableCompute(
  device: Device,
  options: PortableComputeOptions,
): PortableCompute {
  return new PortableCompute(device, options);
}
