/**
 * `ignis-rhi/compute`: element-wise kernels written once and run as WebGPU compute, a WebGL2
 * fragment ping-pong or on the CPU; uniform layouts; path choice; half-float packing
 * (docs/compute.md).
 * @module ignis-rhi/compute
 */
export { KernelError, type Kernel, type KernelDescriptor } from './kernel.js';
export { defineKernel } from './define-kernel.js';
export {
  uniformLayout,
  packUniforms,
  type UniformLayout,
  type UniformType,
  type UniformValue,
} from './layout.js';
export {
  stateTextureSize,
  padToTexels,
  halfToFloat,
  floatToHalfBits,
  toHalfs,
  fromHalfs,
  type StateTextureSize,
} from './pack.js';
export {
  ElementwiseRunner,
  createElementwiseRunner,
  createPingPongRunner,
  type ElementwiseMode,
  type ElementwiseOptions,
  type CpuKernel,
  type CpuStep,
  type CpuPredicates,
  type StateArrays,
  type StepParams,
} from './elementwise.js';
export {
  choosePath,
  type PathChoice,
  type PathName,
  type PathRequest,
  type Precision,
} from './paths/choose.js';
export type { ExecutionPath } from './paths/path.js';
export { splitDispatch } from '../rhi/core/compute-pass.js';
export type { Predicates } from './reduce.js';

/** WGSL for a kernel dispatched with `dispatchThreads(count, WG)`: its linear index, 2-D split included. */
export const LINEAR_INDEX_WGSL = 'let i = gid.x + gid.y * (num_workgroups.x * WG);';
