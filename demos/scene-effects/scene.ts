// The scene-effects demo's scene, shared with its ignis-check scene (check/scenes/scene-effects.ts):
// a torus turning above rolling terrain sheds two systems — sparks (quads stretched along their
// motion) and shards (mesh particles, lit). Both are born on the moving torus (the mesh module,
// inheriting its spin), pushed by a curl-noise wind (a vector field) and land on the terrain (a
// heightfield collider): three tables of one system side by side, on every path. The torus is
// drawn too, and into the light's shadow map every frame: the shards and the terrain, lit by the
// same light, receive its shadow (light.shadow).
import { mat4 } from 'wgpu-matrix';
import type { Device, TextureFormat } from '../../src/index.js';
import {
  createParticleSystem,
  orbitCamera,
  particleModules,
  type Camera,
  type ParticleOptionsInput,
  type ParticlePath,
  type ParticleSystem,
} from '../../src/particles/index.js';
import { SHARD, torusMesh } from '../particles/presets.js';
import { createTorusDraw, type TorusDraw } from './torus.js';

/** The sun: where it travels; the shards, the terrain and the torus are lit by it. */
const SUN: [number, number, number] = [0.6, -1, -0.4];
/** What the lit systems are handed to receive the torus's shadow. */
type Shadow = { depth: TorusDraw['shadowMap']; matrix: Float32Array };

/** The terrain: 17 × 17 heights over 14 × 14 units, rolling hills about y = −3. */
export const TERRAIN = {
  shape: 'heightfield' as const,
  center: [0, -3, 0] as [number, number, number],
  size: [14, 14] as [number, number],
  columns: 17,
  heights: Array.from({ length: 17 * 17 }, (_, i) => {
    const [x, z] = [(i % 17) - 8, Math.floor(i / 17) - 8];
    return Math.round(100 * (0.6 * Math.sin(0.55 * x) * Math.cos(0.45 * z) + 0.02 * x)) / 100;
  }),
};

/** The wind: curl noise over the space above the terrain. */
const WIND = {
  module: 'field',
  min: [-7, -4, -7],
  max: [7, 4, 7],
  size: [10, 6, 10],
  curl: { frequency: 0.35, seed: 4 },
  strength: 2.5,
};

const TORUS = torusMesh();
/** The torus turns this fast about its own (tilting) axis, radians per second. */
const SPIN = 1.6;

/** Where the torus is at `time` seconds: half size, 1 unit up, turning about its tilting axis. */
function torusAt(time: number): {
  transform: Float32Array;
  angularVelocity: [number, number, number];
} {
  const transform = mat4.translation([0, 1, 0]);
  mat4.rotateX(transform, 0.35 * Math.sin(0.6 * time), transform);
  mat4.rotateY(transform, SPIN * time, transform);
  mat4.scale(transform, [0.5, 0.5, 0.5], transform);
  // the spin about the tilted axis (the tilt's own rate is small)
  const axis = mat4.getAxis(transform, 1);
  const length = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
  return {
    transform,
    angularVelocity: [0, 1, 2].map((i) => (axis[i]! / length) * SPIN) as [number, number, number],
  };
}

function sparks(count: number, path: 'auto' | ParticlePath): ParticleOptionsInput {
  const flat: ParticleOptionsInput = {
    count,
    path,
    emitRate: count / 1.8,
    emitter: { shape: 'point', position: [0, 0, 0], radius: 0, angle: 0 },
    mesh: { positions: TORUS.positions, indices: TORUS.indices, ...torusAt(0) },
    speedMin: 0.5,
    speedMax: 2,
    spread: 0.5,
    lifeMin: 2.2,
    lifeMax: 2.8,
    gravity: [0, -6, 0],
    drag: 0.3,
    size: 0.07,
    sizeOverLife: [1, 0.3],
    billboard: 'velocity',
    stretch: 0.05,
    colors: [
      [1, 1, 0.85, 1],
      [1, 0.75, 0.3, 1],
      [1, 0.35, 0.08, 0.8],
      [0.4, 0.08, 0.02, 0],
    ],
  };
  return {
    ...flat,
    modules: [
      ...particleModules(flat),
      WIND,
      { module: 'colliders', shapes: [TERRAIN], restitution: 0.35, friction: 0.2 },
    ],
  };
}

function shards(count: number, path: 'auto' | ParticlePath, shadow: Shadow): ParticleOptionsInput {
  const flat: ParticleOptionsInput = {
    count,
    path,
    emitRate: count / 3.5,
    emitter: { shape: 'point', position: [0, 0, 0], radius: 0, angle: 0 },
    mesh: { positions: TORUS.positions, indices: TORUS.indices, ...torusAt(0) },
    speedMin: 1,
    speedMax: 2.5,
    spread: 0.6,
    lifeMin: 3,
    lifeMax: 3.5,
    gravity: [0, -9.8, 0],
    drag: 0.2,
    size: 0.26,
    sizeOverLife: [1, 0.8],
    rotation: [0, 6.28],
    angularVelocity: [-5, 5],
    geometry: SHARD,
    light: { direction: SUN, color: [1, 0.93, 0.85], ambient: [0.2, 0.22, 0.3], shadow },
    blending: 'alpha',
    sort: true,
    colors: [
      [0.95, 0.65, 0.42, 1],
      [0.9, 0.58, 0.38, 1],
      [0.75, 0.48, 0.34, 1],
      [0.6, 0.4, 0.3, 0],
    ],
    colorStops: [0, 0.3, 0.85, 1],
  };
  return {
    ...flat,
    modules: [
      ...particleModules(flat),
      WIND,
      { module: 'colliders', shapes: [TERRAIN], restitution: 0.3, friction: 0.4 },
    ],
  };
}

/**
 * The terrain drawn: one still particle whose mesh is the heightfield's surface (the geometry
 * module, lit like the shards) — the collider and the ground the eye sees are the same heights.
 */
function ground(path: 'auto' | ParticlePath, shadow: Shadow): ParticleOptionsInput {
  const { center, size, columns, heights } = TERRAIN;
  const rows = heights.length / columns;
  const positions: number[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++)
      positions.push(
        center[0] - size[0] / 2 + (c * size[0]) / (columns - 1),
        center[1] + heights[r * columns + c]!,
        center[2] - size[1] / 2 + (r * size[1]) / (rows - 1),
      );
  const indices: number[] = [];
  for (let r = 0; r + 1 < rows; r++)
    for (let c = 0; c + 1 < columns; c++) {
      const [a, b, d] = [r * columns + c, r * columns + c + 1, (r + 1) * columns + c];
      // counter-clockwise seen from above
      indices.push(a, d + 1, b, a, d, d + 1);
    }
  const earth: [number, number, number, number] = [0.2, 0.25, 0.2, 1];
  return {
    count: 1,
    path,
    bursts: [{ time: 0, count: 1 }],
    emitter: { shape: 'point', position: [0, 0, 0], radius: 0, angle: 0 },
    speedMin: 0,
    speedMax: 0,
    spread: 0,
    lifeMin: 1e6,
    lifeMax: 1e6,
    gravity: [0, 0, 0],
    drag: 0,
    floorY: -1000,
    size: 1,
    sizeOverLife: [1, 1],
    geometry: { positions, indices },
    light: { direction: SUN, color: [0.9, 0.85, 0.8], ambient: [0.15, 0.16, 0.2], shadow },
    blending: 'alpha',
    colors: [earth, earth, earth, earth],
  };
}

export interface SceneEffects {
  readonly sparks: ParticleSystem;
  readonly shards: ParticleSystem;
  /** The terrain's surface, drawn as one mesh particle. */
  readonly terrain: ParticleSystem;
  /** Turns the torus to `time` and steps the systems by `dt` (recorded into `encoder`). */
  update(encoder: ReturnType<Device['createCommandEncoder']>, dt: number): void;
  /** The shards' sort (call after update, before the pass). */
  prepare(
    encoder: ReturnType<Device['createCommandEncoder']>,
    camera: Camera,
    target: { width: number; height: number },
  ): void;
  /**
   * The torus, the terrain, the shards, then the sparks, into a pass with a depth24plus
   * attachment (the torus, the terrain and the shards write depth: the sparks behind a hill are
   * hidden).
   */
  draw(pass: Parameters<ParticleSystem['draw']>[0], camera: Camera): void;
  camera(aspect: number): Camera;
  destroy(): void;
}

/**
 * The two systems over the terrain, on `path` (default: each backend's best), drawn into passes
 * of `format`.
 */
export async function createSceneEffects(
  device: Device,
  o: { format: TextureFormat; sparks?: number; shards?: number; path?: 'auto' | ParticlePath },
): Promise<SceneEffects> {
  const path = o.path ?? 'auto';
  const torus = createTorusDraw(
    device,
    o.format,
    { ...TORUS, ring: 3 },
    { direction: SUN, center: [0, -2, 0], extent: 20 },
  );
  const shadow = { depth: torus.shadowMap, matrix: torus.lightMatrix };
  const terrain = await createParticleSystem(device, ground(path, shadow));
  const shardSystem = await createParticleSystem(device, shards(o.shards ?? 600, path, shadow));
  const sparkSystem = await createParticleSystem(device, sparks(o.sparks ?? 6000, path));
  let time = 0;
  /** The torus where the last update left it: cast into the shadow map, then drawn. */
  let placed = torusAt(0);
  return {
    sparks: sparkSystem,
    shards: shardSystem,
    terrain,
    update(encoder, dt) {
      time += dt;
      // the same arrays with a new transform: only the mesh's uniforms change
      placed = torusAt(time);
      const mesh = { positions: TORUS.positions, indices: TORUS.indices, ...placed };
      torus.shadow(encoder, mesh.transform);
      for (const ps of [shardSystem, sparkSystem]) {
        ps.setOptions({ mesh });
        ps.update(encoder, dt);
      }
      terrain.update(encoder, dt);
    },
    prepare(encoder, camera, target) {
      for (const ps of [terrain, shardSystem, sparkSystem]) ps.prepareDraw(encoder, camera, target);
    },
    draw(pass, camera) {
      torus.draw(pass, camera, placed.transform);
      for (const ps of [terrain, shardSystem, sparkSystem]) ps.draw(pass, camera);
    },
    camera: (aspect) =>
      orbitCamera({ aspect, distance: 14, yaw: 0.5, pitch: 0.5, target: [0, -1.8, 0] }),
    destroy() {
      sparkSystem.destroy();
      shardSystem.destroy();
      terrain.destroy();
      torus.destroy();
    },
  };
}
