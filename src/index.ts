/**
 * `ignis-rhi`: the rendering hardware interface — one API over WebGPU and WebGL2 (and a null
 * backend for tests). Compute helpers, particles, post-processing, portable WGSL and the test kit
 * are subpaths: `ignis-rhi/compute`, `/particles`, `/postfx`, `/portable`, `/testing`.
 *
 * Every name here is exported on purpose; api/report.md lists them and `npm test` compares.
 * @module ignis-rhi
 */

// creating a device
export {
  createDevice,
  WebGPUDevice,
  WebGL2Device,
  WebGPUUnavailableError,
  type BackendRequest,
  type CreateDeviceOptions,
} from './rhi/index.js';
export {
  Device,
  type DeviceOptions,
  type DeviceStats,
  type DeviceLostInfo,
  type ErrorListener,
  type KindStats,
} from './rhi/core/device.js';
export type {
  AdapterInfo,
  BackendName,
  Caps,
  FeatureRestrictions,
  Features,
  Limits,
  ShaderLanguage,
} from './rhi/core/caps.js';
export type { Surface, SurfaceCanvas } from './rhi/core/surface.js';

// resources
export { Resource, type ResourceKind } from './rhi/core/resource.js';
export { Buffer } from './rhi/core/buffer.js';
export {
  Texture,
  texelView,
  unpadRows,
  type TexelArray,
  type TextureReadOptions,
} from './rhi/core/texture.js';
export { Sampler } from './rhi/core/sampler.js';
export {
  BindGroup,
  BindGroupLayout,
  type BindGroupDescriptor,
  type BindGroupEntry,
  type BindGroupLayoutDescriptor,
  type BindingResource,
  type BufferBinding,
  type WebGPULayoutEntry,
} from './rhi/core/bind-group.js';
export { MAX_BIND_GROUPS } from './rhi/core/slots.js';
export { ShaderModule } from './rhi/core/shader-module.js';
export { RenderPipeline } from './rhi/core/render-pipeline.js';
export { ComputePipeline } from './rhi/core/compute-pipeline.js';
export { QuerySet } from './rhi/core/query-set.js';
export {
  BufferUsage,
  TextureUsage,
  type BufferUsageFlags,
  type TextureUsageFlags,
} from './rhi/core/flags.js';
export {
  isDepthFormat,
  isTextureFormat,
  TEXTURE_FORMATS,
  type ColorFormat,
  type DepthStencilFormat,
  type TextureFormat,
} from './rhi/core/formats.js';
export { halfToFloat, floatToHalfBits } from './rhi/core/half.js';
export { COPY_BYTES_PER_ROW_ALIGNMENT } from './rhi/core/validate/copy.js';

// recording and submitting work
export {
  CommandEncoder,
  type BarrierDescriptor,
  type BarrierMode,
} from './rhi/core/command-encoder.js';
export { CommandBuffer } from './rhi/core/command-buffer.js';
export { RenderPass } from './rhi/core/render-pass.js';
export { RenderCommands, type DrawTarget } from './rhi/core/render-commands.js';
export { RenderBundle } from './rhi/core/render-bundle.js';
export { RenderBundleEncoder } from './rhi/core/render-bundle-encoder.js';
export { ComputePass } from './rhi/core/compute-pass.js';
export { Queue, type ArrayBufferSource } from './rhi/core/queue.js';
export { BARRIER_SCOPES, type BarrierScope, type StorageAccess } from './rhi/core/commands.js';
export type * from './rhi/core/descriptors.js';

// errors
export * from './rhi/core/errors.js';
