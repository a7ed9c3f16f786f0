// Shows made of systems spawned by events (?show=rain: rain and its splashes). A firework show in
// three systems, each the next one's parent: rockets rise trailing sparks and die
// high up; every death bursts into stars (a sub-emitter, 64 per rocket) that trail and fade; every
// star that dies crackles (a sub-emitter of the stars, 2 each). Events and sub-emitters run the
// same on every path (docs/particles.md, "Events and sub-emitters"); the demo and
// check/scenes/fireworks.ts both make it here.
import type { Device } from '../../src/index.js';
import {
  createParticleSystem,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../src/particles/index.js';

/** A cone of half-angle π: directions over the whole sphere (a burst). */
const BURST = { shape: 'cone', position: [0, 0, 0], radius: 0, angle: 3.14 } as const;

export const ROCKETS: ParticleOptionsInput = {
  count: 8,
  emitRate: 1.6,
  bursts: [{ time: 0, count: 1 }],
  emitter: { shape: 'box', position: [0, -9, 0], radius: 2.5, angle: 0 },
  speedMin: 9,
  speedMax: 11,
  spread: 1.2,
  lifeMin: 1.1,
  lifeMax: 1.4,
  gravity: [0, -4, 0],
  drag: 0.1,
  size: 0.09,
  sizeOverLife: [1, 0.7],
  colors: [
    [1, 0.9, 0.7, 1],
    [1, 0.7, 0.4, 1],
    [1, 0.5, 0.2, 1],
    [1, 0.4, 0.1, 1],
  ],
  trail: {
    length: 28,
    width: [0.07, 0],
    colors: [
      [1, 0.7, 0.35, 0.9],
      [0.8, 0.25, 0.05, 0],
    ],
    // the rocket's trail hangs in the sky after it bursts, fading
    fade: 0.35,
  },
  events: 'death',
};

export const stars = (rockets: ParticleSystem): ParticleOptionsInput => ({
  seed: 2,
  subEmitter: { parent: rockets, count: 64, inherit: 0.3 },
  emitter: BURST,
  speedMin: 5,
  speedMax: 6.5,
  lifeMin: 1,
  lifeMax: 1.6,
  gravity: [0, -2.5, 0],
  drag: 0.8,
  size: 0.1,
  sizeOverLife: [1, 0.3],
  colors: [
    [1, 1, 0.9, 1],
    [0.45, 0.8, 1, 1],
    [0.75, 0.35, 1, 0.8],
    [0.4, 0.1, 0.6, 0],
  ],
  trail: {
    length: 16,
    width: [0.07, 0],
    colors: [
      [0.55, 0.8, 1, 0.85],
      [0.6, 0.2, 1, 0],
    ],
    fade: 0.2,
  },
  events: 'death',
});

export const crackle = (stars: ParticleSystem): ParticleOptionsInput => ({
  seed: 3,
  subEmitter: { parent: stars, count: 2, inherit: 0.2 },
  emitter: BURST,
  speedMin: 0.8,
  speedMax: 1.6,
  lifeMin: 0.2,
  lifeMax: 0.45,
  gravity: [0, -2, 0],
  drag: 1,
  size: 0.05,
  sizeOverLife: [1, 0.2],
  colors: [
    [1, 1, 1, 1],
    [1, 0.9, 0.5, 1],
    [1, 0.6, 0.2, 0.7],
    [0.5, 0.2, 0.1, 0],
  ],
});

/** Rain: streaks falling onto the floor (y = −4), each landing an event. */
export const RAIN: ParticleOptionsInput = {
  count: 3000,
  emitRate: 2400,
  emitter: { shape: 'box', position: [0, 7, 0], radius: 6, angle: 0 },
  speedMin: -13,
  speedMax: -11,
  spread: 0.3,
  lifeMin: 2,
  lifeMax: 2,
  gravity: [0, -9.8, 0],
  drag: 0,
  floorY: -4,
  size: 0.035,
  sizeOverLife: [1, 1],
  billboard: 'velocity',
  stretch: 0.12,
  colors: [
    [0.6, 0.75, 1, 0.7],
    [0.6, 0.75, 1, 0.7],
    [0.6, 0.75, 1, 0.7],
    [0.6, 0.75, 1, 0.7],
  ],
  events: 'floor',
};

/** Splashes: 6 droplets where each drop lands, thrown up and out, falling back. */
export const splash = (rain: ParticleSystem): ParticleOptionsInput => ({
  seed: 4,
  subEmitter: { parent: rain, count: 6, inherit: 0 },
  emitter: { shape: 'cone', position: [0, 0, 0], radius: 0, angle: 0.9 },
  speedMin: 1.2,
  speedMax: 2.4,
  lifeMin: 0.25,
  lifeMax: 0.45,
  gravity: [0, -9.8, 0],
  drag: 0,
  floorY: -4.01,
  size: 0.045,
  sizeOverLife: [1, 0.5],
  colors: [
    [0.8, 0.9, 1, 0.9],
    [0.7, 0.85, 1, 0.7],
    [0.6, 0.75, 1, 0.4],
    [0.6, 0.75, 1, 0],
  ],
});

/** Where each show is watched from (orbitCamera's distance, target and pitch). */
export const VIEWS = {
  fireworks: { distance: 16, target: [0, -1, 0] as const, pitch: 0.05 },
  rain: { distance: 13, target: [0, -3, 0] as const, pitch: 0.35 },
};

/** Rain and its splashes, the rain first. */
export async function rainShow(
  device: Device,
  options: ParticleOptionsInput = {},
): Promise<ParticleSystem[]> {
  const rain = await createParticleSystem(device, { ...RAIN, ...options });
  const drops = await createParticleSystem(device, { ...splash(rain), ...options });
  return [rain, drops];
}

/** The three systems, parents first: update them in this order, in one encoder, every frame. */
export async function fireworkShow(
  device: Device,
  options: ParticleOptionsInput = {},
): Promise<ParticleSystem[]> {
  const rockets = await createParticleSystem(device, { ...ROCKETS, ...options });
  const burst = await createParticleSystem(device, { ...stars(rockets), ...options });
  const last = await createParticleSystem(device, { ...crackle(burst), ...options });
  return [rockets, burst, last];
}
