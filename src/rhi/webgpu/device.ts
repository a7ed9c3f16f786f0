import type { RenderBundle } from '../core/render-bundle.js';
import type { ShaderModule } from '../core/shader-module.js';
import { Device, type DeviceOptions } from '../core/device.js';
import {
  BackendError,
  OutOfMemoryError,
  RhiError,
  UnsupportedFeatureError,
} from '../core/errors.js';
import { restrictCaps, type Caps } from '../core/caps.js';
import type {
  BindingLayoutEntry,
  BufferDescriptor,
  ComputePipelineDescriptor,
  QuerySetDescriptor,
  RenderPipelineDescriptor,
  SamplerDescriptor,
  ShaderModuleDescriptor,
  TextureDescriptor,
} from '../core/descriptors.js';
import { WebGPUBuffer } from './buffer.js';
import { WebGPUTexture } from './texture.js';
import { WebGPUSampler } from './sampler.js';
import { WebGPUShaderModule } from './shader-module.js';
import { WebGPURenderPipeline } from './render-pipeline.js';
import { WebGPUComputePipeline } from './compute-pipeline.js';
import { WebGPUQuerySet } from './query-set.js';
import { WebGPUQueue } from './queue.js';
import { WebGPUSurface } from './surface.js';
import { BindGroupCache } from './bind-groups.js';
import { ReadbackPool } from './readback.js';
import { WebGPUCommandEncoder } from './command-encoder.js';

export interface WebGPUDeviceOptions extends DeviceOptions {
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /** Wrap a GPUDevice the host application already owns. */
  gpuDevice?: GPUDevice;
  powerPreference?: GPUPowerPreference;
}

const OPTIONAL_FEATURES: GPUFeatureName[] = [
  'timestamp-query',
  'float32-filterable',
  'float32-blendable',
];

/** Why WebGPU could not be had: thrown by `createWebGPUDevice`, caught by `backend: 'auto'`. */
export class WebGPUUnavailableError extends RhiError {
  constructor(reason: string) {
    super('unsupported-feature', `WebGPU is unavailable: ${reason}`, undefined, { reason });
  }
}

/** An adapter and a device with the features and limits Ignis uses (also what `restore()` asks for). */
async function requestGPUDevice(
  powerPreference: GPUPowerPreference | undefined,
): Promise<{ gpu: GPUDevice; info: GPUAdapterInfo; isFallbackAdapter: boolean }> {
  if (typeof navigator === 'undefined' || !navigator.gpu)
    throw new WebGPUUnavailableError(
      'navigator.gpu is missing (not a secure context, or no WebGPU in this browser)',
    );
  const adapter = await navigator.gpu.requestAdapter({ powerPreference });
  if (!adapter) throw new WebGPUUnavailableError('requestAdapter() returned null');
  const isFallbackAdapter =
    (adapter.info as { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
  const requiredFeatures = OPTIONAL_FEATURES.filter((f) => adapter.features.has(f));
  const l = adapter.limits;
  const gpu = await adapter.requestDevice({
    label: 'ignis',
    requiredFeatures,
    requiredLimits: {
      maxBufferSize: l.maxBufferSize,
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupSizeY: l.maxComputeWorkgroupSizeY,
      maxComputeWorkgroupSizeZ: l.maxComputeWorkgroupSizeZ,
      maxColorAttachments: l.maxColorAttachments,
      // (older implementations lack the limit: ask only where the adapter names it)
      ...(l.maxColorAttachmentBytesPerSample
        ? { maxColorAttachmentBytesPerSample: l.maxColorAttachmentBytesPerSample }
        : {}),
      maxTextureDimension2D: l.maxTextureDimension2D,
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    },
  });
  return { gpu, info: adapter.info, isFallbackAdapter };
}

export async function createWebGPUDevice(options: WebGPUDeviceOptions = {}): Promise<WebGPUDevice> {
  if (options.gpuDevice) return new WebGPUDevice(options.gpuDevice, undefined, false, options);
  const { gpu, info, isFallbackAdapter } = await requestGPUDevice(options.powerPreference);
  return new WebGPUDevice(gpu, info, isFallbackAdapter, options);
}

/** A device on WebGPU; `gpu` is its GPUDevice. */
export class WebGPUDevice extends Device {
  readonly caps: Caps;
  readonly queue: WebGPUQueue;
  readonly surface: WebGPUSurface | null;
  // replaced by restore(): they belong to one GPUDevice
  bindGroups: BindGroupCache;
  readback: ReadbackPool;
  /** Each render bundle's GPURenderBundle and the GPUDevice it was encoded for (WebGPUCommandEncoder.renderBundle). */
  readonly renderBundles = new WeakMap<RenderBundle, { gpu: GPUDevice; bundle: GPURenderBundle }>();
  /**
   * Dynamic offsets are passed to `setBindGroup` as an array, not a `Uint32Array` range: Firefox
   * (153) takes a reused array faster (0.26 vs 0.46 µs a draw at 1,000 draws, measured in a page
   * on wgpu), where Chromium and Deno take the typed range faster (0.16 vs 0.23). Ignis makes the
   * same calls either way; only their argument's type differs.
   */
  readonly offsetsAsArrays =
    typeof navigator !== 'undefined' && /\bFirefox\//.test(navigator.userAgent ?? '');
  readonly #options: WebGPUDeviceOptions;

  constructor(
    public gpu: GPUDevice,
    info: GPUAdapterInfo | undefined,
    isFallbackAdapter: boolean,
    options: WebGPUDeviceOptions,
  ) {
    super(options);
    const f = gpu.features;
    const l = gpu.limits;
    this.caps = restrictCaps(
      {
        backend: 'webgpu',
        shaderLanguage: 'wgsl',
        features: {
          compute: true,
          storageBuffers: true,
          storageTextures: true,
          timestampQuery: f.has('timestamp-query'),
          indirect: true,
          floatRenderTargets: true,
          halfFloatRenderTargets: true,
          float32Filterable: f.has('float32-filterable'),
          float32Blendable: f.has('float32-blendable'),
          multisample: true,
          independentBlend: true,
          vertexFormatBgra: true,
        },
        limits: {
          maxTextureDimension2D: l.maxTextureDimension2D,
          maxBufferSize: l.maxBufferSize,
          maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
          maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
          maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
          maxComputeWorkgroupSizeY: l.maxComputeWorkgroupSizeY,
          maxComputeWorkgroupSizeZ: l.maxComputeWorkgroupSizeZ,
          maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
          maxUniformBufferBindingSize: l.maxUniformBufferBindingSize,
          minUniformBufferOffsetAlignment: l.minUniformBufferOffsetAlignment,
          minStorageBufferOffsetAlignment: l.minStorageBufferOffsetAlignment,
          maxColorAttachments: l.maxColorAttachments,
          // WebGPU's default where an implementation does not report it
          maxColorAttachmentBytesPerSample: l.maxColorAttachmentBytesPerSample ?? 32,
          maxVertexBuffers: l.maxVertexBuffers,
          maxVertexAttributes: l.maxVertexAttributes,
          maxSampledTexturesPerShaderStage: l.maxSampledTexturesPerShaderStage,
          maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
        },
        adapter: {
          vendor: info?.vendor ?? 'unknown',
          architecture: info?.architecture ?? 'unknown',
          description: info?.description ?? '',
          isFallbackAdapter,
        },
      },
      options.restrict,
    );
    this.bindGroups = new BindGroupCache(gpu);
    this.readback = new ReadbackPool(gpu);
    this.queue = new WebGPUQueue(this);
    this.surface = options.canvas ? new WebGPUSurface(this, options.canvas) : null;
    this.#options = options;
    this.#watch(gpu);
  }

  /**
   * Runs `make` inside a validation error scope: what Dawn rejects in it comes back once, as a
   * `BackendError` naming the Ignis call and the object's label (never also as an uncaptured error).
   * `modules`: the shader modules a pipeline is made of — where one of them failed to compile, its
   * ShaderCompileError already said why, and the pipeline's "invalid due to a previous error" is
   * not reported a second time.
   */
  scoped<T>(
    call: string,
    label: string | undefined,
    make: () => T,
    modules: readonly ShaderModule[] = [],
  ): T {
    const gpu = this.gpu;
    gpu.pushErrorScope('validation');
    const out = make();
    void gpu.popErrorScope().then(
      async (error) => {
        if (!error) return;
        for (const m of modules) if (await m.compilation()) return;
        this.reportError(
          new BackendError(`${call}${label ? ` "${label}"` : ''}: ${error.message}`, label, {
            call,
          }),
        );
      },
      () => undefined,
    );
    return out;
  }

  /** Reports `gpu`'s uncaptured errors and its loss. */
  #watch(gpu: GPUDevice): void {
    gpu.addEventListener('uncapturederror', (event) => {
      const error = (event as GPUUncapturedErrorEvent).error;
      this.reportError(
        error instanceof GPUOutOfMemoryError
          ? new OutOfMemoryError(error.message)
          : new BackendError(error.message),
      );
    });
    void gpu.lost.then((info) => {
      if (gpu !== this.gpu) return; // a device restore() replaced
      this.markLost({
        reason: info.reason === 'destroyed' ? 'destroyed' : 'unknown',
        message: info.message,
      });
    });
  }

  /**
   * A new GPUDevice from a new adapter (a lost one cannot be revived), with the caches that belong
   * to a device. A device made around a GPUDevice you passed (`gpuDevice`) cannot do this: make
   * a new GPUDevice and a new Ignis device.
   */
  protected override cacheStatsImpl(): Record<string, number> {
    return { ...this.bindGroups.sizes, readbackBuffers: this.readback.free };
  }

  protected override async restoreImpl(): Promise<void> {
    if (this.#options.gpuDevice)
      throw new UnsupportedFeatureError(
        'restore',
        'webgpu',
        'this device wraps a GPUDevice you passed (gpuDevice); create a new GPUDevice and a new Ignis device around it',
      );
    const { gpu } = await requestGPUDevice(this.#options.powerPreference);
    this.gpu = gpu;
    this.bindGroups = new BindGroupCache(gpu);
    this.readback = new ReadbackPool(gpu);
    this.#watch(gpu);
    this.surface?.reconfigure();
  }

  protected createBufferImpl(desc: BufferDescriptor): WebGPUBuffer {
    return new WebGPUBuffer(this, desc);
  }
  protected createTextureImpl(desc: TextureDescriptor): WebGPUTexture {
    return new WebGPUTexture(this, desc);
  }
  protected createSamplerImpl(desc: SamplerDescriptor): WebGPUSampler {
    return new WebGPUSampler(this, desc);
  }
  protected createShaderModuleImpl(desc: ShaderModuleDescriptor): WebGPUShaderModule {
    return new WebGPUShaderModule(this, desc);
  }
  protected createRenderPipelineImpl(
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): WebGPURenderPipeline {
    return new WebGPURenderPipeline(this, desc, bindings);
  }
  protected createComputePipelineImpl(
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): WebGPUComputePipeline {
    return new WebGPUComputePipeline(this, desc, bindings);
  }
  /**
   * Commands go into a GPUCommandEncoder as they are recorded, so a submit only submits. With
   * `debug` they are replayed at submit instead, inside an error scope that names the submit.
   */
  protected override createCommandSink(
    label: string | undefined,
  ): WebGPUCommandEncoder | undefined {
    return this.debug ? undefined : new WebGPUCommandEncoder(this, label ?? '');
  }

  /**
   * @internal The bundle's `GPURenderBundle`, encoded at `finish()`. A debug device encodes it at
   * its first execution, inside the submit's error scope, which then names what the GPU rejected.
   */
  override prepareRenderBundle(bundle: RenderBundle): void {
    if (!this.debug) WebGPUCommandEncoder.renderBundle(this, bundle);
  }

  protected createQuerySetImpl(desc: QuerySetDescriptor): WebGPUQuerySet {
    return new WebGPUQuerySet(this, desc);
  }
  protected destroyImpl(): void {
    this.readback.destroy();
    this.gpu.destroy();
  }
}
