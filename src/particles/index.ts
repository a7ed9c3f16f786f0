/**
 * `ignis-rhi/particles`: the GPU particle system on compute, ping-pong and CPU paths, its options,
 * behaviours and camera (docs/particles.md).
 * @module ignis-rhi/particles
 */
/**
 * Loads the WGSL front end now (once): what a system that will be given a look by `setOptions`
 * needs first on a WebGPU device whose particles run as compute (`createParticleSystem` loads it
 * itself wherever the system translates: docs/particles.md, "What loads when").
 */
export { loadFrontEnd } from '../compute/front-end.js';
export { createParticleSystem, ParticleSystem, type ParticleStats } from './system.js';
export {
  EmissionSchedule,
  emittedBetween,
  type Burst,
  type BurstInput,
  type EmitRange,
} from './emission.js';
export { resolveOptions, particleModules } from './resolve.js';
export {
  MODULES,
  defineModule,
  registerParticleModule,
  type ParticleModuleDef,
  type KernelPart,
  type ModuleOptions,
  type ReferencePart,
  type ReferenceParticle,
  type ReferenceSpawn,
} from './modules/index.js';
export {
  DEFAULT_OPTIONS,
  MAX_ATTRACTORS,
  ParticleOptionError,
  type ParticleModule,
  type ParticleModuleInput,
  type ModuleStage,
  type ParticleOptions,
  type ParticleOptionsInput,
  type ParticlePath,
  type DrawMode,
  type Attractor,
  type EmitterOptions,
  type SpriteSheet,
  type SoftParticles,
  type CollisionInput,
  type ParticleTrail,
  type ParticleLink,
  type ParticleEventKind,
  type ParticleEventSource,
  type SubEmitter,
} from './options.js';
export type { ParticleCollision } from './collision.js';
export type { SceneDepthArray } from '../compute/paths/path.js';
export { orbitCamera, type OrbitCamera } from './camera.js';
export { curlNoiseField } from './modules/field.js';
export { meshSdf, type SdfGrid } from './modules/sdf-grid.js';
export type { Camera } from './draw.js';
