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
import drawParamsGlsl from '../../shaders/particles/draw-params.glsl?raw';
import drawFragGlsl from '../../shaders/particles/draw.frag.glsl?raw';
import spriteWgsl from '../../shaders/particles/sprite.wgsl?raw';
import normalMapWgsl from '../../shaders/particles/normal-map.wgsl?raw';
import shadowWgsl from '../../shaders/particles/shadow.wgsl?raw';
import softWgsl from '../../shaders/particles/soft.wgsl?raw';
import { LOOK_STRUCT, type CompiledLook } from './look.js';
import type { DrawMode } from './options.js';

export type StateKind = 'buffers' | 'textures';

/** Strip vertex i (0..3) → index into the 6 corners of `corner()`. */
const STRIP = 'var strip = array<u32, 4>(0u, 1u, 5u, 2u);';

const VS_ATTRIBUTES = /* wgsl */ `
@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32, @location(0) p: vec4f, @location(1) v: vec4f) -> VertexOut {
  ${STRIP}
  return tinted(shade(p, v, strip[vertex], instance), instance);
}
`;

const VS_STORAGE_PULLED = /* wgsl */ `
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@vertex
fn vs(@builtin(vertex_index) vertex: u32) -> VertexOut {
  let particle = vertex / 6u;
  return tinted(shade(positions[particle], velocities[particle], vertex - particle * 6u, particle), particle);
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
  return tinted(shade(positions[particle], velocities[particle], ${pulled ? 'vertex - drawn * 6u' : 'strip[vertex]'}, particle), particle);
}
`;

/**
 * Draws of the living only (options.compact, living.ts): the i-th particle drawn is slot
 * `living[i]` of the list the GPU made after the update; the counts come from `drawIndirect`.
 */
const VS_STORAGE_LIVING = (pulled: boolean): string => /* wgsl */ `
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(7) var<storage, read> living: array<u32>;
@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VertexOut {
  ${STRIP}
  let drawn = ${pulled ? 'vertex / 6u' : 'instance'};
  let particle = living[drawn];
  return tinted(shade(positions[particle], velocities[particle], ${pulled ? 'vertex - drawn * 6u' : 'strip[vertex]'}, particle), particle);
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
  return tinted(shade(textureLoad(positionState, texel, 0), textureLoad(velocityState, texel, 0), cornerIndex, particle), particle);
}
`;

/**
 * A sub-emitter's `inheritColor` (modules/sub-emitter.ts): each particle's colour times its `tint`
 * attribute (binding 8: a storage buffer, or a state texture read like the others). `tintOf` is
 * the splat's (splat.wgsl) and `tinted` the raster draw's; untinted systems get the identity.
 */
export function tintWgsl(tint: StateKind | null): string {
  const read =
    tint === 'buffers'
      ? '@group(0) @binding(8) var<storage, read> tints: array<vec4f>;\nfn tintOf(i: u32) -> vec4f { return tints[i]; }'
      : tint === 'textures'
        ? '@group(0) @binding(8) var tintState: texture_2d<f32>;\nfn tintOf(i: u32) -> vec4f { return textureLoad(tintState, vec2i(i32(i % ps.width), i32(i / ps.width)), 0); }'
        : 'fn tintOf(i: u32) -> vec4f { return vec4f(1.0); }';
  return `${read}\n`;
}

const TINTED_WGSL = `fn tinted(o: VertexOut, i: u32) -> VertexOut {
  var t = o;
  t.color = t.color * tintOf(i);
  return t;
}
`;

/** VertexOut's fields after position, colour and uv: type, interpolation, the pipelines that read it. */
const OPTIONAL_VARYINGS: ReadonlyArray<{
  name: string;
  type: 'f32' | 'vec2f' | 'vec4f';
  flat: boolean;
  read: (k: DrawPipelineKey) => boolean;
}> = [
  { name: 'sheetUv', type: 'vec2f', flat: false, read: (k) => k.textured || k.normalMapped },
  // the cross-fade's second read (sprite.wgsl's flipbook)
  { name: 'nextUv', type: 'vec2f', flat: false, read: (k) => k.crossFaded },
  { name: 'fade', type: 'f32', flat: true, read: (k) => k.crossFaded },
  { name: 'ageLife', type: 'vec2f', flat: true, read: (k) => k.look !== null },
  // an upright quad's corner frame is the camera's: the fragment stage takes the light from the
  // uniforms (lightFrame(0.0)); only turned quads hand over each particle's
  { name: 'light', type: 'vec4f', flat: true, read: (k) => k.lit && k.turned },
  // the shadow map's test is per particle; unshadowed, the fragment stage reads ps.lightColor
  { name: 'lightColor', type: 'vec4f', flat: true, read: (k) => k.lit && k.shadowed },
];

/**
 * What passes from the vertex to the fragment stage of a pipeline: position, colour and uv, and
 * only the fields of VertexOut its fragment stage reads (a sprite's uv, the light, a custom
 * look's age and life). The vertex entry point hands `varyingsOf(VertexOut)` over; the fragment
 * one passes the fields to the functions that read them (fragmentWgsl). Compilers that do not link
 * the two stages (lavapipe under wgpu) would otherwise set up and interpolate every field for
 * every triangle and compute each one per vertex.
 */
function varyingsWgsl(key: DrawPipelineKey): string {
  const kept = OPTIONAL_VARYINGS.filter((v) => v.read(key));
  const fields = kept.map(
    (v, i) => `  ${v.flat ? '@interpolate(flat) ' : ''}@location(${i + 2}) ${v.name}: ${v.type},\n`,
  );
  return `struct Varyings {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  @location(1) uv: vec2f,
${fields.join('')}};
fn varyingsOf(o: VertexOut) -> Varyings {
  return Varyings(o.position, o.color, o.uv${kept.map((v) => `, o.${v.name}`).join('')});
}
`;
}

/**
 * The fragment entry point: the look (the disc, the sprite or a custom look), lit and soft where
 * the pipeline is, each function given the varyings' fields it reads. Rebuilding a VertexOut from
 * the varyings for functions that took one cost lavapipe (wgpu in Firefox) 1.2× the GPU time of a
 * draw of 100,000 discs (docs/benchmarks.md, "By the GPU's clock"): what a compiler could fold,
 * not every compiler does.
 */
function fragmentWgsl(key: DrawPipelineKey): string {
  // the flipbook's arguments: where the image is read, and the cross-fade where the sheet has one
  // (without, flipbook() reads the first only: its marked lines are gone, spriteWgslFor)
  const sheet = key.crossFaded ? 'v.sheetUv, v.nextUv, v.fade' : 'v.sheetUv, v.sheetUv, 0.0';
  const look = key.look
    ? 'look(ParticleFragment(v.color, v.uv, v.ageLife.x, v.ageLife.y))'
    : key.textured
      ? `sprited(v.color, ${sheet})`
      : 'disc(v.color, v.uv)';
  // what the uniforms hold is read there, not handed over per particle (VertexOut says why)
  const lightFrame = `${key.turned ? 'v.light' : 'lightFrame(0.0)'}, ${key.shadowed ? 'v.lightColor' : 'ps.lightColor'}, ps.ambient`;
  const lit = key.normalMapped
    ? ` * lightOf(spriteNormal(${sheet}), ${lightFrame})`
    : key.lit
      ? ` * lighting(v.uv, ${lightFrame})`
      : '';
  const soft = key.soft ? ' * softness(v.position, ps.soft)' : '';
  if (!lit && !soft)
    return `@fragment fn fs(v: Varyings) -> @location(0) vec4f {\n  return ${look};\n}\n`;
  return `@fragment fn fs(v: Varyings) -> @location(0) vec4f {
  let c = ${look};
  return vec4f(c.rgb${lit}, c.a${soft});
}
`;
}

/** draw.wgsl's angleOf and billboard bodies, and what a pipeline without spin or stretch has instead. */
const ANGLE_BODY = `let h = pcg((id * 747796405u) ^ bitcast<u32>(life));
  let r = vec2f(f32(h & 0xffffu), f32(h >> 16u)) / 65535.0;
  return mix(ps.spin.x, ps.spin.y, r.x) + mix(ps.spin.z, ps.spin.w, r.y) * age;`;
const BILLBOARD =
  /fn billboard\(c: vec2f, velocity: vec3f\) -> vec2f \{\n {2}if \(ps\.viewUp\.w < 0\.5\) \{ return c; \}\n[\s\S]*?\n\}\n/;

/**
 * draw.wgsl specialised for a pipeline: without rotation (every angle and spin 0) each quad's angle
 * is the constant 0 (no hash, no sine and cosine per vertex), and camera-facing quads skip the
 * velocity billboard — work a vertex stage otherwise does for every corner whatever the uniforms
 * say. The replaced text must be there: a changed draw.wgsl fails here, not silently.
 */
function specialised(source: string, key: DrawPipelineKey): string {
  const swap = (text: string, from: string | RegExp, to: string): string => {
    if (typeof from === 'string' ? !text.includes(from) : !from.test(text))
      throw new Error(`draw.wgsl no longer holds ${String(from)}`);
    return text.replace(from, to);
  };
  const angled = key.turned ? source : swap(source, ANGLE_BODY, 'return 0.0;');
  return key.alongVelocity
    ? angled
    : swap(
        angled,
        BILLBOARD,
        'fn billboard(c: vec2f, velocity: vec3f) -> vec2f {\n  return c;\n}\n',
      );
}

/** sprite.wgsl's flipbook from its cross-fade on: what a sheet that does not blend has instead (one read). */
const CROSS_FADE =
  /\/\/ IGNIS-CROSS-FADE\n {2}let b = textureSample\(image, spriteSampler, nextUv\);\n {2}return mix\(a, b, fade\);/;

/**
 * sprite.wgsl for a pipeline: the flipbook cross-faded (two reads of the image a pixel) or not
 * (one). The replaced text must be there, as in specialised().
 */
function spriteWgslFor(crossFaded: boolean): string {
  if (crossFaded) return spriteWgsl;
  if (!CROSS_FADE.test(spriteWgsl))
    throw new Error(`sprite.wgsl no longer holds ${String(CROSS_FADE)}`);
  return spriteWgsl.replace(CROSS_FADE, 'return a;');
}

/** draw.wgsl's unlit lightFrame body, and a lit pipeline's in its place: the light the sphere's normal is taken towards. */
const UNLIT_FRAME = '// IGNIS-LIGHT-FRAME\n  return vec4f(0.0);';
const LIGHT_FRAME = `let l = ps.light.xyz;
  return vec4f(rotate(vec2f(dot(l, ps.viewRight.xyz), dot(l, ps.viewUp.xyz)), -angle), dot(l, cross(ps.viewRight.xyz, ps.viewUp.xyz)), ps.light.w);`;

/** draw.wgsl's lightColorAt body without a shadow map, and a shadowed pipeline's (shadow.wgsl). */
const UNSHADOWED = '// IGNIS-SHADOW\n  return ps.lightColor;';
const SHADOWED = 'return ps.lightColor * shadowVisibility(p);';

/**
 * draw.wgsl for a pipeline: lit (the light turned into the corner's frame per vertex) and
 * shadowed (light.shadow: the shadow map's test at each particle's centre, shadow.wgsl appended)
 * or not; mesh-draw.ts appends mesh.wgsl to the same text.
 */
export function drawWgslFor(lit: boolean, shadowed: boolean): string {
  const frame = lit ? drawWgsl.replace(UNLIT_FRAME, LIGHT_FRAME) : drawWgsl;
  return shadowed ? frame.replace(UNSHADOWED, SHADOWED) + shadowWgsl : frame;
}

/** The GL bindings a shadowed pipeline adds (light.shadow's depth at binding 11). */
export const SHADOW_BINDINGS = [
  { binding: 11, type: 'texture' as const, name: 'shadowMap', sampleType: 'depth' as const },
];

export function blendFor(mode: 'additive' | 'alpha', keepAlpha = false): BlendState {
  // targetAlpha 'keep': the target's alpha stays as it is (dst × 1 + src × 0)
  const kept = { srcFactor: 'zero', dstFactor: 'one' } as const;
  return mode === 'additive'
    ? {
        color: { srcFactor: 'src-alpha', dstFactor: 'one' },
        alpha: keepAlpha ? kept : { srcFactor: 'one', dstFactor: 'one' },
      }
    : {
        color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha' },
        alpha: keepAlpha ? kept : { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
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
  /** targetAlpha 'keep': the target's alpha is left as it is. */
  keepAlpha: boolean;
  /** An image per particle (options.texture) instead of the disc: bindings 3 (texture) and 4 (sampler). */
  textured: boolean;
  /**
   * The sprite sheet cross-fades each frame into the next (spriteSheet.blend, more than one frame):
   * two reads of each flipbook image a pixel; without it, one.
   */
  crossFaded: boolean;
  /** Soft particles (options.softParticles): the scene depth at binding 5. */
  soft: boolean;
  /** Lit particles (options.light): the colour times the sphere's lighting (modules/light.ts). */
  lit: boolean;
  /** Lit sprites with their own normals (light.normalMap): binding 10, sampled by binding 4's sampler. */
  normalMapped: boolean;
  /** Lit particles receiving a shadow map (light.shadow): the light's depth at binding 11. */
  shadowed: boolean;
  /** A custom look (options.look), compiled for both languages; null: the disc or the sprite. */
  look: CompiledLook | null;
  /** Back to front (options.sort): particle i drawn is slot `order[i]`, binding 6. */
  sorted: boolean;
  /**
   * The living only (options.compact; state in buffers, not sorted): particle i drawn is slot
   * `living[i]`, binding 7, the counts from `drawIndirect`.
   */
  living: boolean;
  /** Each particle's colour times its `tint` attribute (binding 8): a sub-emitter's inheritColor. */
  tinted: boolean;
  /** Quads turned: an angle at birth or a spin other than 0 (rotation, angularVelocity). */
  turned: boolean;
  /** Quads along the velocity (billboard 'velocity'), not facing the camera. */
  alongVelocity: boolean;
}

/** The cache key of a pipeline for `key` (one pipeline per distinct pass shape and look). */
export function drawPipelineId(
  key: Omit<DrawPipelineKey, 'state' | 'mode' | 'living' | 'tinted'>,
): string {
  return `${key.format}|${key.depthFormat ?? 'no depth'}|${key.sampleCount}|${key.blending}${key.keepAlpha ? '+keep alpha' : ''}|${key.textured ? `sprite${key.crossFaded ? '+cross-fade' : ''}` : 'disc'}|${key.soft ? 'soft' : 'hard'}|${key.lit ? 'lit' : 'unlit'}${key.normalMapped ? '+normals' : ''}${key.shadowed ? '+shadow' : ''}|${key.look ? `look ${key.look.id}` : 'builtin'}|${key.sorted ? 'sorted' : 'slots'}|${key.turned ? 'turned' : 'upright'}|${key.alongVelocity ? 'along velocity' : 'facing'}`;
}

/** A draw pipeline and the shader modules made for it (destroyed with it). */
export interface DrawPipeline {
  pipeline: RenderPipeline;
  modules: ShaderModule[];
}

export function createDrawPipeline(device: Device, key: DrawPipelineKey): DrawPipeline {
  const label = `particles draw (${key.state}, ${key.mode}${key.living ? ', living' : ''})`;
  const targets = [{ format: key.format, blend: blendFor(key.blending, key.keepAlpha) }];
  const multisample = { count: key.sampleCount };
  const primitive = {
    topology: key.mode === 'instanced' ? ('triangle-strip' as const) : ('triangle-list' as const),
  };
  // transparent particles sit inside the scene: hidden behind opaque geometry, hiding nothing themselves
  const depthStencil = key.depthFormat
    ? { format: key.depthFormat, depthWriteEnabled: false, depthCompare: 'less' as const }
    : undefined;
  if (device.caps.shaderLanguage === 'glsl') {
    const lit = `${key.lit ? '#define LIT\n' : ''}${key.shadowed ? '#define SHADOW\n' : ''}`;
    // (the fragment stage's too: an upright quad's light comes from the uniforms there)
    const upright = key.turned ? '' : '#define UPRIGHT\n';
    // specialised as draw.wgsl is (specialised()): no angle without rotation, no velocity
    // billboard for camera-facing quads
    const shape = `${key.turned ? '' : '#define UPRIGHT\n'}${key.alongVelocity ? '' : '#define FACING\n'}`;
    const header = `#version 300 es\n${shape}${key.mode === 'pulled' ? '#define PULLED\n' : ''}${key.sorted ? '#define SORTED\n' : ''}${key.tinted ? '#define TINTED\n' : ''}${lit}`;
    const vs = device.createShaderModule({
      label: 'draw.vert.glsl',
      code: header + drawParamsGlsl + drawVertGlsl,
      stage: 'vertex',
    });
    const fs = device.createShaderModule({
      label: 'draw.frag.glsl',
      // draw-params.glsl too: the fragment stage reads the uniforms (ps.soft, the light's)
      code: `#version 300 es\n${lit}${upright}${key.normalMapped ? '#define NORMAL_MAP\n' : ''}${key.textured ? '#define SPRITE\n' : ''}${key.crossFaded ? '#define CROSS_FADE\n' : ''}${key.soft ? '#define SOFT\n' : ''}${key.look ? `#define LOOK\n#define IGNIS_LOOK ${key.look.glslCall}\n` : ''}${drawParamsGlsl}${drawFragGlsl.replace('// IGNIS-LOOK-CODE', key.look?.glsl ?? '')}`,
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
        ...(key.tinted ? [{ binding: 8, type: 'texture' as const, name: 'tintState' }] : []),
        ...(key.normalMapped
          ? [{ binding: 10, type: 'texture' as const, name: 'normalMap', samplerBinding: 4 }]
          : []),
        ...(key.shadowed ? SHADOW_BINDINGS : []),
      ],
    });
    return { pipeline, modules: [vs, fs] };
  }
  const vertex =
    key.state === 'textures'
      ? VS_TEXTURE(key.mode === 'pulled', key.sorted)
      : key.sorted
        ? VS_STORAGE_SORTED(key.mode === 'pulled')
        : key.living
          ? VS_STORAGE_LIVING(key.mode === 'pulled')
          : key.mode === 'pulled'
            ? VS_STORAGE_PULLED
            : VS_ATTRIBUTES;
  const module = device.createShaderModule({
    label: `draw.wgsl (${key.state}, ${key.mode}${key.living ? ', living' : ''}${key.tinted ? ', tinted' : ''})`,
    code:
      specialised(drawWgslFor(key.lit, key.shadowed), key) +
      varyingsWgsl(key) +
      // the vertex stage hands over only what the fragment stage reads
      vertex
        .replace('-> VertexOut {', '-> Varyings {')
        .replace(/return (tinted\(.*\));/, 'return varyingsOf($1);') +
      tintWgsl(key.tinted ? key.state : null) +
      TINTED_WGSL +
      (key.textured ? spriteWgslFor(key.crossFaded) : '') +
      (key.normalMapped ? normalMapWgsl : '') +
      (key.look ? `${LOOK_STRUCT}${key.look.wgsl}\n` : '') +
      (key.soft ? softWgsl : '') +
      fragmentWgsl(key),
  });
  const instanceAttributes =
    key.state === 'buffers' && key.mode === 'instanced' && !key.sorted && !key.living;
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
        ? [1, 2, ...(key.sorted ? [6] : []), ...(key.tinted ? [8] : [])].map((binding) => ({
            binding,
            type: 'texture' as const,
            sampleType: 'unfilterable-float' as const,
          }))
        : undefined,
  });
  return { pipeline, modules: [module] };
}

export type { Camera } from './options.js';
export {
  DRAW_PARAMS_SLOT,
  DRAW_PARAMS_BYTES,
  DrawParamsScratch,
  packDrawParams,
  packDrawCamera,
  packDrawLook,
  type DrawLook,
} from './draw-params.js';
