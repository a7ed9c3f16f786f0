/**
 * Draw pipelines for particles: camera-facing quads generated in the vertex shader, no per-particle
 * CPU work. Two draw modes give the same pixels:
 *
 * - `instanced`: `draw(4, count)` of a triangle-strip quad; the particle is the instance, the
 *   corner the vertex (4 vertex invocations per particle);
 * - `pulled`: `draw(6 * count)`; each vertex fetches particle `vertex_index / 6`.
 *
 * Where the state is in buffers (compute path, and the CPU path on WebGPU), instanced mode reads it
 * as instance-rate vertex attributes straight from the buffers the update wrote, and pulled mode
 * reads them as read-only storage. Where the state is in textures (ping-pong, and the CPU path on
 * WebGL2), both modes `texelFetch` it by index.
 */
import type { Device } from '../rhi/core/device.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import type { BlendState } from '../rhi/core/descriptors.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import drawWgsl from '../../shaders/particles/draw.wgsl?raw';
import drawVertGlsl from '../../shaders/particles/draw.vert.glsl?raw';
import drawFragGlsl from '../../shaders/particles/draw.frag.glsl?raw';
import spriteWgsl from '../../shaders/particles/sprite.wgsl?raw';
import softWgsl from '../../shaders/particles/soft.wgsl?raw';
import { LOOK_STRUCT, type CompiledLook } from './look.js';
import type { Camera, DrawMode } from './options.js';

export type StateKind = 'buffers' | 'textures';

/** Strip vertex i (0..3) → index into the 6 corners of `corner()`. */
const STRIP = 'var strip = array<u32, 4>(0u, 1u, 5u, 2u);';

const VS_ATTRIBUTES = /* wgsl */ `
@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32, @location(0) p: vec4f, @location(1) v: vec4f) -> VertexOut {
  ${STRIP}
  return shade(p, v, strip[vertex], instance);
}
`;

const VS_STORAGE_PULLED = /* wgsl */ `
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@vertex
fn vs(@builtin(vertex_index) vertex: u32) -> VertexOut {
  let particle = vertex / 6u;
  return shade(positions[particle], velocities[particle], vertex - particle * 6u, particle);
}
`;

/**
 * Sorted draws (options.sort): the i-th particle drawn is slot `entries[i]` of the depth sort
 * (sort.ts: the slot in two 11-bit halves, y + 2048 z), read from storage in both modes.
 */
const VS_STORAGE_SORTED = (pulled: boolean): string => /* wgsl */ `
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(6) var<storage, read> sortOrder: array<vec4f>;
@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VertexOut {
  ${STRIP}
  let drawn = ${pulled ? 'vertex / 6u' : 'instance'};
  let entry = sortOrder[drawn];
  let particle = u32(entry.y) + 2048u * u32(entry.z);
  return shade(positions[particle], velocities[particle], ${pulled ? 'vertex - drawn * 6u' : 'strip[vertex]'}, particle);
}
`;

const VS_TEXTURE = (pulled: boolean, sorted: boolean): string => /* wgsl */ `
@group(0) @binding(1) var positionState: texture_2d<f32>;
@group(0) @binding(2) var velocityState: texture_2d<f32>;
${sorted ? '@group(0) @binding(6) var sortOrder: texture_2d<f32>;' : ''}
@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VertexOut {
  ${STRIP}
  let drawn = ${pulled ? 'vertex / 6u' : 'instance'};
  let cornerIndex = ${pulled ? 'vertex - drawn * 6u' : 'strip[vertex]'};
  ${
    sorted
      ? `let sortWidth = u32(ps.sizes.w);
  let entry = textureLoad(sortOrder, vec2i(i32(drawn % sortWidth), i32(drawn / sortWidth)), 0);
  let particle = u32(entry.y) + 2048u * u32(entry.z);`
      : 'let particle = drawn;'
  }
  let texel = vec2i(i32(particle % ps.width), i32(particle / ps.width));
  return shade(textureLoad(positionState, texel, 0), textureLoad(velocityState, texel, 0), cornerIndex, particle);
}
`;

export function blendFor(mode: 'additive' | 'alpha'): BlendState {
  return mode === 'additive'
    ? {
        color: { srcFactor: 'src-alpha', dstFactor: 'one' },
        alpha: { srcFactor: 'one', dstFactor: 'one' },
      }
    : {
        color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' },
        alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
      };
}

/** What a draw pipeline is made for: the state's home, the draw mode, and the pass it draws in. */
export interface DrawPipelineKey {
  state: StateKind;
  mode: DrawMode;
  format: TextureFormat;
  /** The pass's depth attachment: particles test against it (`less`) and never write it. */
  depthFormat: TextureFormat | undefined;
  sampleCount: number;
  blending: 'additive' | 'alpha';
  /** An image per particle (options.texture) instead of the disc: bindings 3 (texture) and 4 (sampler). */
  textured: boolean;
  /** Soft particles (options.softParticles): the scene depth at binding 5. */
  soft: boolean;
  /** A custom look (options.look), compiled for both languages; null: the disc or the sprite. */
  look: CompiledLook | null;
  /** Back to front (options.sort): particle i drawn is slot `order[i]`, binding 6. */
  sorted: boolean;
}

/** The cache key of a pipeline for `key` (one pipeline per distinct pass shape and look). */
export function drawPipelineId(key: Omit<DrawPipelineKey, 'state' | 'mode'>): string {
  return `${key.format}|${key.depthFormat ?? 'no depth'}|${key.sampleCount}|${key.blending}|${key.textured ? 'sprite' : 'disc'}|${key.soft ? 'soft' : 'hard'}|${key.look ? `look ${key.look.id}` : 'builtin'}|${key.sorted ? 'sorted' : 'slots'}`;
}

/** A draw pipeline and the shader modules made for it (destroyed with it). */
export interface DrawPipeline {
  pipeline: RenderPipeline;
  modules: ShaderModule[];
}

export function createDrawPipeline(device: Device, key: DrawPipelineKey): DrawPipeline {
  const label = `particles draw (${key.state}, ${key.mode})`;
  const targets = [{ format: key.format, blend: blendFor(key.blending) }];
  const multisample = { count: key.sampleCount };
  const primitive = {
    topology: key.mode === 'instanced' ? ('triangle-strip' as const) : ('triangle-list' as const),
  };
  // transparent particles sit inside the scene: hidden behind opaque geometry, hiding nothing themselves
  const depthStencil = key.depthFormat
    ? { format: key.depthFormat, depthWriteEnabled: false, depthCompare: 'less' as const }
    : undefined;
  if (device.caps.shaderLanguage === 'glsl') {
    const header = `#version 300 es\n${key.mode === 'pulled' ? '#define PULLED\n' : ''}${key.sorted ? '#define SORTED\n' : ''}`;
    const vs = device.createShaderModule({
      label: 'draw.vert.glsl',
      code: header + drawVertGlsl,
      stage: 'vertex',
    });
    const fs = device.createShaderModule({
      label: 'draw.frag.glsl',
      code: `#version 300 es\n${key.textured ? '#define SPRITE\n' : ''}${key.soft ? '#define SOFT\n' : ''}${key.look ? `#define LOOK\n#define IGNIS_LOOK ${key.look.glslCall}\n` : ''}${drawFragGlsl.replace('// IGNIS-LOOK-CODE', key.look?.glsl ?? '')}`,
      stage: 'fragment',
    });
    const pipeline = device.createRenderPipeline({
      label,
      vertex: { module: vs },
      fragment: { module: fs, targets },
      multisample,
      primitive,
      depthStencil,
      bindings: [
        { binding: 0, type: 'uniform', name: 'DrawParams' },
        { binding: 1, type: 'texture', name: 'positionState' },
        { binding: 2, type: 'texture', name: 'velocityState' },
        ...(key.textured
          ? [
              { binding: 3, type: 'texture' as const, name: 'sprite', samplerBinding: 4 },
              { binding: 4, type: 'sampler' as const, name: 'sprite' },
            ]
          : []),
        ...(key.soft
          ? [
              {
                binding: 5,
                type: 'texture' as const,
                name: 'sceneDepth',
                sampleType: 'depth' as const,
              },
            ]
          : []),
        ...(key.sorted ? [{ binding: 6, type: 'texture' as const, name: 'sortOrder' }] : []),
      ],
    });
    return { pipeline, modules: [vs, fs] };
  }
  const vertex =
    key.state === 'textures'
      ? VS_TEXTURE(key.mode === 'pulled', key.sorted)
      : key.sorted
        ? VS_STORAGE_SORTED(key.mode === 'pulled')
        : key.mode === 'pulled'
          ? VS_STORAGE_PULLED
          : VS_ATTRIBUTES;
  const module = device.createShaderModule({
    label: `draw.wgsl (${key.state}, ${key.mode})`,
    code:
      drawWgsl +
      vertex +
      (key.textured ? spriteWgsl : '') +
      (key.look ? `${LOOK_STRUCT}${key.look.wgsl}\n` : '') +
      (key.soft ? softWgsl : 'fn softness(in: VertexOut) -> f32 { return 1.0; }\n') +
      `@fragment fn fs(in: VertexOut) -> @location(0) vec4f {
  let c = ${key.look ? 'look(ParticleFragment(in.color, in.uv, in.ageLife.x, in.ageLife.y))' : key.textured ? 'sprited(in)' : 'disc(in)'};
  return vec4f(c.rgb, c.a * softness(in));
}
`,
  });
  const instanceAttributes = key.state === 'buffers' && key.mode === 'instanced' && !key.sorted;
  const pipeline = device.createRenderPipeline({
    label,
    vertex: {
      module,
      entryPoint: 'vs',
      buffers: instanceAttributes
        ? [
            {
              arrayStride: 16,
              stepMode: 'instance',
              attributes: [{ format: 'float32x4', offset: 0, shaderLocation: 0 }],
            },
            {
              arrayStride: 16,
              stepMode: 'instance',
              attributes: [{ format: 'float32x4', offset: 0, shaderLocation: 1 }],
            },
          ]
        : [],
    },
    fragment: { module, entryPoint: 'fs', targets },
    multisample,
    primitive,
    depthStencil,
    bindings:
      key.state === 'textures'
        ? [1, 2, ...(key.sorted ? [6] : [])].map((binding) => ({
            binding,
            type: 'texture' as const,
            sampleType: 'unfilterable-float' as const,
          }))
        : undefined,
  });
  return { pipeline, modules: [module] };
}

/** Bytes of a DrawParams ring slot (DRAW_PARAMS_BYTES rounded up to the 256-byte offset alignment). */
export const DRAW_PARAMS_SLOT = 512;

export type { Camera } from './options.js';

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
  4 * 4; // soft

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
}
