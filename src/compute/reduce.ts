/**
 * Per-frame GPU statistics without a full readback: up to four predicates over every element,
 * counted on the GPU and read back as 16 bytes.
 *
 * - compute: workgroup-local atomic counters, one global `atomicAdd` per workgroup and counter;
 * - ping-pong: one point per element drawn into a 1×1 rgba32float target with additive blending
 *   (each channel counts one predicate; exact up to 2^24 elements). Needs
 *   `caps.features.floatRenderTargets` and `float32Blendable`; without them the runner counts a
 *   full readback in JS with the predicates' JS form (and says so with a typed error when that
 *   form is missing).
 */
import { toWgsl } from './kernel-language.js';
import { sourceStub, wgslGather, type Kernel } from './kernel.js';
import { frontEnd } from './front-end.js';

/** A reduction's predicates: WGSL boolean expressions by name. */
export type Predicates = Readonly<Record<string, string>>;

/** A kernel that reads the scene's depth counts without it: far (1) everywhere. */
const depthStub = (kernel: Kernel): string =>
  kernel.descriptor.sceneDepth
    ? 'fn ignisSceneDepth(x: i32, y: i32) -> f32 {\n  return 1.0;\n}\n'
    : '';

function wgslParams(kernel: Kernel): string {
  return `struct Params {\n${kernel.uniforms.fields.map((f) => `  ${f.name}: ${f.type},`).join('\n')}\n};\n@group(0) @binding(0) var<uniform> params: Params;\n`;
}

function predicateList(predicates: Predicates): string[] {
  const list = Object.values(predicates);
  while (list.length < 4) list.push('false');
  return list;
}

export function wgslReduceCompute(kernel: Kernel, predicates: Predicates): string {
  const attrs = kernel.descriptor.attributes;
  const p = predicateList(predicates);
  const wg = kernel.workgroupSize;
  return `${wgslParams(kernel)}${attrs.map((a, i) => `@group(0) @binding(${i + 1}) var<storage, read> _ignis_${a}: array<vec4f>;`).join('\n')}
@group(0) @binding(${attrs.length + 1}) var<storage, read_write> _ignis_counts: array<atomic<u32>, 4>;
var<workgroup> _ignis_local: array<atomic<u32>, 4>;
${kernel.descriptor.gather ? wgslGather(attrs, 'storage', '_ignis_') : ''}${depthStub(kernel)}${sourceStub(kernel.descriptor.source)}${toWgsl(kernel.descriptor.helpers ?? '')}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_index) lid: u32) {
  let index = gid.x + gid.y * groups.x * ${wg}u;
  if (index < params.count) {
${attrs.map((a) => `    let ${a} = _ignis_${a}[index];`).join('\n')}
${p.map((expr, k) => `    if (${expr}) { atomicAdd(&_ignis_local[${k}], 1u); }`).join('\n')}
  }
  workgroupBarrier();
  if (lid < 4u) {
    let n = atomicLoad(&_ignis_local[lid]);
    if (n > 0u) { atomicAdd(&_ignis_counts[lid], n); }
  }
}
`;
}

export function wgslReducePoints(kernel: Kernel, predicates: Predicates): string {
  const attrs = kernel.descriptor.attributes;
  const p = predicateList(predicates);
  return `${wgslParams(kernel)}${attrs.map((a, i) => `@group(0) @binding(${i + 1}) var _ignis_${a}: texture_2d<f32>;`).join('\n')}
${kernel.descriptor.gather ? wgslGather(attrs, 'texture', '_ignis_') : ''}${depthStub(kernel)}${sourceStub(kernel.descriptor.source)}${toWgsl(kernel.descriptor.helpers ?? '')}
struct _IgnisOut { @builtin(position) position: vec4f, @location(0) @interpolate(flat) hits: vec4f };
@vertex fn vs(@builtin(vertex_index) index: u32) -> _IgnisOut {
  let texel = vec2i(i32(index % params.width), i32(index / params.width));
${attrs.map((a) => `  let ${a} = textureLoad(_ignis_${a}, texel, 0);`).join('\n')}
  let hits = vec4f(${p.map((e) => `select(0.0, 1.0, ${e})`).join(', ')});
  return _IgnisOut(vec4f(0.0, 0.0, 0.0, 1.0), hits);
}
@fragment fn fs(in: _IgnisOut) -> @location(0) vec4f { return in.hits; }
`;
}

/** The GLSL reduction of `predicates` (the front end loaded: `await loadFrontEnd()` first). */
export function glslReducePoints(
  kernel: Kernel,
  predicates: Predicates,
): { vertex: string; fragment: string } {
  const attrs = kernel.descriptor.attributes;
  const p = predicateList(predicates);
  // the predicates go through the same WGSL front end as the kernel (src/compute/portable)
  const gather = kernel.descriptor.gather === true;
  const wgsl = `${wgslParams(kernel)}struct IgnisState { ${attrs.map((a) => `${a}: vec4f`).join(', ')} };
${gather ? `fn ignisElement(j: u32) -> IgnisState {\n  return IgnisState(${attrs.map(() => 'vec4f(f32(j))').join(', ')});\n}\n` : ''}${depthStub(kernel)}${sourceStub(kernel.descriptor.source)}${toWgsl(kernel.descriptor.helpers ?? '')}
fn ignisHits(index: u32, s: IgnisState) -> vec4f {
${attrs.map((a) => `  let ${a} = s.${a};`).join('\n')}
  return vec4f(${p.map((e) => `select(0.0, 1.0, ${e})`).join(', ')});
}
@compute @workgroup_size(1)
fn ignisMain(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.count) { return; }
}
`;
  const vertex = frontEnd(`${kernel.descriptor.label} reduce`).translateReduce(
    kernel.descriptor.label,
    wgsl,
    attrs,
    gather,
  );
  const fragment = `#version 300 es
precision highp float;
flat in vec4 _ignis_hits;
out vec4 _ignis_out;
void main() { _ignis_out = _ignis_hits; }
`;
  return { vertex, fragment };
}
