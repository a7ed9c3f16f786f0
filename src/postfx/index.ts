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
export {
  gaussianWeights,
  toneMapCpu,
  srgbEncode,
  MAX_BLUR_RADIUS,
  TONE_OPERATORS,
  type ToneOperator,
} from './math.js';
export {
  blurReference,
  bloomReference,
  chainReference,
  makeImage,
  store,
  type RgbaImage,
  type Storage,
} from './reference.js';
