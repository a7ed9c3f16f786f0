/**
 * Runs an element-wise kernel over `count` elements of vec4 state, on whatever the device has:
 *
 * | mode       | needs                          | state lives in                          | one step is            |
 * |------------|--------------------------------|-----------------------------------------|------------------------|
 * | `compute`  | `caps.features.compute`        | one STORAGE\|VERTEX buffer per attribute | a compute dispatch     |
 * | `pingpong` | `floatRenderTargets` (f32) or `halfFloatRenderTargets` (f16) | two RGBA textures per attribute | a fragment pass (MRT) and a swap |
 * | `cpu`      | a `cpu` function               | Float32Arrays, uploaded after each step | a JS loop + upload     |
 *
 * `auto` takes the first that fits, and `mode`, `precision` and `reason` say what was taken and why.
 * The ping-pong pass declares its own barrier (render-write → fragment-read on the textures it
 * reads), so it runs the same in `auto` and `explicit` barrier modes; on WebGL2 that barrier is
 * the framebuffer unbind.
 */
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import { LimitExceededError, UnsupportedFeatureError, ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import { UniformPacker, type UniformValue } from './layout.js';
import { UniformRing } from '../rhi/core/uniform-ring.js';
import { stateTextureSize, padToTexels, toHalfs, fromHalfs, type StateTextureSize } from './pack.js';
import { glslReducePoints, wgslReduceCompute, wgslReducePoints, type Predicates } from './reduce.js';
import type { Kernel } from './kernel.js';

export type ElementwiseMode = 'compute' | 'pingpong' | 'cpu';
export type StateArrays = Record<string, Float32Array>;
/** The CPU form of a kernel: updates element `index` of `state` (4 floats per element) in place. */
export type CpuKernel = (index: number, state: StateArrays, params: Readonly<Record<string, UniformValue>>) => void;
export type CpuPredicates = Readonly<Record<string, (index: number, state: StateArrays) => boolean>>;

export interface ElementwiseOptions {
  count: number;
  mode?: 'auto' | ElementwiseMode;
  /** Needed for `cpu` mode (and for `auto` on a device with neither compute nor float targets). */
  cpu?: CpuKernel;
  label?: string;
}

/** Uniform slots per runner: steps recorded before one submit may not exceed it. */
const UNIFORM_SLOTS = 256;
const SLOT_BYTES = 256;

export class ElementwiseRunner {
  readonly mode: ElementwiseMode;
  readonly precision: 'f32' | 'f16';
  /** Why this mode was taken. */
  readonly reason: string;
  readonly count: number;
  readonly label: string;
  /** Ping-pong and CPU-on-WebGL2 state layout (element i at texel (i % width, i / width)). */
  readonly size: StateTextureSize;
  /** compute (and cpu where storage buffers exist): one buffer per attribute, 16 bytes per element. */
  readonly buffers: Readonly<Record<string, Buffer>> = {};
  readonly #device: Device;
  readonly #kernel: Kernel;
  readonly #uniforms: Buffer;
  readonly #ring: UniformRing;
  readonly #packer: UniformPacker;
  /** The uniforms the runner itself sets on every step. */
  readonly #fixedParams: Readonly<Record<string, UniformValue>>;
  readonly #textures: Array<Record<string, Texture>> = [];
  #current = 0;
  #computePipeline: ComputePipeline | null = null;
  #renderPipeline: RenderPipeline | null = null;
  readonly #cpu: CpuKernel | undefined;
  readonly #cpuState: StateArrays = {};
  readonly #reducers = new Map<string, { pipeline: ComputePipeline | RenderPipeline; counts: Buffer | Texture }>();
  #destroyed = false;

  constructor(device: Device, kernel: Kernel, options: ElementwiseOptions) {
    const label = options.label ?? kernel.descriptor.label;
    this.label = label;
    const { count } = options;
    if (!Number.isInteger(count) || count < 1)
      throw new ValidationError('elementwise-count', `count ${String(count)} must be a positive integer`, label, { count });
    this.count = count;
    this.#device = device;
    this.#kernel = kernel;
    this.#cpu = options.cpu;
    const caps = device.caps;
    const attrs = kernel.descriptor.attributes;
    const requested = options.mode ?? 'auto';
    let mode: ElementwiseMode;
    let precision: 'f32' | 'f16' = 'f32';
    let reason: string;
    if (requested === 'compute' || (requested === 'auto' && caps.features.compute)) {
      if (!caps.features.compute) throw new UnsupportedFeatureError('compute', caps.backend, "use mode 'pingpong' or 'auto'", label);
      mode = 'compute';
      reason = 'caps.features.compute';
    } else if (requested === 'pingpong' || (requested === 'auto' && (caps.features.floatRenderTargets || caps.features.halfFloatRenderTargets))) {
      if (caps.features.floatRenderTargets) reason = caps.features.compute ? 'ping-pong requested' : 'no compute; float render targets';
      else if (caps.features.halfFloatRenderTargets) {
        precision = 'f16';
        reason = 'no float32 render targets: half-float state (about 3 significant digits)';
      } else throw new UnsupportedFeatureError('floatRenderTargets', caps.backend, "use mode 'cpu' with a cpu kernel", label);
      mode = 'pingpong';
      if (attrs.length > caps.limits.maxColorAttachments) {
        throw new LimitExceededError(
          'maxColorAttachments',
          attrs.length,
          caps.limits.maxColorAttachments,
          'Attribute count (one color attachment each)',
          label,
        );
      }
    } else {
      if (!options.cpu)
        throw new UnsupportedFeatureError(
          'floatRenderTargets',
          caps.backend,
          'no compute and no float render targets: pass a cpu kernel for the CPU path',
          label,
        );
      mode = 'cpu';
      reason = requested === 'cpu' ? 'cpu requested' : 'no compute and no float render targets';
    }
    this.mode = mode;
    this.precision = precision;
    this.reason = reason;
    this.size = stateTextureSize(count, caps.limits.maxTextureDimension2D, label);
    this.#packer = new UniformPacker(kernel.uniforms);
    this.#fixedParams = { count, width: this.size.width };
    this.#ring = new UniformRing(device.queue, UNIFORM_SLOTS, SLOT_BYTES, `${label} steps`);
    this.#uniforms = device.createBuffer({ label: `${label} uniforms`, size: UNIFORM_SLOTS * SLOT_BYTES, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });

    const useBuffers = mode === 'compute' || (mode === 'cpu' && caps.features.storageBuffers);
    if (useBuffers) {
      const bytes = 16 * count;
      if (mode === 'compute' && bytes > caps.limits.maxStorageBufferBindingSize) {
        throw new LimitExceededError('maxStorageBufferBindingSize', bytes, caps.limits.maxStorageBufferBindingSize, 'State buffer bytes', label);
      }
      const buffers: Record<string, Buffer> = {};
      for (const a of attrs) {
        buffers[a] = device.createBuffer({
          label: `${label}.${a}`,
          size: bytes,
          usage: BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
        });
      }
      this.buffers = buffers;
    } else {
      const format: TextureFormat = precision === 'f16' ? 'rgba16float' : 'rgba32float';
      const sets = mode === 'pingpong' ? 2 : 1;
      for (let s = 0; s < sets; s++) {
        const set: Record<string, Texture> = {};
        for (const a of attrs) {
          set[a] = device.createTexture({
            label: `${label}.${a}[${s}]`,
            size: this.size,
            format,
            usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST | TextureUsage.COPY_SRC | (mode === 'pingpong' ? TextureUsage.RENDER_ATTACHMENT : 0),
          });
        }
        this.#textures.push(set);
      }
    }
    if (mode === 'cpu') for (const a of attrs) this.#cpuState[a] = new Float32Array(4 * count);
    if (mode === 'compute') {
      const module = device.createShaderModule({ label: `${label}.compute.wgsl`, code: kernel.wgslCompute });
      this.#computePipeline = device.createComputePipeline({ label: `${label} step`, compute: { module, entryPoint: 'main' } });
    } else if (mode === 'pingpong') {
      this.#renderPipeline = this.#fragmentPipeline(
        `${label} step`,
        kernel.wgslFragment,
        kernel.glslVertex,
        kernel.glslFragment,
        attrs.map(() => this.#format),
        'triangle-list',
        false,
      );
    }
  }

  get #format(): TextureFormat {
    return this.precision === 'f16' ? 'rgba16float' : 'rgba32float';
  }

  #fragmentPipeline(
    label: string,
    wgsl: string,
    glslVs: string,
    glslFs: string,
    formats: TextureFormat[],
    topology: 'triangle-list' | 'point-list',
    additive: boolean,
  ): RenderPipeline {
    const device = this.#device;
    const attrs = this.#kernel.descriptor.attributes;
    const blend = additive
      ? { color: { srcFactor: 'one' as const, dstFactor: 'one' as const }, alpha: { srcFactor: 'one' as const, dstFactor: 'one' as const } }
      : undefined;
    const targets = formats.map((format) => ({ format, blend }));
    if (device.caps.shaderLanguage === 'glsl') {
      return device.createRenderPipeline({
        label,
        vertex: { module: device.createShaderModule({ label: `${label}.vert`, code: glslVs, stage: 'vertex' }) },
        fragment: { module: device.createShaderModule({ label: `${label}.frag`, code: glslFs, stage: 'fragment' }), targets },
        primitive: { topology },
        bindings: [
          { binding: 0, type: 'uniform', name: 'Params' },
          ...attrs.map((a, i) => ({ binding: i + 1, type: 'texture' as const, name: `_ignis_${a}` })),
        ],
      });
    }
    const module = device.createShaderModule({ label: `${label}.wgsl`, code: wgsl });
    return device.createRenderPipeline({
      label,
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets },
      primitive: { topology },
      bindings: attrs.map((_, i) => ({ binding: i + 1, type: 'texture' as const, sampleType: 'unfilterable-float' as const })),
    });
  }

  #assertAlive(op: string): void {
    if (this.#destroyed) throw new ValidationError('runner-destroyed', `${op} on a destroyed runner`, this.label);
  }

  /** The textures holding the current state (ping-pong, and cpu on devices without storage buffers). */
  get textures(): Readonly<Record<string, Texture>> {
    return this.#textures[this.#current] ?? {};
  }

  /** Writes the uniforms for one step into the next ring slot; returns its offset. */
  #params(values: Readonly<Record<string, UniformValue>>): number {
    const offset = this.#ring.take();
    const packer = this.#packer;
    packer.clear();
    packer.write(values);
    packer.write(this.#fixedParams);
    this.#device.queue.writeBuffer(this.#uniforms, offset, packer.buffer);
    return offset;
  }

  /** Replaces attribute `name` (4 floats per element). */
  write(name: string, data: Float32Array): void {
    this.#assertAlive('write');
    if (!this.#kernel.descriptor.attributes.includes(name))
      throw new ValidationError('runner-attribute', `No attribute "${name}" (have ${this.#kernel.descriptor.attributes.join(', ')})`, this.label);
    if (data.length !== 4 * this.count)
      throw new ValidationError('runner-data-length', `Attribute "${name}" data has ${data.length} floats, expected 4 × ${this.count}`, this.label, {
        length: data.length,
      });
    if (this.mode === 'cpu') (this.#cpuState[name] as Float32Array).set(data);
    this.#upload(name, data);
  }

  #upload(name: string, data: Float32Array): void {
    const buffer = this.buffers[name];
    if (buffer) {
      this.#device.queue.writeBuffer(buffer, 0, data);
      return;
    }
    const texture = this.textures[name] as Texture;
    const texels = padToTexels(data, this.size);
    const bytesPerTexel = this.precision === 'f16' ? 8 : 16;
    this.#device.queue.writeTexture(
      { texture },
      this.precision === 'f16' ? toHalfs(texels) : texels,
      { bytesPerRow: this.size.width * bytesPerTexel },
      this.size,
    );
  }

  /**
   * Records one step (compute dispatch or ping-pong pass) into `encoder`; the CPU mode runs it now.
   * `timestampWrites` times the step's pass (ignored by the CPU mode, which has none).
   */
  step(encoder: CommandEncoder, params: Readonly<Record<string, UniformValue>> = {}, timestampWrites?: PassTimestampWrites): void {
    this.#assertAlive('step');
    const attrs = this.#kernel.descriptor.attributes;
    if (this.mode === 'cpu') {
      const cpu = this.#cpu as CpuKernel;
      for (let i = 0; i < this.count; i++) cpu(i, this.#cpuState, params);
      for (const a of attrs) this.#upload(a, this.#cpuState[a] as Float32Array);
      return;
    }
    const offset = this.#params(params);
    if (this.mode === 'compute') {
      // each step reads what the previous one wrote (a no-op barrier where none did)
      encoder.barrier({ from: 'compute-write', to: 'compute-read', resources: attrs.map((a) => this.buffers[a] as Buffer) });
      const pass = encoder.beginComputePass({ label: `${this.label} step`, timestampWrites });
      pass.setPipeline(this.#computePipeline as ComputePipeline);
      pass.setUniformBuffer(0, this.#uniforms, offset, this.#kernel.uniforms.size);
      attrs.forEach((a, i) => pass.setStorageBuffer(i + 1, this.buffers[a] as Buffer, { access: 'read-write' }));
      pass.dispatchThreads(this.count, this.#kernel.workgroupSize);
      pass.end();
      return;
    }
    const src = this.#textures[this.#current] as Record<string, Texture>;
    const dst = this.#textures[1 - this.#current] as Record<string, Texture>;
    encoder.barrier({ from: 'render-write', to: 'fragment-read', resources: attrs.map((a) => src[a] as Texture) });
    const pass = encoder.beginRenderPass({
      label: `${this.label} step`,
      timestampWrites,
      colorAttachments: attrs.map((a) => ({ texture: dst[a] as Texture, loadOp: 'clear' as const, clearValue: [0, 0, 0, 0] as const })),
    });
    pass.setPipeline(this.#renderPipeline as RenderPipeline);
    pass.setUniformBuffer(0, this.#uniforms, offset, this.#kernel.uniforms.size);
    attrs.forEach((a, i) => pass.setTexture(i + 1, src[a] as Texture));
    pass.draw(3);
    pass.end();
    this.#current = 1 - this.#current;
  }

  /** Reads every attribute back (4 floats per element). For tests and tools, not per frame. */
  async read(): Promise<StateArrays> {
    this.#assertAlive('read');
    const out: StateArrays = {};
    for (const a of this.#kernel.descriptor.attributes) {
      if (this.mode === 'cpu') {
        out[a] = (this.#cpuState[a] as Float32Array).slice();
        continue;
      }
      const buffer = this.buffers[a];
      if (buffer) {
        out[a] = new Float32Array(await buffer.read());
        continue;
      }
      const texels = await (this.textures[a] as Texture).read();
      const floats = texels instanceof Uint16Array ? fromHalfs(texels) : (texels as Float32Array);
      out[a] = floats.slice(0, 4 * this.count);
    }
    return out;
  }

  /**
   * Counts the elements for which each predicate (a kernel-language boolean over the attributes,
   * at most four) holds, on the GPU; 16 bytes come back. `cpu` gives the JS form for the CPU mode.
   */
  async reduce(predicates: Predicates, cpu?: CpuPredicates): Promise<Record<string, number>> {
    this.#assertAlive('reduce');
    const names = Object.keys(predicates);
    if (names.length === 0 || names.length > 4)
      throw new ValidationError('reduce-predicates', `reduce takes 1 to 4 predicates, got ${names.length}`, this.label);
    const device = this.#device;
    const attrs = this.#kernel.descriptor.attributes;
    const f = device.caps.features;
    if (this.mode === 'cpu' || (this.mode === 'pingpong' && !(f.floatRenderTargets && f.float32Blendable))) {
      if (!cpu) {
        const missing = f.floatRenderTargets ? 'float32Blendable' : 'floatRenderTargets';
        throw new UnsupportedFeatureError(missing, device.caps.backend, 'pass the predicates in JS (the cpu argument) to count on a full readback', this.label);
      }
      const state = this.mode === 'cpu' ? this.#cpuState : await this.read();
      const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
      for (let i = 0; i < this.count; i++) for (const n of names) if (cpu[n]?.(i, state)) out[n] = (out[n] as number) + 1;
      return out;
    }
    const key = JSON.stringify(predicates);
    const encoder = device.createCommandEncoder({ label: `${this.label} reduce` });
    const offset = this.#params({});
    let counts: Float32Array | Uint32Array;
    if (this.mode === 'compute') {
      let r = this.#reducers.get(key);
      if (!r) {
        const module = device.createShaderModule({ label: `${this.label}.reduce.wgsl`, code: wgslReduceCompute(this.#kernel, predicates) });
        r = {
          pipeline: device.createComputePipeline({ label: `${this.label} reduce`, compute: { module, entryPoint: 'main' } }),
          counts: device.createBuffer({ label: `${this.label} counts`, size: 16, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC }),
        };
        this.#reducers.set(key, r);
      }
      const countsBuffer = r.counts as Buffer;
      device.queue.writeBuffer(countsBuffer, 0, new Uint32Array(4));
      const pass = encoder.beginComputePass({ label: `${this.label} reduce` });
      pass.setPipeline(r.pipeline as ComputePipeline);
      pass.setUniformBuffer(0, this.#uniforms, offset, this.#kernel.uniforms.size);
      attrs.forEach((a, i) => pass.setStorageBuffer(i + 1, this.buffers[a] as Buffer, { access: 'read' }));
      pass.setStorageBuffer(attrs.length + 1, countsBuffer, { access: 'read-write' });
      pass.dispatchThreads(this.count, this.#kernel.workgroupSize);
      pass.end();
      device.queue.submit([encoder.finish()]);
      counts = new Uint32Array(await countsBuffer.read());
    } else {
      let r = this.#reducers.get(key);
      if (!r) {
        const glsl = glslReducePoints(this.#kernel, predicates);
        r = {
          pipeline: this.#fragmentPipeline(
            `${this.label} reduce`,
            wgslReducePoints(this.#kernel, predicates),
            glsl.vertex,
            glsl.fragment,
            ['rgba32float'],
            'point-list',
            true,
          ),
          counts: device.createTexture({
            label: `${this.label} counts`,
            size: { width: 1, height: 1 },
            format: 'rgba32float',
            usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
          }),
        };
        this.#reducers.set(key, r);
      }
      const target = r.counts as Texture;
      const src = this.textures;
      encoder.barrier({ from: 'render-write', to: 'vertex-read', resources: attrs.map((a) => src[a] as Texture) });
      const pass = encoder.beginRenderPass({
        label: `${this.label} reduce`,
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
      });
      pass.setPipeline(r.pipeline as RenderPipeline);
      pass.setUniformBuffer(0, this.#uniforms, offset, this.#kernel.uniforms.size);
      attrs.forEach((a, i) => pass.setTexture(i + 1, src[a] as Texture));
      pass.draw(this.count);
      pass.end();
      device.queue.submit([encoder.finish()]);
      counts = (await target.read()) as Float32Array;
    }
    return Object.fromEntries(names.map((n, i) => [n, Math.round(counts[i] as number)]));
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#uniforms.destroy();
    for (const b of Object.values(this.buffers)) b.destroy();
    for (const set of this.#textures) for (const t of Object.values(set)) t.destroy();
    for (const r of this.#reducers.values()) {
      r.pipeline.destroy();
      r.counts.destroy();
    }
    this.#computePipeline?.destroy();
    this.#renderPipeline?.destroy();
  }
}

export function createElementwiseRunner(device: Device, kernel: Kernel, options: ElementwiseOptions): ElementwiseRunner {
  return new ElementwiseRunner(device, kernel, options);
}

/** The ping-pong runner alone: state in float textures, one fragment pass per step. */
export function createPingPongRunner(device: Device, kernel: Kernel, options: Omit<ElementwiseOptions, 'mode'>): ElementwiseRunner {
  return new ElementwiseRunner(device, kernel, { ...options, mode: 'pingpong' });
}
