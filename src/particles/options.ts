/** Options of a particle system, their defaults (the canonical rule of docs/particles.md) and checks. */
import { ValidationError } from '../rhi/core/errors.js';
import type { Burst, BurstInput } from './emission.js';
import type { Texture } from '../rhi/core/texture.js';
import type { SceneDepthArray } from '../compute/paths/path.js';
import type { ParticleCollision } from './collision.js';

export type Vec3 = readonly [number, number, number];
export type Vec4 = readonly [number, number, number, number];
/** Where the particle update runs: WebGPU compute, WebGL2 ping-pong or the CPU. */
export type ParticlePath = 'compute' | 'pingpong' | 'cpu';
/** How particles are drawn: raster quads (`instanced`, `pulled`) or a compute splat (`splat`, additive, WebGPU). */
export type DrawMode = 'instanced' | 'pulled' | 'splat';

/** Where particles are born: a point, sphere or cone, its position, radius and angle. */
export interface EmitterOptions {
  /** `box` (the canonical jitter: a cube of half-size `radius`), `point`, `sphere` (a ball of `radius`), `cone` (from a point, around +y). */
  shape: 'box' | 'point' | 'sphere' | 'cone';
  position: Vec3;
  radius: number;
  /** Cone half-angle in radians. */
  angle: number;
}

/** A point that pulls particles with a strength (negative pushes). */
export interface Attractor {
  position: Vec3;
  /** Positive pulls, negative pushes; acceleration = strength · d / (|d|² + 0.01)^1.5. */
  strength: number;
}

/** Every option of a particle system, resolved (docs/particles.md lists them). */
export interface ParticleOptions {
  /** Particle slots (the capacity). Continuous (no `emitRate`/`bursts`): all alive, each respawning where it dies. */
  count: number;
  /**
   * Particles emitted per second; with it (or `bursts`) every slot starts dead and lives only
   * once emitted (docs/particles.md, "Emission"). null (default): continuous.
   */
  emitRate: number | null;
  /** Particles emitted at once, at times into the emitter's cycle. */
  bursts: readonly Burst[];
  /** Seconds of one emitter cycle: bursts fire within it; without `loop`, emission stops after it. */
  duration: number;
  /** Whether the emitter cycle repeats (default true). */
  loop: boolean;
  /** Seconds simulated (in steps of 1/60 s) before the first update, so the first frame is not empty. */
  prewarm: number;
  seed: number;
  path: 'auto' | ParticlePath;
  drawMode: 'auto' | DrawMode;
  emitter: EmitterOptions;
  /** Horizontal speed spread: vx, vz uniform in [-spread, spread]. */
  spread: number;
  speedMin: number;
  speedMax: number;
  lifeMin: number;
  lifeMax: number;
  gravity: Vec3;
  drag: number;
  floorY: number;
  /**
   * Particles that reach `floorY` bounce instead of dying: the vertical speed reversed and scaled
   * by `restitution` (0..1), the horizontal speed scaled by 1 − `friction` (0..1). null: they die.
   */
  bounce: { restitution: number; friction: number } | null;
  /**
   * Screen-space collisions with the scene's depth: `{ depth, camera, restitution = 0.3,
   * friction = 0.1, thickness = 0.5 }` — particles that go just behind the surface the depth holds
   * (seen from `camera`, the one it was drawn with) bounce off it. `depth`: a depth texture
   * (`TEXTURE_BINDING`) on the GPU paths, `{ data: Float32Array, width, height }` on the CPU path.
   * Part of the canonical rule (a `behavior` replaces it). null: off.
   */
  collision: ParticleCollision | null;
  /** Up to 8. */
  attractors: readonly Attractor[];
  /** Curl-noise turbulence: acceleration = strength · curl(A)(frequency · x, time); off at strength 0. */
  turbulence: { strength: number; frequency: number };
  /** Colour over life: four RGBA stops at `stops` (increasing life fractions). */
  colors: readonly [Vec4, Vec4, Vec4, Vec4];
  colorStops: Vec4;
  /** Particle size in world units, times `sizeOverLife[0]` at birth and `[1]` at death (linear). */
  size: number;
  sizeOverLife: readonly [number, number];
  blending: 'additive' | 'alpha';
  /**
   * `blending: 'alpha'`: draw back to front, sorted by view depth on the GPU every frame in
   * `prepareDraw` (a bitonic sort: compute passes on WebGPU, fragment passes over a float texture
   * on the fragment path; the CPU path sorts in JavaScript). Call `prepareDraw` after `update` and
   * before the pass each frame. Default false (unsorted: slot order).
   */
  sort: boolean;
  /**
   * `camera` (default): quads facing the camera. `velocity`: quads whose long axis follows the
   * particle's velocity on screen (sparks, rain), `stretch` longer per unit of speed.
   */
  billboard: 'camera' | 'velocity';
  /** `billboard: 'velocity'`: the quad's length is (1 + stretch · on-screen speed) times its size. */
  stretch: number;
  /**
   * An image for every particle instead of the soft disc (a texture of this device with
   * `TEXTURE_BINDING` usage, filterable), tinted by the colour over life; null: the disc.
   */
  texture: Texture | null;
  /** The texture as a flipbook: `columns` × `rows` frames, read left to right, top to bottom. */
  spriteSheet: SpriteSheet;
  /** Each particle's angle at birth, uniform in [min, max] radians (the quad turns; the disc looks the same). */
  rotation: readonly [number, number];
  /** Each particle's spin, uniform in [min, max] radians per second. */
  angularVelocity: readonly [number, number];
  /**
   * Soft particles: fade where a particle nears the scene's depth, over `distance` world units,
   * and vanish behind it. `depth`: the scene's depth texture (a depth format with
   * `TEXTURE_BINDING`, the size of the target), drawn before; the particles' pass must not have
   * it attached. null: off.
   */
  softParticles: SoftParticles | null;
  /**
   * Your own look in WGSL: `fn look(p: ParticleFragment) -> vec4f` (`p.color`: the colour over
   * life, `p.uv`: the corner from (-1, -1) to (1, 1), `p.age`, `p.life`), returning the
   * fragment's colour and alpha, instead of the disc or the texture. null: the disc or `texture`.
   */
  look: { code: string } | null;
  /**
   * A user-written update in WGSL replacing the canonical rule on every path (docs/particles.md,
   * "Behaviours"); null for the canonical rule (itself written as such a behaviour).
   */
  behavior: ParticleBehavior | null;
  /**
   * What the state becomes after `device.restore()` (a loss empties it): `reseed` (default) spawns
   * every particle again as at creation; `last-read` puts back what the last `ps.read()` returned
   * (that read keeps a copy: 32 bytes per particle in JavaScript), re-seeding if there was none.
   */
  onRestore: 'reseed' | 'last-read';
}

/** The scene depth soft particles fade against, and over what distance. */
export interface SoftParticles {
  depth: Texture;
  /** World units over which a particle fades out as it nears the scene's surface. */
  distance: number;
}

/** A flipbook: frames in a grid, chosen over life or by speed, optionally blended. */
export interface SpriteSheet {
  columns: number;
  rows: number;
  /** `life`: the frames play once over the particle's life; `speed`: frame = speed · `speedScale`. */
  frameOver: 'life' | 'speed';
  /** `frameOver: 'speed'`: frames per unit of speed (world units per second). */
  speedScale: number;
  /** Cross-fade each frame into the next (smooth, at two texture reads a pixel). */
  blend: boolean;
}

export interface ParticleBehavior {
  /**
   * WGSL defining `fn behavior(index: u32, p: Particle) -> Particle`, where `Particle` is
   * `{ position: vec4f (xyz, age in w), velocity: vec4f (xyz, life in w) }`. It may read
   * `params.<name>` (dt, time, stepIndex, seed, gravity, drag, … and its own `uniforms`) and call
   * `spawn(index) -> Particle` (the emitter's respawn), `rand(key: u32) -> f32` and `pcg`.
   */
  code: string;
  /** Its own uniforms by name: a number (f32) or a vec2/vec3/vec4 of f32. Values may change with setOptions. */
  uniforms?: Readonly<Record<string, number | readonly number[]>>;
  /**
   * `'all'`: the behaviour may call `particle(j: u32) -> Particle`, any particle as it was before
   * this step (flocking, neighbours), on every path; it costs a copy of the state per step on the
   * compute path. `'own'` (default): only its own particle.
   */
  reads?: 'own' | 'all';
}

/** The most attractors a particle system takes. */
export const MAX_ATTRACTORS = 8;

/** The uniforms every particle kernel has (a behaviour reads them as `params.<name>`). */
export const CANONICAL_UNIFORMS = [
  'seed',
  'stepIndex',
  'dt',
  'drag',
  'gravity',
  'floorY',
  'emitterPosition',
  'radius',
  'spread',
  'speedMin',
  'speedMax',
  'lifeMin',
  'lifeMax',
  'coneCos',
  'time',
  'turbulence',
  'frequency',
  'count',
  'width',
  'emitStart',
  'emitCount',
  'restitution',
  'keepAlong',
];

/** The options a particle system gets for everything it is not given. */
export const DEFAULT_OPTIONS: ParticleOptions = {
  count: 100_000,
  emitRate: null,
  bursts: [],
  duration: 5,
  loop: true,
  prewarm: 0,
  seed: 1,
  path: 'auto',
  drawMode: 'auto',
  // a fountain: a narrow cone shooting up and opening out as it falls (the first default was a
  // 0.1-wide box at 2–4 m/s, a thin column nobody wanted to watch)
  emitter: { shape: 'cone', position: [0, -5.5, 0], radius: 0.1, angle: 0.32 },
  spread: 0.5,
  speedMin: 7,
  speedMax: 10,
  lifeMin: 2,
  lifeMax: 3.2,
  gravity: [0, -9.8, 0],
  drag: 0.1,
  floorY: -10,
  bounce: null,
  collision: null,
  attractors: [],
  turbulence: { strength: 0, frequency: 1 },
  colors: [
    [1, 0.85, 0.4, 1],
    [1, 0.45, 0.1, 0.9],
    [0.6, 0.12, 0.05, 0.6],
    [0.2, 0.05, 0.03, 0],
  ],
  colorStops: [0, 0.25, 0.6, 1],
  size: 0.07,
  sizeOverLife: [1, 0.4],
  blending: 'additive',
  sort: false,
  billboard: 'camera',
  stretch: 0,
  texture: null,
  spriteSheet: { columns: 1, rows: 1, frameOver: 'life', speedScale: 1, blend: false },
  rotation: [0, 0],
  angularVelocity: [0, 0],
  softParticles: null,
  look: null,
  behavior: null,
  onRestore: 'reseed',
};

/** What `createParticleSystem` takes: any subset of the options (nested emitter/turbulence partial too). */
export type ParticleOptionsInput = Partial<
  Omit<ParticleOptions, 'emitter' | 'turbulence' | 'bursts' | 'spriteSheet' | 'collision'>
> & {
  collision?: CollisionInput | null;
  spriteSheet?: Partial<SpriteSheet>;
  bursts?: readonly BurstInput[];
  emitter?: Partial<EmitterOptions>;
  turbulence?: Partial<ParticleOptions['turbulence']>;
};

/** `collision` as given: restitution, friction and thickness may be left out. */
export type CollisionInput = Pick<ParticleCollision, 'depth' | 'camera'> &
  Partial<Omit<ParticleCollision, 'depth' | 'camera'>>;

/** `collision` with its defaults, each value checked (the depth's kind against the path: system.ts). */
function resolveCollision(c: CollisionInput | null): ParticleCollision | null {
  if (c === null) return null;
  if (!c || typeof c !== 'object')
    throw new ParticleOptionError(
      'collision',
      c,
      'must be null or { depth, camera, restitution?, friction?, thickness? }',
    );
  const out = { restitution: 0.3, friction: 0.1, thickness: 0.5, ...c };
  const depth = out.depth as unknown;
  const isArray = !!depth && (depth as SceneDepthArray).data instanceof Float32Array;
  const isTexture = !!depth && (depth as Texture).kind === 'texture';
  if (!isArray && !isTexture)
    throw new ParticleOptionError(
      'collision.depth',
      depth,
      'must be the scene depth texture, or { data: Float32Array, width, height } on the CPU path',
    );
  if (isArray) {
    const { data, width, height } = depth as SceneDepthArray;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
      throw new ParticleOptionError(
        'collision.depth',
        `${String(width)}x${String(height)}`,
        'needs a positive integer width and height',
      );
    if (data.length !== width * height)
      throw new ParticleOptionError(
        'collision.depth.data',
        data.length,
        `must hold width × height = ${width * height} depths`,
      );
  }
  const cam = out.camera as unknown as { view?: ArrayLike<number>; projection?: ArrayLike<number> };
  if (!cam || cam.view?.length !== 16 || cam.projection?.length !== 16)
    throw new ParticleOptionError(
      'collision.camera',
      out.camera,
      'must be { view, projection }: 4×4 matrices, the camera the depth was drawn with',
    );
  for (const key of ['restitution', 'friction'] as const) {
    finite(`collision.${key}`, out[key]);
    if (out[key] < 0 || out[key] > 1)
      throw new ParticleOptionError(`collision.${key}`, out[key], 'must be from 0 to 1');
  }
  finite('collision.thickness', out.thickness);
  if (out.thickness <= 0)
    throw new ParticleOptionError('collision.thickness', out.thickness, 'must be positive');
  return out;
}

/** A bad option: `option` names it (dotted path), `value` holds it. */
export class ParticleOptionError extends ValidationError {
  readonly option: string;
  readonly value: unknown;
  constructor(option: string, value: unknown, why: string) {
    super(
      'particle-option',
      `Particle option ${option} = ${formatValue(value)} ${why}`,
      'particle system',
      { option, value },
    );
    this.option = option;
    this.value = value;
  }
}

function formatValue(v: unknown): string {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : JSON.stringify(v);
}

function finite(option: string, v: unknown): void {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ParticleOptionError(option, v, 'must be a finite number');
}

function vector(option: string, v: unknown, n: number): void {
  if (!Array.isArray(v) || v.length !== n)
    throw new ParticleOptionError(option, v, `must be an array of ${n} numbers`);
  v.forEach((x, i) => finite(`${option}[${i}]`, x));
}

/**
 * Why options cannot be drawn by the splat (a sum of round camera-facing discs), or null: the
 * options a splat needs, said as `drawMode: 'splat'`'s error and as `auto`'s reason to skip it.
 */
export function splatBlocker(
  o: Pick<ParticleOptions, 'blending' | 'billboard' | 'texture' | 'softParticles' | 'look'>,
): string | null {
  if (o.blending !== 'additive')
    return `needs blending 'additive' (a sum does not depend on order; blending is '${String(o.blending)}')`;
  if (o.billboard !== 'camera')
    return `needs billboard 'camera' (a splat adds round camera-facing discs; billboard is '${String(o.billboard)}')`;
  if (o.texture !== null) return 'needs no texture (a splat adds round discs, not images)';
  if (o.softParticles !== null)
    return 'needs no softParticles (a splat does not read the scene depth)';
  if (o.look !== null) return 'needs no look (a splat adds round discs)';
  return null;
}

/** Bursts with their defaults, each value checked. */
function resolveBursts(input: unknown): Burst[] {
  if (!Array.isArray(input))
    throw new ParticleOptionError(
      'bursts',
      input,
      'must be an array of { time, count, cycles?, interval? }',
    );
  return input.map((b: unknown, i) => {
    if (!b || typeof b !== 'object' || Array.isArray(b))
      throw new ParticleOptionError(
        `bursts[${i}]`,
        b,
        'must be { time, count, cycles?, interval? }',
      );
    const burst = { cycles: 1, interval: 0.1, ...(b as BurstInput) };
    for (const key of ['time', 'count', 'cycles', 'interval'] as const) {
      finite(`bursts[${i}].${key}`, burst[key]);
      if (burst[key] < 0)
        throw new ParticleOptionError(`bursts[${i}].${key}`, burst[key], 'must not be negative');
    }
    for (const key of ['count', 'cycles'] as const)
      if (!Number.isInteger(burst[key]))
        throw new ParticleOptionError(`bursts[${i}].${key}`, burst[key], 'must be an integer');
    if (burst.cycles > 1 && burst.interval <= 0)
      throw new ParticleOptionError(
        `bursts[${i}].interval`,
        burst.interval,
        `must be positive when the burst repeats (cycles ${burst.cycles})`,
      );
    return burst;
  });
}

/** Merges over the defaults and checks every value; throws `ParticleOptionError` naming the option. */
export function resolveOptions(input: ParticleOptionsInput = {}): ParticleOptions {
  if (!input || typeof input !== 'object')
    throw new ParticleOptionError('options', input, 'must be an object of particle options');
  for (const key of ['emitter', 'turbulence', 'spriteSheet'] as const) {
    const v = (input as Record<string, unknown>)[key];
    if (v !== undefined && (!v || typeof v !== 'object' || Array.isArray(v)))
      throw new ParticleOptionError(key, v, 'must be an object');
  }
  const o: ParticleOptions = {
    ...DEFAULT_OPTIONS,
    ...input,
    emitter: { ...DEFAULT_OPTIONS.emitter, ...input.emitter },
    turbulence: { ...DEFAULT_OPTIONS.turbulence, ...input.turbulence },
    spriteSheet: { ...DEFAULT_OPTIONS.spriteSheet, ...input.spriteSheet },
    bursts: resolveBursts(input.bursts === undefined ? [] : input.bursts),
    collision: resolveCollision(input.collision ?? null),
  } as ParticleOptions;
  if (o.collision && o.behavior)
    throw new ParticleOptionError(
      'collision',
      '{ … }',
      'is part of the canonical rule, which a behavior replaces: collide in your behavior, or leave one out',
    );
  if (o.emitRate !== null) {
    finite('emitRate', o.emitRate);
    if (o.emitRate < 0)
      throw new ParticleOptionError(
        'emitRate',
        o.emitRate,
        'must not be negative (or null: continuous)',
      );
  }
  finite('duration', o.duration);
  if (o.duration <= 0) throw new ParticleOptionError('duration', o.duration, 'must be positive');
  if (typeof o.loop !== 'boolean')
    throw new ParticleOptionError('loop', o.loop, 'must be true or false');
  finite('prewarm', o.prewarm);
  if (o.prewarm < 0 || o.prewarm > 60)
    throw new ParticleOptionError('prewarm', o.prewarm, 'must be from 0 to 60 seconds');
  if (typeof o.count !== 'number' || !Number.isInteger(o.count) || o.count < 1)
    throw new ParticleOptionError('count', o.count, 'must be a positive integer');
  if (typeof o.seed !== 'number' || !Number.isInteger(o.seed) || o.seed < 0 || o.seed > 0xffffffff)
    throw new ParticleOptionError('seed', o.seed, 'must be an integer from 0 to 2^32 - 1');
  if (!['auto', 'compute', 'pingpong', 'cpu'].includes(o.path))
    throw new ParticleOptionError('path', o.path, "must be 'auto', 'compute', 'pingpong' or 'cpu'");
  if (!['auto', 'instanced', 'pulled', 'splat'].includes(o.drawMode))
    throw new ParticleOptionError(
      'drawMode',
      o.drawMode,
      "must be 'auto', 'instanced', 'pulled' or 'splat'",
    );
  if (o.billboard !== 'camera' && o.billboard !== 'velocity')
    throw new ParticleOptionError('billboard', o.billboard, "must be 'camera' or 'velocity'");
  finite('stretch', o.stretch);
  const t = o.texture as unknown;
  if (t !== null && (!t || typeof t !== 'object' || (t as { kind?: unknown }).kind !== 'texture'))
    throw new ParticleOptionError('texture', t, 'must be null or a texture of this device');
  const sheet = o.spriteSheet;
  for (const key of ['columns', 'rows'] as const)
    if (!Number.isInteger(sheet[key]) || sheet[key] < 1 || sheet[key] > 64)
      throw new ParticleOptionError(
        `spriteSheet.${key}`,
        sheet[key],
        'must be an integer from 1 to 64',
      );
  if (sheet.frameOver !== 'life' && sheet.frameOver !== 'speed')
    throw new ParticleOptionError(
      'spriteSheet.frameOver',
      sheet.frameOver,
      "must be 'life' or 'speed'",
    );
  finite('spriteSheet.speedScale', sheet.speedScale);
  if (sheet.speedScale < 0)
    throw new ParticleOptionError(
      'spriteSheet.speedScale',
      sheet.speedScale,
      'must not be negative',
    );
  if (typeof sheet.blend !== 'boolean')
    throw new ParticleOptionError('spriteSheet.blend', sheet.blend, 'must be true or false');
  if (t === null && sheet.columns * sheet.rows > 1)
    throw new ParticleOptionError(
      'spriteSheet',
      `${sheet.columns}×${sheet.rows}`,
      "needs a texture (the flipbook's frames are in it)",
    );
  const soft = o.softParticles as unknown;
  if (soft !== null) {
    const d = (soft as { depth?: { kind?: unknown } } | undefined)?.depth;
    if (!soft || typeof soft !== 'object' || !d || d.kind !== 'texture')
      throw new ParticleOptionError(
        'softParticles',
        soft,
        'must be null or { depth: the scene depth texture, distance }',
      );
    const distance = (soft as SoftParticles).distance;
    finite('softParticles.distance', distance);
    if (distance <= 0)
      throw new ParticleOptionError('softParticles.distance', distance, 'must be positive');
  }
  const bounce = o.bounce as unknown;
  if (bounce !== null) {
    if (!bounce || typeof bounce !== 'object')
      throw new ParticleOptionError('bounce', bounce, 'must be null or { restitution, friction }');
    for (const key of ['restitution', 'friction'] as const) {
      const v = (bounce as Record<string, unknown>)[key];
      finite(`bounce.${key}`, v);
      if ((v as number) < 0 || (v as number) > 1)
        throw new ParticleOptionError(`bounce.${key}`, v, 'must be from 0 to 1');
    }
  }
  const look = o.look as unknown;
  if (look !== null) {
    if (!look || typeof look !== 'object' || typeof (look as { code?: unknown }).code !== 'string')
      throw new ParticleOptionError(
        'look',
        look,
        'must be null or { code: WGSL defining look(p) }',
      );
    if (o.texture !== null)
      throw new ParticleOptionError(
        'look',
        '(its WGSL)',
        'and texture both set the look: give one (a look may draw anything a texture would)',
      );
  }
  for (const key of ['rotation', 'angularVelocity'] as const) {
    vector(key, o[key], 2);
    if ((o[key][0] as number) > (o[key][1] as number))
      throw new ParticleOptionError(key, o[key], 'must be [min, max] with min ≤ max');
  }
  if (o.stretch < 0) throw new ParticleOptionError('stretch', o.stretch, 'must not be negative');
  const blocker = o.drawMode === 'splat' ? splatBlocker(o) : null;
  if (blocker) throw new ParticleOptionError('drawMode', o.drawMode, blocker);
  if (!['box', 'point', 'sphere', 'cone'].includes(o.emitter.shape))
    throw new ParticleOptionError(
      'emitter.shape',
      o.emitter.shape,
      "must be 'box', 'point', 'sphere' or 'cone'",
    );
  vector('emitter.position', o.emitter.position, 3);
  for (const key of ['radius', 'angle'] as const) {
    finite(`emitter.${key}`, o.emitter[key]);
    if (o.emitter[key] < 0)
      throw new ParticleOptionError(`emitter.${key}`, o.emitter[key], 'must not be negative');
  }
  for (const key of [
    'spread',
    'speedMin',
    'speedMax',
    'lifeMin',
    'lifeMax',
    'drag',
    'floorY',
    'size',
  ] as const)
    finite(key, o[key]);
  if (o.lifeMin <= 0) throw new ParticleOptionError('lifeMin', o.lifeMin, 'must be positive');
  if (o.lifeMin > o.lifeMax)
    throw new ParticleOptionError('lifeMin', o.lifeMin, `must not exceed lifeMax (${o.lifeMax})`);
  if (o.speedMin > o.speedMax)
    throw new ParticleOptionError(
      'speedMin',
      o.speedMin,
      `must not exceed speedMax (${o.speedMax})`,
    );
  if (o.drag < 0) throw new ParticleOptionError('drag', o.drag, 'must not be negative');
  if (o.size <= 0) throw new ParticleOptionError('size', o.size, 'must be positive');
  vector('gravity', o.gravity, 3);
  vector('sizeOverLife', o.sizeOverLife, 2);
  vector('colorStops', o.colorStops, 4);
  if (!Array.isArray(o.colors) || o.colors.length !== 4)
    throw new ParticleOptionError('colors', o.colors, 'must be four RGBA stops');
  o.colors.forEach((c, i) => vector(`colors[${i}]`, c, 4));
  for (let i = 1; i < 4; i++) {
    if ((o.colorStops[i] as number) < (o.colorStops[i - 1] as number))
      throw new ParticleOptionError('colorStops', o.colorStops, 'must be increasing');
  }
  if (!Array.isArray(o.attractors))
    throw new ParticleOptionError('attractors', o.attractors, 'must be an array');
  if (o.attractors.length > MAX_ATTRACTORS)
    throw new ParticleOptionError(
      'attractors',
      `${o.attractors.length} attractors`,
      `exceeds the maximum of ${MAX_ATTRACTORS}`,
    );
  o.attractors.forEach((a, i) => {
    vector(`attractors[${i}].position`, a.position, 3);
    finite(`attractors[${i}].strength`, a.strength);
  });
  finite('turbulence.strength', o.turbulence.strength);
  finite('turbulence.frequency', o.turbulence.frequency);
  if (!['additive', 'alpha'].includes(o.blending))
    throw new ParticleOptionError('blending', o.blending, "must be 'additive' or 'alpha'");
  if (typeof o.sort !== 'boolean')
    throw new ParticleOptionError('sort', o.sort, 'must be true or false');
  if (o.sort && o.blending !== 'alpha')
    throw new ParticleOptionError(
      'sort',
      o.sort,
      "orders alpha blending: with blending 'additive' the order does not change the image (set blending: 'alpha', or leave sort off)",
    );
  if (o.onRestore !== 'reseed' && o.onRestore !== 'last-read')
    throw new ParticleOptionError('onRestore', o.onRestore, "must be 'reseed' or 'last-read'");
  if (o.behavior !== null) {
    const b = o.behavior as unknown;
    if (!b || typeof b !== 'object' || typeof (b as ParticleBehavior).code !== 'string')
      throw new ParticleOptionError(
        'behavior',
        b,
        'must be null or { code: WGSL string, uniforms? }',
      );
    const given = (b as ParticleBehavior).reads;
    const reads = given === undefined ? 'own' : given;
    if (reads !== 'own' && reads !== 'all')
      throw new ParticleOptionError('behavior.reads', reads, "must be 'own' or 'all'");
    const given2 = (b as ParticleBehavior).uniforms;
    const u = given2 === undefined ? {} : given2;
    if (!u || typeof u !== 'object' || Array.isArray(u))
      throw new ParticleOptionError(
        'behavior.uniforms',
        u,
        'must be an object of uniforms by name',
      );
    for (const [name, value] of Object.entries(u)) {
      if (!/^[A-Za-z]\w*$/.test(name) || CANONICAL_UNIFORMS.includes(name))
        throw new ParticleOptionError(
          `behavior.uniforms.${name}`,
          value,
          `needs a name that is an identifier and not one of the canonical uniforms (${CANONICAL_UNIFORMS.join(', ')})`,
        );
      if (Array.isArray(value)) {
        if (value.length < 2 || value.length > 4)
          throw new ParticleOptionError(
            `behavior.uniforms.${name}`,
            value,
            'must be a number or 2 to 4 numbers',
          );
        value.forEach((x, i) => finite(`behavior.uniforms.${name}[${i}]`, x));
      } else finite(`behavior.uniforms.${name}`, value);
    }
  }
  return o;
}
