/**
 * The draw's uniforms (the DrawParams block of shaders/particles/draw.wgsl and draw.vert.glsl):
 * packed from the options' look and the camera, written into a ring of slots, one per draw.
 */
import type { Device } from '../rhi/core/device.js';
import { UniformRing } from '../compute/uniform-ring.js';
import type { Camera, ParticleOptions } from './options.js';

/** Bytes of a DrawParams ring slot (DRAW_PARAMS_BYTES rounded up to the 256-byte offset alignment). */
export const DRAW_PARAMS_SLOT = 512;

/**
 * The DrawParams block of shaders/particles/draw.wgsl (and `layout(std140)` draw.vert.glsl), field
 * by field in bytes; offsets in floats below. The rest of the 256-byte ring slot is padding.
 */
const DRAW_PARAMS = {
  viewProjection: 0, // 4 * 16: mat4x4f, projection · view
  cornerAxes: 16, //    4 * 8: mat2x4f, projection columns 0 and 1
  colors: 24, //        4 * 16: array<vec4f, 4>, colour at each stop
  colorStops: 40, //    4 * 4: vec4f, life fraction of each colour
  colorScale: 44, //    4 * 4: vec4f, 1 / (stop[i + 1] - stop[i])
  sizes: 48, //         4 * 4: vec4f, x size at birth, y at death (factors), z world size, w the sort order's texture width
  width: 52, //         4: u32, state texture width
  count: 53, //         4: u32, particles
  target: 54, //        4 * 2: u32 × 2, the target's size in pixels (splat)
  viewRight: 56, //     4 * 4: vec4f, the camera's right axis in the world (xyz), stretch (w)
  viewUp: 60, //        4 * 4: vec4f, the camera's up axis in the world (xyz), 1 for billboard 'velocity' (w)
  sprite: 64, //        4 * 4: vec4f, flipbook columns, rows, frames per unit of speed, flags
  spin: 68, //          4 * 4: vec4f, angle at birth [min, max], spin [min, max]
  soft: 72, //          4 * 4: vec4f, soft particles: distance (0: off), projection [2][2], [3][2]
  light: 76, //         4 * 4: vec4f, towards the light (world, unit), w 1 when lit
  lightColor: 80, //    4 * 4: vec4f, the light's colour (rgb)
  ambient: 84, //       4 * 4: vec4f, the ambient colour (rgb)
  mesh: 88, //          4 * 4: vec4f, mesh particles: x the corners of one mesh (0: quads)
  shadowMatrix: 92, //  4 * 16: mat4x4f, lit particles' shadow map: world to the light's clip space
  shadow: 108, //       4 * 4: vec4f, x the bias, y 1 when the shadow map is read
};
export const DRAW_PARAMS_BYTES =
  4 * 16 + // viewProjection
  4 * 8 + // cornerAxes
  4 * 16 + // colors
  4 * 4 + // colorStops
  4 * 4 + // colorScale
  4 * 4 + // sizes
  4 + // width
  4 + // count
  4 * 2 + // target width and height (a multiple of 16 here: the vec4s below need no padding)
  4 * 4 + // viewRight
  4 * 4 + // viewUp
  4 * 4 + // sprite
  4 * 4 + // spin
  4 * 4 + // soft
  4 * 4 * 3 + // light, lightColor, ambient
  4 * 4 + // mesh
  4 * 16 + // shadowMatrix
  4 * 4; // shadow

/** A DrawParams buffer and its views, made once and reused every draw. */
export class DrawParamsScratch {
  readonly buffer = new ArrayBuffer(DRAW_PARAMS_BYTES);
  readonly f32 = new Float32Array(this.buffer);
  readonly u32 = new Uint32Array(this.buffer);
}

const NO_TARGET = { width: 0, height: 0 } as const;
/** What packDrawParams reads of the options' look (ParticleOptions has all of it). */
export interface DrawLook {
  readonly billboard: 'camera' | 'velocity';
  readonly stretch: number;
  readonly spriteSheet: {
    readonly columns: number;
    readonly rows: number;
    readonly frameOver: 'life' | 'speed';
    readonly speedScale: number;
    readonly blend: boolean;
  };
  readonly rotation: readonly [number, number];
  readonly angularVelocity: readonly [number, number];
  readonly softParticles: { readonly distance: number } | null;
  /** options.light (absent or null: unlit). */
  readonly light?: {
    readonly direction: readonly number[];
    readonly color: readonly number[];
    readonly ambient: readonly number[];
    readonly shadow?: { readonly matrix: readonly number[]; readonly bias: number } | null;
  } | null;
  /** options.geometry (absent or null: quads). */
  readonly geometry?: { readonly indices: ArrayLike<number> } | null;
}

const PLAIN_LOOK: DrawLook = {
  billboard: 'camera',
  stretch: 0,
  spriteSheet: { columns: 1, rows: 1, frameOver: 'life', speedScale: 1, blend: false },
  rotation: [0, 0],
  angularVelocity: [0, 0],
  softParticles: null,
};

/**
 * Packs DrawParams into `into` and returns its buffer: the look (`packDrawLook`), then the camera
 * and target (`packDrawCamera`). A caller that draws every frame packs the look only when it
 * changes, and the camera every frame.
 */
export function packDrawParams(
  into: DrawParamsScratch,
  camera: Camera,
  colors: ReadonlyArray<readonly number[]>,
  stops: readonly number[],
  sizes: readonly [number, number, number],
  width: number,
  count: number,
  target: { readonly width: number; readonly height: number } = NO_TARGET,
  look: DrawLook = PLAIN_LOOK,
  sortWidth = 0,
): ArrayBuffer {
  packDrawLook(into, colors, stops, sizes, width, count, look, sortWidth);
  return packDrawCamera(into, camera, target);
}

/**
 * The camera's part of DrawParams (and the target's size): projection · view (the product a
 * vertex would repeat, made once), the projection's corner axes, the camera's right and up axes,
 * and the soft-particle depth terms. No allocation: it runs every frame. Returns `into.buffer`.
 */
export function packDrawCamera(
  into: DrawParamsScratch,
  camera: Camera,
  target: { readonly width: number; readonly height: number } = NO_TARGET,
): ArrayBuffer {
  const f = into.f32;
  const v = camera.view;
  const p = camera.projection;
  // column-major: (P · V)[col c, row r] = Σk P[k][r] · V[c][k]
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += (p[4 * k + r] as number) * (v[4 * c + k] as number);
      f[DRAW_PARAMS.viewProjection + 4 * c + r] = sum;
    }
  for (let i = 0; i < 8; i++) f[DRAW_PARAMS.cornerAxes + i] = p[i] as number;
  into.u32[DRAW_PARAMS.target] = target.width;
  into.u32[DRAW_PARAMS.target + 1] = target.height;
  // the view matrix's first two rows: the camera's right and up axes in world space
  for (let i = 0; i < 3; i++) {
    f[DRAW_PARAMS.viewRight + i] = v[4 * i] as number;
    f[DRAW_PARAMS.viewUp + i] = v[4 * i + 1] as number;
  }
  f[DRAW_PARAMS.soft + 1] = p[10] as number;
  f[DRAW_PARAMS.soft + 2] = p[14] as number;
  return into.buffer;
}

/**
 * The look's part of DrawParams: colours and their stops (with the reciprocals of the stops'
 * spans, made once here instead of per vertex), sizes, the state's width and count, billboard,
 * sprite sheet, spin and soft-particle distance. Everything but what `packDrawCamera` writes.
 */
export function packDrawLook(
  into: DrawParamsScratch,
  colors: ReadonlyArray<readonly number[]>,
  stops: readonly number[],
  sizes: readonly [number, number, number],
  width: number,
  count: number,
  look: DrawLook = PLAIN_LOOK,
  sortWidth = 0,
): void {
  const f = into.f32;
  for (let i = 0; i < 4; i++) f.set(colors[i] as readonly number[], DRAW_PARAMS.colors + 4 * i);
  f.set(stops, DRAW_PARAMS.colorStops);
  for (let i = 0; i < 3; i++)
    f[DRAW_PARAMS.colorScale + i] =
      1 / Math.max((stops[i + 1] as number) - (stops[i] as number), 1e-6);
  f[DRAW_PARAMS.colorScale + 3] = 0;
  f.set(sizes, DRAW_PARAMS.sizes);
  f[DRAW_PARAMS.sizes + 3] = sortWidth;
  into.u32[DRAW_PARAMS.width] = width;
  into.u32[DRAW_PARAMS.count] = count;
  f[DRAW_PARAMS.viewRight + 3] = look.stretch;
  f[DRAW_PARAMS.viewUp + 3] = look.billboard === 'velocity' ? 1 : 0;
  const sheet = look.spriteSheet;
  f[DRAW_PARAMS.sprite] = sheet.columns;
  f[DRAW_PARAMS.sprite + 1] = sheet.rows;
  f[DRAW_PARAMS.sprite + 2] = sheet.speedScale;
  f[DRAW_PARAMS.sprite + 3] = (sheet.frameOver === 'speed' ? 1 : 0) | (sheet.blend ? 2 : 0);
  f[DRAW_PARAMS.spin] = look.rotation[0];
  f[DRAW_PARAMS.spin + 1] = look.rotation[1];
  f[DRAW_PARAMS.spin + 2] = look.angularVelocity[0];
  f[DRAW_PARAMS.spin + 3] = look.angularVelocity[1];
  f[DRAW_PARAMS.soft] = look.softParticles?.distance ?? 0;
  f[DRAW_PARAMS.soft + 3] = 0;
  const light = look.light;
  if (light) {
    // towards the light: the direction it travels, reversed, of unit length
    const [x, y, z] = light.direction as [number, number, number];
    const length = Math.hypot(x, y, z);
    f.set([-x / length, -y / length, -z / length, 1], DRAW_PARAMS.light);
    f.set([...light.color.slice(0, 3), 0], DRAW_PARAMS.lightColor);
    f.set([...light.ambient.slice(0, 3), 0], DRAW_PARAMS.ambient);
  } else f.fill(0, DRAW_PARAMS.light, DRAW_PARAMS.ambient + 4);
  f.fill(0, DRAW_PARAMS.mesh, DRAW_PARAMS.mesh + 4);
  f[DRAW_PARAMS.mesh] = look.geometry?.indices.length ?? 0;
  const shadow = light?.shadow;
  f.fill(0, DRAW_PARAMS.shadowMatrix, DRAW_PARAMS.shadow + 4);
  if (shadow) {
    f.set(shadow.matrix, DRAW_PARAMS.shadowMatrix);
    f[DRAW_PARAMS.shadow] = shadow.bias;
    f[DRAW_PARAMS.shadow + 1] = 1;
  }
}

const DRAW_SLOTS = 16;

/**
 * The draw's uniforms for a system: a ring of DrawParams slots. The look's part is packed again
 * only when what it is made of changed (the options object, replaced by every setOptions; the
 * state's width and count, by setCapacity; the sort order's width); the camera's part every draw.
 */
export class DrawParamsWriter {
  readonly #device: Device;
  readonly ring: UniformRing;
  readonly #scratch = new DrawParamsScratch();
  readonly #packed = {
    options: null as ParticleOptions | null,
    width: -1,
    count: -1,
    sortWidth: -1,
  };

  constructor(device: Device) {
    this.#device = device;
    this.ring = new UniformRing(device, DRAW_SLOTS, DRAW_PARAMS_SLOT, 'particles draw params');
  }

  /** Writes one draw's DrawParams into the next slot; returns its offset in `ring.buffer`. */
  write(
    o: ParticleOptions,
    stateWidth: number,
    count: number,
    sortWidth: number,
    camera: Camera,
    target?: { width: number; height: number },
  ): number {
    const p = this.#packed;
    if (
      p.options !== o ||
      p.width !== stateWidth ||
      p.count !== count ||
      p.sortWidth !== sortWidth
    ) {
      packDrawLook(
        this.#scratch,
        o.colors,
        o.colorStops,
        [o.sizeOverLife[0], o.sizeOverLife[1], o.size],
        stateWidth,
        count,
        o,
        sortWidth,
      );
      Object.assign(p, { options: o, width: stateWidth, count, sortWidth });
    }
    const offset = this.ring.take();
    const params = packDrawCamera(this.#scratch, camera, target);
    this.#device.queue.writeBuffer(this.ring.buffer, offset, params);
    return offset;
  }

  destroy(): void {
    this.ring.destroy();
  }
}
