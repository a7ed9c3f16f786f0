// Tables of the WebGPU specification (https://www.w3.org/TR/webgpu/), written out for the fuzzers'
// oracles: what WebGPU accepts, whatever Ignis does with it.

/** GPUBlendFactor (dual-source `src1…` factors need a feature Ignis does not ask for). */
export const SPEC_BLEND_FACTORS = [
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
  'constant',
  'one-minus-constant',
];

/** GPUBufferUsage. */
export const SPEC_BUFFER_USAGE = {
  MAP_READ: 0x1,
  MAP_WRITE: 0x2,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  INDEX: 0x10,
  VERTEX: 0x20,
  UNIFORM: 0x40,
  STORAGE: 0x80,
  INDIRECT: 0x100,
  QUERY_RESOLVE: 0x200,
} as const;

/** GPUTextureUsage (TRANSIENT_ATTACHMENT, 0x20, is newer than the core Ignis follows: left out). */
export const SPEC_TEXTURE_USAGE = {
  COPY_SRC: 0x1,
  COPY_DST: 0x2,
  TEXTURE_BINDING: 0x4,
  STORAGE_BINDING: 0x8,
  RENDER_ATTACHMENT: 0x10,
} as const;

/** GPUCompareFunction. */
export const SPEC_COMPARE_FUNCTIONS = [
  'never',
  'less',
  'equal',
  'less-equal',
  'greater',
  'not-equal',
  'greater-equal',
  'always',
];
