/**
 * The CPU path, the last rung and the baseline the GPU paths are measured against: state in
 * Float32Arrays, stepped by the kernel's CPU form with the step's parameters, then uploaded where
 * the draw reads it (storage buffers where the device has them, one texture set otherwise).
 */
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import { ValidationError } from '../../rhi/core/errors.js';
import { bytesPerTexel, createStateBuffers, createStateTextures, uploadTexture } from './state.js';
import type {
  CpuKernel,
  CpuPredicates,
  CpuStep,
  ExecutionPath,
  PathContext,
  StateArrays,
  StepInputs,
  StepParams,
} from './path.js';
import type { Predicates } from '../reduce.js';

/** Counts the elements of `state` for which each predicate holds, in JS. */
export function countOnHost(
  state: StateArrays,
  count: number,
  cpu: CpuPredicates,
): Record<string, number> {
  const names = Object.keys(cpu);
  const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (let i = 0; i < count; i++)
    for (const n of names) if (cpu[n]?.(i, state)) out[n] = (out[n] as number) + 1;
  return out;
}

export class CpuPath implements ExecutionPath {
  readonly name = 'cpu' as const;
  readonly precision = 'f32' as const;
  readonly gpuBytesPerElement: number;
  readonly hostBytesPerElement: number;
  readonly buffers: Readonly<Record<string, Buffer>>;
  readonly textures: Readonly<Record<string, Texture>>;
  readonly #ctx: PathContext;
  readonly #step: CpuStep;
  readonly #state: StateArrays = {};

  constructor(ctx: PathContext, cpu: CpuKernel | CpuStep) {
    this.#ctx = ctx;
    this.#step =
      typeof cpu === 'function'
        ? {
            step: (state, count, params) => {
              for (let i = 0; i < count; i++) cpu(i, state, params);
            },
          }
        : cpu;
    const attributes = ctx.kernel.descriptor.attributes;
    for (const a of attributes) this.#state[a] = new Float32Array(4 * ctx.count);
    const storage = ctx.device.caps.features.storageBuffers;
    this.buffers = storage ? createStateBuffers(ctx) : {};
    this.textures = storage ? {} : createStateTextures(ctx, 0, false);
    this.gpuBytesPerElement = attributes.length * (storage ? 16 : bytesPerTexel(ctx));
    this.hostBytesPerElement = attributes.length * 16;
  }

  /** The arrays as the last step or write left them (read-only: `write` replaces them). */
  get state(): Readonly<StateArrays> {
    return this.#state;
  }

  #upload(name: string): void {
    const data = this.#state[name] as Float32Array;
    const buffer = this.buffers[name];
    if (buffer) this.#ctx.device.queue.writeBuffer(buffer, 0, data);
    else uploadTexture(this.#ctx, this.textures[name] as Texture, data);
  }

  write(name: string, data: Float32Array): void {
    (this.#state[name] as Float32Array).set(data);
    this.#upload(name);
  }

  step(
    _encoder: CommandEncoder,
    params: StepParams,
    _timestampWrites?: unknown,
    inputs?: StepInputs,
  ): void {
    this.#step.step(this.#state, this.#ctx.count, params, inputs);
    for (const a of this.#ctx.kernel.descriptor.attributes) this.#upload(a);
  }

  barrierForDraw(): void {
    // the state reaches the GPU by writeBuffer/writeTexture, which land before the submit's commands
  }

  async read(): Promise<StateArrays> {
    return Object.fromEntries(Object.entries(this.#state).map(([a, v]) => [a, v.slice()]));
  }

  async reduce(
    _predicates: Predicates,
    cpu: CpuPredicates | undefined,
  ): Promise<Record<string, number>> {
    if (!cpu) {
      throw new ValidationError(
        'reduce-cpu-predicates',
        'the CPU path counts in JS: pass the predicates in JS too (the cpu argument of reduce)',
        this.#ctx.label,
      );
    }
    return countOnHost(this.#state, this.#ctx.count, cpu);
  }

  /** Nothing to compile: the kernel's JavaScript form was made when the path was. */
  compiled(): Promise<void> {
    return Promise.resolve();
  }

  destroy(): void {
    for (const b of Object.values(this.buffers)) b.destroy();
    for (const t of Object.values(this.textures)) t.destroy();
  }
}
