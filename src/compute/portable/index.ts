/**
 * Portable compute: ordinary WGSL compute shaders of the gather shape on WebGPU compute, a WebGL2
 * fragment ping-pong or the CPU (docs/compute.md, "Portable WGSL"). Its own entry point
 * (`ignis-rhi/portable`): the WGSL parser it carries is about 300 KB.
 * @module ignis-rhi/portable
 */
export {
  PortableCompute,
  createPortableCompute,
  storageTextureUsage,
  type PortableComputeOptions,
} from './portable-compute.js';
export {
  analyzeKernel,
  PortableKernelError,
  type AnalyzeOptions,
  type Binding as PortableBinding,
  type PortableModule,
} from './analyze.js';
export { emitGlsl, TEXELS_PER_ROW, type GlslProgram } from './glsl.js';
export { emitJs, type JsRunContext } from './js.js';
export type { Portability } from './portability.js';
