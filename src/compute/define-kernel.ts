/**
 * `defineKernel`, the public door to element-wise kernels (`ignis-rhi/compute`): the kernel's WGSL
 * forms and, at once, its translations for WebGL2 and the CPU — a kernel that cannot run on every
 * path is a KernelError where it is defined. It imports the WGSL front end; the particles define
 * theirs with `kernelSource`, which loads it only where a path needs it.
 */
import { kernelSource, translateNow, type Kernel, type KernelDescriptor } from './kernel.js';
import { translateKernel } from './portable/translate.js';

/** Defines an element-wise kernel once (attributes, uniforms, body); Ignis prints it as WGSL compute, a GLSL ping-pong fragment and a CPU step. */
export function defineKernel(desc: KernelDescriptor): Kernel {
  const kernel = kernelSource(desc, translateKernel);
  // translated now: a kernel that cannot run on every path is refused here, not at its first step
  translateNow(kernel);
  return kernel;
}
