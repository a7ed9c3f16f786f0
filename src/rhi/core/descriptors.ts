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

/** What `createBuffer` takes: size, usage flags, mapped at creation, label. */
export interface BufferDescriptor extends Labeled {
  /** Bytes, 0 to `limits.maxBufferSize`; a multiple of 4 when `mappedAtCreation`. */
  size: number;
  usage: number;
  /** Map at creation: fill `getMappedRange()`, then `unmap()` (WebGPU semantics on every backend). */
  mappedAtCreation?: boolean;
}

/** A texture's size, format, usage, mip levels and samples. */
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
  /** WebGPU's; Ignis textures are '2d' (the default): '1d' and '3d' are a typed error. */
  dimension?: '1d' | '2d' | '3d';
}

/** What a sampler does outside [0, 1]. */
export type AddressMode = 'clamp-to-edge' | 'repeat' | 'mirror-repeat';
/** How a sampler filters. */
export type FilterMode = 'nearest' | 'linear';
/** A depth comparison. */
export type CompareFunction =
  'never' | 'less' | 'equal' | 'less-equal' | 'greater' | 'not-equal' | 'greater-equal' | 'always';

/** What `createSampler` takes: address modes, filters, LOD clamp, comparison. */
export interface SamplerDescriptor extends Labeled {
  addressModeU?: AddressMode;
  addressModeV?: AddressMode;
  /** WebGPU's third coordinate; Ignis textures are 2D, so it is checked and has no effect. */
  addressModeW?: AddressMode;
  magFilter?: FilterMode;
  minFilter?: FilterMode;
  mipmapFilter?: FilterMode;
  lodMinClamp?: number;
  lodMaxClamp?: number;
  /**
   * Anisotropic filtering, 1 (off, the default) to 65,535, clamped to what the device can do (as
   * WebGPU does; WebGL2: `EXT_texture_filter_anisotropic`, else 1). Above 1 every filter must be
   * 'linear'.
   */
  maxAnisotropy?: number;
  /**
   * A comparison sampler: sampling a depth texture compares the reference with the stored depth
   * and returns 1 where `reference <compare> depth` holds, else 0 (filtered between texels with
   * 'linear': percentage-closer filtering). WGSL `sampler_comparison` + `textureSampleCompare`;
   * GLSL `sampler2DShadow` (its slot declared `samplerType: 'comparison'`); a comparison sampler
   * and a slot of another kind are a `binding-sampler-compare` error.
   */
  compare?: CompareFunction;
}

/** A shader stage. */
export type ShaderStage = 'vertex' | 'fragment' | 'compute';

/** What `createShaderModule` takes: code, language (WGSL or GLSL) and stage for GLSL. */
export interface ShaderModuleDescriptor extends Labeled {
  code: string;
  /** Defaults to the device's `caps.shaderLanguage`. */
  language?: ShaderLanguage;
  /** GLSL modules hold one stage; WGSL modules may hold several entry points. */
  stage?: ShaderStage;
}

/** WebGPU's vertex formats, every one ('unorm8x4-bgra': WebGPU only; WebGL2 cannot swizzle an attribute). */
export type VertexFormat =
  | 'uint8'
  | 'uint8x2'
  | 'uint8x4'
  | 'sint8'
  | 'sint8x2'
  | 'sint8x4'
  | 'unorm8'
  | 'unorm8x2'
  | 'unorm8x4'
  | 'snorm8'
  | 'snorm8x2'
  | 'snorm8x4'
  | 'uint16'
  | 'uint16x2'
  | 'uint16x4'
  | 'sint16'
  | 'sint16x2'
  | 'sint16x4'
  | 'unorm16'
  | 'unorm16x2'
  | 'unorm16x4'
  | 'snorm16'
  | 'snorm16x2'
  | 'snorm16x4'
  | 'float16'
  | 'float16x2'
  | 'float16x4'
  | 'float32'
  | 'float32x2'
  | 'float32x3'
  | 'float32x4'
  | 'uint32'
  | 'uint32x2'
  | 'uint32x3'
  | 'uint32x4'
  | 'sint32'
  | 'sint32x2'
  | 'sint32x3'
  | 'sint32x4'
  | 'unorm10-10-10-2'
  | 'unorm8x4-bgra';

/** One vertex attribute: format, byte offset, shader location. */
export interface VertexAttribute {
  format: VertexFormat;
  offset: number;
  /** `@location(n)` in WGSL, `layout(location = n)` in GLSL. */
  shaderLocation: number;
}

/** One vertex buffer of a pipeline: stride, step mode, attributes. */
export interface VertexBufferLayout {
  arrayStride: number;
  stepMode?: 'vertex' | 'instance';
  attributes: VertexAttribute[];
}

/** A blend factor. */
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
  | 'one-minus-dst-alpha'
  /** min(source alpha, 1 − destination alpha): a source factor only (WebGL2 takes it there). */
  | 'src-alpha-saturated';
/** A blend operation. */
export type BlendOperation = 'add' | 'subtract' | 'reverse-subtract' | 'min' | 'max';
/** One blend equation: operation and source/destination factors. */
export interface BlendComponent {
  operation?: BlendOperation;
  srcFactor?: BlendFactor;
  dstFactor?: BlendFactor;
}
/** Blending of one colour target: a colour and an alpha component. */
export interface BlendState {
  color: BlendComponent;
  alpha: BlendComponent;
}

/** One colour target of a render pipeline: format, blend, write mask. */
export interface ColorTargetState {
  format: TextureFormat;
  blend?: BlendState;
  /** Bits R=1 G=2 B=4 A=8; all by default. */
  writeMask?: number;
}

/** What a binding slot holds. Reflected from WGSL when not given. */
export type BindingType =
  'uniform' | 'storage' | 'read-only-storage' | 'texture' | 'sampler' | 'storage-texture';

/** One slot of a pipeline's binding layout: binding number, kind and what it takes. */
export interface BindingLayoutEntry {
  /** The bind group, `@group(g)` in WGSL (0 to 3; default 0: the group slot binding fills). */
  group?: number;
  /** The slot: `@binding(n)` in WGSL. */
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

/** Depth testing of a render pipeline: format, write, compare function. */
export interface DepthStencilState {
  format: TextureFormat;
  depthWriteEnabled?: boolean;
  depthCompare?: CompareFunction;
}

/** What `createRenderPipeline` takes: vertex and fragment stages, primitive, depth, multisample. */
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
  /** The slot layout. Optional for WGSL (reflected from its `@group @binding` declarations); GLSL needs names. */
  bindings?: BindingLayoutEntry[];
}

/** What `createComputePipeline` takes: the compute stage and its layout. */
export interface ComputePipelineDescriptor extends Labeled {
  /** WebGPU's `'auto'` (see RenderPipelineDescriptor.layout). */
  layout?: 'auto';
  compute: {
    module: ShaderModule;
    entryPoint?: string;
    /** Values of the module's `override` declarations, by name or `@id` (WebGPU's `constants`). */
    constants?: Readonly<Record<string, number | boolean>>;
  };
  bindings?: BindingLayoutEntry[];
}

/** What a pass does with an attachment at its start. */
export type LoadOp = 'load' | 'clear';
/** What a pass does with an attachment at its end. */
export type StoreOp = 'store' | 'discard';

/** One colour attachment of a render pass: texture (or WebGPU `view`), resolve target, load/store, clear value. */
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

/** The depth attachment of a render pass and its load/store/clear. */
export interface RenderPassDepthStencilAttachment {
  /** The depth texture (WebGPU's `view`: either name works). */
  texture?: Texture;
  view?: Texture;
  depthLoadOp?: LoadOp;
  depthStoreOp?: StoreOp;
  depthClearValue?: number;
}

/** Timestamp queries a pass writes at its start and end. */
export interface PassTimestampWrites {
  querySet: QuerySet;
  beginningOfPassWriteIndex?: number;
  endOfPassWriteIndex?: number;
}

/**
 * What `device.createRenderBundleEncoder` takes: the formats of the passes that will execute the
 * bundle (its pipelines must target them, as a pass's must target its attachments).
 */
export interface RenderBundleEncoderDescriptor extends Labeled {
  colorFormats: TextureFormat[];
  depthStencilFormat?: TextureFormat;
  /** 1 (the default) or 4. */
  sampleCount?: number;
}

/** What `beginRenderPass` takes: attachments, timestamps, label. */
export interface RenderPassDescriptor extends Labeled {
  colorAttachments: RenderPassColorAttachment[];
  depthStencilAttachment?: RenderPassDepthStencilAttachment;
  timestampWrites?: PassTimestampWrites;
}

/** What `beginComputePass` takes: timestamps and a label. */
export interface ComputePassDescriptor extends Labeled {
  timestampWrites?: PassTimestampWrites;
}

/** What `createQuerySet` takes: type (timestamp) and count. */
export interface QuerySetDescriptor extends Labeled {
  type: 'timestamp';
  count: number;
}

/** A buffer side of a texture copy: buffer, offset, row pitch. */
export interface ImageCopyBuffer {
  buffer: Buffer;
  offset?: number;
  /**
   * A multiple of 256 (WebGPU's rule, kept on every backend); may be left out for a copy of one
   * row.
   */
  bytesPerRow?: number;
  rowsPerImage?: number;
}

/** A texture side of a copy: texture, mip level, origin. */
export interface ImageCopyTexture {
  texture: Texture;
  mipLevel?: number;
  origin?: { x?: number; y?: number };
}

/** A width and a height in texels. */
export interface Extent2D {
  width: number;
  height: number;
}

/** How texel data is laid out in memory: offset and row pitch. */
export interface ImageDataLayout {
  offset?: number;
  /** Bytes from one row to the next: a multiple of the texel size; may be left out for one row. */
  bytesPerRow?: number;
  rowsPerImage?: number;
}
