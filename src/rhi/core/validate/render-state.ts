/**
 * The fixed-function state of a render pipeline, checked as the WebGPU specification checks it
 * ("GPURenderPipelineDescriptor" validation: primitive, depth-stencil, vertex and color-target
 * state), before anything reaches a backend. Every enum is checked against the list of its values
 * (never with `in`, which accepts 'toString'); every rule has its code (docs/errors.md).
 */
import { LimitExceededError, ValidationError } from '../errors.js';
import { isDepthFormat, isTextureFormat, VERTEX_FORMAT_BYTES } from '../formats.js';
import type { Limits } from '../caps.js';
import type { BlendComponent, RenderPipelineDescriptor, VertexFormat } from '../descriptors.js';
import { show } from '../show.js';

export const TOPOLOGIES = [
  'triangle-list',
  'triangle-strip',
  'line-list',
  'line-strip',
  'point-list',
] as const;
export const CULL_MODES = ['none', 'front', 'back'] as const;
export const FRONT_FACES = ['ccw', 'cw'] as const;
export const BLEND_FACTORS = [
  'zero',
  'one',
  'src',
  'one-minus-src',
  'src-alpha',
  'one-minus-src-alpha',
  'dst',
  'one-minus-dst',
  'dst-alpha',
  'one-minus-dst-alpha',
  'src-alpha-saturated',
] as const;
/** WebGPU's blend-constant factors: Ignis has no setBlendConstant yet, so they are refused by name. */
const CONSTANT_FACTORS: readonly string[] = ['constant', 'one-minus-constant'];
export const BLEND_OPERATIONS = ['add', 'subtract', 'reverse-subtract', 'min', 'max'] as const;
export const COMPARE_FUNCTIONS = [
  'never',
  'less',
  'equal',
  'less-equal',
  'greater',
  'not-equal',
  'greater-equal',
  'always',
] as const;
export const STEP_MODES = ['vertex', 'instance'] as const;
/** The vertex formats (WebGPU's table, the ones Ignis has), from their sizes in formats.ts. */
const VERTEX_FORMATS = Object.keys(VERTEX_FORMAT_BYTES) as VertexFormat[];
/** WebGPU's `maxVertexBufferArrayStride` (2048 in every WebGPU implementation and in WebGL2 here). */
export const MAX_ARRAY_STRIDE = 2048;

/** `value` is one of `allowed` (an own entry: 'toString' and '__proto__' are not). */
export function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && allowed.includes(value as T);
}

function checkEnum(
  code: string,
  what: string,
  value: unknown,
  allowed: readonly string[],
  label: string | undefined,
): void {
  if (value !== undefined && !isOneOf(value, allowed))
    throw new ValidationError(
      code,
      `${what} ${show(value)} is not one of ${allowed.join(', ')}`,
      label,
      { value },
    );
}

function checkBlendComponent(
  c: BlendComponent | undefined,
  where: string,
  label: string | undefined,
): void {
  if (c === undefined || c === null || typeof c !== 'object')
    throw new ValidationError(
      'pipeline-blend-component',
      `${where} must be an object ({ srcFactor, dstFactor, operation })`,
      label,
      { value: c },
    );
  for (const key of ['srcFactor', 'dstFactor'] as const)
    if (CONSTANT_FACTORS.includes(c[key] as string))
      throw new ValidationError(
        'pipeline-blend-constant',
        `${where}.${key} '${String(c[key])}' needs a blend constant, which Ignis does not set yet (no setBlendConstant); premultiply the constant into the colour instead`,
        label,
        { [key]: c[key] },
      );
  checkEnum('pipeline-blend-factor', `${where}.srcFactor`, c.srcFactor, BLEND_FACTORS, label);
  checkEnum('pipeline-blend-factor', `${where}.dstFactor`, c.dstFactor, BLEND_FACTORS, label);
  if (c.dstFactor === 'src-alpha-saturated')
    throw new ValidationError(
      'pipeline-blend-factor',
      `${where}.dstFactor 'src-alpha-saturated' is a source factor on WebGL2 (GL ES 3.0): use it as srcFactor`,
      label,
      { dstFactor: c.dstFactor },
    );
  checkEnum('pipeline-blend-operation', `${where}.operation`, c.operation, BLEND_OPERATIONS, label);
  // WebGPU: min and max take the factors as 'one' (anything else is a validation error)
  if (
    (c.operation === 'min' || c.operation === 'max') &&
    ((c.srcFactor ?? 'one') !== 'one' || (c.dstFactor ?? 'zero') !== 'one')
  )
    throw new ValidationError(
      'pipeline-blend-minmax',
      `${where}: operation '${c.operation}' needs srcFactor and dstFactor 'one' (got ${c.srcFactor ?? 'one'}, ${c.dstFactor ?? 'zero'})`,
      label,
      { operation: c.operation },
    );
}

/** Primitive, depth-stencil, vertex-buffer and color-target state of a render pipeline. */
export function validateRenderState(
  desc: RenderPipelineDescriptor,
  limits: Limits,
  label: string | undefined,
): void {
  const p = desc.primitive;
  if (p !== undefined) {
    if (p === null || typeof p !== 'object')
      throw new ValidationError('pipeline-primitive', 'primitive must be an object', label);
    checkEnum('pipeline-topology', 'primitive.topology', p.topology, TOPOLOGIES, label);
    checkEnum('pipeline-cull-mode', 'primitive.cullMode', p.cullMode, CULL_MODES, label);
    checkEnum('pipeline-front-face', 'primitive.frontFace', p.frontFace, FRONT_FACES, label);
  }
  const ds = desc.depthStencil;
  if (ds !== undefined) {
    if (ds === null || typeof ds !== 'object')
      throw new ValidationError('pipeline-depth-stencil', 'depthStencil must be an object', label);
    if (!isTextureFormat(ds.format) || !isDepthFormat(ds.format))
      throw new ValidationError(
        'pipeline-depth-format',
        `depthStencil.format ${show(ds.format)} is not a depth format`,
        label,
        { format: ds.format },
      );
    checkEnum(
      'pipeline-depth-compare',
      'depthStencil.depthCompare',
      ds.depthCompare,
      COMPARE_FUNCTIONS,
      label,
    );
    if (ds.depthWriteEnabled !== undefined && typeof ds.depthWriteEnabled !== 'boolean')
      throw new ValidationError(
        'pipeline-depth-write',
        `depthStencil.depthWriteEnabled ${String(ds.depthWriteEnabled)} must be a boolean`,
        label,
        { value: ds.depthWriteEnabled },
      );
  }
  const buffers = desc.vertex.buffers ?? [];
  if (!Array.isArray(buffers))
    throw new ValidationError('pipeline-vertex-buffers', 'vertex.buffers must be an array', label);
  const locations = new Map<number, string>();
  buffers.forEach((b, i) => {
    if (b === null || typeof b !== 'object' || !Array.isArray(b.attributes))
      throw new ValidationError(
        'pipeline-vertex-buffer',
        `vertex.buffers[${i}] must be { arrayStride, stepMode?, attributes: [] }`,
        label,
        { index: i },
      );
    if (b.arrayStride > MAX_ARRAY_STRIDE)
      throw new LimitExceededError(
        'maxVertexBufferArrayStride',
        b.arrayStride,
        MAX_ARRAY_STRIDE,
        `vertex.buffers[${i}].arrayStride`,
        label,
      );
    checkEnum('pipeline-step-mode', `vertex.buffers[${i}].stepMode`, b.stepMode, STEP_MODES, label);
    b.attributes.forEach((a, j) => {
      const where = `vertex.buffers[${i}].attributes[${j}]`;
      if (a === null || typeof a !== 'object')
        throw new ValidationError('pipeline-attribute', `${where} must be an object`, label);
      if (!isOneOf(a.format, VERTEX_FORMATS))
        throw new ValidationError(
          'pipeline-vertex-format',
          `${where}.format ${show(a.format)} is not one of ${VERTEX_FORMATS.join(', ')}`,
          label,
          { format: a.format },
        );
      const size = VERTEX_FORMAT_BYTES[a.format];
      if (!Number.isInteger(a.offset) || a.offset < 0 || a.offset % Math.min(4, size) !== 0)
        throw new ValidationError(
          'pipeline-attribute-offset',
          `${where}.offset ${String(a.offset)} must be a non-negative multiple of ${Math.min(4, size)}`,
          label,
          { offset: a.offset },
        );
      // WebGPU: the attribute lies inside the stride (or, with stride 0, inside the 2048 bytes)
      const end = a.offset + size;
      const limit = b.arrayStride === 0 ? MAX_ARRAY_STRIDE : b.arrayStride;
      if (end > limit)
        throw new ValidationError(
          'pipeline-attribute-range',
          `${where} (${a.format} at offset ${a.offset}) ends at byte ${end}, beyond arrayStride ${b.arrayStride}`,
          label,
          { offset: a.offset, size, arrayStride: b.arrayStride },
        );
      if (
        !Number.isInteger(a.shaderLocation) ||
        a.shaderLocation < 0 ||
        a.shaderLocation >= limits.maxVertexAttributes
      )
        throw new ValidationError(
          'pipeline-shader-location',
          `${where}.shaderLocation ${String(a.shaderLocation)} must be an integer from 0 to ${limits.maxVertexAttributes - 1} (maxVertexAttributes)`,
          label,
          { shaderLocation: a.shaderLocation },
        );
      const taken = locations.get(a.shaderLocation);
      if (taken !== undefined)
        throw new ValidationError(
          'pipeline-shader-location-duplicate',
          `${where}.shaderLocation ${a.shaderLocation} is already used by ${taken}`,
          label,
          { shaderLocation: a.shaderLocation },
        );
      locations.set(a.shaderLocation, where);
    });
  });
  const f = desc.fragment;
  if (f !== undefined) {
    if (f === null || typeof f !== 'object' || !Array.isArray(f.targets))
      throw new ValidationError(
        'pipeline-fragment',
        'fragment must be { module, entryPoint?, targets: [...] }',
        label,
      );
    f.targets.forEach((t, i) => {
      if (t === null || typeof t !== 'object')
        throw new ValidationError(
          'pipeline-target',
          `fragment.targets[${i}] must be an object`,
          label,
        );
      const mask = t.writeMask;
      if (mask !== undefined && (!Number.isInteger(mask) || mask < 0 || mask > 0xf))
        throw new ValidationError(
          'pipeline-write-mask',
          `fragment.targets[${i}].writeMask ${String(mask)} must be a combination of the bits R=1 G=2 B=4 A=8 (0 to 15)`,
          label,
          { writeMask: mask },
        );
      if (t.blend !== undefined) {
        if (t.blend === null || typeof t.blend !== 'object')
          throw new ValidationError(
            'pipeline-blend',
            `fragment.targets[${i}].blend must be { color, alpha }`,
            label,
          );
        checkBlendComponent(t.blend.color, `fragment.targets[${i}].blend.color`, label);
        checkBlendComponent(t.blend.alpha, `fragment.targets[${i}].blend.alpha`, label);
      }
    });
  }
}

/** The WGSL entry points of `code` by stage (`@vertex fn name`, comments removed first). */
export function wgslEntryPoints(code: string): Record<'vertex' | 'fragment' | 'compute', string[]> {
  const src = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const out = { vertex: [] as string[], fragment: [] as string[], compute: [] as string[] };
  for (const m of src.matchAll(/@(vertex|fragment|compute)\b[^{;]*?\bfn\s+([A-Za-z_]\w*)/g))
    out[m[1] as 'vertex' | 'fragment' | 'compute'].push(m[2] as string);
  return out;
}

/**
 * A WGSL stage's entry point: the one named, which must exist for that stage, or the only one
 * of that stage when none is named (WebGPU's rule for an omitted entryPoint).
 */
export function checkEntryPoint(
  code: string,
  stage: 'vertex' | 'fragment' | 'compute',
  entryPoint: string | undefined,
  label: string | undefined,
): void {
  const found = wgslEntryPoints(code)[stage];
  if (entryPoint !== undefined) {
    if (typeof entryPoint !== 'string' || !found.includes(entryPoint))
      throw new ValidationError(
        'pipeline-entry-point',
        `${stage} entryPoint ${show(entryPoint)} is not a @${stage} function of the module (it has: ${found.join(', ') || 'none'})`,
        label,
        { entryPoint, stage },
      );
    return;
  }
  if (found.length !== 1)
    throw new ValidationError(
      'pipeline-entry-point',
      `the module has ${found.length === 0 ? 'no' : found.length} @${stage} function${found.length === 1 ? '' : 's'} (${found.join(', ') || 'none'}): ${found.length === 0 ? 'add one' : 'name one with entryPoint'}`,
      label,
      { stage },
    );
}
