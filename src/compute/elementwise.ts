/**
 * Runs an element-wise kernel over `count` elements of vec4 state on whatever the device has: the
 * path is chosen by `choosePath` (paths/choose.ts: compute, else fragment ping-pong over float
 * textures, else the CPU) and run through one `ExecutionPath` interface (paths/compute.ts,
 * paths/pingpong.ts, paths/cpu.ts). `mode`, `precision` and `reason` say what was taken and why.
 */
import { ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import { UniformPacker } from './layout.js';
import { UniformRing } from './uniform-ring.js';
import { stateTextureSize, type StateTextureSize } from './pack.js';
import type { Predicates } from './reduce.js';
import type { Kernel } from './kernel.js';
import { choosePath, type PathName, type Precision } from './paths/choose.js';
import { ComputePath } from './paths/compute.js';
import { PingPongPath } from './paths/pingpong.js';
import { CpuPath } from './paths/cpu.js';
import type {
  CpuKernel,
  CpuPredicates,
  CpuStep,
  ExecutionPath,
  KernelSource,
  PathContext,
  SceneDepthArray,
  StateArrays,
  StepInputs,
  StepParams,
  UniformBlock,
} from './paths/path.js';

export type {
  CpuKernel,
  CpuPredicates,
  CpuStep,
  KernelSource,
  SceneDepthArray,
  StateArrays,
  StepInputs,
  StepParams,
} from './paths/path.js';
/** The path an element-wise runner is asked to take (`auto` chooses). */
export type ElementwiseMode = PathName;

/** Options of `createElementwiseRunner`: element count, path, a CPU form and a label. */
export interface ElementwiseOptions {
  count: number;
  mode?: 'auto' | ElementwiseMode;
  /**
   * The CPU form: per element, or per step. By default the kernel's own, translated to JavaScript
   * from its WGSL; pass a hand-written one where a faster loop exists (the particle system does).
   */
  cpu?: CpuKernel | CpuStep;
  label?: string;
}

/** Uniform slots a runner starts with; the ring doubles when one submit records more steps. */
const UNIFORM_SLOTS = 16;
/** Slots are multiples of the uniform offset alignment (256 bytes). */
const SLOT_ALIGN = 256;

/** The kernel's uniform block in a ring of per-submit slots, with `count` and `width` always set. */
function uniformBlock(
  device: Device,
  kernel: Kernel,
  label: string,
  count: number,
  width: number,
): UniformBlock & { destroy(): void } {
  const slotBytes = Math.max(1, Math.ceil(kernel.uniforms.size / SLOT_ALIGN)) * SLOT_ALIGN;
  const ring = new UniformRing(device, UNIFORM_SLOTS, slotBytes, `${label} uniforms`);
  const packer = new UniformPacker(kernel.uniforms);
  const fixed = { count, width };
  return {
    get buffer() {
      return ring.buffer;
    },
    size: kernel.uniforms.size,
    write(params) {
      const offset = ring.take();
      packer.clear();
      packer.write(params);
      packer.write(fixed);
      device.queue.writeBuffer(ring.buffer, offset, packer.buffer);
      return offset;
    },
    destroy: () => ring.destroy(),
  };
}

/** Runs one element-wise kernel over per-element state on compute, ping-pong or CPU, with the same state layout and step on each path. */
export class ElementwiseRunner {
  readonly mode: ElementwiseMode;
  readonly precision: Precision;
  /** Why this mode was taken. */
  readonly reason: string;
  readonly count: number;
  readonly label: string;
  /** Texture layout of the state (element i at texel (i % width, i / width)). */
  readonly size: StateTextureSize;
  readonly #kernel: Kernel;
  readonly #path: ExecutionPath;
  readonly #uniforms: UniformBlock & { destroy(): void };
  readonly #device: Device;
  #destroyed = false;

  constructor(device: Device, kernel: Kernel, options: ElementwiseOptions) {
    const label = options.label ?? kernel.descriptor.label;
    this.label = label;
    this.#device = device;
    const { count } = options;
    if (!Number.isInteger(count) || count < 1)
      throw new ValidationError(
        'elementwise-count',
        `count ${String(count)} must be a positive integer`,
        label,
        { count },
      );
    this.count = count;
    this.#kernel = kernel;
    const choice = choosePath(device.caps, {
      path: options.mode ?? 'auto',
      hasCpu: true, // the kernel's translated CPU form when options.cpu is not given
      attributes: kernel.descriptor.attributes.length,
      label,
    });
    this.mode = choice.path;
    this.precision = choice.precision;
    this.reason = choice.reason;
    this.size = stateTextureSize(count, device.caps.limits.maxTextureDimension2D, label);
    this.#uniforms = uniformBlock(device, kernel, label, count, this.size.width);
    const ctx: PathContext = {
      device,
      kernel,
      count,
      label,
      size: this.size,
      precision: choice.precision,
      uniforms: this.#uniforms,
    };
    try {
      this.#path =
        choice.path === 'compute'
          ? new ComputePath(ctx)
          : choice.path === 'pingpong'
            ? new PingPongPath(ctx)
            : new CpuPath(ctx, options.cpu ?? kernel.cpu);
    } catch (e) {
      this.#uniforms.destroy();
      throw e;
    }
  }

  /** State buffers by attribute (compute, and cpu where storage buffers exist). */
  get buffers(): Readonly<Record<string, Buffer>> {
    return this.#path.buffers;
  }

  /** The textures holding the current state (ping-pong, and cpu on devices without storage buffers). */
  get textures(): Readonly<Record<string, Texture>> {
    return this.#path.textures;
  }

  /**
   * The CPU path's arrays as the last step left them, without a copy (null on the GPU paths); read
   * them only: `write` replaces them. For work that follows the step on the CPU (the particle
   * system's depth sort).
   */
  get host(): Readonly<StateArrays> | null {
    return this.#path instanceof CpuPath ? this.#path.state : null;
  }

  /**
   * This runner's state as another runner's kernel reads it (`source` in its descriptor; pass it
   * as `inputs.source` of that runner's step): always where the current state is.
   */
  get source(): KernelSource {
    const path = this.#path;
    return {
      device: this.#device,
      path: this.mode,
      label: this.label,
      count: this.count,
      width: this.size.width,
      attributes: this.#kernel.descriptor.attributes,
      // read at each step: the ping-pong's current set changes every step
      get buffers() {
        return path.buffers;
      },
      get textures() {
        return path.textures;
      },
      get host() {
        return path instanceof CpuPath ? path.state : null;
      },
    };
  }

  /** GPU bytes the state takes per element; JS bytes for the CPU path's arrays. */
  get bytesPerElement(): { gpu: number; host: number } {
    return { gpu: this.#path.gpuBytesPerElement, host: this.#path.hostBytesPerElement };
  }

  #assertAlive(op: string): void {
    if (this.#destroyed)
      throw new ValidationError('runner-destroyed', `${op} on a destroyed runner`, this.label);
  }

  /** Replaces attribute `name` (4 floats per element). */
  write(name: string, data: Float32Array): void {
    this.#assertAlive('write');
    const attributes = this.#kernel.descriptor.attributes;
    if (!attributes.includes(name))
      throw new ValidationError(
        'runner-attribute',
        `No attribute "${name}" (have ${attributes.join(', ')})`,
        this.label,
      );
    if (data.length !== 4 * this.count) {
      throw new ValidationError(
        'runner-data-length',
        `Attribute "${name}" data has ${data.length} floats, expected 4 × ${this.count}`,
        this.label,
        {
          length: data.length,
        },
      );
    }
    this.#path.write(name, data);
  }

  /**
   * Records one step (compute dispatch or ping-pong pass) into `encoder`; the CPU mode runs it now.
   * `params` are this step's uniforms (and the CPU form's arguments); `timestampWrites` times the
   * step's pass (ignored by the CPU mode, which has none).
   */
  step(
    encoder: CommandEncoder,
    params: StepParams = {},
    timestampWrites?: PassTimestampWrites,
    inputs: StepInputs = {},
  ): void {
    this.#assertAlive('step');
    if (this.#kernel.descriptor.sceneDepth) {
      const depth = inputs.sceneDepth;
      const gpu = this.mode !== 'cpu';
      const isArray = !!depth && (depth as SceneDepthArray).data instanceof Float32Array;
      if (!depth || gpu === isArray)
        throw new ValidationError(
          'runner-scene-depth',
          `the kernel reads the scene depth (ignisSceneDepth): pass inputs.sceneDepth, ${gpu ? `a depth texture on the ${this.mode} path` : 'a { data: Float32Array, width, height } array on the CPU path'} (got ${depth ? (isArray ? 'an array' : 'a texture') : 'none'})`,
          this.label,
        );
    }
    const wanted = this.#kernel.descriptor.source ?? [];
    if (wanted.length > 0) {
      const source = inputs.source;
      const why = !source
        ? 'none was given'
        : source.device !== this.#device
          ? 'it is on another device'
          : source.path !== this.mode
            ? `it runs on the ${source.path} path, this runner on ${this.mode}`
            : wanted.find((a) => !source.attributes.includes(a)) !== undefined
              ? `it has no attribute ${wanted.find((a) => !source.attributes.includes(a))} (it has ${source.attributes.join(', ')})`
              : null;
      if (why !== null)
        throw new ValidationError(
          'runner-source',
          `the kernel reads another runner's ${wanted.join(', ')} (ignisSource): pass inputs.source, a runner of this device on the same path with those attributes; ${why}`,
          this.label,
          { path: this.mode, source: source?.path },
        );
      params = { ...params, sourceCount: source!.count, sourceWidth: source!.width };
    }
    this.#path.step(encoder, params, timestampWrites, inputs);
  }

  /** Records the barrier a draw that reads the state after `step` needs (none on the CPU path). */
  barrierForDraw(encoder: CommandEncoder): void {
    this.#assertAlive('barrierForDraw');
    this.#path.barrierForDraw(encoder);
  }

  /**
   * Resolves once the step's shaders have compiled; rejects with the ShaderCompileError (lines and
   * messages) when they did not. WebGPU compiles asynchronously: a kernel whose WGSL the browser's
   * compiler refuses is otherwise only reported to the device's error sink, and its steps do
   * nothing. (WebGL2 compiles when the runner is made: a bad kernel throws there.)
   */
  compiled(): Promise<void> {
    this.#assertAlive('compiled');
    return this.#path.compiled();
  }

  /** Reads every attribute back (4 floats per element). For tests and tools, not per frame. */
  async read(): Promise<StateArrays> {
    this.#assertAlive('read');
    return this.#path.read();
  }

  /**
   * Counts the elements for which each predicate (a kernel-language boolean over the attributes,
   * at most four) holds, on the GPU; 16 bytes come back. `cpu` gives the JS form for the CPU mode
   * (and for ping-pong without float32 blending, which counts on a readback).
   */
  async reduce(predicates: Predicates, cpu?: CpuPredicates): Promise<Record<string, number>> {
    this.#assertAlive('reduce');
    const names = Object.keys(predicates);
    if (names.length === 0 || names.length > 4)
      throw new ValidationError(
        'reduce-predicates',
        `reduce takes 1 to 4 predicates, got ${names.length}`,
        this.label,
      );
    return this.#path.reduce(predicates, cpu);
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#path.destroy();
    this.#uniforms.destroy();
  }
}

/** Creates a runner for an element-wise kernel on the path `options.mode` asks for (default `auto`: compute, else a fragment ping-pong, else the CPU); `runner.path`/`reason` say which. */
export function createElementwiseRunner(
  device: Device,
  kernel: Kernel,
  options: ElementwiseOptions,
): ElementwiseRunner {
  return new ElementwiseRunner(device, kernel, options);
}

/** The ping-pong runner alone: state in float textures, one fragment pass per step. */
export function createPingPongRunner(
  device: Device,
  kernel: Kernel,
  options: Omit<ElementwiseOptions, 'mode'>,
): ElementwiseRunner {
  return new ElementwiseRunner(device, kernel, { ...options, mode: 'pingpong' });
}
