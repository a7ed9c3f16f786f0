// The particles demo's presets beyond the default fountain (a continuous system): options a person
// would recognise, each a function of the particle count. check/scenes/presets.ts runs each on
// every fallback rung in the tests.
import { TextureUsage, type Device, type Texture } from '../../src/index.js';
import { particleModules, type ParticleOptionsInput } from '../../src/particles/index.js';

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
    // each star leaves a fading trail of its last 10 positions
    trail: {
      length: 10,
      width: [0.06, 0],
      colors: [
        [1, 0.85, 0.6, 0.8],
        [0.5, 0.2, 1, 0],
      ],
    },
    colors: [
      [1, 0.95, 0.8, 1],
      [0.4, 0.8, 1, 1],
      [0.8, 0.3, 1, 0.7],
      [0.3, 0.1, 0.5, 0],
    ],
  };
}

/**
 * Swirl (?preset=swirl): motes drifting up through a vortex, each drawing a long ribbon of its last
 * 48 positions — the trail module over a module list (the vortex comes only in a list).
 */
export function swirl(count: number, seed = 1): ParticleOptionsInput {
  const base: ParticleOptionsInput = {
    count,
    seed,
    emitRate: count / 3,
    emitter: { shape: 'sphere', position: [0, -7, 0], radius: 3, angle: 0 },
    speedMin: 0.5,
    speedMax: 1,
    spread: 0.3,
    lifeMin: 2.5,
    lifeMax: 3,
    gravity: [0, 1.5, 0],
    drag: 1.2,
    size: 0.06,
    sizeOverLife: [1, 0.3],
    colors: [
      [0.9, 0.95, 1, 1],
      [0.5, 0.8, 1, 1],
      [0.7, 0.3, 1, 0.8],
      [0.4, 0.1, 0.6, 0],
    ],
    trail: {
      length: 48,
      width: [0.08, 0],
      colors: [
        [0.5, 0.75, 1, 0.45],
        [0.8, 0.2, 1, 0],
      ],
    },
  };
  return {
    ...base,
    modules: [
      ...particleModules(base),
      { module: 'vortex', center: [0, -4, 0], strength: 8, pull: 6, radius: 0.8 },
    ],
  };
}

/** Sparks (?preset=sparks): a grinder's shower, each spark a streak along its motion, bouncing off the floor. */
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
    // the demo's floor (floorY -10): sparks skip along it instead of vanishing
    bounce: { restitution: 0.35, friction: 0.3 },
    colors: [
      [1, 1, 0.85, 1],
      [1, 0.8, 0.3, 1],
      [1, 0.4, 0.1, 0.8],
      [0.6, 0.1, 0.05, 0],
    ],
  };
}

/**
 * Shapes (?preset=shapes): a shower over a ball, a box and a capsule on a floor — the colliders
 * module (analytic shapes, nothing passes through) — each drop lit from the upper left (the light
 * module), so the shower reads as round beads.
 */
export function shapes(count: number, seed = 1): ParticleOptionsInput {
  const flat: ParticleOptionsInput = {
    count,
    seed,
    emitRate: count / 2.2,
    emitter: { shape: 'box', position: [0, -1, 0], radius: 2.5, angle: 0 },
    speedMin: 0,
    speedMax: 0.5,
    spread: 0.5,
    lifeMin: 1.8,
    lifeMax: 2.4,
    gravity: [0, -9.8, 0],
    drag: 0,
    size: 0.24,
    sizeOverLife: [1, 0.8],
    blending: 'alpha',
    light: { direction: [1, -1, -0.5], color: [1, 0.95, 0.85], ambient: [0.2, 0.22, 0.3] },
    colors: [
      [0.55, 0.8, 1, 1],
      [0.45, 0.7, 1, 1],
      [0.4, 0.6, 0.95, 0.9],
      [0.3, 0.5, 0.9, 0],
    ],
  };
  return {
    ...flat,
    modules: [
      ...particleModules(flat),
      {
        module: 'colliders',
        shapes: [
          { shape: 'sphere', center: [0, -5.5, 0], radius: 1.4 },
          { shape: 'box', center: [2.3, -6.6, 0], size: [1.4, 1.4, 1.4] },
          { shape: 'capsule', a: [-2.4, -7, 0], b: [-1.9, -5.2, 0], radius: 0.45 },
          { shape: 'plane', point: [0, -7.6, 0], normal: [0, 1, 0] },
        ],
        restitution: 0.35,
        friction: 0.15,
      },
    ],
  };
}

/**
 * Debris (?preset=debris): lit shards thrown up from a point, tumbling about axes of their own,
 * bouncing off a ball and the floor — mesh particles (the geometry module: each particle drawn as
 * `SHARD`, lit by its normals) with the colliders module.
 */
export function debris(count: number, seed = 1): ParticleOptionsInput {
  const flat: ParticleOptionsInput = {
    count,
    seed,
    emitRate: count / 3,
    emitter: { shape: 'cone', position: [0, -7.4, 0], radius: 0.2, angle: 0.45 },
    speedMin: 7,
    speedMax: 10,
    lifeMin: 2.6,
    lifeMax: 3,
    gravity: [0, -9.8, 0],
    drag: 0.1,
    size: 0.22,
    sizeOverLife: [1, 0.7],
    angularVelocity: [-7, 7],
    rotation: [0, 6.28],
    blending: 'alpha',
    geometry: SHARD,
    light: { direction: [1, -1.5, -0.6], color: [1, 0.92, 0.8], ambient: [0.18, 0.2, 0.26] },
    colors: [
      [0.95, 0.75, 0.45, 1],
      [0.85, 0.55, 0.3, 1],
      [0.6, 0.4, 0.3, 1],
      [0.4, 0.3, 0.25, 0],
    ],
    colorStops: [0, 0.3, 0.8, 1],
  };
  return {
    ...flat,
    modules: [
      ...particleModules(flat),
      {
        module: 'colliders',
        shapes: [
          { shape: 'sphere', center: [1.8, -6.4, 0.4], radius: 1.1 },
          { shape: 'plane', point: [0, -7.6, 0], normal: [0, 1, 0] },
        ],
        restitution: 0.45,
        friction: 0.3,
      },
    ],
  };
}

/** How debris is framed (orbitCamera's options): close to the floor, from a little above. */
export const DEBRIS_VIEW = {
  distance: 8,
  target: [0, -6, 0] as [number, number, number],
  pitch: 0.35,
};

/**
 * A shard: a flattened tetrahedron (−0.5 to 0.5 across, thinner in z), counter-clockwise seen from
 * outside, no normals (each face drawn flat).
 */
export const SHARD: TriangleMesh = {
  positions: [0.5, 0.5, 0.2, -0.5, -0.5, 0.2, -0.5, 0.5, -0.2, 0.5, -0.5, -0.2],
  indices: [0, 1, 3, 0, 2, 1, 0, 3, 2, 1, 2, 3],
};

/**
 * Drift: motes carried by a curl-noise wind (the field module as a velocity: they follow it,
 * swirling without bunching), each trailing a short ribbon.
 */
export function drift(count: number, seed = 1): ParticleOptionsInput {
  const flat: ParticleOptionsInput = {
    count,
    seed,
    emitRate: count / 4,
    emitter: { shape: 'box', position: [0, -4, 0], radius: 4, angle: 0 },
    speedMin: 0,
    speedMax: 0.2,
    lifeMin: 3,
    lifeMax: 4,
    gravity: [0, 0, 0],
    drag: 0,
    size: 0.1,
    sizeOverLife: [1, 0.6],
    trail: {
      length: 12,
      width: [0.07, 0],
      colors: [
        [0.7, 1, 0.85, 0.9],
        [0.2, 0.5, 1, 0],
      ],
    },
    colors: [
      [0.8, 1, 0.9, 0.3],
      [0.7, 1, 0.85, 1],
      [0.4, 0.7, 1, 0.9],
      [0.2, 0.3, 1, 0],
    ],
    colorStops: [0, 0.1, 0.6, 1],
  };
  return {
    ...flat,
    modules: [
      ...particleModules(flat),
      {
        module: 'field',
        min: [-6, -9, -6],
        max: [6, 3, 6],
        size: [12, 12, 12],
        curl: { frequency: 0.25, seed: 2 },
        strength: 2.5,
        as: 'velocity',
        tiling: 'repeat',
      },
    ],
  };
}

/**
 * Embers: sparks shed from a ring's surface (the mesh module: born on its triangles uniformly by
 * area, pushed out along the surface's normal), rising and cooling. `mesh`: `torusMesh()`, whose
 * vertex colours (white-hot on one side, a dull red on the other) tint each ember where it is born.
 */
export function embers(count: number, mesh: TriangleMesh, seed = 1): ParticleOptionsInput {
  return {
    count,
    seed,
    emitRate: count / 1.6,
    emitter: { shape: 'point', position: [0, -4, 0], radius: 0, angle: 0.6 },
    mesh,
    speedMin: 0.4,
    speedMax: 1.2,
    lifeMin: 1.2,
    lifeMax: 1.8,
    gravity: [0, 1.6, 0],
    drag: 0.6,
    size: 0.07,
    sizeOverLife: [1, 0.3],
    turbulence: { strength: 1.5, frequency: 0.6 },
    colors: [
      [1, 0.95, 0.7, 1],
      [1, 0.6, 0.2, 1],
      [0.9, 0.25, 0.05, 0.7],
      [0.3, 0.05, 0.02, 0],
    ],
  };
}

/**
 * A triangle mesh as plain arrays: x, y, z per vertex, three indices per triangle, and optionally
 * r, g, b per vertex (the mesh module tints births by them).
 */
export interface TriangleMesh {
  positions: number[];
  indices: number[];
  colors?: number[];
}

/**
 * A torus lying in the xz plane (radius 3, tube 0.6; 32 × 12 segments), its coordinates rounded
 * to 1e-4 so that effects/meshes/torus.json, which holds the same numbers, stays small. Its vertex
 * colours run around the ring from white at +x to a dull red at −x (rounded to 1e-3).
 */
export function torusMesh(): TriangleMesh {
  const [around, tube, big, small] = [32, 12, 3, 0.6];
  const positions: number[] = [];
  const indices: number[] = [];
  const colors: number[] = [];
  const round = (x: number): number => Math.round(x * 1e4) / 1e4 + 0;
  const hot = [1, 1, 1];
  const cool = [0.9, 0.3, 0.12];
  for (let i = 0; i < around; i++)
    for (let j = 0; j < tube; j++) {
      const [u, v] = [(2 * Math.PI * i) / around, (2 * Math.PI * j) / tube];
      const r = big + small * Math.cos(v);
      positions.push(round(r * Math.cos(u)), round(small * Math.sin(v)), round(r * Math.sin(u)));
      const t = 0.5 + 0.5 * Math.cos(u);
      colors.push(...cool.map((c, k) => Math.round((c + (hot[k]! - c) * t) * 1e3) / 1e3));
      const a = i * tube + j;
      const b = ((i + 1) % around) * tube + j;
      const c = ((i + 1) % around) * tube + ((j + 1) % tube);
      const d = i * tube + ((j + 1) % tube);
      indices.push(a, b, c, a, c, d);
    }
  return { positions, indices, colors };
}

/**
 * Fire (?preset=fire): soft flame sprites from a 4 × 4 flipbook (`flameSheet`), cross-faded,
 * turning as they rise.
 */
export function fire(count: number, sheet: Texture, seed = 1): ParticleOptionsInput {
  return {
    count,
    seed,
    emitter: { shape: 'box', position: [0, -8.5, 0], radius: 0.8 },
    spread: 0.3,
    speedMin: 1.5,
    speedMax: 3,
    lifeMin: 0.9,
    lifeMax: 1.6,
    gravity: [0, 2, 0],
    drag: 0.5,
    size: 1.1,
    sizeOverLife: [0.6, 1.4],
    texture: sheet,
    spriteSheet: { columns: 4, rows: 4, blend: true },
    rotation: [-Math.PI, Math.PI],
    angularVelocity: [-1.2, 1.2],
    colors: [
      [1, 0.9, 0.5, 0.16],
      [1, 0.5, 0.15, 0.14],
      [0.7, 0.15, 0.05, 0.1],
      [0.2, 0.05, 0.03, 0],
    ],
  };
}

/**
 * Smoke (?preset=smoke): grey puffs (`puffTexture`) that rise, spread, grow and turn, drawn with
 * alpha blending sorted back to front every frame (`sort`: a puff nearer the camera hides the
 * ones behind it, whatever their slots), lit by a low sun from the upper right through each
 * puff's own relief (`puffNormalTexture`: light.normalMap).
 */
export function smoke(
  count: number,
  puff: Texture,
  puffNormals: Texture,
  seed = 1,
): ParticleOptionsInput {
  return {
    count,
    seed,
    emitRate: count / 4.5,
    prewarm: 3,
    emitter: { shape: 'sphere', position: [0, -8.5, 0], radius: 0.5 },
    spread: 0.35,
    speedMin: 1.5,
    speedMax: 2.5,
    lifeMin: 3,
    lifeMax: 4.5,
    gravity: [0.6, 0.8, 0],
    drag: 0.35,
    size: 0.7,
    sizeOverLife: [0.5, 3],
    texture: puff,
    light: {
      direction: [-0.7, -0.45, -0.35],
      color: [1.05, 0.95, 0.8],
      ambient: [0.32, 0.34, 0.42],
      normalMap: puffNormals,
    },
    rotation: [-Math.PI, Math.PI],
    angularVelocity: [-0.3, 0.3],
    blending: 'alpha',
    sort: true,
    colors: [
      [0.62, 0.58, 0.55, 0],
      [0.55, 0.53, 0.52, 0.4],
      [0.4, 0.4, 0.43, 0.22],
      [0.3, 0.3, 0.33, 0],
    ],
    colorStops: [0, 0.08, 0.55, 1],
  };
}

/**
 * A smoke puff drawn here rather than shipped as an image: 64 × 64 texels, a soft round blob
 * broken by a few octaves of value noise (white: the colour over life tints it).
 */
export function puffTexture(device: Device): Texture {
  return imageTexture(device, 'smoke puff', puffPixels());
}

/** The smoke puff's texels (rgba8, 64 × 64): effects/textures/puff.png holds the same. */
export function puffPixels(): Pixels {
  const size = 64;
  const lattice = (x: number, y: number, seed: number): number => {
    let h = (x * 374761393 + y * 668265263 + seed * 2147483647) | 0;
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967295;
  };
  const noise = (x: number, y: number, seed: number): number => {
    const [ix, iy] = [Math.floor(x), Math.floor(y)];
    const [fx, fy] = [x - ix, y - iy];
    const [sx, sy] = [fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)];
    const top = lattice(ix, iy, seed) * (1 - sx) + lattice(ix + 1, iy, seed) * sx;
    const bottom = lattice(ix, iy + 1, seed) * (1 - sx) + lattice(ix + 1, iy + 1, seed) * sx;
    return top * (1 - sy) + bottom * sy;
  };
  const data = new Uint8Array(4 * size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const [u, v] = [(x + 0.5) / size - 0.5, (y + 0.5) / size - 0.5];
      const fbm =
        0.5 * noise(u * 6, v * 6, 1) +
        0.3 * noise(u * 12, v * 12, 2) +
        0.2 * noise(u * 24, v * 24, 3);
      const r = Math.hypot(u, v) / 0.5;
      const alpha = Math.max(0, 1 - r * r) ** 1.4 * Math.min(1, 0.35 + fbm);
      data.set([255, 255, 255, Math.round(255 * alpha)], 4 * (y * size + x));
    }
  return { size, data };
}

/** The smoke puff's normal map (light.normalMap): `puffNormalPixels`. */
export function puffNormalTexture(device: Device): Texture {
  return imageTexture(device, 'smoke puff normals', puffNormalPixels());
}

/**
 * The smoke puff's normals (rgba8, 64 × 64; effects/textures/puff-normals.png holds the same): the
 * puff's opacity taken as a height over a dome, differenced across its texels — a billow's lumps
 * catch the light on one side and shade the other. rgb = n · 0.5 + 0.5 with x along the image's
 * right, y up it, z out of it.
 */
export function puffNormalPixels(): Pixels {
  const { size, data: puff } = puffPixels();
  const height = (x: number, y: number): number => {
    const [cx, cy] = [Math.min(size - 1, Math.max(0, x)), Math.min(size - 1, Math.max(0, y))];
    const [u, v] = [(cx + 0.5) / size - 0.5, (cy + 0.5) / size - 0.5];
    const dome = Math.sqrt(Math.max(0, 0.25 - u * u - v * v));
    return 0.6 * dome + (0.3 * (puff[4 * (cy * size + cx) + 3] as number)) / 255;
  };
  const data = new Uint8Array(4 * size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      // per texel: rows grow downwards, so "up the image" is −y
      const dx = ((height(x + 1, y) - height(x - 1, y)) * size) / 2;
      const dy = ((height(x, y - 1) - height(x, y + 1)) * size) / 2;
      const n = [-dx, -dy, 1];
      const l = Math.hypot(n[0]!, n[1]!, n[2]!);
      data.set([...n.map((c) => Math.round(255 * (c / l / 2 + 0.5))), 255], 4 * (y * size + x));
    }
  return { size, data };
}

/**
 * A flame flipbook drawn here rather than shipped as an image: 16 frames of 32 × 32 texels, a soft
 * blob with licking tongues that grows and fades over the frames (white: the particle's colour
 * over life tints it).
 */
export function flameSheet(device: Device): Texture {
  return imageTexture(device, 'flame flipbook', flamePixels());
}

/** The flame flipbook's texels (rgba8, 128 × 128): effects/textures/flame.png holds the same. */
export function flamePixels(): Pixels {
  const cell = 32;
  const size = 4 * cell;
  const data = new Uint8Array(4 * size * size);
  for (let frame = 0; frame < 16; frame++) {
    const t = frame / 15;
    const [cx, cy] = [(frame % 4) * cell, Math.floor(frame / 4) * cell];
    for (let y = 0; y < cell; y++)
      for (let x = 0; x < cell; x++) {
        const dx = (x + 0.5) / cell - 0.5;
        const dy = (y + 0.5) / cell - 0.5;
        const angle = Math.atan2(dy, dx);
        const reach = (0.22 + 0.22 * t) * (1 + 0.3 * (1 - t) * Math.sin(5 * angle + 9 * t));
        const r = Math.hypot(dx, dy) / reach;
        const alpha = Math.max(0, 1 - r * r) ** 1.5 * (1 - 0.6 * t);
        data.set([255, 255, 255, Math.round(255 * alpha)], 4 * ((cy + y) * size + cx + x));
      }
  }
  return { size, data };
}

/** A square image's rgba8 texels, row by row. */
export interface Pixels {
  size: number;
  data: Uint8Array;
}

/** A square rgba8unorm texture of `size`² texels holding `data`, for sprites. */
export function imageTexture(device: Device, label: string, { size, data }: Pixels): Texture {
  const texture = device.createTexture({
    label,
    size: { width: size, height: size },
    format: 'rgba8unorm',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  device.queue.writeTexture(
    { texture },
    data,
    { bytesPerRow: 4 * size },
    { width: size, height: size },
  );
  return texture;
}
