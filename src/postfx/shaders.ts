/**
 * The post-process passes, written once in the kernel language (src/compute/kernel.ts: WGSL types,
 * C-style declarations) and printed as WGSL compute, WGSL fragment and GLSL ES 3.00 fragment
 * shaders. Every pass reads its inputs with `textureLoad`/`texelFetch` at integer texels, clamped to
 * the edge, so both paths do the same arithmetic in the same order and give the same pixels.
 */
import { GLSL_PRELUDE, toWgsl } from '../compute/kernel-language.js';
import { MAX_BLUR_RADIUS, SRGB_SOURCE, toneCurveSource, LUMA } from './math.js';

export type PassOp = 'prefilter' | 'down' | 'up' | 'blur' | 'composite';

/** Inputs each pass reads: `src0` always, `src1` for the upsample and the composite. */
export const USES_SRC1: Record<PassOp, boolean> = {
  prefilter: false,
  down: false,
  up: true,
  blur: false,
  composite: true,
};

/**
 * The uniform block every pass binds at slot 0 (one 256-byte slot per pass), in bytes:
 *   srcSize, dstSize, auxSize, _pad: 4 × vec2i     0 … 31
 *   threshold, knee, spread, intensity: 4 × f32    32 … 47
 *   exposure, contrast, saturation, vignette       48 … 63
 *   op: u32, blurRadius: i32, axis: u32, _flags    64 … 79
 *   weights: array<vec4f, 9>                       80 … 223
 */
export const POST_UNIFORM_BYTES = 224;

const WGSL_STRUCT = `struct Post {
  srcSize: vec2i, dstSize: vec2i, auxSize: vec2i, pad: vec2i,
  threshold: f32, knee: f32, spread: f32, intensity: f32,
  exposure: f32, contrast: f32, saturation: f32, vignette: f32,
  op: u32, blurRadius: i32, axis: u32, flags: u32,
  weights: array<vec4f, 9>,
};
@group(0) @binding(0) var<uniform> params: Post;
`;
const GLSL_BLOCK = `layout(std140) uniform Post {
  ivec2 srcSize; ivec2 dstSize; ivec2 auxSize; ivec2 pad;
  float threshold; float knee; float spread; float intensity;
  float exposure; float contrast; float saturation; float vignette;
  uint op; int blurRadius; uint axis; uint flags;
  vec4 weights[9];
} params;
`;

/** The passes' arithmetic in the kernel language; `load0`/`load1` are defined per language. */
const COMMON = `
vec4f load0c(vec2i p) { return load0(clamp(p, vec2i(0), params.srcSize - vec2i(1))); }
f32 tap(i32 i) { return select(3.0, 1.0, i == 0 || i == 3); }
vec4f tentDown(vec2i p) {
  vec4f acc = vec4f(0.0);
  for (i32 j = 0; j < 4; j++) {
    for (i32 i = 0; i < 4; i++) {
      acc = acc + (tap(i) * tap(j)) * load0c(vec2i(2 * p.x - 1 + i, 2 * p.y - 1 + j));
    }
  }
  return acc / 64.0;
}
vec4f softThreshold(vec4f c) {
  f32 br = max(c.x, max(c.y, c.z));
  f32 k = params.threshold * params.knee + 0.00001;
  f32 rq = clamp(br - params.threshold + k, 0.0, 2.0 * k);
  rq = rq * rq / (4.0 * k);
  f32 contrib = max(rq, br - params.threshold) / max(br, 0.00001);
  return vec4f(c.xyz * contrib, 1.0);
}
f32 weight(i32 k) {
  i32 a = abs(k);
  return params.weights[a / 4][a % 4];
}
vec4f blurAt(vec2i p) {
  vec2i dir = vec2i(1 - i32(params.axis), i32(params.axis));
  vec4f acc = vec4f(0.0);
  for (i32 k = -params.blurRadius; k <= params.blurRadius; k++) {
    acc = acc + weight(k) * load0c(p + dir * k);
  }
  return acc;
}
`;
const COMMON_SRC1 = `
vec4f load1c(vec2i p) { return load1(clamp(p, vec2i(0), params.auxSize - vec2i(1))); }
vec4f upsample1(vec2i p) {
  vec2f scale = vec2f(params.auxSize) / vec2f(params.dstSize);
  vec2f sp = (vec2f(p) + vec2f(0.5)) * scale - vec2f(0.5);
  vec2f f0 = floor(sp);
  vec2f t = sp - f0;
  vec2i i0 = vec2i(f0);
  vec4f a = mix(load1c(i0), load1c(i0 + vec2i(1, 0)), t.x);
  vec4f b = mix(load1c(i0 + vec2i(0, 1)), load1c(i0 + vec2i(1, 1)), t.x);
  return mix(a, b, t.y);
}
${SRGB_SOURCE}
${toneCurveSource()}
vec4f composite(vec2i p) {
  vec3f c = load0c(p).xyz;
  c = c + params.intensity * upsample1(p).xyz;
  c = c * params.exposure;
  vec3f e = srgbEncode(clamp(toneMap(c), vec3f(0.0), vec3f(1.0)));
  e = (e - vec3f(0.5)) * params.contrast + vec3f(0.5);
  f32 l = dot(e, vec3f(${LUMA.join(', ')}));
  e = mix(vec3f(l), e, params.saturation);
  vec2f d = (vec2f(p) + vec2f(0.5)) / vec2f(params.dstSize) - vec2f(0.5);
  e = e * (1.0 - params.vignette * 2.0 * dot(d, d));
  return vec4f(clamp(e, vec3f(0.0), vec3f(1.0)), 1.0);
}
`;

/** The value a pass computes at texel p (kernel language). */
const BODY: Record<PassOp, string> = {
  prefilter: 'softThreshold(tentDown(p))',
  down: 'tentDown(p)',
  up: 'mix(load0c(p), upsample1(p), params.spread)',
  blur: 'blurAt(p)',
  composite: 'composite(p)',
};

function common(op: PassOp): string {
  return COMMON + (USES_SRC1[op] ? COMMON_SRC1 : '');
}

function wgslInputs(op: PassOp): string {
  return `@group(0) @binding(1) var src0: texture_2d<f32>;
fn load0(p: vec2i) -> vec4f { return textureLoad(src0, p, 0); }
${
  USES_SRC1[op]
    ? `@group(0) @binding(2) var src1: texture_2d<f32>;
fn load1(p: vec2i) -> vec4f { return textureLoad(src1, p, 0); }`
    : ''
}`;
}

/** WGSL vertex + fragment: a fullscreen triangle whose fragments compute `op` at their texel. */
export function wgslFragment(op: PassOp): string {
  return `${WGSL_STRUCT}${wgslInputs(op)}
${toWgsl(common(op))}
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f {
  let p = vec2i(floor(pos.xy));
  return ${BODY[op]};
}
`;
}

/** WGSL compute writing `op` into a storage texture, one invocation per texel (8×8 workgroups). */
export function wgslCompute(op: Exclude<PassOp, 'composite' | 'blur'>, format: string): string {
  return `${WGSL_STRUCT}${wgslInputs(op)}
@group(0) @binding(3) var dst: texture_storage_2d<${format}, write>;
${toWgsl(common(op))}
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) gid: vec3u) {
  let p = vec2i(gid.xy);
  if (p.x >= params.dstSize.x || p.y >= params.dstSize.y) { return; }
  textureStore(dst, p, ${BODY[op]});
}
`;
}

/** Texels one blur workgroup writes: a run of 128 along the blur axis. */
export const BLUR_TILE = 128;

/**
 * The separable blur as compute with workgroup memory (as webgpu-samples' imageBlur): a workgroup
 * loads its 128 texels plus an apron of `radius` on each side once, then every invocation filters
 * from there. The taps are summed in the same order as the fragment blur (`blurAt`).
 */
export function wgslBlurCompute(format: string): string {
  const tile = BLUR_TILE + 2 * MAX_BLUR_RADIUS;
  return `${WGSL_STRUCT}${wgslInputs('blur')}
@group(0) @binding(3) var dst: texture_storage_2d<${format}, write>;
${toWgsl(COMMON)}
var<workgroup> tile: array<vec4f, ${tile}>;
@compute @workgroup_size(${BLUR_TILE}, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let r = params.blurRadius;
  let dir = vec2i(1 - i32(params.axis), i32(params.axis));
  let across = vec2i(i32(params.axis), 1 - i32(params.axis));
  let base = dir * i32(wg.x * ${BLUR_TILE}u) + across * i32(wg.y);
  let loads = (${BLUR_TILE} + 2 * r + ${BLUR_TILE - 1}) / ${BLUR_TILE};
  for (var j = 0; j < loads; j++) {
    let t = j * ${BLUR_TILE} + i32(lid.x);
    if (t < ${BLUR_TILE} + 2 * r) {
      tile[t] = load0c(base + dir * (t - r));
    }
  }
  workgroupBarrier();
  let p = base + dir * i32(lid.x);
  if (p.x >= params.dstSize.x || p.y >= params.dstSize.y) { return; }
  var acc = vec4f(0.0);
  for (var k = -r; k <= r; k++) {
    acc = acc + weight(k) * tile[i32(lid.x) + r + k];
  }
  textureStore(dst, p, acc);
}
`;
}

export const GLSL_VERTEX = `#version 300 es
void main() { gl_Position = vec4(float(gl_VertexID & 1) * 4.0 - 1.0, float(gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }
`;

export function glslFragment(op: PassOp): string {
  return `#version 300 es
${GLSL_PRELUDE}${GLSL_BLOCK}
uniform highp sampler2D src0;
vec4 load0(ivec2 p) { return texelFetch(src0, p, 0); }
${USES_SRC1[op] ? 'uniform highp sampler2D src1;\nvec4 load1(ivec2 p) { return texelFetch(src1, p, 0); }' : ''}
${common(op)}
out vec4 outColor;
void main() {
  ivec2 p = ivec2(floor(gl_FragCoord.xy));
  outColor = ${BODY[op]};
}
`;
}
