/**
 * `ignis-rhi/effects`: effects as data — a versioned JSON file of particle systems and their
 * modules (schema/effect.schema.json), loaded onto a device (docs/effects.md).
 * @module ignis-rhi/effects
 */
export { loadEffect, type LoadEffectOptions } from './load.js';
export { Effect } from './effect.js';
export { validateEffect } from './validate.js';
export { migrateEffect } from './migrate.js';
export { EffectError, type EffectProblem } from './errors.js';
export {
  EFFECT_VERSION,
  stringifyEffect,
  type EffectFile,
  type EffectSystemFile,
  type EffectTextureFile,
  type EffectMeshFile,
  type EffectCamera,
} from './format.js';
