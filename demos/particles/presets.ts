// The particles demo's presets beyond the default fountain (a continuous system): options a person
// would recognise, each a function of the particle count. check/scenes/fireworks.ts runs the
// fireworks on every fallback rung in the tests.
import type { ParticleOptionsInput } from '../../src/particles/index.js';

/** Fireworks (?preset=fireworks): emission over time, sized by `count`. */
export function fireworks(count: number, seed = 1): ParticleOptionsInput {
  return {
    count,
    seed,
    emitRate: count / 40,
    bursts: [
      { time: 0, count: Math.round(count * 0.3) },
      { time: 1.2, count: Math.round(count * 0.12), cycles: 2, interval: 0.3 },
    ],
    duration: 2.4,
    loop: true,
    // a cone of half-angle π: directions over the whole sphere, a shell
    emitter: { shape: 'cone', position: [0, -3.5, 0], radius: 0, angle: 3.14 },
    speedMin: 4,
    speedMax: 5.5,
    lifeMin: 1,
    lifeMax: 1.8,
    gravity: [0, -4, 0],
    drag: 0.8,
    size: 0.09,
    sizeOverLife: [1, 0.2],
    colors: [
      [1, 0.95, 0.8, 1],
      [0.4, 0.8, 1, 1],
      [0.8, 0.3, 1, 0.7],
      [0.3, 0.1, 0.5, 0],
    ],
  };
}

/** Sparks (?preset=sparks): a grinder's shower, each spark a streak along its motion. */
export function sparks(count: number, seed = 1): ParticleOptionsInput {
  return {
    count,
    seed,
    emitRate: count / 1.1,
    emitter: { shape: 'cone', position: [0, -8, 0], radius: 0, angle: 0.7 },
    speedMin: 6,
    speedMax: 10,
    lifeMin: 0.5,
    lifeMax: 1,
    gravity: [0, -9.8, 0],
    drag: 0.3,
    size: 0.035,
    sizeOverLife: [1, 0.5],
    billboard: 'velocity',
    stretch: 0.3,
    colors: [
      [1, 1, 0.85, 1],
      [1, 0.8, 0.3, 1],
      [1, 0.4, 0.1, 0.8],
      [0.6, 0.1, 0.05, 0],
    ],
  };
}
