import type { TextureFormat } from './formats.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { ShaderModule } from './shader-module.js';
import type { QuerySet } from './query-set.js';
import type { ShaderLanguage } from './caps.js';

/** Every descriptor takes a label; it reaches the backend object and every error message. */
export interface Labeled {
  label?: string;
}

export interface BufferDescriptor extends Labeled {
  /** Bytes; a positive multiple of 4 within `limits.maxBufferSize`. */
  size: number;
  usage: number;
  /** Map at creation: fill `getMappedRange()`, then `unmap()` (WebGPU semantics on every backend). */
  mappedAtCreation?: boolean;
}

export interface TextureDescriptor extends Labeled {
  size: { width: number; height: number };
  format: TextureFormat;
  usage: number;
  /** 1 by default; at most the full chain, `floor(log2(max(w, h))) + 1`. */
  mipLevelCount?: number;
  /** 1 or 4. */
  sampleCount?: number;
}

/** What `createTexture` takes: `size` also in WebGPU's shapes, `[width, height?]` or
 * `{ width, height?, depthOrArrayLayers?: 1 }` (Ignis textures are 2D with one layer). */
export interface CreateTextureDescriptor extends Omit<TextureDescriptor, 'size'> {
  size:
    | { width: number; height?: number; depthOrArrayLayers?: number }
    | readonly [number, number?, number?];
}

export type AddressMode = 'clamp-to-edge' | 'repeat' | 'mirror-repeat';
export type FilterMode = 'nearest' | 'linear';
export type CompareFunction =
  'never' | 'less' | 'equal' | 'less-equal' | 'greater' | 'not-equal' | 'greater-equal' | 'always';

export interface SamplerDescriptor extends Labeled {
  addressModeU?: AddressMode;
  addressModeV?: AddressMode;
  magFilter?: FilterMode;
  minFilter?: FilterMode;
  mipmapFilter?: FilterMode;
  lodMinClamp?: number;
  lodMaxClamp?: number;
}

export type ShaderStage = 'vertex' | 'fragment' | 'compute';

export interface ShaderModuleDescriptor extends Labeled {
  code: string;
  /** Defaults to the device's `caps.shaderLanguage`. */
  language?: ShaderLanguage;
  /** GLSL modules hold one stage; WGSL modules may hold several entry points. */
  stage?: ShaderStage;
}

export type VertexFormat =
  | 'float32'
  | 'float32x2'
  | 'float32x3'
  | 'float32x4'
  | 'uint32'
  | 'sint32'
  | 'unorm8x4'
  | 'uint8x4';

export interface VertexAttribute {
  format: VertexFormat;
  offset: number;
  /** `@location(n)` in WGSL, `layout(location = n)` in GLSL. */
  shaderLocation: number;
}

export interface VertexBufferLayout {
  arrayStride: number;
  stepMode?: 'vertex' | 'instance';
  attributes: VertexAttribute[];
}

export type BlendFactor =
  | 'zero'
  | 'one'
  | 'src'
  | 'one-minus-src'
  | 'src-alpha'
  | 'one-minus-src-alpha'
  | 'dst'
  | 'one-minus-dst'
  | 'dst-alpha'
  | 'one-minus-dst-alpha';
export type BlendOperation = 'add' | 'subtract' | 'reverse-subtract' | 'min' | 'max';
export interface BlendComponent {
  operation?: BlendOperation;
  srcFactor?: BlendFactor;
  dstFactor?: BlendFactor;
}
export interface BlendState {
  color: BlendComponent;
  alpha: BlendComponent;
}

export interface ColorTargetState {
  format: TextureFormat;
  blend?: BlendState;
  /** Bits R=1 G=2 B=4 A=8; all by default. */
  writeMask?: number;
}

/** What a binding slot holds. Reflected from WGSL when not given. */
export type BindingType =
  'uniform' | 'storage' | 'read-only-storage' | 'texture' | 'sampler' | 'storage-texture';

export interface BindingLayoutEntry {
  /** The slot: `@group(0) @binding(n)` in WGSL. */
  binding: number;
  type: BindingType;
  /** GLSL: the uniform block or sampler uniform this slot feeds (GLSL ES 3.00 has no binding qualifier). */
  name?: string;
  /** GLSL, texture slots: the sampler slot whose state the texture is sampled with. */
  samplerBinding?: number;
  /** WGSL textures: the sample type; 'float' by default. */
  sampleType?: 'float' | 'unfilterable-float' | 'depth' | 'uint' | 'sint';
  /** Storage textures: the format. */
  format?: TextureFormat;
  /**
   * Samplers: what the sampler may do. `non-filtering` is required where it samples an
   * 'unfilterable-float' texture (WebGPU rule); derived when left out (see `deriveSamplerTypes`).
   */
  samplerType?: 'filtering' | 'non-filtering' | 'comparison';
  /** Uniform slots: the bytes the shader reads (its WGSL struct's size), reflected from WGSL. */
  minBindingSize?: number;
}

export interface DepthStencilState {
  format: TextureFormat;
  depthWriteEnabled?: boolean;
  depthCompare?: CompareFunction;
}

export interface RenderPipelineDescriptor extends Labeled {
  /** WebGPU's `'auto'` (what Ignis always does: the layout is reflected from WGSL or given as `bindings`). */
  layout?: 'auto';
  vertex: { module: ShaderModule; entryPoint?: string; buffers?: VertexBufferLayout[] };
  fragment?: { module: ShaderModule; entryPoint?: string; targets: ColorTargetState[] };
  primitive?: {
    topology?: 'triangle-list' | 'triangle-strip' | 'line-list' | 'line-strip' | 'point-list';
    cullMode?: 'none' | 'front' | 'back';
    frontFace?: 'ccw' | 'cw';
  };
  depthStencil?: DepthStencilState;
  multisample?: { count?: number };
  /** The flat slot layout. Optional for WGSL (reflected from `@group(0)` declarations); GLSL needs names. */
  bindings?: BindingLayoutEntry[];
}

export interface ComputePipelineDescriptor extends Labeled {
  /** WebGPU's `'auto'` (see RenderPipelineDescriptor.layout). */
  layout?: 'auto';
  compute: { module: ShaderModule; entryPoint?: string };
  bindings?: BindingLayoutEntry[];
}

export type LoadOp = 'load' | 'clear';
export type StoreOp = 'store' | 'discard';

export interface RenderPassColorAttachment {
  /** The texture drawn into (WebGPU's `view`: either name works, a texture is its own view). */
  texture?: Texture;
  view?: Texture;
  /** A single-sampled texture the multisampled `texture` is resolved into when the pass ends. */
  resolveTarget?: Texture;
  loadOp?: LoadOp;
  storeOp?: StoreOp;
  /** [r, g, b, a], or WebGPU's { r, g, b, a }. */
  clearValue?:
    readonly [number, number, number, number] | { r: number; g: number; b: number; a: number };
}

export interface RenderPassDepthStencilAttachment {
  /** The depth texture (WebGPU's `view`: either name works). */
  texture?: Texture;
  view?: Texture;
  depthLoadOp?: LoadOp;
  depthStoreOp?: StoreOp;
  depthClearValue?: number;
}

export interface PassTimestampWrites {
  querySet: QuerySet;
  beginningOfPassWriteIndex?: number;
  endOfPassWriteIndex?: number;
}

export interface RenderPassDescriptor extends Labeled {
  colorAttachments: RenderPassColorAttachment[];
  depthStencilAttachment?: RenderPassDepthStencilAttachment;
  timestampWrites?: PassTimestampWrites;
}

export interface ComputePassDescriptor extends Labeled {
  timestampWrites?: PassTimestampWrites;
}

export interface QuerySetDescriptor extends Labeled {
  type: 'timestamp';
  count: number;
}

export interface ImageCopyBuffer {
  buffer: Buffer;
  offset?: number;
  /** Must be a multiple of 256 (WebGPU's rule, kept on every backend). */
  bytesPerRow: number;
  rowsPerImage?: number;
}

export interface ImageCopyTexture {
  texture: Texture;
  mipLevel?: number;
  origin?: { x?: number; y?: number };
}

export interface Extent2D {
  width: number;
  height: number;
}

export interface ImageDataLayout {
  offset?: number;
  bytesPerRow: number;
  rowsPerImage?: number;
}
