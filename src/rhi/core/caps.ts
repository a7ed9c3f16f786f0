import { ValidationError } from './errors.js';

/** A backend: WebGPU, WebGL2 or the null backend. */
export type BackendName = 'webgpu' | 'webgl2' | 'null';
/** The shading language a backend takes. */
export type ShaderLanguage = 'wgsl' | 'glsl';

/** What a device can do. Code above the RHI reads these flags; it never compares backend names. */
export interface Features {
  /** Compute pipelines and passes. WebGL2 lacks it (use the ping-pong runner of src/compute). */
  readonly compute: boolean;
  /** STORAGE buffers bound to shaders. WebGL2 lacks it. */
  readonly storageBuffers: boolean;
  /** STORAGE_BINDING textures written by compute. WebGL2 lacks it. */
  readonly storageTextures: boolean;
  /** GPU pass timing. WebGPU: the `timestamp-query` feature; WebGL2: `EXT_disjoint_timer_query_webgl2`; null: never. */
  readonly timestampQuery: boolean;
  /** `dispatchIndirect` from an INDIRECT buffer. WebGL2 lacks it (no compute). */
  readonly indirect: boolean;
  /** Rendering into r32float/rg32float/rgba32float. WebGL2: `EXT_color_buffer_float`. */
  readonly floatRenderTargets: boolean;
  /** Rendering into 16-bit float targets. WebGL2: `EXT_color_buffer_half_float` or `EXT_color_buffer_float`. */
  readonly halfFloatRenderTargets: boolean;
  /** Linear filtering of 32-bit float textures. WebGPU: `float32-filterable`; WebGL2: `OES_texture_float_linear`. */
  readonly float32Filterable: boolean;
  /** Blending into 32-bit float targets. WebGPU: `float32-blendable`; WebGL2: `EXT_float_blend`. */
  readonly float32Blendable: boolean;
  /** 4× multisampled render targets (all backends here; the null backend records only). */
  readonly multisample: boolean;
  /**
   * Colour targets of one pipeline with different blend states or write masks. WebGL2 lacks it
   * (GL ES 3.0 has one blend state for all draw buffers; `OES_draw_buffers_indexed` is not used yet).
   */
  readonly independentBlend: boolean;
  /**
   * The `unorm8x4-bgra` vertex format (four bytes read as b, g, r, a). WebGL2 lacks it: GL has no
   * swizzled attribute (give the bytes in rgba order as `unorm8x4`).
   */
  readonly vertexFormatBgra: boolean;
}

/** The device limits Ignis checks against, named as in WebGPU. */
export interface Limits {
  readonly maxTextureDimension2D: number;
  readonly maxBufferSize: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  /** Axmol calls it maxThreadsPerGroup. 0 where compute is missing. */
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeWorkgroupSizeY: number;
  readonly maxComputeWorkgroupSizeZ: number;
  readonly maxStorageBufferBindingSize: number;
  readonly maxUniformBufferBindingSize: number;
  readonly minUniformBufferOffsetAlignment: number;
  readonly minStorageBufferOffsetAlignment: number;
  readonly maxColorAttachments: number;
  /**
   * Bytes a sample of all colour targets may take together (formats.ts `colorBytesPerSample`):
   * WebGPU's limit (the adapter's maximum is requested); WebGL2 has none beyond the attachment
   * count, so there it is `maxColorAttachments` × 16 (every target rgba32float).
   */
  readonly maxColorAttachmentBytesPerSample: number;
  readonly maxVertexBuffers: number;
  readonly maxVertexAttributes: number;
  readonly maxSampledTexturesPerShaderStage: number;
  /**
   * Storage buffers one shader stage may bind (a compute step binds one per state attribute, and
   * one per source column): the adapter's maximum is requested. 0 where compute is missing.
   */
  readonly maxStorageBuffersPerShaderStage: number;
}

/**
 * Software rasterisers by the names drivers and browsers give them (WebGPU's adapter info, GL's
 * renderer string, ANGLE's description).
 */
export const SOFTWARE_ADAPTER_NAME =
  /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render/i;

/**
 * What the adapter says of itself (vendor, architecture, description, fallback). Browsers may
 * leave the strings empty (Firefox does); `isFallbackAdapter` is WebGPU's flag, and on WebGL2 true
 * when the renderer is named as a software rasteriser.
 */
export interface AdapterInfo {
  readonly vendor: string;
  readonly architecture: string;
  readonly description: string;
  readonly isFallbackAdapter: boolean;
}

/** What a device can do: backend, shader language, features, limits, adapter. */
export interface Caps {
  readonly backend: BackendName;
  readonly shaderLanguage: ShaderLanguage;
  readonly features: Features;
  readonly limits: Limits;
  readonly adapter: AdapterInfo;
}

/** Limits of WebGPU's default tier, used by the null backend and as a floor for validation tests. */
export const DEFAULT_LIMITS: Limits = {
  maxTextureDimension2D: 8192,
  maxBufferSize: 268435456,
  maxComputeWorkgroupsPerDimension: 65535,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupSizeZ: 64,
  maxStorageBufferBindingSize: 134217728,
  maxUniformBufferBindingSize: 65536,
  minUniformBufferOffsetAlignment: 256,
  minStorageBufferOffsetAlignment: 256,
  maxColorAttachments: 8,
  maxColorAttachmentBytesPerSample: 32,
  maxVertexBuffers: 8,
  maxVertexAttributes: 16,
  maxSampledTexturesPerShaderStage: 16,
  maxStorageBuffersPerShaderStage: 8,
};

/** Features a device may be told to go without, to exercise a fallback on hardware that has it. */
export type FeatureRestrictions = Partial<Record<keyof Features, false>>;

/**
 * `caps` with the restricted features turned off (never on: a restriction cannot grant what the
 * backend lacks). Used by `createDevice({ restrict })`, e.g. `{ compute: false }` to run the
 * ping-pong path on WebGPU or `{ floatRenderTargets: false }` to run half-float state on WebGL2.
 */
export function restrictCaps(caps: Caps, restrict: FeatureRestrictions | undefined): Caps {
  if (!restrict) return caps;
  const features: Record<string, boolean> = { ...caps.features };
  for (const [name, value] of Object.entries(restrict)) {
    if (!(name in features))
      throw new ValidationError(
        'restrict-feature',
        `restrict: unknown feature ${name} (one of ${Object.keys(features).join(', ')})`,
        undefined,
        {
          feature: name,
        },
      );
    if (value !== false)
      throw new ValidationError(
        'restrict-value',
        `restrict: ${name} must be false; a restriction can only turn a feature off`,
        undefined,
        {
          feature: name,
          value,
        },
      );
    features[name] = false;
  }
  if (restrict.compute === false) features.indirect = false;
  return { ...caps, features: features as unknown as Features };
}
