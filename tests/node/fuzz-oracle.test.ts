// The error promise both ways: descriptors and calls drawn from the whole space — valid and
// invalid alike — judged by an oracle written from the WebGPU specification's validation rules
// (https://www.w3.org/TR/webgpu/: createBuffer, createTexture, createSampler, the vertex state,
// copyBufferToBuffer, writeBuffer), not from Ignis's code. Each outcome on the null backend is one of
//   accepted      — valid WebGPU, accepted;
//   typed+named   — invalid, an RhiError whose message names the value or field;
//   subset        — valid WebGPU outside Ignis's portable subset (docs/errors.md lists them),
//                   refused with an RhiError naming the value;
//   typed         — invalid, an RhiError that does not say which value;
//   untyped       — any other exception;
//   silent        — invalid, accepted;
//   rejected      — valid WebGPU (and inside the subset), refused.
// The suite fails on typed, untyped, silent and rejected, prints the counts, and holds the table
// in docs/errors.md to them (`UPDATE_FUZZ_TABLE=1 npx vitest run tests/node/fuzz-oracle.test.ts`
// rewrites it).
//
// One convention is Ignis's, not WebIDL's: a value of the wrong JavaScript type (null, a string, a
// BigInt) or a count that is not an integer is invalid here, where WebIDL would convert it (null →
// 0, 2.5 → 2). TypeScript refuses them too; Ignis says so with a typed error instead of guessing.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NullDevice, RhiError, type Device } from '../../src/all.js';
import {
  SPEC_BLEND_FACTORS,
  SPEC_BUFFER_USAGE,
  SPEC_COMPARE_FUNCTIONS,
  SPEC_TEXTURE_USAGE,
} from './webgpu-spec.js';

const SEED = 20261202;
const RUNS = 10000;

type Verdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; rule: string; mentions: string[] }
  | { kind: 'subset'; rule: string; mentions: string[] };

interface Trial {
  family: string;
  verdict: Verdict;
  run(d: Device): unknown;
  /** The device to run on (default: a plain null device). */
  device?: () => Device;
}

const VALID: Verdict = { kind: 'valid' };
/** The first broken rule, or valid. */
function judge(
  rules: Array<[boolean, string, string[]]>,
  subset: Array<[boolean, string, string[]]> = [],
): Verdict {
  for (const [broken, rule, mentions] of rules)
    if (broken) return { kind: 'invalid', rule, mentions };
  const outside = subset.filter(([b]) => b);
  if (outside.length > 0)
    return {
      kind: 'subset',
      rule: outside.map(([, r]) => r).join(' + '),
      mentions: outside.flatMap(([, , m]) => m),
    };
  return VALID;
}
/** Every broken rule's mentions count: an implementation may report any one of them first. */
function judgeAll(
  rules: Array<[boolean, string, string[]]>,
  subset: Array<[boolean, string, string[]]> = [],
): Verdict {
  const broken = rules.filter(([b]) => b);
  // an error may name any problem of the call, one outside the subset included
  if (broken.length > 0)
    return {
      kind: 'invalid',
      rule: broken.map(([, r]) => r).join(' + '),
      mentions: [...broken, ...subset.filter(([b]) => b)].flatMap(([, , m]) => m),
    };
  return judge([], subset);
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

// ---- the specification's tables, written out here -------------------------------------------

const BU = SPEC_BUFFER_USAGE;
const BU_ALL = 0x3ff;
const TU = SPEC_TEXTURE_USAGE;
const TU_ALL = 0x1f;

/**
 * Texture formats of the core specification's table that Ignis supports, with its capabilities
 * there: multisampling, storage binding (core, without features).
 */
const FORMATS: Record<string, { ms: boolean; storage: boolean; depth: boolean }> = {
  r8unorm: { ms: true, storage: false, depth: false },
  rg8unorm: { ms: true, storage: false, depth: false },
  rgba8unorm: { ms: true, storage: true, depth: false },
  'rgba8unorm-srgb': { ms: true, storage: false, depth: false },
  bgra8unorm: { ms: true, storage: false, depth: false },
  r16float: { ms: true, storage: false, depth: false },
  rg16float: { ms: true, storage: false, depth: false },
  rgba16float: { ms: true, storage: true, depth: false },
  r32float: { ms: true, storage: true, depth: false },
  rg32float: { ms: false, storage: true, depth: false },
  rgba32float: { ms: false, storage: true, depth: false },
  depth16unorm: { ms: true, storage: false, depth: true },
  depth24plus: { ms: true, storage: false, depth: true },
  'depth24plus-stencil8': { ms: true, storage: false, depth: true },
  depth32float: { ms: true, storage: false, depth: true },
};
/** Core WebGPU formats Ignis does not offer (its subset: one format set on every backend). */
const OTHER_FORMATS = [
  'rgba8snorm',
  'rgba8uint',
  'r32uint',
  'rg11b10ufloat',
  'rgb10a2unorm',
  'stencil8',
  'rgb9e5ufloat',
];

/** GPUVertexFormat: bytes, and the shader type an attribute of it feeds (f: float, u, i). */
const VERTEX_FORMATS: Record<string, [number, 'f' | 'u' | 'i']> = {};
for (const [base, bytes, type] of [
  ['uint8', 1, 'u'],
  ['sint8', 1, 'i'],
  ['unorm8', 1, 'f'],
  ['snorm8', 1, 'f'],
  ['uint16', 2, 'u'],
  ['sint16', 2, 'i'],
  ['unorm16', 2, 'f'],
  ['snorm16', 2, 'f'],
  ['float16', 2, 'f'],
] as const)
  for (const n of [1, 2, 4]) VERTEX_FORMATS[n === 1 ? base : `${base}x${n}`] = [bytes * n, type];
for (const [base, type] of [
  ['float32', 'f'],
  ['uint32', 'u'],
  ['sint32', 'i'],
] as const)
  for (const n of [1, 2, 3, 4]) VERTEX_FORMATS[n === 1 ? base : `${base}x${n}`] = [4 * n, type];
VERTEX_FORMATS['unorm10-10-10-2'] = [4, 'f'];
VERTEX_FORMATS['unorm8x4-bgra'] = [4, 'f'];

const ADDRESS = ['clamp-to-edge', 'repeat', 'mirror-repeat'];
const FILTER = ['nearest', 'linear'];
const COMPARE = SPEC_COMPARE_FUNCTIONS;

// ---- generators ------------------------------------------------------------------------------

const flagsOf = (bits: readonly number[]) =>
  fc.subarray([...bits], { minLength: 0 }).map((b) => b.reduce((a, x) => a | x, 0));
const wrongType = fc.constantFrom<unknown>(null, '16', 16n, Number.NaN, Number.POSITIVE_INFINITY);
const enumOr = (valid: readonly string[], others: readonly string[] = []) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('bogus', '', 'toString', null, 3, ...others) },
  );
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });

const LIMITS = new NullDevice().caps.limits;

// createBuffer
const bufferTrials: fc.Arbitrary<Trial> = fc
  .record({
    size: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 96 }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<unknown>(
          LIMITS.maxBufferSize,
          LIMITS.maxBufferSize + 4,
          -4,
          2.5,
        ),
      },
      { weight: 1, arbitrary: wrongType },
    ),
    usage: fc.oneof(
      { weight: 8, arbitrary: flagsOf(Object.values(BU)) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(0x400, -1, 1.5, null, 16n) },
    ),
    mappedAtCreation: fc.constantFrom(undefined, true, false),
  })
  .map(({ size, usage, mappedAtCreation }) => {
    const u = usage as number;
    const verdict = judgeAll([
      [!isInt(size) || size < 0, 'size is a GPUSize64', ['size']],
      [
        isInt(size) && size > LIMITS.maxBufferSize,
        'size ≤ maxBufferSize',
        ['maxBufferSize', 'size'],
      ],
      [!isInt(usage) || usage <= 0 || (u & ~BU_ALL) !== 0, 'usage: known bits, not 0', ['sage']],
      [
        isInt(usage) && (u & BU.MAP_READ) !== 0 && (u & ~(BU.MAP_READ | BU.COPY_DST)) !== 0,
        'MAP_READ only with COPY_DST',
        ['MAP_READ'],
      ],
      [
        isInt(usage) && (u & BU.MAP_WRITE) !== 0 && (u & ~(BU.MAP_WRITE | BU.COPY_SRC)) !== 0,
        'MAP_WRITE only with COPY_SRC',
        ['MAP_WRITE'],
      ],
      [
        mappedAtCreation === true && isInt(size) && size % 4 !== 0,
        'mappedAtCreation: size a multiple of 4',
        ['mappedAtCreation'],
      ],
    ]);
    return {
      family: 'createBuffer',
      verdict,
      run: (d: Device) =>
        d.createBuffer({ size, usage, mappedAtCreation } as unknown as Parameters<
          Device['createBuffer']
        >[0]),
    };
  });

// createTexture
const textureTrials: fc.Arbitrary<Trial> = fc
  .record({
    width: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 1, max: 64 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<unknown>(
          0,
          LIMITS.maxTextureDimension2D,
          LIMITS.maxTextureDimension2D + 1,
          2.5,
        ),
      },
      { weight: 1, arbitrary: wrongType },
    ),
    height: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 1, max: 64 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(0, LIMITS.maxTextureDimension2D + 1, null) },
    ),
    format: enumOr(Object.keys(FORMATS), OTHER_FORMATS),
    usage: fc.oneof(
      { weight: 8, arbitrary: flagsOf(Object.values(TU)) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(0x40, -1, null) },
    ),
    mipLevelCount: maybe(
      fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constantFrom<unknown>(0, 1.5, null)),
    ),
    sampleCount: maybe(fc.constantFrom<unknown>(1, 4, 4, 2, 0, 1.5)),
    dimension: maybe(fc.constantFrom<unknown>('2d', '2d', '1d', '3d', 'bogus', null)),
  })
  .map((t) => {
    const { width, height, format, usage, mipLevelCount, sampleCount, dimension } = t;
    const u = usage as number;
    const mips = mipLevelCount ?? 1;
    const samples = sampleCount ?? 1;
    const f =
      typeof format === 'string' && Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
    const sizeOk = isInt(width) && isInt(height) && width > 0 && height > 0;
    const maxMips = sizeOk ? Math.floor(Math.log2(Math.max(width, height))) + 1 : Infinity;
    const known = f !== undefined || OTHER_FORMATS.includes(format as string);
    const usageOk = isInt(usage) && usage > 0 && (u & ~TU_ALL) === 0;
    const ms = samples === 4;
    const verdict = judgeAll(
      [
        [!isInt(width) || width <= 0, 'width > 0', ['width']],
        [!isInt(height) || height <= 0, 'height > 0', ['height']],
        [
          (isInt(width) && width > LIMITS.maxTextureDimension2D) ||
            (isInt(height) && height > LIMITS.maxTextureDimension2D),
          'size ≤ maxTextureDimension2D',
          ['maxTextureDimension2D'],
        ],
        [!known, 'format is a GPUTextureFormat', ['format']],
        [
          dimension !== undefined && !['1d', '2d', '3d'].includes(dimension as string),
          'dimension',
          ['dimension'],
        ],
        [!usageOk, 'usage: known bits, not 0', ['sage']],
        [!isInt(mips) || mips < 1 || mips > maxMips, 'mipLevelCount in 1..max', ['mipLevelCount']],
        [samples !== 1 && samples !== 4, 'sampleCount 1 or 4', ['sampleCount']],
        [ms && mips !== 1, 'multisampled: one mip', ['mipLevelCount']],
        [
          ms && usageOk && (u & TU.STORAGE_BINDING) !== 0,
          'multisampled: no storage',
          ['STORAGE_BINDING', 'sampled'],
        ],
        [
          ms && usageOk && (u & TU.RENDER_ATTACHMENT) === 0,
          'multisampled: a render attachment',
          ['RENDER_ATTACHMENT'],
        ],
        [
          ms && f !== undefined && !f.ms,
          'multisampled: a format that can be',
          ['format', 'multisampled'],
        ],
        [
          usageOk && f !== undefined && (u & TU.STORAGE_BINDING) !== 0 && !f.storage,
          'storage: a format with STORAGE_BINDING',
          ['STORAGE_BINDING', 'format'],
        ],
        [
          ms && dimension !== undefined && dimension !== '2d' && known,
          'multisampled: 2d',
          ['dimension', 'sampleCount'],
        ],
      ],
      [
        [f === undefined && known, 'a format outside Ignis’s set', ['format']],
        [dimension === '1d' || dimension === '3d', '1d and 3d textures', ['dimension']],
        [
          ms && usageOk && (u & (TU.TEXTURE_BINDING | TU.COPY_SRC | TU.COPY_DST)) !== 0,
          'a multisampled texture sampled or copied',
          ['RENDER_ATTACHMENT', 'sampled'],
        ],
        [
          f?.depth === true && usageOk && (u & TU.COPY_DST) !== 0,
          'a depth texture as a copy destination',
          ['COPY_DST'],
        ],
      ],
    );
    return {
      family: 'createTexture',
      verdict,
      run: (d: Device) =>
        d.createTexture({
          size: { width, height },
          format,
          usage,
          ...(mipLevelCount === undefined ? {} : { mipLevelCount }),
          ...(sampleCount === undefined ? {} : { sampleCount }),
          ...(dimension === undefined ? {} : { dimension }),
        } as unknown as Parameters<Device['createTexture']>[0]),
    };
  });

/** WebIDL [Clamp] unsigned short: NaN → 0, rounded half to even, clamped to 0..65535. */
function clampUnsignedShort(x: number): number {
  if (Number.isNaN(x)) return 0;
  const c = Math.min(65535, Math.max(0, x));
  const r = Math.round(c);
  return Math.abs(c - Math.trunc(c)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// createSampler
const samplerTrials: fc.Arbitrary<Trial> = fc
  .record({
    addressModeU: maybe(enumOr(ADDRESS)),
    addressModeV: maybe(enumOr(ADDRESS)),
    addressModeW: maybe(enumOr(ADDRESS)),
    magFilter: maybe(enumOr(FILTER)),
    minFilter: maybe(enumOr(FILTER)),
    mipmapFilter: maybe(enumOr(FILTER)),
    lodMinClamp: maybe(
      fc.constantFrom<unknown>(0, 1, 4, -1, Number.NaN, Number.POSITIVE_INFINITY, null),
    ),
    lodMaxClamp: maybe(
      fc.constantFrom<unknown>(0, 2, 32, 1000, -1, Number.NaN, Number.POSITIVE_INFINITY),
    ),
    maxAnisotropy: maybe(fc.constantFrom<unknown>(1, 2, 4, 16, 0, 0.5, 1.5, 3.3, Number.NaN, null)),
    compare: maybe(enumOr(COMPARE)),
  })
  .map((s) => {
    const bad = (key: keyof typeof s, set: string[]) =>
      [
        s[key] !== undefined && !set.includes(s[key] as string),
        `${key} is an enum value`,
        [key],
      ] as [boolean, string, string[]];
    const min = s.lodMinClamp ?? 0;
    const max = s.lodMaxClamp ?? 32;
    const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
    const a = s.maxAnisotropy;
    const aniso = typeof a === 'number' ? clampUnsignedShort(a) : a === undefined ? 1 : Number.NaN;
    const verdict = judgeAll([
      bad('addressModeU', ADDRESS),
      bad('addressModeV', ADDRESS),
      bad('addressModeW', ADDRESS),
      bad('magFilter', FILTER),
      bad('minFilter', FILTER),
      bad('mipmapFilter', FILTER),
      [!finite(min) || (min as number) < 0, 'lodMinClamp ≥ 0 (a finite float)', ['lodMinClamp']],
      [
        !finite(max) || (finite(min) && (max as number) < (min as number)),
        'lodMaxClamp ≥ lodMinClamp (a finite float)',
        ['lodMaxClamp'],
      ],
      [!(aniso >= 1), 'maxAnisotropy ≥ 1', ['maxAnisotropy']],
      [
        aniso > 1 &&
          (s.magFilter !== 'linear' || s.minFilter !== 'linear' || s.mipmapFilter !== 'linear'),
        'maxAnisotropy > 1: every filter linear',
        ['maxAnisotropy'],
      ],
      bad('compare', COMPARE),
    ]);
    const desc = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
    return {
      family: 'createSampler',
      verdict,
      run: (d: Device) => d.createSampler(desc as Parameters<Device['createSampler']>[0]),
    };
  });

// copyBufferToBuffer
const copyUsage = fc.constantFrom(
  BU.COPY_SRC | BU.COPY_DST,
  BU.COPY_SRC | BU.COPY_DST | BU.STORAGE,
  BU.COPY_SRC | BU.COPY_DST | BU.VERTEX,
  BU.COPY_SRC,
  BU.COPY_DST,
  BU.VERTEX,
);
const offset = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 6 }).map((x) => 4 * x) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(2, 6, -4, 1.5, Number.NaN, null, 8n) },
);
const copyTrials: fc.Arbitrary<Trial> = fc
  .record({
    srcSize: fc.integer({ min: 4, max: 16 }).map((x) => 4 * x),
    dstSize: fc.integer({ min: 4, max: 16 }).map((x) => 4 * x),
    srcUsage: copyUsage,
    dstUsage: copyUsage,
    same: fc
      .boolean()
      .chain((b) => (b ? fc.boolean() : fc.constant(false)))
      .chain((b) => (b ? fc.boolean() : fc.constant(false))),
    srcOffset: offset,
    dstOffset: offset,
    size: offset,
  })
  .map((c) => {
    const dstSize = c.same ? c.srcSize : c.dstSize;
    const dstUsage = c.same ? c.srcUsage : c.dstUsage;
    const n = (x: unknown) => (isInt(x) ? x : Number.NaN);
    const verdict = judgeAll([
      [(c.srcUsage & BU.COPY_SRC) === 0, 'source has COPY_SRC', ['COPY_SRC']],
      [(dstUsage & BU.COPY_DST) === 0, 'destination has COPY_DST', ['COPY_DST']],
      [!isInt(c.size) || c.size < 0 || c.size % 4 !== 0, 'size a multiple of 4', ['size']],
      [
        !isInt(c.srcOffset) || c.srcOffset < 0 || c.srcOffset % 4 !== 0,
        'sourceOffset a multiple of 4',
        ['offset'],
      ],
      [
        !isInt(c.dstOffset) || c.dstOffset < 0 || c.dstOffset % 4 !== 0,
        'destinationOffset a multiple of 4',
        ['offset'],
      ],
      [n(c.srcOffset) + n(c.size) > c.srcSize, 'the source range inside the source', ['overruns']],
      [
        n(c.dstOffset) + n(c.size) > dstSize,
        'the destination range inside the destination',
        ['overruns'],
      ],
      [c.same, 'source and destination differ', ['same buffer']],
    ]);
    return {
      family: 'copyBufferToBuffer',
      verdict,
      run: (d: Device) => {
        const src = d.createBuffer({ size: c.srcSize, usage: c.srcUsage });
        const dst = c.same ? src : d.createBuffer({ size: dstSize, usage: dstUsage });
        d.createCommandEncoder().copyBufferToBuffer(
          src,
          c.srcOffset as number,
          dst,
          c.dstOffset as number,
          c.size as number,
        );
      },
    };
  });

// queue.writeBuffer
const writeTrials: fc.Arbitrary<Trial> = fc
  .record({
    size: fc.integer({ min: 4, max: 16 }).map((x) => 4 * x),
    usage: fc.constantFrom(
      BU.COPY_DST,
      BU.COPY_DST | BU.VERTEX,
      BU.UNIFORM | BU.COPY_DST,
      BU.VERTEX,
    ),
    mapped: fc.constantFrom(false, false, false, true),
    offset,
    elements: fc.integer({ min: 0, max: 20 }),
    bytesPer: fc.constantFrom(1, 2, 4, 4, 4),
    dataOffset: maybe(
      fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom<unknown>(-1, 1.5, 30)),
    ),
    count: maybe(fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constantFrom<unknown>(-1, 2.5, 40))),
  })
  .map((w) => {
    const start = w.dataOffset ?? 0;
    const startOk = isInt(start) && start >= 0 && start <= w.elements;
    const count = w.count ?? (startOk ? w.elements - (start as number) : 0);
    const countOk =
      isInt(count) && count >= 0 && startOk && (start as number) + count <= w.elements;
    const bytes = countOk ? count * w.bytesPer : 0;
    const verdict = judgeAll([
      [(w.usage & BU.COPY_DST) === 0, 'buffer has COPY_DST', ['COPY_DST']],
      [w.mapped, 'buffer is unmapped', ['mapped', 'unmap']],
      [!startOk, 'dataOffset within the data', ['dataOffset']],
      [startOk && !countOk, 'size within the data', ['size']],
      [
        !isInt(w.offset) || w.offset < 0 || w.offset % 4 !== 0,
        'bufferOffset a multiple of 4',
        ['offset'],
      ],
      [countOk && bytes % 4 !== 0, 'the bytes written a multiple of 4', ['size']],
      [countOk && isInt(w.offset) && w.offset + bytes > w.size, 'inside the buffer', ['overruns']],
    ]);
    return {
      family: 'writeBuffer',
      verdict,
      run: (d: Device) => {
        const b = d.createBuffer({ size: w.size, usage: w.usage, mappedAtCreation: w.mapped });
        const data =
          w.bytesPer === 1
            ? new Uint8Array(w.elements)
            : w.bytesPer === 2
              ? new Uint16Array(w.elements)
              : new Float32Array(w.elements);
        d.queue.writeBuffer(b, w.offset as number, data, w.dataOffset as number, w.count as number);
      },
    };
  });

// createRenderPipeline: the vertex state against the shader's inputs
const SHADER_TYPES = {
  f: ['f32', 'vec2f', 'vec4f'],
  u: ['u32', 'vec2u', 'vec4<u32>'],
  i: ['i32', 'vec3i', 'vec4i'],
};
const attribute = fc.record({
  format: enumOr(Object.keys(VERTEX_FORMATS)),
  offset: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 8 }).map((x) => 4 * x) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(1, 2, 3, 6, 2048, -4, 1.5) },
  ),
  shaderLocation: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(LIMITS.maxVertexAttributes, -1, 0.5) },
  ),
});
const vertexTrials: fc.Arbitrary<Trial> = fc
  .record({
    buffers: fc.array(
      fc.record({
        arrayStride: fc.oneof(
          { weight: 5, arbitrary: fc.integer({ min: 0, max: 12 }).map((x) => 4 * x) },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(2, 6, 2048, 2052, -4, Number.NaN) },
        ),
        stepMode: maybe(enumOr(['vertex', 'instance'])),
        attributes: fc.array(attribute, { maxLength: 3 }),
      }),
      { maxLength: 2 },
    ),
    // the shader's inputs: location → the scalar kind it reads
    inputs: fc.uniqueArray(
      fc.record({
        location: fc.integer({ min: 0, max: 3 }),
        kind: fc.constantFrom('f', 'u', 'i') as fc.Arbitrary<'f' | 'u' | 'i'>,
        type: fc.nat(2),
      }),
      { maxLength: 3, selector: (x) => x.location },
    ),
    struct: fc.boolean(),
  })
  .map(({ buffers, inputs, struct }) => {
    const rules: Array<[boolean, string, string[]]> = [];
    const locations = new Map<number, string>();
    buffers.forEach((b, i) => {
      const stride = b.arrayStride;
      const strideOk = isInt(stride) && stride >= 0 && stride % 4 === 0;
      rules.push([!strideOk, 'arrayStride a multiple of 4', ['arrayStride']]);
      rules.push([
        strideOk && stride > 2048,
        'arrayStride ≤ maxVertexBufferArrayStride',
        ['arrayStride', 'maxVertexBufferArrayStride'],
      ]);
      rules.push([
        b.stepMode !== undefined && !['vertex', 'instance'].includes(b.stepMode as string),
        'stepMode',
        ['stepMode'],
      ]);
      b.attributes.forEach((a, j) => {
        const where = `buffers[${i}].attributes[${j}]`;
        const fmt =
          typeof a.format === 'string' && Object.hasOwn(VERTEX_FORMATS, a.format)
            ? VERTEX_FORMATS[a.format]
            : undefined;
        rules.push([fmt === undefined, 'format is a GPUVertexFormat', ['format']]);
        const size = fmt?.[0] ?? 4;
        const off = a.offset;
        const offOk = isInt(off) && off >= 0 && off % Math.min(4, size) === 0;
        rules.push([!offOk, 'offset a multiple of min(4, the format’s size)', ['offset']]);
        rules.push([
          offOk && strideOk && fmt !== undefined && off + size > (stride === 0 ? 2048 : stride),
          'the attribute inside the stride',
          ['arrayStride', 'offset'],
        ]);
        const loc = a.shaderLocation;
        const locOk = isInt(loc) && loc >= 0 && loc < LIMITS.maxVertexAttributes;
        rules.push([!locOk, 'shaderLocation < maxVertexAttributes', ['shaderLocation']]);
        rules.push([locOk && locations.has(loc), 'shaderLocations unique', ['shaderLocation']]);
        if (locOk && fmt !== undefined && !locations.has(loc))
          locations.set(loc, `${where}:${fmt[1]}`);
      });
    });
    for (const input of inputs) {
      const fed = locations.get(input.location);
      rules.push([
        fed === undefined,
        'every shader input has an attribute',
        ['location', `@location(${input.location})`],
      ]);
      rules.push([
        fed !== undefined && !fed.endsWith(`:${input.kind}`),
        'the attribute’s type matches the input’s',
        [`@location(${input.location})`, 'location'],
      ]);
    }
    const verdict = judgeAll(rules);
    const params = inputs.map(
      (x, k) => `@location(${x.location}) a${k}: ${SHADER_TYPES[x.kind][x.type]}`,
    );
    const code = struct
      ? `struct In { ${params.map((p) => `${p},`).join(' ')} @builtin(vertex_index) vi: u32, };
@vertex fn vs(input: In) -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`
      : `@vertex fn vs(${[...params, '@builtin(vertex_index) vi: u32'].join(', ')}) -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`;
    return {
      family: 'createRenderPipeline (vertex state)',
      verdict,
      run: (d: Device) => {
        const module = d.createShaderModule({ code });
        d.createRenderPipeline({
          vertex: { module, entryPoint: 'vs', buffers: buffers as never },
          fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
        });
      },
    };
  });

// texture copies: copyTextureToTexture, queue.writeTexture, copyBufferToTexture
/** A texture the copy families use: 16×8 with 3 mips (16×8, 8×4, 4×2). */
const COPY_FORMATS = { rgba8unorm: 4, rgba16float: 8, r32float: 4, 'rgba8unorm-srgb': 4 } as const;
type CopyFormat = keyof typeof COPY_FORMATS;
const mipSize = (mip: number): [number, number] => [16 >> mip, 8 >> mip];
const textureUsage = fc.constantFrom(
  TU.COPY_SRC | TU.COPY_DST | TU.TEXTURE_BINDING,
  TU.COPY_SRC | TU.COPY_DST,
  TU.COPY_SRC | TU.COPY_DST,
  TU.COPY_SRC | TU.COPY_DST | TU.RENDER_ATTACHMENT,
  TU.COPY_SRC,
  TU.COPY_DST,
  TU.TEXTURE_BINDING,
);
const copyTexture = fc.record({
  format: fc.constantFrom<CopyFormat>(
    'rgba8unorm',
    'rgba8unorm',
    'rgba16float',
    'r32float',
    'rgba8unorm-srgb',
  ),
  usage: textureUsage,
  mipLevel: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 2 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(3, -1, 0.5, null) },
  ),
  x: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, -1, 1.5, Number.NaN) },
  ),
  y: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, -2, 0.5) },
  ),
});
const copySize = fc.record({
  width: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 4 }) },
    { weight: 2, arbitrary: fc.integer({ min: 5, max: 8 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(-1, 2.5, null, 17) },
  ),
  height: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 2 }) },
    { weight: 2, arbitrary: fc.integer({ min: 3, max: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(-1, 1.5, null, 9) },
  ),
});
type CopyTex = { format: CopyFormat; usage: number; mipLevel: unknown; x: unknown; y: unknown };
type Rule = [boolean, string, string[]];
/** The rules of one texture side of a copy (GPUImageCopyTexture validation and the extent). */
function textureSide(
  t: CopyTex,
  size: { width: unknown; height: unknown },
  usage: number,
  usageName: string,
): Rule[] {
  const mipOk = isInt(t.mipLevel) && t.mipLevel >= 0 && t.mipLevel < 3;
  const x = t.x ?? 0;
  const y = t.y ?? 0;
  const originOk = isInt(x) && x >= 0 && isInt(y) && y >= 0;
  const sizeOk = isInt(size.width) && size.width >= 0 && isInt(size.height) && size.height >= 0;
  const [w, h] = mipOk ? mipSize(t.mipLevel as number) : [0, 0];
  return [
    [(t.usage & usage) === 0, `the texture has ${usageName}`, [usageName]],
    [!mipOk, 'mipLevel < mipLevelCount', ['mipLevel', 'mip level']],
    [!originOk, 'origin: non-negative integers', ['origin', 'x', 'y']],
    [!sizeOk, 'copy size: non-negative integers', ['width', 'height', 'size', 'extent']],
    [
      mipOk &&
        originOk &&
        sizeOk &&
        ((x as number) + (size.width as number) > w || (y as number) + (size.height as number) > h),
      'origin + size inside the mip level',
      ['overruns', 'mip'],
    ],
  ];
}
const makeTexture = (d: Device, t: CopyTex, label: string) =>
  d.createTexture({
    label,
    size: { width: 16, height: 8 },
    format: t.format,
    usage: t.usage,
    mipLevelCount: 3,
  });
const side = (t: CopyTex, texture: unknown) => ({
  texture,
  ...(t.mipLevel === 0 ? {} : { mipLevel: t.mipLevel }),
  origin: { ...(t.x === undefined ? {} : { x: t.x }), ...(t.y === undefined ? {} : { y: t.y }) },
});

const textureCopyTrials: fc.Arbitrary<Trial> = fc
  .record({
    src: copyTexture,
    dst: copyTexture,
    same: fc.constantFrom(false, false, false, true),
    size: copySize,
  })
  .map(({ src, dst: given, same, size }) => {
    const dst = same ? { ...given, format: src.format, usage: src.usage } : given;
    const base = (f: string) => f.replace('-srgb', '');
    const verdict = judgeAll(
      [
        ...textureSide(src, size, TU.COPY_SRC, 'COPY_SRC'),
        ...textureSide(dst, size, TU.COPY_DST, 'COPY_DST'),
        [base(src.format) !== base(dst.format), 'copy-compatible formats', ['format']],
        [same && src.mipLevel === dst.mipLevel, 'not the same subresource', ['same', 'mip level']],
      ],
      [[src.format !== dst.format, 'a copy between a format and its -srgb twin', ['format']]],
    );
    return {
      family: 'copyTextureToTexture',
      verdict,
      run: (d: Device) => {
        const a = makeTexture(d, src, 'src');
        const b = same ? a : makeTexture(d, dst, 'dst');
        d.createCommandEncoder().copyTextureToTexture(
          side(src, a) as never,
          side(dst, b) as never,
          size as never,
        );
      },
    };
  });

const writeTextureTrials: fc.Arbitrary<Trial> = fc
  .record({
    dst: copyTexture,
    size: copySize,
    offset: maybe(fc.oneof(fc.integer({ min: 0, max: 16 }), fc.constantFrom<unknown>(-4, 1.5))),
    rowSlack: fc.oneof(
      { weight: 5, arbitrary: fc.integer({ min: 0, max: 8 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(-4, 'none', 1.5) },
    ),
    dataSlack: fc.integer({ min: -8, max: 16 }),
  })
  .map(({ dst, size, offset, rowSlack, dataSlack }) => {
    const bpt = COPY_FORMATS[dst.format];
    const width = isInt(size.width) ? Math.max(0, size.width) : 0;
    const height = isInt(size.height) ? Math.max(0, size.height) : 0;
    const off = offset ?? 0;
    // bytesPerRow: the row's bytes plus some slack; 'none' leaves it out (valid for one row)
    const bytesPerRow =
      rowSlack === 'none' ? undefined : isInt(rowSlack) ? width * bpt + rowSlack : rowSlack;
    const rowOk =
      bytesPerRow === undefined
        ? height <= 1
        : isInt(bytesPerRow) && bytesPerRow >= 0 && (height <= 1 || bytesPerRow >= width * bpt);
    const need =
      height === 0 || width === 0
        ? 0
        : ((bytesPerRow as number | undefined) ?? 0) * (height - 1) + width * bpt;
    const dataBytes = Math.max(0, (isInt(off) ? off : 0) + need + dataSlack);
    const verdict = judgeAll(
      [
        ...textureSide(dst, size, TU.COPY_DST, 'COPY_DST'),
        [!isInt(off) || off < 0, 'dataLayout.offset a non-negative integer', ['offset']],
        [!rowOk, 'bytesPerRow ≥ the row (required above one row)', ['bytesPerRow']],
        [
          rowOk && isInt(off) && off >= 0 && off + need > dataBytes,
          'the data holds the copy',
          ['data', 'bytes'],
        ],
      ],
      [
        [
          height > 1 && isInt(bytesPerRow) && bytesPerRow % bpt !== 0,
          'writeTexture bytesPerRow not a multiple of the texel',
          ['bytesPerRow'],
        ],
      ],
    );
    return {
      family: 'writeTexture',
      verdict,
      run: (d: Device) => {
        const t = makeTexture(d, dst, 'dst');
        d.queue.writeTexture(
          side(dst, t) as never,
          new Uint8Array(dataBytes),
          {
            ...(offset === undefined ? {} : { offset }),
            ...(bytesPerRow === undefined ? {} : { bytesPerRow }),
          } as never,
          size as never,
        );
      },
    };
  });

// copyBufferToTexture / copyTextureToBuffer: the texture side as above, and the buffer side —
// its usage, an offset that is a multiple of the texel block, bytesPerRow a multiple of 256 (and
// at least the row; needed above one row), and the buffer holding the copy
const bufferTextureTrials: fc.Arbitrary<Trial> = fc
  .record({
    toTexture: fc.boolean(),
    texture: copyTexture,
    size: copySize,
    bufferUsage: fc.constantFrom(BU.COPY_SRC | BU.COPY_DST, BU.COPY_SRC, BU.COPY_DST, BU.STORAGE),
    offset: maybe(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 0, max: 8 }).map((x) => 4 * x) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(2, 6, -4, 1.5) },
      ),
    ),
    rows: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 2 }).map((k) => 256 * k) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>('none', 0, 64, 260, -256, 1.5) },
    ),
    slack: fc.integer({ min: -8, max: 16 }),
  })
  .map(({ toTexture, texture, size, bufferUsage, offset, rows, slack }) => {
    const bpt = COPY_FORMATS[texture.format];
    const width = isInt(size.width) ? Math.max(0, size.width) : 0;
    const height = isInt(size.height) ? Math.max(0, size.height) : 0;
    const off = offset ?? 0;
    const bytesPerRow = rows === 'none' ? undefined : rows;
    const offOk = isInt(off) && off >= 0;
    const rowOk =
      bytesPerRow === undefined
        ? height <= 1
        : isInt(bytesPerRow) &&
          bytesPerRow >= 0 &&
          bytesPerRow % 256 === 0 &&
          (height <= 1 || bytesPerRow >= width * bpt);
    const need =
      height === 0 || width === 0
        ? 0
        : ((bytesPerRow as number | undefined) ?? 0) * (height - 1) + width * bpt;
    const bufferSize = Math.max(4, 4 * Math.ceil(((offOk ? off : 0) + need + slack) / 4));
    const [bufferBit, bufferName] = toTexture
      ? [BU.COPY_SRC, 'COPY_SRC']
      : [BU.COPY_DST, 'COPY_DST'];
    const verdict = judgeAll([
      ...(toTexture
        ? textureSide(texture, size, TU.COPY_DST, 'COPY_DST')
        : textureSide(texture, size, TU.COPY_SRC, 'COPY_SRC')),
      [(bufferUsage & bufferBit) === 0, `the buffer has ${bufferName}`, [bufferName]],
      [!offOk, 'offset is a GPUSize64', ['offset']],
      [offOk && (off as number) % bpt !== 0, 'offset a multiple of the texel block', ['offset']],
      [
        !rowOk,
        'bytesPerRow a multiple of 256, ≥ the row (required above one row)',
        ['bytesPerRow'],
      ],
      [
        rowOk && offOk && (off as number) + need > bufferSize,
        'the buffer holds the copy',
        ['buffer', 'bytes'],
      ],
    ]);
    return {
      family: 'copyBufferToTexture / copyTextureToBuffer',
      verdict,
      run: (d: Device) => {
        const t = makeTexture(d, texture, 'texture');
        const buffer = {
          buffer: d.createBuffer({ size: bufferSize, usage: bufferUsage }),
          ...(offset === undefined ? {} : { offset }),
          ...(bytesPerRow === undefined ? {} : { bytesPerRow }),
        };
        const encoder = d.createCommandEncoder();
        if (toTexture)
          encoder.copyBufferToTexture(buffer as never, side(texture, t) as never, size as never);
        else encoder.copyTextureToBuffer(side(texture, t) as never, buffer as never, size as never);
      },
    };
  });

// createBindGroup against a layout of a uniform buffer (0), a storage buffer (1), a sampled
// texture (2) and a sampler (3): one resource per layout entry, of the entry's kind, a buffer with
// the usage its type needs, an offset a multiple of the 256-byte alignment and a range inside the
// buffer (a storage range a multiple of 4); no entry outside the layout, none twice
type Kind = 'uniform' | 'storage' | 'texture' | 'sampler';
const KINDS: Kind[] = ['uniform', 'storage', 'texture', 'sampler'];
const bindGroupTrials: fc.Arbitrary<Trial> = fc
  .record({
    entries: fc.tuple(
      ...KINDS.map(() =>
        fc.record({
          present: fc.constantFrom(true, true, true, true, true, true, false),
          kind: fc.constantFrom<Kind>(...KINDS),
          right: fc.constantFrom(true, true, true, false),
          usageOk: fc.constantFrom(true, true, true, true, false),
          offset: maybe(
            fc.oneof(
              { weight: 5, arbitrary: fc.constantFrom(0, 256) },
              { weight: 1, arbitrary: fc.constantFrom<unknown>(4, 128, 512, -256, 1.5) },
            ),
          ),
          size: maybe(
            fc.oneof(
              { weight: 5, arbitrary: fc.constantFrom(16, 64, 256) },
              { weight: 1, arbitrary: fc.constantFrom<unknown>(0, 6, 1024, -16) },
            ),
          ),
        }),
      ),
    ),
    extra: fc.constantFrom<'none' | 'outside' | 'twice'>(
      'none',
      'none',
      'none',
      'none',
      'outside',
      'twice',
    ),
  })
  .map(({ entries, extra }) => {
    const BUFFER = 512;
    const rules: Rule[] = [];
    entries.forEach((e, binding) => {
      const slot = KINDS[binding]!;
      const kind = e.right ? slot : e.kind;
      if (!e.present) {
        rules.push([true, `binding ${binding} has a resource`, [`binding ${binding}`]]);
        return;
      }
      const wrongKind =
        (slot === 'uniform' || slot === 'storage') !== (kind === 'uniform' || kind === 'storage') ||
        ((slot === 'texture' || slot === 'sampler') && kind !== slot);
      rules.push([wrongKind, `binding ${binding}'s resource is a ${slot}`, [`binding ${binding}`]]);
      if (wrongKind) return;
      if (slot === 'uniform' || slot === 'storage') {
        const usageName = slot === 'uniform' ? 'UNIFORM' : 'STORAGE';
        const bufferUsage = kind === slot && e.usageOk;
        const off = e.offset ?? 0;
        const offOk = isInt(off) && off >= 0;
        const size = e.size ?? (offOk ? BUFFER - (off as number) : 0);
        rules.push(
          [!bufferUsage, `binding ${binding}'s buffer has ${usageName}`, [usageName]],
          [!offOk || (off as number) % 256 !== 0, 'offset a multiple of 256', ['offset']],
          // (an empty binding: Dawn's "Binding size is zero"; WebGL2's bindBufferRange refuses it)
          [!isInt(size) || size <= 0, 'size > 0', ['size']],
          [
            offOk && isInt(size) && (off as number) + size > BUFFER,
            'the range inside the buffer',
            ['size', 'offset', 'range', 'bytes'],
          ],
          [
            slot === 'storage' && isInt(size) && size % 4 !== 0,
            'a storage range a multiple of 4',
            ['size'],
          ],
        );
      } else if (slot === 'texture')
        rules.push([!e.usageOk, "binding 2's texture has TEXTURE_BINDING", ['TEXTURE_BINDING']]);
    });
    rules.push(
      [extra === 'outside', 'every entry a binding of the layout', ['binding 7']],
      [extra === 'twice', 'no binding twice', ['binding 0']],
    );
    return {
      family: 'createBindGroup',
      verdict: judgeAll(rules),
      run: (d: Device) => {
        const layout = d.createBindGroupLayout({
          entries: KINDS.map((type, binding) => ({ binding, type })),
        });
        const resource = (kind: Kind, usageOk: boolean, e: (typeof entries)[number]) => {
          if (kind === 'texture')
            return d.createTexture({
              size: { width: 4, height: 4 },
              format: 'rgba8unorm',
              usage: usageOk ? TU.TEXTURE_BINDING : TU.COPY_DST,
            });
          if (kind === 'sampler') return d.createSampler();
          const usage = usageOk ? (kind === 'uniform' ? BU.UNIFORM : BU.STORAGE) : BU.COPY_DST;
          const buffer = d.createBuffer({ size: BUFFER, usage });
          return e.offset === undefined && e.size === undefined
            ? buffer
            : {
                buffer,
                ...(e.offset === undefined ? {} : { offset: e.offset }),
                ...(e.size === undefined ? {} : { size: e.size }),
              };
        };
        const list = entries.flatMap((e, binding) => {
          if (!e.present) return [];
          const slot = KINDS[binding]!;
          const kind = e.right ? slot : e.kind;
          return [{ binding, resource: resource(kind, kind === slot && e.usageOk, e) }];
        });
        if (extra === 'outside') list.push({ binding: 7, resource: d.createSampler() });
        if (extra === 'twice' && list[0]) list.push({ ...list[0], binding: 0 });
        d.createBindGroup({ layout, entries: list as never });
      },
    };
  });

// setVertexBuffer / setIndexBuffer in a render pass
const bindTrials: fc.Arbitrary<Trial> = fc
  .record({
    index: fc.boolean(),
    usage: fc.constantFrom(BU.VERTEX, BU.INDEX, BU.VERTEX | BU.INDEX | BU.COPY_DST, BU.UNIFORM),
    size: fc.integer({ min: 1, max: 16 }).map((x) => 4 * x),
    slot: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: LIMITS.maxVertexBuffers - 1 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(LIMITS.maxVertexBuffers, -1, 0.5, null) },
    ),
    format: enumOr(['uint16', 'uint32']),
    offset: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 20 }).map((x) => 4 * x) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(2, 6, 3, -4, 1.5, undefined) },
    ),
  })
  .map((b) => {
    const off = b.offset ?? 0;
    const align = b.index ? (b.format === 'uint16' ? 2 : 4) : 4;
    const offOk = isInt(off) && off >= 0 && off % align === 0;
    const verdict = b.index
      ? judgeAll([
          [(b.usage & BU.INDEX) === 0, 'the buffer has INDEX', ['INDEX']],
          [
            b.format !== 'uint16' && b.format !== 'uint32',
            'format is a GPUIndexFormat',
            ['format'],
          ],
          [!offOk, 'offset a multiple of the index size', ['offset']],
          [offOk && off > b.size, 'offset inside the buffer', ['offset']],
        ])
      : judgeAll([
          [(b.usage & BU.VERTEX) === 0, 'the buffer has VERTEX', ['VERTEX']],
          [
            !isInt(b.slot) || b.slot < 0 || b.slot >= LIMITS.maxVertexBuffers,
            'slot < maxVertexBuffers',
            ['slot', 'maxVertexBuffers'],
          ],
          [!offOk, 'offset a multiple of 4', ['offset']],
          [offOk && off > b.size, 'offset inside the buffer', ['offset']],
        ]);
    return {
      family: b.index ? 'setIndexBuffer' : 'setVertexBuffer',
      verdict,
      run: (d: Device) => {
        const buffer = d.createBuffer({ label: 'bound', size: b.size, usage: b.usage });
        const target = d.createTexture({
          size: { width: 4, height: 4 },
          format: 'rgba8unorm',
          usage: TU.RENDER_ATTACHMENT,
        });
        const pass = d
          .createCommandEncoder()
          .beginRenderPass({ colorAttachments: [{ texture: target }] });
        if (b.index) pass.setIndexBuffer(buffer, b.format as 'uint16', b.offset as number);
        else pass.setVertexBuffer(b.slot as number, buffer, b.offset as number);
      },
    };
  });

// beginRenderPass: the attachments against each other (Ignis's defaults where WebGPU requires a
// value: loadOp 'clear', storeOp 'store', clearValue 0, depthClearValue 1 — docs/resources)
const RENDERABLE: Record<string, { depth: boolean; resolvable: boolean }> = {
  rgba8unorm: { depth: false, resolvable: true },
  rgba16float: { depth: false, resolvable: true },
  r32float: { depth: false, resolvable: false },
  depth24plus: { depth: true, resolvable: false },
  depth32float: { depth: true, resolvable: false },
};
const attachmentTexture = fc.record({
  format: fc.constantFrom(
    'rgba8unorm',
    'rgba8unorm',
    'rgba16float',
    'r32float',
    'depth24plus',
    'depth32float',
  ),
  usage: fc.constantFrom(
    TU.RENDER_ATTACHMENT,
    TU.RENDER_ATTACHMENT | TU.COPY_SRC,
    TU.RENDER_ATTACHMENT | TU.TEXTURE_BINDING,
    TU.TEXTURE_BINDING,
  ),
  size: fc.constantFrom(8, 8, 8, 4),
  samples: fc.constantFrom(1, 1, 1, 4),
});
type AttachmentTexture = { format: string; usage: number; size: number; samples: number };
const colorAttachment = fc.record({
  tex: attachmentTexture,
  resolve: fc.option(attachmentTexture, { nil: undefined, freq: 2 }),
  loadOp: maybe(enumOr(['load', 'clear'])),
  storeOp: maybe(enumOr(['store', 'discard'])),
  clearValue: maybe(
    fc.constantFrom<unknown>(
      [0, 0, 0, 1],
      { r: 1, g: 0, b: 0, a: 1 },
      [0, 0, 0, 1],
      [1, 2],
      'red',
      [Number.NaN, 0, 0, 1],
    ),
  ),
});
const passTrials: fc.Arbitrary<Trial> = fc
  .record({
    colors: fc.array(colorAttachment, { maxLength: 2 }),
    depth: fc.option(
      fc.record({
        tex: attachmentTexture,
        depthLoadOp: maybe(enumOr(['load', 'clear'])),
        depthStoreOp: maybe(enumOr(['store', 'discard'])),
        depthClearValue: maybe(fc.constantFrom<unknown>(0, 0.5, 1, 2, -1, Number.NaN)),
      }),
      { nil: undefined, freq: 2 },
    ),
  })
  .map(({ colors: given, depth: givenDepth }) => {
    // a multisampled texture is a render attachment in Ignis (the subset): made so here
    const real = (t: AttachmentTexture): AttachmentTexture =>
      t.samples > 1 ? { ...t, usage: TU.RENDER_ATTACHMENT } : t;
    const colors = given.map((c) => ({
      ...c,
      tex: real(c.tex),
      resolve: c.resolve && real(c.resolve),
    }));
    const depth = givenDepth && { ...givenDepth, tex: real(givenDepth.tex) };
    const rules: Rule[] = [];
    const all: AttachmentTexture[] = [...colors.map((c) => c.tex), ...(depth ? [depth.tex] : [])];
    rules.push([all.length === 0, 'at least one attachment', ['attachment']]);
    colors.forEach((c, i) => {
      const where = `colorAttachments[${i}]`;
      rules.push([
        (c.tex.usage & TU.RENDER_ATTACHMENT) === 0,
        `${where}: RENDER_ATTACHMENT`,
        ['RENDER_ATTACHMENT'],
      ]);
      rules.push([
        RENDERABLE[c.tex.format]!.depth,
        `${where}: a colour format`,
        ['format', 'depth'],
      ]);
      rules.push([
        c.loadOp !== undefined && !['load', 'clear'].includes(c.loadOp as string),
        `${where}.loadOp`,
        ['loadOp'],
      ]);
      rules.push([
        c.storeOp !== undefined && !['store', 'discard'].includes(c.storeOp as string),
        `${where}.storeOp`,
        ['storeOp'],
      ]);
      const cv = c.clearValue;
      const colorOk =
        cv === undefined ||
        (Array.isArray(cv) &&
          cv.length === 4 &&
          cv.every((x) => typeof x === 'number' && Number.isFinite(x))) ||
        (typeof cv === 'object' && cv !== null && !Array.isArray(cv));
      rules.push([!colorOk, `${where}.clearValue is a GPUColor`, ['clearValue']]);
      if (c.resolve) {
        const r = c.resolve;
        rules.push([
          c.tex.samples === 1,
          `${where}: a resolve target needs a multisampled texture`,
          ['resolveTarget', 'multisampled'],
        ]);
        rules.push([
          r.samples !== 1,
          `${where}: the resolve target is single-sampled`,
          ['resolveTarget'],
        ]);
        rules.push([
          r.format !== c.tex.format,
          `${where}: the resolve target's format`,
          ['resolveTarget', 'format'],
        ]);
        rules.push([
          r.size !== c.tex.size,
          `${where}: the resolve target's size`,
          ['resolveTarget', 'size'],
        ]);
        rules.push([
          (r.usage & TU.RENDER_ATTACHMENT) === 0,
          `${where}: the resolve target has RENDER_ATTACHMENT`,
          ['RENDER_ATTACHMENT'],
        ]);
        rules.push([
          !RENDERABLE[c.tex.format]!.resolvable && c.tex.samples > 1,
          `${where}: a resolvable format`,
          ['format', 'resolve'],
        ]);
      }
    });
    if (depth) {
      rules.push([
        (depth.tex.usage & TU.RENDER_ATTACHMENT) === 0,
        'depth: RENDER_ATTACHMENT',
        ['RENDER_ATTACHMENT'],
      ]);
      rules.push([
        !RENDERABLE[depth.tex.format]!.depth,
        'depth: a depth format',
        ['format', 'depth'],
      ]);
      rules.push([
        depth.depthLoadOp !== undefined && !['load', 'clear'].includes(depth.depthLoadOp as string),
        'depthLoadOp',
        ['depthLoadOp', 'loadOp'],
      ]);
      rules.push([
        depth.depthStoreOp !== undefined &&
          !['store', 'discard'].includes(depth.depthStoreOp as string),
        'depthStoreOp',
        ['depthStoreOp', 'storeOp'],
      ]);
      const v = depth.depthClearValue;
      rules.push([
        v !== undefined &&
          (typeof v !== 'number' ||
            !Number.isFinite(v) ||
            ((depth.depthLoadOp ?? 'clear') === 'clear' && (v < 0 || v > 1))),
        'depthClearValue a finite float, in 0..1 when cleared',
        ['depthClearValue'],
      ]);
    }
    // every attachment the same size and sample count (resolve targets excepted)
    rules.push([
      new Set(all.map((t) => t.size)).size > 1,
      'attachments of one size',
      ['size', 'attachment'],
    ]);
    rules.push([
      new Set(all.map((t) => t.samples)).size > 1,
      'attachments of one sample count',
      ['sample', 'attachment'],
    ]);
    const verdict = judgeAll(rules);
    return {
      family: 'beginRenderPass',
      verdict,
      run: (d: Device) => {
        const make = (t: AttachmentTexture) =>
          d.createTexture({
            label: `${t.format} ${t.size}x${t.size}×${t.samples}`,
            size: { width: t.size, height: t.size },
            format: t.format as 'rgba8unorm',
            usage: t.usage,
            sampleCount: t.samples,
          });
        d.createCommandEncoder().beginRenderPass({
          colorAttachments: colors.map((c) => ({
            texture: make(c.tex),
            ...(c.resolve ? { resolveTarget: make(c.resolve) } : {}),
            ...(c.loadOp === undefined ? {} : { loadOp: c.loadOp }),
            ...(c.storeOp === undefined ? {} : { storeOp: c.storeOp }),
            ...(c.clearValue === undefined ? {} : { clearValue: c.clearValue }),
          })) as never,
          ...(depth
            ? {
                depthStencilAttachment: {
                  texture: make(depth.tex),
                  ...(depth.depthLoadOp === undefined ? {} : { depthLoadOp: depth.depthLoadOp }),
                  ...(depth.depthStoreOp === undefined ? {} : { depthStoreOp: depth.depthStoreOp }),
                  ...(depth.depthClearValue === undefined
                    ? {}
                    : { depthClearValue: depth.depthClearValue }),
                } as never,
              }
            : {}),
        });
      },
    };
  });

// in a pass: setViewport, setScissorRect, draw (the pass 8×8, a pipeline set or not)
const coord = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(-1, 1.5, Number.NaN, 9, null) },
);
const depthRange = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 0.25, 0.5, 1) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(-0.5, 1.5, Number.NaN) },
);
const count = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 64 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(-1, 2.5, Number.NaN, null) },
);
const PASS_WGSL = `@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`;
function openPass(d: Device, withPipeline: boolean) {
  const target = d.createTexture({
    size: { width: 8, height: 8 },
    format: 'rgba8unorm',
    usage: TU.RENDER_ATTACHMENT,
  });
  const pass = d
    .createCommandEncoder()
    .beginRenderPass({ colorAttachments: [{ texture: target }] });
  if (withPipeline) {
    const module = d.createShaderModule({ code: PASS_WGSL });
    pass.setPipeline(
      d.createRenderPipeline({
        vertex: { module },
        fragment: { module, targets: [{ format: 'rgba8unorm' }] },
      }),
    );
  }
  return pass;
}
/**
 * The slot setters of a pass (setUniformBuffer, setStorageBuffer, setTexture, setSampler) and
 * setPipeline: Ignis's shorthand for a group-0 bind group entry and its setBindGroup, judged by
 * createBindGroup's rules for that entry (a binding below maxBindingsPerBindGroup, the resource's
 * kind, device and usage, a buffer range's alignment and bounds) and setPipeline's (a render
 * pipeline of this device whose targets are the pass's attachments).
 */
type Setter = 'uniform' | 'storage' | 'texture' | 'sampler' | 'pipeline';
const SETTER_NAMES: Record<Setter, string> = {
  uniform: 'setUniformBuffer',
  storage: 'setStorageBuffer',
  texture: 'setTexture',
  sampler: 'setSampler',
  pipeline: 'setPipeline',
};
const slotSetterTrials: fc.Arbitrary<Trial> = fc
  .record({
    setter: fc.constantFrom<Setter>('uniform', 'storage', 'texture', 'sampler', 'pipeline'),
    slot: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 15 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(999, 1000, 4000, -1, 1.5, null, '0', 2n) },
    ),
    resource: fc.constantFrom<'right' | 'wrong-kind' | 'null' | 'object' | 'other-device'>(
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'wrong-kind',
      'null',
      'object',
      'other-device',
    ),
    usageOk: fc.constantFrom(true, true, true, true, true, false),
    // setPipeline: a pipeline whose target is the pass's format, or another
    targetOk: fc.constantFrom(true, true, true, false),
    offset: maybe(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(0, 256, 512) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(4, 128, 1280, -256, 1.5, null) },
      ),
    ),
    size: maybe(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(16, 64, 256) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(0, 6, 2048, -16, null) },
      ),
    ),
  })
  .map(({ setter, slot, resource, usageOk, targetOk, offset, size }) => {
    const BUFFER = 1024;
    const name = SETTER_NAMES[setter];
    const rules: Rule[] = [];
    if (setter !== 'pipeline')
      rules.push([
        !isInt(slot) || slot < 0 || slot >= 1000,
        'binding < maxBindingsPerBindGroup',
        ['slot', 'maxBindingsPerBindGroup'],
      ]);
    const kindOk = resource === 'right' || resource === 'other-device';
    const expected = {
      uniform: 'buffer',
      storage: 'buffer',
      texture: 'texture',
      sampler: 'sampler',
      pipeline: 'render pipeline',
    }[setter];
    rules.push(
      [!kindOk, `the resource is a ${expected}`, [expected, name]],
      [resource === 'other-device', 'the resource belongs to this device', ['device']],
    );
    if (kindOk && (setter === 'uniform' || setter === 'storage')) {
      const usageName = setter === 'uniform' ? 'UNIFORM' : 'STORAGE';
      // (null is not a default here: Ignis's convention, the file's header)
      const off = offset === undefined ? 0 : offset;
      const offOk = isInt(off) && off >= 0;
      const s = size === undefined ? (offOk ? BUFFER - (off as number) : 0) : size;
      rules.push(
        [!usageOk, `the buffer has ${usageName}`, [usageName]],
        [!offOk || (off as number) % 256 !== 0, 'offset a multiple of 256', ['offset']],
        [!isInt(s) || s <= 0, 'size > 0', ['size']],
        [
          offOk && isInt(s) && (off as number) + s > BUFFER,
          'the range inside the buffer',
          ['size', 'offset', 'range', 'bytes'],
        ],
        [
          setter === 'storage' && isInt(s) && s % 4 !== 0,
          'a storage range a multiple of 4',
          ['size'],
        ],
      );
    }
    if (kindOk && setter === 'texture')
      rules.push([!usageOk, 'the texture has TEXTURE_BINDING', ['TEXTURE_BINDING']]);
    if (kindOk && setter === 'pipeline')
      rules.push([
        !targetOk,
        "the pipeline's targets are the pass's attachments",
        ['format', 'rgba8unorm'],
      ]);
    return {
      family: 'slot setters, setPipeline',
      verdict: judgeAll(rules),
      run: (d: Device) => {
        const pass = openPass(d, false);
        const other = new NullDevice();
        const on = resource === 'other-device' ? other : d;
        const make = (kind: Setter | 'wrong'): unknown => {
          switch (kind) {
            case 'uniform':
            case 'storage':
              return on.createBuffer({
                size: BUFFER,
                usage: usageOk ? (kind === 'uniform' ? BU.UNIFORM : BU.STORAGE) : BU.COPY_DST,
              });
            case 'texture':
              return on.createTexture({
                size: { width: 4, height: 4 },
                format: 'rgba8unorm',
                usage: usageOk ? TU.TEXTURE_BINDING : TU.COPY_DST,
              });
            case 'sampler':
              return on.createSampler();
            case 'pipeline': {
              const module = on.createShaderModule({ code: PASS_WGSL });
              return on.createRenderPipeline({
                vertex: { module },
                fragment: {
                  module,
                  targets: [{ format: targetOk ? 'rgba8unorm' : 'rgba16float' }],
                },
              });
            }
            default: {
              // another kind of resource: a sampler where a buffer, texture or pipeline goes, else
              // a buffer
              if (setter === 'sampler') return on.createBuffer({ size: 16, usage: BU.UNIFORM });
              if (setter === 'pipeline') {
                const module = on.createShaderModule({
                  code: '@compute @workgroup_size(1) fn main() {}',
                });
                return on.createComputePipeline({ compute: { module } });
              }
              return on.createSampler();
            }
          }
        };
        const value =
          resource === 'null'
            ? null
            : resource === 'object'
              ? {}
              : make(resource === 'wrong-kind' ? 'wrong' : setter);
        try {
          const n = slot as number;
          if (setter === 'uniform')
            pass.setUniformBuffer(n, value as never, offset as number, size as number);
          else if (setter === 'storage')
            pass.setStorageBuffer(n, value as never, {
              ...(offset === undefined ? {} : { offset: offset as number }),
              ...(size === undefined ? {} : { size: size as number }),
            });
          else if (setter === 'texture') pass.setTexture(n, value as never);
          else if (setter === 'sampler') pass.setSampler(n, value as never);
          else pass.setPipeline(value as never);
        } finally {
          other.destroy();
        }
      },
    };
  });

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const passCallTrials: fc.Arbitrary<Trial> = fc.oneof(
  fc
    .record({ x: coord, y: coord, w: coord, h: coord, min: depthRange, max: depthRange })
    .filter(({ x, y, w, h }) => {
      // where the specification moved (a viewport reaching outside the attachment) is left out
      const out = (a: unknown, b: unknown) =>
        finite(a) && finite(b) && (a < 0 || (b >= 0 && a + b > 8));
      return !out(x, w) && !out(y, h);
    })
    .map(({ x, y, w, h, min, max }) => ({
      family: 'setViewport',
      verdict: judgeAll([
        [![x, y, w, h, min, max].every(finite), 'finite floats', ['Viewport']],
        [finite(w) && finite(h) && (w < 0 || h < 0), 'width and height ≥ 0', ['Viewport']],
        [
          finite(min) && finite(max) && (min < 0 || min > 1 || max < 0 || max > 1 || min > max),
          '0 ≤ minDepth ≤ maxDepth ≤ 1',
          ['Viewport', 'minDepth'],
        ],
      ]),
      run: (d: Device) =>
        openPass(d, false).setViewport(
          x as number,
          y as number,
          w as number,
          h as number,
          min as number,
          max as number,
        ),
    })),
  fc.record({ x: coord, y: coord, w: coord, h: coord }).map(({ x, y, w, h }) => {
    const ints = [x, y, w, h].every((v) => isInt(v) && v >= 0);
    return {
      family: 'setScissorRect',
      verdict: judgeAll([
        [!ints, 'non-negative integers', ['Scissor']],
        [
          ints && ((x as number) + (w as number) > 8 || (y as number) + (h as number) > 8),
          'inside the attachment',
          ['Scissor'],
        ],
      ]),
      run: (d: Device) =>
        openPass(d, false).setScissorRect(x as number, y as number, w as number, h as number),
    };
  }),
  fc
    .record({
      pipeline: fc.constantFrom(true, true, true, false),
      args: fc.tuple(count, maybe(count), maybe(count), maybe(count)),
    })
    .map(({ pipeline, args }) => {
      const [n, instances, first, firstInstance] = args;
      // (a default parameter takes undefined only: null is passed as null)
      const or = (v: unknown, d: number) => (v === undefined ? d : v);
      const given = [n, or(instances, 1), or(first, 0), or(firstInstance, 0)];
      return {
        family: 'draw',
        verdict: judgeAll([
          [!given.every((v) => isInt(v) && v >= 0), 'counts are GPUSize32', ['draw(']],
          [!pipeline, 'a pipeline is set', ['pipeline', 'setPipeline']],
        ]),
        run: (d: Device) =>
          openPass(d, pipeline).draw(
            n as number,
            instances as number,
            first as number,
            firstInstance as number,
          ),
      };
    }),
);

// a compute pipeline's workgroup size, and dispatchWorkgroups
const workgroupTrials: fc.Arbitrary<Trial> = fc
  .record({
    size: fc.tuple(
      fc.constantFrom(1, 8, 64, 128, 256, 257, 0),
      fc.constantFrom(1, 1, 2, 4, 256, 257),
      fc.constantFrom(1, 1, 2, 64, 65),
    ),
    dispatch: fc.tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 0, max: 16 }) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(65535, 65536, -1, 1.5) },
      ),
      maybe(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom<unknown>(65536, -2))),
      maybe(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom<unknown>(70000))),
    ),
  })
  .map(({ size: [x, y, z], dispatch: [dx, dy, dz] }) => {
    const counts = [dx, dy === undefined ? 1 : dy, dz === undefined ? 1 : dz];
    const verdict = judgeAll([
      [x < 1 || y < 1 || z < 1, '@workgroup_size ≥ 1', ['workgroup_size']],
      [x > 256, 'x ≤ maxComputeWorkgroupSizeX', ['maxComputeWorkgroupSizeX', 'workgroup_size']],
      [y > 256, 'y ≤ maxComputeWorkgroupSizeY', ['maxComputeWorkgroupSizeY', 'workgroup_size']],
      [z > 64, 'z ≤ maxComputeWorkgroupSizeZ', ['maxComputeWorkgroupSizeZ', 'workgroup_size']],
      [
        x * y * z > 256,
        'x·y·z ≤ maxComputeInvocationsPerWorkgroup',
        ['maxComputeInvocationsPerWorkgroup', 'workgroup_size'],
      ],
      [!counts.every((v) => isInt(v) && v >= 0), 'dispatch counts are GPUSize32', ['dispatch']],
      [
        counts.every((v) => isInt(v)) && counts.some((v) => (v as number) > 65535),
        'counts ≤ maxComputeWorkgroupsPerDimension',
        ['maxComputeWorkgroupsPerDimension', 'dispatch'],
      ],
    ]);
    return {
      family: 'createComputePipeline + dispatchWorkgroups',
      verdict,
      run: (d: Device) => {
        const module = d.createShaderModule({
          code: `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(${x}, ${y}, ${z}) fn main(@builtin(global_invocation_id) id: vec3u) { out[id.x] = id.y; }`,
        });
        const pipeline = d.createComputePipeline({ compute: { module } });
        const pass = d.createCommandEncoder().beginComputePass();
        pass.setPipeline(pipeline);
        pass.setStorageBuffer(0, d.createBuffer({ size: 64, usage: BU.STORAGE }));
        pass.dispatchWorkgroups(dx as number, dy as number, dz as number);
      },
    };
  });

// createRenderPipeline: primitive, depth-stencil, multisample and colour-target state
const FACTORS = SPEC_BLEND_FACTORS;
const OPERATIONS = ['add', 'subtract', 'reverse-subtract', 'min', 'max'];
const blendComponent = fc.record({
  operation: maybe(enumOr(OPERATIONS)),
  srcFactor: maybe(enumOr(FACTORS)),
  dstFactor: maybe(enumOr(FACTORS)),
});
type BlendGen = { operation?: unknown; srcFactor?: unknown; dstFactor?: unknown };
const stateTrials: fc.Arbitrary<Trial> = fc
  .record({
    topology: maybe(
      enumOr(['point-list', 'line-list', 'line-strip', 'triangle-list', 'triangle-strip']),
    ),
    cullMode: maybe(enumOr(['none', 'front', 'back'])),
    frontFace: maybe(enumOr(['ccw', 'cw'])),
    depth: fc.option(
      fc.record({
        format: fc.constantFrom<unknown>(
          'depth24plus',
          'depth32float',
          'depth16unorm',
          'rgba8unorm',
          'bogus',
        ),
        depthCompare: maybe(enumOr(COMPARE)),
        depthWriteEnabled: maybe(fc.constantFrom<unknown>(true, false, 'yes')),
      }),
      { nil: undefined, freq: 2 },
    ),
    samples: maybe(fc.constantFrom<unknown>(1, 4, 2)),
    target: fc.constantFrom<unknown>(
      'rgba8unorm',
      'rgba8unorm',
      'rgba16float',
      'bgra8unorm',
      'depth32float',
      'bogus',
    ),
    blend: fc.option(fc.record({ color: blendComponent, alpha: blendComponent }), {
      nil: undefined,
      freq: 2,
    }),
    writeMask: maybe(fc.constantFrom<unknown>(0, 1, 15, 16, -1, 2.5)),
  })
  .map((g) => {
    const rules: Rule[] = [];
    const subset: Rule[] = [];
    const bad = (v: unknown, set: string[], rule: string, mention: string[]) =>
      rules.push([v !== undefined && !set.includes(v as string), rule, mention]);
    bad(
      g.topology,
      ['point-list', 'line-list', 'line-strip', 'triangle-list', 'triangle-strip'],
      'topology',
      ['topology'],
    );
    bad(g.cullMode, ['none', 'front', 'back'], 'cullMode', ['cullMode']);
    bad(g.frontFace, ['ccw', 'cw'], 'frontFace', ['frontFace']);
    if (g.depth) {
      rules.push([
        !['depth24plus', 'depth32float', 'depth16unorm'].includes(g.depth.format as string),
        'a depth format',
        ['depthStencil.format', 'depth format'],
      ]);
      bad(g.depth.depthCompare, COMPARE, 'depthCompare', ['depthCompare']);
      rules.push([
        g.depth.depthWriteEnabled !== undefined && typeof g.depth.depthWriteEnabled !== 'boolean',
        'depthWriteEnabled a boolean',
        ['depthWriteEnabled'],
      ]);
    }
    rules.push([
      g.samples !== undefined && g.samples !== 1 && g.samples !== 4,
      'multisample.count 1 or 4',
      ['count'],
    ]);
    rules.push([
      !['rgba8unorm', 'rgba16float', 'bgra8unorm'].includes(g.target as string),
      'a colour target format',
      ['format'],
    ]);
    if (g.blend)
      for (const [name, c] of [
        ['color', g.blend.color],
        ['alpha', g.blend.alpha],
      ] as Array<[string, BlendGen]>) {
        bad(c.operation, OPERATIONS, `blend.${name}.operation`, ['operation']);
        bad(c.srcFactor, FACTORS, `blend.${name}.srcFactor`, ['srcFactor', 'Factor']);
        bad(c.dstFactor, FACTORS, `blend.${name}.dstFactor`, ['dstFactor', 'Factor']);
        rules.push([
          (c.operation === 'min' || c.operation === 'max') &&
            ((c.srcFactor ?? 'one') !== 'one' || (c.dstFactor ?? 'zero') !== 'one'),
          `blend.${name}: min and max take the factors 'one'`,
          ['min', 'max'],
        ]);
        subset.push([
          ['constant', 'one-minus-constant'].includes(c.srcFactor as string) ||
            ['constant', 'one-minus-constant'].includes(c.dstFactor as string),
          'blend constants',
          ['constant'],
        ]);
        subset.push([
          c.dstFactor === 'src-alpha-saturated',
          'src-alpha-saturated as a destination factor',
          ['src-alpha-saturated'],
        ]);
      }
    rules.push([
      g.writeMask !== undefined && !(isInt(g.writeMask) && g.writeMask >= 0 && g.writeMask <= 15),
      'writeMask',
      ['writeMask'],
    ]);
    const verdict = judgeAll(rules, subset);
    return {
      family: 'createRenderPipeline (primitive, depth, targets)',
      verdict,
      run: (d: Device) => {
        const module = d.createShaderModule({ code: PASS_WGSL });
        d.createRenderPipeline({
          vertex: { module },
          fragment: {
            module,
            targets: [
              {
                format: g.target,
                ...(g.blend ? { blend: g.blend } : {}),
                ...(g.writeMask === undefined ? {} : { writeMask: g.writeMask }),
              },
            ],
          },
          primitive: Object.fromEntries(
            Object.entries({
              topology: g.topology,
              cullMode: g.cullMode,
              frontFace: g.frontFace,
            }).filter(([, v]) => v !== undefined),
          ),
          ...(g.depth
            ? {
                depthStencil: Object.fromEntries(
                  Object.entries(g.depth).filter(([, v]) => v !== undefined),
                ),
              }
            : {}),
          ...(g.samples === undefined ? {} : { multisample: { count: g.samples } }),
        } as never);
      },
    };
  });

// drawIndexed (an index buffer of 16 uint16 indices set, or none) and createQuerySet
const drawIndexedTrials: fc.Arbitrary<Trial> = fc
  .record({
    indexed: fc.constantFrom(true, true, true, false),
    format: fc.constantFrom<'uint16' | 'uint32'>('uint16', 'uint32'),
    args: fc.tuple(
      count,
      maybe(count),
      maybe(count),
      maybe(fc.oneof(fc.integer({ min: -8, max: 8 }), fc.constantFrom<unknown>(1.5, Number.NaN))),
      maybe(count),
    ),
  })
  .map(({ indexed, format, args }) => {
    const or = (v: unknown, d: number) => (v === undefined ? d : v);
    const [n, instances, first, base, firstInstance] = [
      args[0],
      or(args[1], 1),
      or(args[2], 0),
      or(args[3], 0),
      or(args[4], 0),
    ];
    const argsOk =
      [n, instances, first, firstInstance].every((v) => isInt(v) && v >= 0) && isInt(base);
    const indices = format === 'uint16' ? 16 : 8; // 32 bytes
    return {
      family: 'drawIndexed',
      verdict: judgeAll([
        [!argsOk, 'counts GPUSize32, baseVertex GPUSignedOffset32', ['drawIndexed(']],
        [!indexed, 'an index buffer is set', ['setIndexBuffer', 'index buffer']],
        [
          argsOk && indexed && (first as number) + (n as number) > indices,
          'the indices inside the index buffer',
          ['index buffer', 'indices'],
        ],
      ]),
      run: (d: Device) => {
        const pass = openPass(d, true);
        if (indexed) pass.setIndexBuffer(d.createBuffer({ size: 32, usage: BU.INDEX }), format);
        pass.drawIndexed(
          n as number,
          args[1] as number,
          args[2] as number,
          args[3] as number,
          args[4] as number,
        );
      },
    };
  });
const querySetTrials: fc.Arbitrary<Trial> = fc
  .record({
    type: enumOr(['timestamp', 'timestamp', 'occlusion']),
    count: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 64 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(4096, 4097, -1, 2.5, null) },
    ),
    feature: fc.constantFrom(true, true, false),
  })
  .map(({ type, count: n, feature }) => ({
    family: 'createQuerySet',
    device: () => new NullDevice({ features: { timestampQuery: feature } }),
    verdict: judgeAll(
      [
        [type !== 'timestamp' && type !== 'occlusion', 'type is a GPUQueryType', ['type']],
        [!isInt(n) || n < 0 || n > 4096, 'count ≤ 4096', ['count']],
        [
          type === 'timestamp' && !feature,
          "timestamp queries need the 'timestamp-query' feature",
          ['timestampQuery'],
        ],
      ],
      [[type === 'occlusion', 'occlusion queries', ['occlusion', 'type']]],
    ),
    run: (d: Device) => d.createQuerySet({ type: type as 'timestamp', count: n as number }),
  }));

// drawIndirect, drawIndexedIndirect and dispatchWorkgroupsIndirect: the buffer's INDIRECT usage,
// the offset (a multiple of 4, the arguments inside the buffer: 16, 20 or 12 bytes), an index
// buffer for the indexed draw; without caps.features.indirect (WebGL2) it is outside the subset
const indirectTrials: fc.Arbitrary<Trial> = fc
  .record({
    call: fc.constantFrom('drawIndirect', 'drawIndexedIndirect', 'dispatchWorkgroupsIndirect'),
    size: fc.constantFrom(12, 16, 20, 32, 64),
    usage: fc.constantFrom(
      BU.INDIRECT,
      BU.INDIRECT | BU.STORAGE,
      BU.INDIRECT | BU.COPY_DST,
      BU.STORAGE,
      BU.VERTEX,
    ),
    offset: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 64 }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(-4, 2.5, Number.NaN, null, '4') },
    ),
    indexed: fc.constantFrom(true, true, false),
    feature: fc.constantFrom(true, true, true, false),
  })
  .map(({ call, size, usage, offset, indexed, feature }) => {
    const bytes = call === 'drawIndirect' ? 16 : call === 'drawIndexedIndirect' ? 20 : 12;
    const offsetOk = isInt(offset) && offset >= 0;
    return {
      family: 'drawIndirect / dispatchWorkgroupsIndirect',
      device: () => new NullDevice({ features: { indirect: feature } }),
      verdict: judgeAll(
        [
          [(usage & BU.INDIRECT) === 0, 'the buffer has INDIRECT usage', ['INDIRECT']],
          [!offsetOk, 'indirectOffset is a GPUSize64', ['offset']],
          [
            offsetOk && (offset as number) % 4 !== 0,
            'indirectOffset is a multiple of 4',
            ['offset'],
          ],
          [
            offsetOk && (offset as number) + bytes > size,
            `the ${bytes} bytes of arguments inside the buffer`,
            ['offset'],
          ],
          [
            call === 'drawIndexedIndirect' && !indexed,
            'an index buffer is set',
            ['setIndexBuffer', 'index buffer'],
          ],
        ],
        [[!feature, 'indirect draws and dispatches (caps.features.indirect)', ['indirect']]],
      ),
      run: (d: Device) => {
        const buffer = d.createBuffer({ size, usage });
        if (call === 'dispatchWorkgroupsIndirect') {
          const module = d.createShaderModule({
            code: `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) { out[id.x] = id.y; }`,
          });
          const pass = d.createCommandEncoder().beginComputePass();
          pass.setPipeline(d.createComputePipeline({ compute: { module } }));
          pass.setStorageBuffer(0, d.createBuffer({ size: 64, usage: BU.STORAGE }));
          pass.dispatchWorkgroupsIndirect(buffer, offset as number);
          return;
        }
        const pass = openPass(d, true);
        if (call === 'drawIndirect') pass.drawIndirect(buffer, offset as number);
        else {
          if (indexed) pass.setIndexBuffer(d.createBuffer({ size: 32, usage: BU.INDEX }), 'uint16');
          pass.drawIndexedIndirect(buffer, offset as number);
        }
      },
    };
  });

// createShaderModule: WebGPU's descriptor is `code` (required), plus Ignis's `language` and `stage`
// (GLSL's one stage). Whether WGSL compiles is the compiler's verdict, not the descriptor's (the
// null backend compiles nothing: docs/errors.md), so the code drawn here is valid WGSL or not a
// string at all.
const SHADER_CODE = [
  '',
  PASS_WGSL,
  '@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { _ = id; }',
];
const shaderModuleTrials: fc.Arbitrary<Trial> = fc
  .record({
    code: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<unknown>(...SHADER_CODE) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5, 5n, {}, ['x'], undefined) },
    ),
    language: maybe(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<unknown>('wgsl') },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('glsl', 'hlsl', 'WGSL', null, 1) },
      ),
    ),
    stage: maybe(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom<unknown>('vertex', 'fragment', 'compute') },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('geometry', null, 0) },
      ),
    ),
    label: maybe(fc.constantFrom<unknown>('m', '', 5)),
    notAnObject: fc.oneof(
      { weight: 10, arbitrary: fc.constant<unknown>(undefined) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5, 'code', []) },
    ),
  })
  .map((s) => {
    const desc =
      s.notAnObject !== undefined
        ? s.notAnObject
        : Object.fromEntries(
            Object.entries(s).filter(([k, v]) => k !== 'notAnObject' && v !== undefined),
          );
    const verdict =
      s.notAnObject !== undefined && !Array.isArray(s.notAnObject)
        ? judge([[true, 'the descriptor is a dictionary', ['descriptor']]])
        : judgeAll([
            [
              Array.isArray(desc) || typeof s.code !== 'string',
              'code is a string (required)',
              ['code'],
            ],
            [
              s.language !== undefined && s.language !== 'wgsl' && s.language !== 'glsl',
              "language is 'wgsl' or 'glsl'",
              ['language'],
            ],
            [
              s.stage !== undefined &&
                !['vertex', 'fragment', 'compute'].includes(s.stage as string),
              'stage is a shader stage',
              ['stage'],
            ],
            // the null device runs WGSL; a GLSL module is for the WebGL2 backend
            [s.language === 'glsl', 'language is the device’s', ['glsl']],
          ]);
    return {
      family: 'createShaderModule',
      verdict,
      run: (d: Device) => {
        const m = d.createShaderModule(desc as Parameters<Device['createShaderModule']>[0]);
        if (m.code !== s.code) throw new Error(`the module holds other code than it was given`);
      },
    };
  });

// the surface: `resize(width, height)` sets the canvas's backing size (an unsigned long each,
// within the texture limit of the canvas's texture); `getCurrentTexture()` is a texture of that
// size, which must have at least one texel (createTexture: width, height > 0).
const surfaceSide = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(0, 1, 2, 300, 8192) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(8193, -1, 1.5, Number.NaN, Infinity, null, '300', 3n),
  },
);
const surfaceOp = fc.oneof(
  fc.tuple(surfaceSide, surfaceSide).map(([w, h]) => ({ op: 'resize' as const, w, h })),
  fc.constant({ op: 'getCurrentTexture' as const, w: 0, h: 0 }),
);
const surfaceTrials: fc.Arbitrary<Trial> = fc
  .record({
    canvas: fc.constantFrom([300, 150], [0, 0], [1, 1], [640, 0]),
    ops: fc.array(surfaceOp, { minLength: 1, maxLength: 4 }),
  })
  .map(({ canvas, ops }) => {
    // walk the calls as the specification runs them: the first invalid one is the answer
    const max = LIMITS.maxTextureDimension2D;
    const side = (x: unknown) => isInt(x) && x >= 0 && x <= max;
    let [w, h] = canvas as [number, number];
    let verdict: Verdict = VALID;
    for (const o of ops) {
      if (o.op === 'resize') {
        if (!side(o.w) || !side(o.h)) {
          verdict = judgeAll([
            [!side(o.w), 'resize: width is an unsigned long ≤ maxTextureDimension2D', ['width']],
            [!side(o.h), 'resize: height is an unsigned long ≤ maxTextureDimension2D', ['height']],
          ]);
          break;
        }
        [w, h] = [o.w as number, o.h as number];
      } else if (w === 0 || h === 0) {
        verdict = judge([
          [true, 'getCurrentTexture: a texture has at least 1×1 texels', ['getCurrentTexture']],
        ]);
        break;
      }
    }
    return {
      family: 'surface: resize, getCurrentTexture',
      verdict,
      device: () =>
        new NullDevice({ canvas: { width: canvas[0] as number, height: canvas[1] as number } }),
      run: (d: Device) => {
        const surface = d.surface;
        if (!surface) throw new Error('the null device was given a canvas and has no surface');
        for (const o of ops) {
          if (o.op === 'resize') surface.resize(o.w as number, o.h as number);
          else {
            const t = surface.getCurrentTexture();
            if (t.width !== surface.width || t.height !== surface.height)
              throw new Error(
                `the surface's texture is ${t.width}×${t.height}, the canvas ${surface.width}×${surface.height}`,
              );
          }
        }
      },
    };
  });

// ---- the run ---------------------------------------------------------------------------------

const trials = fc.oneof(
  bufferTrials,
  textureTrials,
  samplerTrials,
  copyTrials,
  writeTrials,
  vertexTrials,
  textureCopyTrials,
  writeTextureTrials,
  bindTrials,
  passTrials,
  passCallTrials,
  workgroupTrials,
  stateTrials,
  drawIndexedTrials,
  querySetTrials,
  indirectTrials,
  bufferTextureTrials,
  bindGroupTrials,
  slotSetterTrials,
  shaderModuleTrials,
  surfaceTrials,
);

type Outcome = 'accepted' | 'typed+named' | 'subset' | 'typed' | 'untyped' | 'silent' | 'rejected';
const OUTCOMES: Outcome[] = [
  'accepted',
  'typed+named',
  'subset',
  'typed',
  'untyped',
  'silent',
  'rejected',
];
const FAILING: Outcome[] = ['typed', 'untyped', 'silent', 'rejected'];

function outcomeOf(t: Trial): { outcome: Outcome; message: string } {
  const d = t.device ? t.device() : new NullDevice();
  try {
    t.run(d);
    return { outcome: t.verdict.kind === 'invalid' ? 'silent' : 'accepted', message: 'accepted' };
  } catch (e) {
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (!(e instanceof RhiError)) return { outcome: 'untyped', message };
    if (t.verdict.kind === 'valid') return { outcome: 'rejected', message };
    const named = t.verdict.mentions.some((m) => e.message.includes(m));
    if (!named) return { outcome: 'typed', message };
    return { outcome: t.verdict.kind === 'subset' ? 'subset' : 'typed+named', message };
  } finally {
    d.destroy();
  }
}

const TABLE_START = '<!-- fuzz-oracle table: tests/node/fuzz-oracle.test.ts writes it -->';
const TABLE_END = '<!-- end of the fuzz-oracle table -->';

describe('descriptors and calls against an oracle from the WebGPU specification (fast-check)', () => {
  it(`${RUNS} calls, valid and invalid: no untyped error, no silent accept, no valid call refused`, () => {
    const sample = fc.sample(trials, { seed: SEED, numRuns: RUNS });
    const table = new Map<string, Record<Outcome, number>>();
    const failures = new Map<string, string>();
    for (const t of sample) {
      const { outcome, message } = outcomeOf(t);
      const row =
        table.get(t.family) ??
        (Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>);
      row[outcome]++;
      table.set(t.family, row);
      if (FAILING.includes(outcome)) {
        const rule = t.verdict.kind === 'valid' ? 'valid' : t.verdict.rule;
        const key = `${t.family} · ${outcome} · ${rule}`;
        if (!failures.has(key)) failures.set(key, message);
      }
    }
    const total = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
    for (const row of table.values()) for (const o of OUTCOMES) total[o] += row[o];
    const lines = [
      `Seed ${SEED}, ${RUNS} calls on the null backend:`,
      '',
      `| call | ${OUTCOMES.join(' | ')} |`,
      `| --- | ${OUTCOMES.map(() => '---:').join(' | ')} |`,
      ...[...table]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([family, row]) => `| ${family} | ${OUTCOMES.map((o) => row[o]).join(' | ')} |`),
      `| **all** | ${OUTCOMES.map((o) => `**${total[o]}**`).join(' | ')} |`,
    ];
    console.log(`fuzz-oracle:\n${lines.join('\n')}`);
    expect([...failures].map(([k, m]) => `${k}: ${m}`)).toEqual([]);
    // both sides of the line are exercised in every family
    for (const [family, row] of table) {
      expect(row.accepted, `${family}: valid calls`).toBeGreaterThan(10);
      expect(row['typed+named'], `${family}: invalid calls`).toBeGreaterThan(10);
    }
    const doc = new URL('../../docs/errors.md', import.meta.url);
    const text = readFileSync(doc, 'utf8');
    const block = `${TABLE_START}\n${lines.join('\n')}\n${TABLE_END}`;
    const at = text.indexOf(TABLE_START);
    const end = text.indexOf(TABLE_END);
    if (process.env['UPDATE_FUZZ_TABLE'] === '1' && at >= 0 && end > at) {
      writeFileSync(doc, text.slice(0, at) + block + text.slice(end + TABLE_END.length));
      return;
    }
    // compared as prettier leaves it: cells padded, blank lines around the table
    const normal = (x: string) =>
      x
        .split('\n')
        .map((l) => l.replace(/ +/g, ' ').replace(/-{3,}/g, '---').trim())
        .filter((l) => l.length > 0)
        .join('\n');
    expect(
      at >= 0 && end > at
        ? normal(text.slice(at, end + TABLE_END.length))
        : 'no table in docs/errors.md',
      'docs/errors.md holds the table this run printed (UPDATE_FUZZ_TABLE=1 rewrites it)',
    ).toBe(normal(block));
  });
});
