/**
 * One execution path of element-wise work (compute, ping-pong or CPU) behind one interface: the
 * element-wise runner and everything built on it hold an `ExecutionPath` and never branch on which
 * one it is. `choose.ts` picks the path; `compute.ts`, `pingpong.ts` and `cpu.ts` implement it.
 */
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Device } from '../../rhi/core/device.js';
import type { ShaderModule } from '../../rhi/core/shader-module.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { PassTimestampWrites } from '../../rhi/core/descriptors.js';
import type { UniformValue } from '../layout.js';
import type { StateTextureSize } from '../pack.js';
import type { Predicates } from '../reduce.js';
import type { Kernel } from '../kernel.js';
import type { PathName, Precision } from './choose.js';

/** Per-step values by uniform name (`dt`, the step index, forces…): always passed, never stored on the side. */
export type StepParams = Readonly<Record<string, UniformValue>>;
/** Per-element state on the CPU path: one Float32Array per attribute. */
export type StateArrays = Record<string, Float32Array>;
/** The CPU form of a kernel, per element: updates element `index` of `state` (4 floats per element) in place. */
export type CpuKernel = (index: number, state: StateArrays, params: StepParams) => void;
/** The scene's depth for the CPU path: `data[y * width + x]`, 0 near … 1 far (what a depth texture holds). */
export interface SceneDepthArray {
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
}
/**
 * Another runner's state, as a kernel with `source` reads it (`ElementwiseRunner.source`): where it
 * lives on its path, its element count and texture width.
 */
export interface KernelSource {
  readonly device: Device;
  readonly path: PathName;
  readonly label: string;
  readonly count: number;
  readonly width: number;
  readonly attributes: readonly string[];
  readonly buffers: Readonly<Record<string, Buffer>>;
  readonly textures: Readonly<Record<string, Texture>>;
  readonly host: Readonly<StateArrays> | null;
}
/** What a step reads besides the state: the scene's depth (`sceneDepth`), another runner's state (`source`). */
export interface StepInputs {
  /** A depth texture on the GPU paths; an array on the CPU path. */
  readonly sceneDepth?: Texture | SceneDepthArray;
  /** The runner a kernel with `source` reads (`otherRunner.source`). */
  readonly source?: KernelSource;
}
/** The CPU form of a kernel, per step: updates all `count` elements of `state` in place (a plain loop is fastest). */
export interface CpuStep {
  step(state: StateArrays, count: number, params: StepParams, inputs?: StepInputs): void;
}
/** CPU forms of a reduction's predicates, by name. */
export type CpuPredicates = Readonly<
  Record<string, (index: number, state: StateArrays) => boolean>
>;

/** Resolves once every module compiled; rejects with the first compile error. */
export async function compiledAll(modules: readonly ShaderModule[]): Promise<void> {
  for (const m of modules) {
    const error = await m.compilation();
    if (error) throw error;
  }
}

/** The kernel's uniform block: a ring of slots, one per step recorded before a submit. */
export interface UniformBlock {
  /** The buffer of the offset `write` returned last (it changes when the ring grows). */
  readonly buffer: Buffer;
  /** Bytes of one block (what a pass binds). */
  readonly size: number;
  /** Packs `params` (plus the runner's own `count` and `width`) into the next slot; returns its offset. */
  write(params: StepParams): number;
}

/** What every path is built from. */
export interface PathContext {
  readonly device: Device;
  readonly kernel: Kernel;
  readonly count: number;
  readonly label: string;
  /** Texture layout of the state: element i at texel (i % width, i / width). */
  readonly size: StateTextureSize;
  readonly precision: Precision;
  readonly uniforms: UniformBlock;
}

/** One execution path of a runner (compute, ping-pong or CPU): its state storage and how it steps. */
export interface ExecutionPath {
  readonly name: PathName;
  readonly precision: Precision;
  /** GPU bytes the state takes per element (every attribute, every copy). */
  readonly gpuBytesPerElement: number;
  /** JavaScript bytes the state takes per element (the CPU path's arrays). */
  readonly hostBytesPerElement: number;
  /** State buffers by attribute (compute, and CPU where storage buffers exist); empty otherwise. */
  readonly buffers: Readonly<Record<string, Buffer>>;
  /** The textures holding the current state (ping-pong, and CPU without storage buffers); empty otherwise. */
  readonly textures: Readonly<Record<string, Texture>>;
  /** Replaces attribute `name` (4 floats per element, already validated). */
  write(name: string, data: Float32Array): void;
  /** Records one step into `encoder` (the CPU path runs it now and uploads). */
  step(
    encoder: CommandEncoder,
    params: StepParams,
    timestampWrites?: PassTimestampWrites,
    inputs?: StepInputs,
  ): void;
  /** Records the barrier a draw reading the state after `step` needs (none for the CPU path: its writes are uploads). */
  barrierForDraw(encoder: CommandEncoder): void;
  read(): Promise<StateArrays>;
  /** Resolves once the step's shaders compiled; rejects with the ShaderCompileError otherwise. */
  compiled(): Promise<void>;
  /** Counts the elements for which each predicate holds (see `ElementwiseRunner.reduce`). */
  reduce(predicates: Predicates, cpu: CpuPredicates | undefined): Promise<Record<string, number>>;
  destroy(): void;
}
