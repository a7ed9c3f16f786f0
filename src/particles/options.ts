/**
 * Options of a particle system and their defaults (the canonical rule of docs/particles.md). The
 * checks live with the modules that own the options (modules/*.ts); resolve.ts runs them.
 */
import type { Texture } from '../rhi/core/texture.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { KernelSource, SceneDepthArray } from '../compute/paths/path.js';
export { ParticleOptionError } from './errors.js';

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
  /**
   * The modules that run, in stages (spawn, update, render): made from the other options, or
   * given as a list (`modules: [...]`). Read it to see what runs (docs/particles.md, "Modules").
   * Not enumerable: `{ ...ps.options, count }` spreads the flat options (pass `modules` again to
   * keep a list's modules that have no flat option, such as a vortex).
   */
  readonly modules: readonly ParticleModule[];
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
  /**
   * Draws of the living only (living.ts): after each update the GPU lists the living particles
   * and the draw covers just them (`drawIndirect`), so 1M slots with 10k alive draw 10k.
   * `'auto'` (default): where it can (WebGPU, the state in storage buffers) for a system that
   * emits over time (a continuous one is all alive). `true`: always (an error where it cannot);
   * `false`: never (the dead are culled in the vertex stage, as on WebGL2).
   */
  compact: 'auto' | boolean;
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
   * What the draw does to the target's alpha: `blend` (default) blends it as the colour is
   * (additive: the alphas add up; alpha: "over"), `keep` leaves it as it is — for targets whose
   * alpha nobody reads (an opaque canvas, a scene colour target): the same colours, and the splat
   * sums three channels a pixel instead of four.
   */
  targetAlpha: 'blend' | 'keep';
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
   * Emission from a triangle mesh (the `mesh` module): particles born on its surface uniformly by
   * area, at `emitter.position`, their velocity taken about the surface's normal (the emitter's up).
   * null: the emitter's shape.
   */
  mesh: ParticleMesh | null;
  /**
   * Lit particles (the `light` module): each particle shaded as a small sphere facing the camera
   * by one directional light and an ambient term, `{ direction, color = [1, 1, 1], ambient = [0.25,
   * 0.25, 0.25], normalMap = null, shadow = null }` (`direction`: where the light travels, world
   * space; `normalMap`: a sprite's own normals instead of the sphere's; `shadow`: the scene's
   * shadow map received). null: unlit.
   */
  light: ParticleLight | null;
  /**
   * Mesh particles (the `geometry` module): each particle drawn as this triangle mesh instead of
   * a camera-facing quad — scaled by its size over life, turned by its spin about an axis of its
   * own (`billboard: 'velocity'`: its +y along its velocity, `stretch` lengthening it with speed),
   * coloured by its colour over life and, with `light`, lit by the mesh's normals. null: quads.
   */
  geometry: ParticleGeometry | null;
  /**
   * Events (the `events` module): every step, each particle records whether it was born, died,
   * reached the floor (`floorY`) or bounced (off the scene's depth, `collision`, the floor,
   * `bounce`, or a `colliders` module's shapes: 'collision'), where, and at what velocity — what a
   * sub-emitter spawns from and `ps.events()` counts. null: none.
   */
  events: ParticleEventKind | null;
  /**
   * Spawned by another system's events instead of an emitter of its own (docs/particles.md,
   * "Events and sub-emitters"): `count` defaults to the parent's count × `subEmitter.count`. null: off.
   */
  subEmitter: SubEmitter | null;
  /**
   * Trails: every particle keeps its last `length` positions (one per step) and is drawn with a
   * ribbon through them, on every path (docs/particles.md, "Trails"). A trail outlives its
   * particle: what it left behind stays until the ring overwrites it. null: off.
   */
  trail: ParticleTrail | null;
  /**
   * A linked ribbon through the living particles in the order they were born (emission over time
   * only): `{ width, colors }` from the newest to the oldest. null: off.
   */
  link: ParticleLink | null;
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

/**
 * A linked ribbon (the `link` module): one strip through the living particles in birth order, its
 * width and colour going from the newest particle's to the oldest's.
 */
export interface ParticleLink {
  width: readonly [number, number];
  colors: readonly [Vec4, Vec4];
  /**
   * An image along the ribbon, tinted by its colour: u from the head (0) to the tail (1), v across
   * (0 to 1); instead of the soft edge. null (default): soft across its width.
   */
  texture: Texture | null;
  /** Each particle's colour and size over life at its age multiply the ribbon's there. */
  inherit: boolean;
  /**
   * How many ribbons share the births (Niagara's ribbon id), default 1; the system's `count` must
   * be a multiple of it. Which ribbon a particle is on follows from its slot, `index` in a
   * behaviour, so an update can shape each ribbon (docs/particles.md, "Several ribbons").
   */
  ribbons: number;
  /**
   * How the slots are dealt to the ribbons: `'interleaved'` (default) — slot i on ribbon
   * i mod ribbons, joined in birth order (streamers born side by side every step); `'blocks'` —
   * slots in blocks of count / ribbons, a ribbon each, joined in slot order (a burst of
   * count / ribbons is one beam).
   */
  split: 'interleaved' | 'blocks';
}

/** What a particle system can raise events on (the `events` module). */
export type ParticleEventKind = 'birth' | 'death' | 'floor' | 'collision';

/** A system whose events a sub-emitter reads: a ParticleSystem created with `events`. */
export interface ParticleEventSource {
  readonly count: number;
  readonly path: ParticlePath;
  readonly options: Readonly<Pick<ParticleOptions, 'events' | 'colors' | 'colorStops'>>;
  /** Its state as a sub-emitter's kernel reads it (eventPosition, eventVelocity). */
  readonly eventSource: KernelSource;
  /** Its steps so far: a sub-emitter spawns from each of its steps once. */
  readonly stepIndex: number;
}

/**
 * A sub-emitter (the `subEmitter` module): this system's particles are spawned by another system's
 * events. Each parent slot owns `count` slots of this one (slots [i · count, (i + 1) · count) are
 * parent i's), and an event of parent i spawns all of them in the step that reads it.
 */
export interface SubEmitter {
  /** The system whose events spawn these particles (created with `events`). */
  parent: ParticleEventSource;
  /** Particles spawned per event. */
  count: number;
  /** The parent's velocity at the event, times this, is added to each child's own. */
  inherit: number;
  /**
   * The children's colour over life is multiplied by the parent's colour at the event (its
   * `colors` at its life fraction then): a red rocket bursts into red sparks. Default false.
   */
  inheritColor: boolean;
}

/**
 * Trails (the `trail` module): each particle's last `length` positions, drawn as a camera-facing
 * ribbon from the particle (the head) back along where it went (the tail).
 */
export interface ParticleTrail {
  /** Positions kept per particle, one per update step: 2 to 64 (the ribbon has length − 1 segments). */
  length: number;
  /** The ribbon's width in world units at the head and at the tail. */
  width: readonly [number, number];
  /** The ribbon's colour (RGBA) at the head and at the tail (a tail alpha of 0 fades it out). */
  colors: readonly [Vec4, Vec4];
  /**
   * An image along the ribbon, tinted by its colour: u from the head (0) to the tail (1), v across
   * (0 to 1); instead of the soft edge. null (default): soft across its width.
   */
  texture: Texture | null;
  /**
   * The particle's look along its trail: at each position, its colour over life and its size over
   * life at the age it had there multiply the ribbon's colour and width; where the particle has
   * died (or lived a life before this one), its look at the end of life — a trail fades as its
   * particle would. Default false.
   */
  inherit: boolean;
  /**
   * Seconds over which the trail of a life that has ended fades out (its alpha to 0), counted from
   * the last position of that life; 0 (default): no fade. A trail stays in place after its
   * particle dies (or is born again) and is drawn from the ring until the ring overwrites it —
   * `length` steps at most, whatever the fade.
   */
  fade: number;
}

/** A colour map resolved: its size, its rgba8 pixels (a copy) and those as floats 0…1 (/ 255). */
export interface ParticleColorMap {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
  readonly texels: Float32Array;
}

/** A triangle mesh to emit from (the `mesh` module), resolved to typed arrays. */
export interface ParticleMesh {
  /** x, y, z per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle; null: the positions are a triangle list. */
  indices: Uint32Array | null;
  /**
   * Where the mesh is: a 4×4 affine matrix, column-major (wgpu-matrix's `mat4`), applied to its
   * vertices before `emitter.position` is added. Default the identity.
   */
  transform: Float32Array;
  /**
   * The mesh's motion, inherited by every particle born on it (a rigid body's): `velocity` (units
   * per second) plus `angularVelocity` (radians per second about an axis through the transform's
   * origin) × the birth point's offset from that origin. Default still (zeros).
   */
  velocity: readonly [number, number, number];
  angularVelocity: readonly [number, number, number];
  /**
   * Per-vertex colours, r, g, b, a each 0…1 (given as 3 or 4 per vertex; a missing alpha is 1),
   * stored at 8 bits a channel: each particle born on the mesh is tinted by the colour at its
   * birth point (the three vertices' colours weighted as its position is). null: untinted.
   */
  colors: Float32Array | null;
  /**
   * Texture coordinates, u, v per vertex (with `colorMap`): each birth is tinted by the colour map
   * at its birth point's coordinates (the three vertices' weighted as its position is). null: none.
   */
  uvs: Float32Array | null;
  /**
   * The mesh's colour texture as pixels (with `uvs`), sampled bilinearly with repeat at each birth's
   * coordinates: v = 0 is the first row of `data` (the top of an image, glTF's and WebGPU's
   * convention). The tint is the vertex colour times it. null: none.
   */
  colorMap: ParticleColorMap | null;
  /**
   * A skinned mesh posed on the GPU: the buffer of its posed vertices (x, y, z float32 per vertex,
   * STORAGE) that the app writes each frame; `positions` is then its bind pose (the table's
   * vertices until the first step). The compute path reads it, and sums its triangles' areas, before
   * each step. null: the vertices are `positions`.
   */
  posed: Buffer | null;
}

/**
 * The mesh each particle is drawn as (the `geometry` module), resolved: interleaved vertices and
 * three indices per triangle (counter-clockwise seen from outside: back faces are culled).
 */
export interface ParticleGeometry {
  /** Per vertex: x, y, z, then the normal's x, y, z (unit length). */
  vertices: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
  /** The normals were made from the triangles (none given): each triangle flat. */
  flat: boolean;
}

/** One directional light and an ambient term (the `light` module), linear RGB. */
export interface ParticleLight {
  /** The direction the light travels (from the light into the scene), world space; any length. */
  direction: readonly [number, number, number];
  /** The light's colour and intensity. */
  color: readonly [number, number, number];
  /** Light from everywhere: what the side away from the light still gets. */
  ambient: readonly [number, number, number];
  /**
   * A tangent-space normal map laid out as the sprite (`texture`: the same flipbook cells), its
   * rgb the normal · 0.5 + 0.5 with x along the image's right, y up the image (OpenGL's green-up
   * convention) and z out of the image: each pixel lit by its own normal instead of the sphere's.
   * null: the sphere.
   */
  normalMap: Texture | null;
  /** The scene's shadow map, received by a quad at its centre and by a mesh particle at each pixel; null: none. */
  shadow: ParticleShadow | null;
}

/**
 * A shadow map received by lit particles: the depth the light sees (rendered by the app from the
 * light, a depth format with TEXTURE_BINDING) and the matrix that rendered it. A quad whose centre
 * (a mesh particle: each pixel of it) lies farther from the light than the
 * map's depth there, by more than `bias`, gets the ambient only; the test is a 3×3
 * percentage-closer filter, so a shadow's edge is soft over a texel or two. Outside the map: lit.
 */
export interface ParticleShadow {
  /** The light's depth, WebGPU's clip-space z in 0..1 (as both backends store it). */
  depth: Texture;
  /** World to the light's clip space: 16 numbers, column-major (wgpu-matrix's layout). */
  matrix: readonly number[];
  /** Depth the particle may lie behind the map before it is shadowed (acne); default 0.002. */
  bias: number;
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

/** `o` with an empty, non-enumerable module stack (resolveOptions makes the real one). */
function withModules(o: Omit<ParticleOptions, 'modules'>): ParticleOptions {
  return Object.defineProperty(o, 'modules', { value: [], enumerable: false }) as ParticleOptions;
}

/** The options a particle system gets for everything it is not given. */
export const DEFAULT_OPTIONS: ParticleOptions = withModules({
  count: 100_000,
  emitRate: null,
  bursts: [],
  duration: 5,
  loop: true,
  prewarm: 0,
  seed: 1,
  path: 'auto',
  drawMode: 'auto',
  compact: 'auto',
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
  targetAlpha: 'blend',
  billboard: 'camera',
  stretch: 0,
  texture: null,
  spriteSheet: { columns: 1, rows: 1, frameOver: 'life', speedScale: 1, blend: false },
  rotation: [0, 0],
  angularVelocity: [0, 0],
  softParticles: null,
  mesh: null,
  geometry: null,
  light: null,
  trail: null,
  link: null,
  events: null,
  subEmitter: null,
  look: null,
  behavior: null,
  onRestore: 'reseed',
});

/** What `createParticleSystem` takes: any subset of the options (nested emitter/turbulence partial too). */
export type ParticleOptionsInput = Partial<
  Omit<
    ParticleOptions,
    | 'emitter'
    | 'turbulence'
    | 'bursts'
    | 'spriteSheet'
    | 'collision'
    | 'modules'
    | 'trail'
    | 'link'
    | 'subEmitter'
    | 'light'
    | 'mesh'
    | 'geometry'
  >
> & {
  /** A mesh to emit from: positions (x, y, z per vertex) and optionally indices; plain or typed arrays. */
  mesh?: {
    /**
     * x, y, z per vertex; or a skinned mesh's posed vertices in a GPU buffer the app writes
     * (STORAGE, float32 x, y, z per vertex; the compute path), with `restPositions` its bind pose.
     */
    positions: ArrayLike<number> | Buffer;
    /** The bind pose of posed vertices given as a buffer (x, y, z per vertex). */
    restPositions?: ArrayLike<number>;
    indices?: ArrayLike<number> | null;
    /** A 4×4 affine matrix, column-major; default the identity. */
    transform?: ArrayLike<number>;
    /** The mesh's velocity and angular velocity, inherited at birth; default zeros. */
    velocity?: readonly [number, number, number];
    angularVelocity?: readonly [number, number, number];
    /**
     * Per-vertex colours, 3 (r, g, b) or 4 (r, g, b, a) numbers 0…1 per vertex: each particle is
     * tinted by the colour where it is born (kept at 8 bits a channel). Default: none.
     */
    colors?: ArrayLike<number> | null;
    /** Texture coordinates, u, v per vertex, at which `colorMap` is sampled. Default: none. */
    uvs?: ArrayLike<number> | null;
    /**
     * The mesh's colour texture as rgba8 pixels — `{ width, height, data }`, an `ImageData` —
     * sampled bilinearly with repeat at each birth's `uvs` (v = 0: the first row), times the vertex
     * colour. At most 512 × 512 texels (each is a row of the update's table). Default: none.
     */
    colorMap?: { width: number; height: number; data: ArrayLike<number> } | null;
  } | null;
  /**
   * Mesh particles: the mesh each particle is drawn as — positions (x, y, z per vertex), and
   * optionally normals (per vertex; default: each triangle flat) and indices (default: a triangle
   * list); plain or typed arrays. null: quads.
   */
  geometry?:
    | {
        positions: ArrayLike<number>;
        normals?: ArrayLike<number> | null;
        indices?: ArrayLike<number> | null;
      }
    | ParticleGeometry
    | null;
  /** A light: direction, and optionally color (default white) and ambient (default 0.25 grey); null: unlit. */
  light?:
    | (Pick<ParticleLight, 'direction'> &
        Partial<Omit<ParticleLight, 'shadow'>> & {
          /** The matrix as numbers or a Float32Array (wgpu-matrix's); bias may be left out. */
          shadow?: {
            depth: Texture;
            matrix: readonly number[] | Float32Array;
            bias?: number;
          } | null;
        })
    | null;
  /** A linked ribbon: width and colors may be left out (the look's defaults); null: off. */
  link?: Partial<ParticleLink> | null;
  /** A sub-emitter: parent, and optionally count (default 1), inherit (default 0) and inheritColor (default false). */
  subEmitter?: (Pick<SubEmitter, 'parent'> & Partial<Omit<SubEmitter, 'parent'>>) | null;
  /**
   * Trails: any of length (default 16), width (default [size, 0]) and colors (default the first
   * colour stop, fading to transparent at the tail); null: off.
   */
  trail?: Partial<ParticleTrail> | null;
  /**
   * The whole stack as a list of modules (`{ module: 'vortex', strength: 2 }`, …): the modules it
   * leaves out of the update stage are off, those of the spawn and render stages take their
   * defaults. `particleModules(options)` gives the list that flat options make.
   */
  modules?: readonly ParticleModuleInput[];
  collision?: CollisionInput | null;
  spriteSheet?: Partial<SpriteSheet>;
  bursts?: readonly BurstInput[];
  emitter?: Partial<EmitterOptions>;
  turbulence?: Partial<ParticleOptions['turbulence']>;
};

/** `collision` as given: restitution, friction and thickness may be left out. */
export type CollisionInput = Pick<ParticleCollision, 'depth' | 'camera'> &
  Partial<Omit<ParticleCollision, 'depth' | 'camera'>>;

/** The stages a module runs in: at birth, every step, or when drawn. */
export type ModuleStage = 'spawn' | 'update' | 'render';

/** One module of a resolved stack: its name, its stage and its options (plain data). */
// (a type, not an interface: a resolved stack may be given back as `modules: ps.modules`)
export type ParticleModule = {
  readonly module: string;
  readonly stage: ModuleStage;
  readonly options: Readonly<Record<string, unknown>>;
};

/** A module as given in `modules: [...]`: its name and its options beside it. */
export type ParticleModuleInput = { readonly module: string } & Readonly<Record<string, unknown>>;

/** A burst: `count` particles at `time` seconds into the emitter's cycle, `cycles` times `interval` apart. */
export interface Burst {
  time: number;
  count: number;
  /** How many times the burst fires (default 1). */
  cycles: number;
  /** Seconds between its cycles (default 0.1). */
  interval: number;
}

/** What `bursts` takes: `time` and `count`, the rest defaulted. */
export type BurstInput = Pick<Burst, 'time' | 'count'> & Partial<Burst>;

/** The slots one step emits: `count` slots from `start`, wrapping at the capacity. */
export interface EmitRange {
  start: number;
  count: number;
}

/** A camera: view and projection matrices. */
export interface Camera {
  /** Column-major 4×4 (wgpu-matrix `mat4`). */
  view: ArrayLike<number>;
  projection: ArrayLike<number>;
}

/** `collision` as ParticleOptions holds it. */
export interface ParticleCollision {
  /** The scene's depth: a depth texture (GPU paths) or `{ data, width, height }` (the CPU path). */
  readonly depth: Texture | SceneDepthArray;
  /** The camera the depth was drawn with (read at every update: move it with the view). */
  readonly camera: Camera;
  /** The normal part of the velocity, reversed, times this (0 stops, 1 keeps all of it). */
  readonly restitution: number;
  /** The rest of the velocity times 1 − friction. */
  readonly friction: number;
  /** How far behind the surface (world units) a particle still counts as hitting it. */
  readonly thickness: number;
}
