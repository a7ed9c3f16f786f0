// Pure tables from Ignis' WebGPU-named enums to GL enums (wgpu's conv.rs; regl's string→GLenum
// tables). Numbers are the GL ES 3.0 constants, so these run and are unit-tested in Node.
import type { TextureFormat } from '../core/formats.js';
import type {
  AddressMode,
  BlendFactor,
  BlendOperation,
  CompareFunction,
  FilterMode,
  VertexFormat,
} from '../core/descriptors.js';

export const GL = {
  ZERO: 0,
  ONE: 1,
  POINTS: 0x0000,
  LINES: 0x0001,
  LINE_STRIP: 0x0003,
  TRIANGLES: 0x0004,
  TRIANGLE_STRIP: 0x0005,
  SRC_COLOR: 0x0300,
  ONE_MINUS_SRC_COLOR: 0x0301,
  SRC_ALPHA: 0x0302,
  ONE_MINUS_SRC_ALPHA: 0x0303,
  DST_ALPHA: 0x0304,
  ONE_MINUS_DST_ALPHA: 0x0305,
  DST_COLOR: 0x0306,
  ONE_MINUS_DST_COLOR: 0x0307,
  SRC_ALPHA_SATURATE: 0x0308,
  FUNC_ADD: 0x8006,
  MIN: 0x8007,
  MAX: 0x8008,
  FUNC_SUBTRACT: 0x800a,
  FUNC_REVERSE_SUBTRACT: 0x800b,
  NEVER: 0x0200,
  LESS: 0x0201,
  EQUAL: 0x0202,
  LEQUAL: 0x0203,
  GREATER: 0x0204,
  NOTEQUAL: 0x0205,
  GEQUAL: 0x0206,
  ALWAYS: 0x0207,
  FRONT: 0x0404,
  BACK: 0x0405,
  CW: 0x0900,
  CCW: 0x0901,
  NEAREST: 0x2600,
  LINEAR: 0x2601,
  NEAREST_MIPMAP_NEAREST: 0x2700,
  LINEAR_MIPMAP_NEAREST: 0x2701,
  NEAREST_MIPMAP_LINEAR: 0x2702,
  LINEAR_MIPMAP_LINEAR: 0x2703,
  REPEAT: 0x2901,
  CLAMP_TO_EDGE: 0x812f,
  MIRRORED_REPEAT: 0x8370,
  BYTE: 0x1400,
  UNSIGNED_BYTE: 0x1401,
  SHORT: 0x1402,
  UNSIGNED_SHORT: 0x1403,
  INT: 0x1404,
  UNSIGNED_INT: 0x1405,
  FLOAT: 0x1406,
  HALF_FLOAT: 0x140b,
  UNSIGNED_INT_2_10_10_10_REV: 0x8368,
  UNSIGNED_INT_24_8: 0x84fa,
  FLOAT_32_UNSIGNED_INT_24_8_REV: 0x8dad,
  RED: 0x1903,
  RG: 0x8227,
  RGBA: 0x1908,
  DEPTH_COMPONENT: 0x1902,
  DEPTH_STENCIL: 0x84f9,
  R8: 0x8229,
  RG8: 0x822b,
  RGBA8: 0x8058,
  SRGB8_ALPHA8: 0x8c43,
  R16F: 0x822d,
  RG16F: 0x822f,
  RGBA16F: 0x881a,
  R32F: 0x822e,
  RG32F: 0x8230,
  RGBA32F: 0x8814,
  DEPTH_COMPONENT16: 0x81a5,
  DEPTH_COMPONENT24: 0x81a6,
  DEPTH24_STENCIL8: 0x88f0,
  DEPTH_COMPONENT32F: 0x8cac,
} as const;

export interface GLFormat {
  readonly internalFormat: number;
  readonly format: number;
  readonly type: number;
  /** Components of the client-side data (what writeTexture sends). */
  readonly components: number;
  /** The source data is BGRA and is swizzled to RGBA on upload and back on readback. */
  readonly swizzleBGRA: boolean;
}

export const TEXTURE_FORMATS: Readonly<Record<TextureFormat, GLFormat>> = {
  r8unorm: {
    internalFormat: GL.R8,
    format: GL.RED,
    type: GL.UNSIGNED_BYTE,
    components: 1,
    swizzleBGRA: false,
  },
  rg8unorm: {
    internalFormat: GL.RG8,
    format: GL.RG,
    type: GL.UNSIGNED_BYTE,
    components: 2,
    swizzleBGRA: false,
  },
  rgba8unorm: {
    internalFormat: GL.RGBA8,
    format: GL.RGBA,
    type: GL.UNSIGNED_BYTE,
    components: 4,
    swizzleBGRA: false,
  },
  'rgba8unorm-srgb': {
    internalFormat: GL.SRGB8_ALPHA8,
    format: GL.RGBA,
    type: GL.UNSIGNED_BYTE,
    components: 4,
    swizzleBGRA: false,
  },
  bgra8unorm: {
    internalFormat: GL.RGBA8,
    format: GL.RGBA,
    type: GL.UNSIGNED_BYTE,
    components: 4,
    swizzleBGRA: true,
  },
  r16float: {
    internalFormat: GL.R16F,
    format: GL.RED,
    type: GL.HALF_FLOAT,
    components: 1,
    swizzleBGRA: false,
  },
  rg16float: {
    internalFormat: GL.RG16F,
    format: GL.RG,
    type: GL.HALF_FLOAT,
    components: 2,
    swizzleBGRA: false,
  },
  rgba16float: {
    internalFormat: GL.RGBA16F,
    format: GL.RGBA,
    type: GL.HALF_FLOAT,
    components: 4,
    swizzleBGRA: false,
  },
  r32float: {
    internalFormat: GL.R32F,
    format: GL.RED,
    type: GL.FLOAT,
    components: 1,
    swizzleBGRA: false,
  },
  rg32float: {
    internalFormat: GL.RG32F,
    format: GL.RG,
    type: GL.FLOAT,
    components: 2,
    swizzleBGRA: false,
  },
  rgba32float: {
    internalFormat: GL.RGBA32F,
    format: GL.RGBA,
    type: GL.FLOAT,
    components: 4,
    swizzleBGRA: false,
  },
  depth16unorm: {
    internalFormat: GL.DEPTH_COMPONENT16,
    format: GL.DEPTH_COMPONENT,
    type: GL.UNSIGNED_SHORT,
    components: 1,
    swizzleBGRA: false,
  },
  depth24plus: {
    internalFormat: GL.DEPTH_COMPONENT24,
    format: GL.DEPTH_COMPONENT,
    type: GL.UNSIGNED_INT,
    components: 1,
    swizzleBGRA: false,
  },
  'depth24plus-stencil8': {
    internalFormat: GL.DEPTH24_STENCIL8,
    format: GL.DEPTH_STENCIL,
    type: GL.UNSIGNED_INT_24_8,
    components: 2,
    swizzleBGRA: false,
  },
  depth32float: {
    internalFormat: GL.DEPTH_COMPONENT32F,
    format: GL.DEPTH_COMPONENT,
    type: GL.FLOAT,
    components: 1,
    swizzleBGRA: false,
  },
};

export const BLEND_FACTORS: Readonly<Record<BlendFactor, number>> = {
  zero: GL.ZERO,
  one: GL.ONE,
  src: GL.SRC_COLOR,
  'one-minus-src': GL.ONE_MINUS_SRC_COLOR,
  'src-alpha': GL.SRC_ALPHA,
  'one-minus-src-alpha': GL.ONE_MINUS_SRC_ALPHA,
  dst: GL.DST_COLOR,
  'one-minus-dst': GL.ONE_MINUS_DST_COLOR,
  'dst-alpha': GL.DST_ALPHA,
  'one-minus-dst-alpha': GL.ONE_MINUS_DST_ALPHA,
  'src-alpha-saturated': GL.SRC_ALPHA_SATURATE,
};

export const BLEND_OPERATIONS: Readonly<Record<BlendOperation, number>> = {
  add: GL.FUNC_ADD,
  subtract: GL.FUNC_SUBTRACT,
  'reverse-subtract': GL.FUNC_REVERSE_SUBTRACT,
  min: GL.MIN,
  max: GL.MAX,
};

export const COMPARE_FUNCTIONS: Readonly<Record<CompareFunction, number>> = {
  never: GL.NEVER,
  less: GL.LESS,
  equal: GL.EQUAL,
  'less-equal': GL.LEQUAL,
  greater: GL.GREATER,
  'not-equal': GL.NOTEQUAL,
  'greater-equal': GL.GEQUAL,
  always: GL.ALWAYS,
};

export const ADDRESS_MODES: Readonly<Record<AddressMode, number>> = {
  'clamp-to-edge': GL.CLAMP_TO_EDGE,
  repeat: GL.REPEAT,
  'mirror-repeat': GL.MIRRORED_REPEAT,
};

export function minFilter(min: FilterMode, mipmap: FilterMode, hasMips: boolean): number {
  if (!hasMips) return min === 'linear' ? GL.LINEAR : GL.NEAREST;
  if (min === 'linear')
    return mipmap === 'linear' ? GL.LINEAR_MIPMAP_LINEAR : GL.LINEAR_MIPMAP_NEAREST;
  return mipmap === 'linear' ? GL.NEAREST_MIPMAP_LINEAR : GL.NEAREST_MIPMAP_NEAREST;
}

export const FILTERS: Readonly<Record<FilterMode, number>> = {
  nearest: GL.NEAREST,
  linear: GL.LINEAR,
};

export const TOPOLOGIES = {
  'triangle-list': GL.TRIANGLES,
  'triangle-strip': GL.TRIANGLE_STRIP,
  'line-list': GL.LINES,
  'line-strip': GL.LINE_STRIP,
  'point-list': GL.POINTS,
} as const;

export interface GLVertexFormat {
  readonly size: number;
  readonly type: number;
  readonly normalized: boolean;
  /** Integer attributes go through vertexAttribIPointer. */
  readonly integer: boolean;
}

/**
 * Every WebGPU vertex format but `unorm8x4-bgra` (GL has no swizzled attribute: core refuses it
 * on WebGL2) as vertexAttrib(I)Pointer's arguments. */
export const VERTEX_FORMATS: Readonly<
  Record<Exclude<VertexFormat, 'unorm8x4-bgra'>, GLVertexFormat>
> = {
  uint8: { size: 1, type: GL.UNSIGNED_BYTE, normalized: false, integer: true },
  uint8x2: { size: 2, type: GL.UNSIGNED_BYTE, normalized: false, integer: true },
  uint8x4: { size: 4, type: GL.UNSIGNED_BYTE, normalized: false, integer: true },
  sint8: { size: 1, type: GL.BYTE, normalized: false, integer: true },
  sint8x2: { size: 2, type: GL.BYTE, normalized: false, integer: true },
  sint8x4: { size: 4, type: GL.BYTE, normalized: false, integer: true },
  unorm8: { size: 1, type: GL.UNSIGNED_BYTE, normalized: true, integer: false },
  unorm8x2: { size: 2, type: GL.UNSIGNED_BYTE, normalized: true, integer: false },
  unorm8x4: { size: 4, type: GL.UNSIGNED_BYTE, normalized: true, integer: false },
  snorm8: { size: 1, type: GL.BYTE, normalized: true, integer: false },
  snorm8x2: { size: 2, type: GL.BYTE, normalized: true, integer: false },
  snorm8x4: { size: 4, type: GL.BYTE, normalized: true, integer: false },
  uint16: { size: 1, type: GL.UNSIGNED_SHORT, normalized: false, integer: true },
  uint16x2: { size: 2, type: GL.UNSIGNED_SHORT, normalized: false, integer: true },
  uint16x4: { size: 4, type: GL.UNSIGNED_SHORT, normalized: false, integer: true },
  sint16: { size: 1, type: GL.SHORT, normalized: false, integer: true },
  sint16x2: { size: 2, type: GL.SHORT, normalized: false, integer: true },
  sint16x4: { size: 4, type: GL.SHORT, normalized: false, integer: true },
  unorm16: { size: 1, type: GL.UNSIGNED_SHORT, normalized: true, integer: false },
  unorm16x2: { size: 2, type: GL.UNSIGNED_SHORT, normalized: true, integer: false },
  unorm16x4: { size: 4, type: GL.UNSIGNED_SHORT, normalized: true, integer: false },
  snorm16: { size: 1, type: GL.SHORT, normalized: true, integer: false },
  snorm16x2: { size: 2, type: GL.SHORT, normalized: true, integer: false },
  snorm16x4: { size: 4, type: GL.SHORT, normalized: true, integer: false },
  float16: { size: 1, type: GL.HALF_FLOAT, normalized: false, integer: false },
  float16x2: { size: 2, type: GL.HALF_FLOAT, normalized: false, integer: false },
  float16x4: { size: 4, type: GL.HALF_FLOAT, normalized: false, integer: false },
  float32: { size: 1, type: GL.FLOAT, normalized: false, integer: false },
  float32x2: { size: 2, type: GL.FLOAT, normalized: false, integer: false },
  float32x3: { size: 3, type: GL.FLOAT, normalized: false, integer: false },
  float32x4: { size: 4, type: GL.FLOAT, normalized: false, integer: false },
  uint32: { size: 1, type: GL.UNSIGNED_INT, normalized: false, integer: true },
  uint32x2: { size: 2, type: GL.UNSIGNED_INT, normalized: false, integer: true },
  uint32x3: { size: 3, type: GL.UNSIGNED_INT, normalized: false, integer: true },
  uint32x4: { size: 4, type: GL.UNSIGNED_INT, normalized: false, integer: true },
  sint32: { size: 1, type: GL.INT, normalized: false, integer: true },
  sint32x2: { size: 2, type: GL.INT, normalized: false, integer: true },
  sint32x3: { size: 3, type: GL.INT, normalized: false, integer: true },
  sint32x4: { size: 4, type: GL.INT, normalized: false, integer: true },
  'unorm10-10-10-2': {
    size: 4,
    type: GL.UNSIGNED_INT_2_10_10_10_REV,
    normalized: true,
    integer: false,
  },
};

// GL's window origin is bottom-left, WebGPU's top-left. Ignis renders every target upside down in
// GL (the vertex shader negates clip-space y; the canvas is a texture too, flipped once when it is
// presented) so texel rows in memory match WebGPU's; then window y and WebGPU's framebuffer y name
// the same memory row, and viewport and scissor rectangles pass through unchanged.

export { floatToHalfBits as floatToHalf } from '../core/half.js';
