/**
 * Element-wise kernels written once, run as WebGPU compute, as a WebGPU fragment ping-pong, or as a
 * WebGL2 fragment ping-pong.
 *
 * The kernel language is a small common subset of WGSL and GLSL ES 3.00:
 * - WGSL type names (`f32 u32 i32 bool vec2f vec3f vec4f vec2u vec3u vec4u vec2i vec3i vec4i`);
 * - C-style declarations `vec3f v = expr;` (turned into `var v: vec3f = expr;` for WGSL);
 * - C-style helper functions `f32 hash(u32 x) { … }` (turned into `fn hash(x: u32) -> f32 { … }`);
 * - the built-ins both languages share (`min max clamp mix step smoothstep dot cross normalize
 *   length floor fract abs sqrt sin cos exp pow …`), plus `select(f, t, cond)` (WGSL's, provided
 *   as overloads in GLSL); no `?:` (WGSL has none), no float `%` (GLSL ES has none).
 * - u32 arithmetic wraps mod 2^32 in both languages, so integer hashes give the same bits.
 *
 * In the body, every state attribute is a `vec4f` variable holding the element's current value;
 * assign it to write the new value. `index` (u32) is the element's index and `params.<name>` the
 * uniforms. Write the body branch-free where you can (`select`, `mix`, `step`): a divergent
 * branch in a 256-wide workgroup runs both sides.
 */
import { uniformLayout, type UniformLayout, type UniformType } from './layout.js';
import { toWgsl } from './kernel-language.js';
import { frontEnd } from './front-end.js';
import type { CpuStep } from './paths/path.js';

/** What `defineKernel` takes: per-element attributes, uniforms, helper functions and the body. */
export interface KernelDescriptor {
  label: string;
  /** State attributes, each a vec4f per element (at most `maxColorAttachments` for ping-pong). */
  attributes: readonly string[];
  /** Uniforms, in order: `[name, type]`. A `u32` named `count` is added for the element count. */
  uniforms?: ReadonlyArray<readonly [string, UniformType]>;
  /** Helper functions in the kernel language, placed before the entry point. */
  helpers?: string;
  /** The per-element body in the kernel language. */
  body: string;
  /** Compute workgroup size; 64 by default. */
  workgroupSize?: number;
  /**
   * The body and helpers may call `ignisElement(j: u32) -> IgnisState` (`IgnisState` has one vec4f
   * per attribute): element j's state before this step, on every path (compute keeps a copy of the
   * state for it; the ping-pong reads its source textures; the CPU a copy of the arrays).
   */
  gather?: boolean;
  /**
   * The body and helpers may call `ignisSceneDepth(x: i32, y: i32) -> f32`: texel (x, y) of the
   * scene's depth (0 near … 1 far; clamped to the edges) given to each step
   * (`runner.step(…, { sceneDepth })`): a depth texture on the GPU paths, an array on the CPU.
   */
  sceneDepth?: boolean;
  /**
   * Attributes of another runner's state the body and helpers may read: `ignisSource(j: u32) ->
   * IgnisSource` (one vec4f per name) is element j of that runner as the step starts — what an
   * earlier step of it in the same encoder wrote — given to each step (`runner.step(…, { source:
   * other.source })`, a runner on the same path). `params.sourceCount` and `params.sourceWidth`
   * are its element count and texture width. A particle system's sub-emitter reads its parent's
   * events this way.
   */
  source?: readonly string[];
}

/** The binding of the scene's depth texture in a kernel with `sceneDepth` of `n` attributes. */
export const sceneDepthBinding = (n: number): number => 1 + 2 * n;

/** The binding of source attribute i (`source`) in a kernel of `n` attributes. */
export const sourceBinding = (n: number, i: number): number => 2 + 2 * n + i;

/** `IgnisSource`, one vec4f per source attribute. */
const sourceStruct = (source: readonly string[]): string =>
  `struct IgnisSource { ${source.map((a) => `${a}: vec4f`).join(', ')} };\n`;

/** A kernel's `ignisSource(j)` in WGSL: from storage buffers (compute) or textures (ping-pong). */
function wgslSource(source: readonly string[], n: number, kind: 'storage' | 'texture'): string {
  if (source.length === 0) return '';
  const decl = (a: string, i: number): string =>
    kind === 'storage'
      ? `@group(0) @binding(${sourceBinding(n, i)}) var<storage, read> _ignis_src_${a}: array<vec4f>;`
      : `@group(0) @binding(${sourceBinding(n, i)}) var _ignis_src_${a}: texture_2d<f32>;`;
  const read = (a: string): string =>
    kind === 'storage'
      ? `_ignis_src_${a}[j]`
      : `textureLoad(_ignis_src_${a}, vec2i(i32(j % params.sourceWidth), i32(j / params.sourceWidth)), 0)`;
  return `${source.map(decl).join('\n')}
${sourceStruct(source)}fn ignisSource(j: u32) -> IgnisSource {
  return IgnisSource(${source.map(read).join(', ')});
}
`;
}

/** `ignisSource` for a module that only types or counts (the translator, reductions): zeros. */
export function sourceStub(source: readonly string[] | undefined): string {
  if (!source || source.length === 0) return '';
  return `${sourceStruct(source)}fn ignisSource(j: u32) -> IgnisSource {
  return IgnisSource(${source.map(() => 'vec4f(f32(j) * 0.0)').join(', ')});
}
`;
}

/** What a kernel's translation is made from: its descriptor and the WGSL module it translates. */
export interface TranslatableKernel {
  readonly descriptor: KernelDescriptor;
  /** The WGSL module the GLSL and JavaScript forms are translated from (for messages and tests). */
  readonly wgslTranslated: string;
}

/** A kernel's forms for the paths without WGSL: the WebGL2 fragment and the CPU step. */
export interface KernelTranslation {
  readonly glslFragment: string;
  readonly cpu: CpuStep;
}

/** A defined kernel: its descriptor and the sources generated for each path. */
export interface Kernel extends TranslatableKernel, KernelTranslation {
  readonly uniforms: UniformLayout;
  /** WGSL compute shader: uniform at slot 0, one read_write `array<vec4f>` per attribute at slots 1…n. */
  readonly wgslCompute: string;
  /** WGSL vertex + fragment shaders for the WebGPU ping-pong: uniform at 0, state textures at 1…n. */
  readonly wgslFragment: string;
  /** GLSL ES 3.00 vertex and fragment shaders for the WebGL2 ping-pong (the fragment: translated). */
  readonly glslVertex: string;
  /** GLSL ES 3.00 fragment shader for the WebGL2 ping-pong, translated from the WGSL. */
  readonly glslFragment: string;
  readonly workgroupSize: number;
  /** The CPU form, translated from the same source (JavaScript with WGSL's arithmetic). */
  readonly cpu: CpuStep;
  /**
   * Both translated forms, made at the first ask (a KernelError where the WGSL cannot be
   * translated): by `defineKernel` at once; by the particles only on a path that runs them, or to
   * check code of yours, with the front end loaded on demand (front-end.ts).
   */
  readonly translation: KernelTranslation;
}

const IDENT = /^[A-Za-z_]\w*$/;

/** Names a kernel cannot use because GLSL ES 3.00 or WGSL reserves them. */
const RESERVED = new Set(
  (
    'attribute const uniform varying layout centroid flat smooth break continue do for while switch case default if else ' +
    'in out inout float int uint void bool true false invariant discard return struct lowp mediump highp precision ' +
    'mat2 mat3 mat4 vec2 vec3 vec4 ivec2 ivec3 ivec4 uvec2 uvec3 uvec4 bvec2 bvec3 bvec4 sampler2D sampler3D samplerCube ' +
    'common partition active asm class union enum typedef template this goto inline noinline volatile public static extern ' +
    'external interface long short double half fixed unsigned superp input output filter sizeof cast namespace using ' +
    'fn let var loop return select array ptr atomic f32 u32 i32 f16 vec2f vec3f vec4f vec2u vec3u vec4u vec2i vec3i vec4i ' +
    'alias override enable requires diagnostic discard bitcast workgroup storage private function read write read_write ' +
    'target set pass module type new mod self super impl match move mut ref where with yield await async'
  ).split(' '),
);
export { toWgsl, GLSL_PRELUDE } from './kernel-language.js';

/** `IgnisState` and `ignisElement(j)` reading element j from `source`: storage arrays or textures. */
export function wgslGather(
  attributes: readonly string[],
  source: 'storage' | 'texture',
  prefix: string,
): string {
  const state = `struct IgnisState { ${attributes.map((a) => `${a}: vec4f`).join(', ')} };\n`;
  const read = (a: string): string =>
    source === 'storage'
      ? `${prefix}${a}[j]`
      : `textureLoad(${prefix}${a}, vec2i(i32(j % params.width), i32(j / params.width)), 0)`;
  return `${state}fn ignisElement(j: u32) -> IgnisState {\n  return IgnisState(${attributes.map(read).join(', ')});\n}\n`;
}

function wgslUniformStruct(layout: UniformLayout): string {
  return `struct Params {\n${layout.fields.map((f) => `  ${f.name}: ${f.type},`).join('\n')}\n};\n@group(0) @binding(0) var<uniform> params: Params;\n`;
}

import { KernelError } from './kernel-error.js';

export { KernelError };

/**
 * An element-wise kernel (attributes, uniforms, body) as WGSL for compute and the WebGPU
 * ping-pong, its GLSL fragment and CPU step translated at the first ask by `translate` (default:
 * the front end loaded on demand, front-end.ts). `defineKernel` (define-kernel.ts, the public door)
 * translates at once.
 */
export function kernelSource(
  desc: KernelDescriptor,
  translate: (k: TranslatableKernel) => KernelTranslation = (k) =>
    frontEnd(`translating kernel "${k.descriptor.label}"`).translateKernel(k),
): Kernel {
  const { label, attributes } = desc;
  if (attributes.length === 0)
    throw new KernelError(label, 'a kernel needs at least one attribute');
  for (const name of [...attributes, ...(desc.uniforms ?? []).map(([n]) => n)]) {
    if (!IDENT.test(name) || name.startsWith('_ignis') || name === 'index' || name === 'params') {
      throw new KernelError(
        label,
        `"${name}" is not a usable name (an identifier, not index/params/_ignis*)`,
      );
    }
    if (RESERVED.has(name))
      throw new KernelError(
        label,
        `"${name}" is reserved in GLSL ES 3.00 or WGSL; choose another name`,
      );
  }
  for (const reserved of ['count', 'sourceCount', 'sourceWidth'])
    if ((desc.uniforms ?? []).some(([n]) => n === reserved))
      throw new KernelError(label, `"${reserved}" is reserved: the runner sets it`);
  const source = desc.source ?? [];
  for (const name of source)
    if (!IDENT.test(name) || name.startsWith('_ignis') || RESERVED.has(name))
      throw new KernelError(label, `source attribute "${name}" is not a usable name`);
  const uniforms = uniformLayout([
    ...(desc.uniforms ?? []),
    ['count', 'u32'],
    ['width', 'u32'],
    ...(source.length > 0
      ? ([
          ['sourceCount', 'u32'],
          ['sourceWidth', 'u32'],
        ] as const)
      : []),
  ]);
  const wg = desc.workgroupSize ?? 64;
  const helpers = desc.helpers ?? '';

  const gather = desc.gather === true;
  const n = attributes.length;
  const depth = desc.sceneDepth === true;
  // ignisSceneDepth(x, y) in WGSL, for both GPU variants
  const wgslDepth = depth
    ? `@group(0) @binding(${sceneDepthBinding(n)}) var _ignis_depth: texture_depth_2d;
fn ignisSceneDepth(x: i32, y: i32) -> f32 {
  let size = vec2i(textureDimensions(_ignis_depth));
  return textureLoad(_ignis_depth, clamp(vec2i(x, y), vec2i(0), size - 1), 0);
}
`
    : '';
  const wgslCompute = `${wgslUniformStruct(uniforms)}${attributes.map((a, i) => `@group(0) @binding(${i + 1}) var<storage, read_write> _ignis_${a}: array<vec4f>;`).join('\n')}
${gather ? `${attributes.map((a, i) => `@group(0) @binding(${n + 1 + i}) var<storage, read> _ignis_prev_${a}: array<vec4f>;`).join('\n')}\n${wgslGather(attributes, 'storage', '_ignis_prev_')}` : ''}${wgslDepth}${wgslSource(source, n, 'storage')}${toWgsl(helpers)}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) _ignis_gid: vec3u, @builtin(num_workgroups) _ignis_groups: vec3u) {
  let index = _ignis_gid.x + _ignis_gid.y * _ignis_groups.x * ${wg}u;
  if (index >= params.count) { return; }
${attributes.map((a) => `  var ${a} = _ignis_${a}[index];`).join('\n')}
  {
${toWgsl(desc.body)}
  }
${attributes.map((a) => `  _ignis_${a}[index] = ${a};`).join('\n')}
}
`;

  const wgslFragment = `${wgslUniformStruct(uniforms)}${attributes.map((a, i) => `@group(0) @binding(${i + 1}) var _ignis_${a}: texture_2d<f32>;`).join('\n')}
${gather ? wgslGather(attributes, 'texture', '_ignis_') : ''}${wgslDepth}${wgslSource(source, n, 'texture')}${toWgsl(helpers)}
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
struct _IgnisOut { ${attributes.map((a, i) => `@location(${i}) ${a}: vec4f`).join(', ')} };
@fragment fn fs(@builtin(position) _ignis_frag: vec4f) -> _IgnisOut {
  let _ignis_texel = vec2i(_ignis_frag.xy);
  let index = u32(_ignis_texel.y) * params.width + u32(_ignis_texel.x);
${attributes.map((a) => `  var ${a} = textureLoad(_ignis_${a}, _ignis_texel, 0);`).join('\n')}
  {
${toWgsl(desc.body)}
  }
  return _IgnisOut(${attributes.join(', ')});
}
`;

  const glslVertex = `#version 300 es
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
`;
  // one translator: the kernel's WGSL goes through the portable front end (src/compute/portable)
  // for the GLSL fragment ping-pong and the CPU form
  // (ignisElement's body here only types it: each emitter implements it for its path)
  const wgslTranslated = `${wgslUniformStruct(uniforms)}struct IgnisState { ${attributes.map((a) => `${a}: vec4f`).join(', ')} };
@group(0) @binding(1) var<storage, read_write> ignisStates: array<IgnisState>;
${gather ? 'fn ignisElement(j: u32) -> IgnisState {\n  return IgnisState(' + attributes.map(() => 'vec4f(f32(j))').join(', ') + ');\n}\n' : ''}${depth ? 'fn ignisSceneDepth(x: i32, y: i32) -> f32 {\n  return f32(x + y);\n}\n' : ''}${sourceStub(source)}${toWgsl(helpers)}
fn ignisUpdate(index: u32, ignisIn: IgnisState) -> IgnisState {
${attributes.map((a) => `  var ${a} = ignisIn.${a};`).join('\n')}
${toWgsl(desc.body)}
  return IgnisState(${attributes.join(', ')});
}
@compute @workgroup_size(64)
fn ignisMain(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.count) { return; }
  ignisStates[gid.x] = ignisUpdate(gid.x, ignisStates[gid.x]);
}
`;
  let translation: KernelTranslation | null = null;
  // (a getter: the particles' kernels on WebGPU compute are never translated)
  const kernel: Kernel = {
    descriptor: desc,
    uniforms,
    wgslCompute,
    wgslFragment,
    glslVertex,
    workgroupSize: wg,
    wgslTranslated,
    get translation() {
      return (translation ??= translate(kernel));
    },
    get glslFragment() {
      return kernel.translation.glslFragment;
    },
    get cpu() {
      return kernel.translation.cpu;
    },
  };
  return kernel;
}

/** Translates `kernel` now (a KernelError where it cannot be): code of yours, checked on every path. */
export function translateNow(kernel: Kernel): void {
  const { translation } = kernel;
  void translation;
}
