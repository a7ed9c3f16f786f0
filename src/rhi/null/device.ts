import { Device, type DeviceOptions } from '../core/device.js';
import { DEFAULT_LIMITS, restrictCaps, type Caps, type Limits } from '../core/caps.js';
import { NullBuffer } from './buffer.js';
import { NullTexture } from './texture.js';
import { NullSampler } from './sampler.js';
import { NullShaderModule } from './shader-module.js';
import { NullRenderPipeline } from './render-pipeline.js';
import { NullComputePipeline } from './compute-pipeline.js';
import { NullQuerySet } from './query-set.js';
import { NullQueue } from './queue.js';
import { NullSurface } from './surface.js';
import type { SurfaceCanvas } from '../core/surface.js';
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

/** Options of the null device: limits and features to pretend. */
export interface NullDeviceOptions extends DeviceOptions {
  /** Override limits, e.g. to test validation against small ones. */
  limits?: Partial<Limits>;
  /** Override features, e.g. `{ compute: false }` to test fallbacks in Node. */
  features?: Partial<Caps['features']>;
  /**
   * A canvas to present to — anything with a `width` and `height` the surface may set — so code
   * that draws into `device.surface` and resizes it runs in Node. Without one, `surface` is null.
   */
  canvas?: SurfaceCanvas;
}

/** A device with no GPU: validates and records everything, runs transfers on ArrayBuffers; for tests. */
export class NullDevice extends Device {
  readonly caps: Caps;
  readonly queue = new NullQueue();
  readonly surface: NullSurface | null;

  constructor(options: NullDeviceOptions = {}) {
    super(options);
    this.queue.adoptOwner(this);
    this.caps = restrictCaps(
      {
        backend: 'null',
        shaderLanguage: 'wgsl',
        features: {
          compute: true,
          storageBuffers: true,
          storageTextures: true,
          timestampQuery: false,
          indirect: true,
          floatRenderTargets: true,
          halfFloatRenderTargets: true,
          float32Filterable: true,
          float32Blendable: true,
          multisample: true,
          independentBlend: true,
          vertexFormatBgra: true,
          ...options.features,
        },
        limits: { ...DEFAULT_LIMITS, ...options.limits },
        adapter: {
          vendor: 'ignis',
          architecture: 'null',
          description: 'ArrayBuffer-backed null device',
          isFallbackAdapter: true,
        },
      },
      options.restrict,
    );
    this.surface = options.canvas ? new NullSurface(this, options.canvas) : null;
  }

  protected createBufferImpl(desc: BufferDescriptor): NullBuffer {
    return new NullBuffer(this, desc);
  }
  protected createTextureImpl(desc: TextureDescriptor): NullTexture {
    return new NullTexture(this, desc);
  }
  protected createSamplerImpl(desc: SamplerDescriptor): NullSampler {
    return new NullSampler(this, desc);
  }
  protected createShaderModuleImpl(
    desc: ShaderModuleDescriptor,
    language: Caps['shaderLanguage'],
  ): NullShaderModule {
    return new NullShaderModule(this, desc, language);
  }
  protected createRenderPipelineImpl(
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): NullRenderPipeline {
    return new NullRenderPipeline(this, desc, bindings);
  }
  protected createComputePipelineImpl(
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): NullComputePipeline {
    return new NullComputePipeline(this, desc, bindings);
  }
  protected createQuerySetImpl(desc: QuerySetDescriptor): NullQuerySet {
    return new NullQuerySet(this, desc);
  }
  protected destroyImpl(): void {}
}
