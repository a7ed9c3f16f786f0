export * from './flags.js';
export * from './formats.js';
export * from './errors.js';
export * from './caps.js';
export * from './descriptors.js';
export * from './commands.js';
export { Resource, type ResourceKind } from './resource.js';
export { Buffer } from './buffer.js';
export {
  Texture,
  texelView,
  unpadRows,
  type TexelArray,
  type TextureReadOptions,
} from './texture.js';
export { Sampler } from './sampler.js';
export {
  BindGroup,
  BindGroupLayout,
  type BindGroupDescriptor,
  type BindGroupEntry,
  type BindGroupLayoutDescriptor,
  type BindingResource,
  type BufferBinding,
  type WebGPULayoutEntry,
} from './bind-group.js';
export { MAX_BIND_GROUPS } from './slots.js';
export { ShaderModule } from './shader-module.js';
export { RenderPipeline } from './render-pipeline.js';
export { ComputePipeline, reflectWorkgroupSize } from './compute-pipeline.js';
export { QuerySet } from './query-set.js';
export { CommandBuffer } from './command-buffer.js';
export {
  CommandEncoder,
  traceCommands,
  type BarrierDescriptor,
  type BarrierMode,
  type CommandSink,
  type PassRecorder,
} from './command-encoder.js';
export { RenderPass } from './render-pass.js';
export { RenderCommands, type DrawTarget } from './render-commands.js';
export { RenderBundle } from './render-bundle.js';
export { RenderBundleEncoder } from './render-bundle-encoder.js';
export { ComputePass, splitDispatch } from './compute-pass.js';
export { Queue, type ArrayBufferSource } from './queue.js';
export {
  Device,
  type DeviceOptions,
  type DeviceStats,
  type DeviceLostInfo,
  type ErrorListener,
  type KindStats,
} from './device.js';
export { Surface, type SurfaceCanvas } from './surface.js';
export { reflectWgslBindings, layoutFromReflection, type WgslBinding } from './reflect.js';
export { COPY_BYTES_PER_ROW_ALIGNMENT } from './validate/copy.js';
