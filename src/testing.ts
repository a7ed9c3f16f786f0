/**
 * `ignis-rhi/testing`: what tests of code built on Ignis use — the null device (records passes,
 * runs transfers, no GPU), the command tracer, and the TypeScript references the GPU paths are
 * checked against (the particle rule, the post-processing math).
 * @module ignis-rhi/testing
 */
export { NullDevice, type NullDeviceOptions } from './rhi/null/device.js';
export { traceCommands } from './rhi/core/index.js';
export {
  pcg,
  rand,
  spawn,
  createState,
  stepState,
  stepParticle,
  stepBase,
} from './particles/reference.js';
export { gaussianWeights, toneMapCpu, srgbEncode } from './postfx/math.js';
export {
  blurReference,
  bloomReference,
  chainReference,
  makeImage,
  store,
  type RgbaImage,
  type Storage,
} from './postfx/reference.js';
export type { Scene, SceneInfo, SceneParams, SceneNeeds, CreateScene } from './scene.js';
