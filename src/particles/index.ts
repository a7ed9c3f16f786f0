export { createParticleSystem, ParticleSystem, type ParticleStats } from './system.js';
export {
  DEFAULT_OPTIONS,
  MAX_ATTRACTORS,
  ParticleOptionError,
  resolveOptions,
  type ParticleOptions,
  type ParticleOptionsInput,
  type ParticlePath,
  type DrawMode,
  type Attractor,
  type EmitterOptions,
} from './options.js';
export { pcg, rand, spawn, createState, stepState, stepParticle, stepBase } from './reference.js';
export { orbitCamera, type OrbitCamera } from './camera.js';
export type { Camera } from './draw.js';
