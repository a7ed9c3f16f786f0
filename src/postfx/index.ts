/**
 * `ignis-rhi/postfx`: the post-process chain (bloom, tone mapping, grading) and the blur, as compute
 * or fragment passes (docs/postfx.md).
 * @module ignis-rhi/postfx
 */
export {
  createPostProcess,
  PostProcess,
  bloomLevels,
  type PostProcessOptions,
  type PassTimestamps,
} from './chain.js';
export { blur, Blur, type BlurOptions } from './blur.js';
export {
  bloom,
  toneMap,
  grade,
  PostFxOptionError,
  settingsOf,
  type Effect,
  type BloomOptions,
  type ToneMapOptions,
  type GradeOptions,
  type ChainSettings,
} from './options.js';
export { choosePostPath, type PostChoice, type HdrFormatRequest } from './path.js';
export type { PostPath } from './passes.js';
export { MAX_BLUR_RADIUS, TONE_OPERATORS, type ToneOperator } from './math.js';
