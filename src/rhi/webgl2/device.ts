import { Device, type DeviceOptions } from '../core/device.js';
import { DeviceLostError, RhiError } from '../core/errors.js';
import { restrictCaps, SOFTWARE_ADAPTER_NAME, type AdapterInfo, type Caps } from '../core/caps.js';
import type { RenderBundle } from '../core/render-bundle.js';
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
import { WebGL2Buffer } from './buffer.js';
import { WebGL2Texture } from './texture.js';
import { WebGL2Sampler } from './sampler.js';
import { WebGL2ShaderModule } from './shader-module.js';
import { WebGL2RenderPipeline } from './render-pipeline.js';
import { WebGL2ComputePipeline } from './compute-pipeline.js';
import { WebGL2QuerySet } from './query-set.js';
import { WebGL2Queue } from './queue.js';
import { WebGL2Surface } from './surface.js';
import { GLStateCache } from './state.js';
import { FramebufferCache } from './framebuffers.js';
import { VertexArrayCache } from './vaos.js';
import { ReadbackPool } from './readback.js';

export interface WebGL2DeviceOptions extends DeviceOptions {
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /** Wrap a context the host already owns; call `device.resetState()` after the host touches it. */
  gl?: WebGL2RenderingContext;
}

export class WebGL2UnavailableError extends RhiError {
  constructor(reason: string) {
    super('unsupported-feature', `WebGL2 is unavailable: ${reason}`, undefined, { reason });
  }
}

function nearestSampler(gl: WebGL2RenderingContext): WebGLSampler {
  const sampler = gl.createSampler();
  gl.samplerParameteri(sampler, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.samplerParameteri(sampler, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.samplerParameteri(sampler, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.samplerParameteri(sampler, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return sampler;
}

const CONTEXT_ATTRIBUTES: WebGLContextAttributes = {
  antialias: false,
  alpha: true,
  premultipliedAlpha: true,
  depth: false,
  stencil: false,
  preserveDrawingBuffer: false,
};

export async function createWebGL2Device(options: WebGL2DeviceOptions = {}): Promise<WebGL2Device> {
  let gl = options.gl ?? null;
  if (!gl) {
    gl = options.canvas
      ? (options.canvas.getContext('webgl2', CONTEXT_ATTRIBUTES) as WebGL2RenderingContext | null)
      : scratchContext();
    if (!gl)
      throw new WebGL2UnavailableError(
        options.canvas
          ? 'getContext("webgl2") returned null'
          : 'getContext("webgl2") returned null on an OffscreenCanvas and on a document canvas',
      );
  }
  if (gl.isContextLost()) {
    // a lost context answers every query with 0: say so now, not with a limit error later
    throw new DeviceLostError(
      'context-lost',
      "the canvas's WebGL2 context is lost; create the device on a fresh canvas, or wait for webglcontextrestored",
    );
  }
  const device = new WebGL2Device(gl, options.canvas ?? null, options);
  device.ownsContext = options.gl === undefined;
  return device;
}

/**
 * A context for a device without a canvas: on an OffscreenCanvas where the engine gives one
 * WebGL2 there, else on a detached document canvas (WebKitGTK 2.50 has OffscreenCanvas but no
 * WebGL2 on it: docs/testing.md, "What other engines taught").
 */
function scratchContext(): WebGL2RenderingContext | null {
  if (typeof OffscreenCanvas !== 'undefined') {
    const gl = new OffscreenCanvas(1, 1).getContext('webgl2', CONTEXT_ATTRIBUTES);
    if (gl) return gl as WebGL2RenderingContext;
  }
  if (typeof document === 'undefined') return null;
  return document.createElement('canvas').getContext('webgl2', CONTEXT_ATTRIBUTES);
}

/**
 * What the context says of its GPU. WebGL has no `isFallbackAdapter`: a renderer named as a
 * software rasteriser (ANGLE on SwiftShader in Chromium, Mesa llvmpipe in Firefox and WebKit) is
 * one, so `caps.adapter.isFallbackAdapter` means the same on both backends.
 */
function webglAdapter(
  gl: WebGL2RenderingContext,
  debugInfo: { UNMASKED_VENDOR_WEBGL: number; UNMASKED_RENDERER_WEBGL: number } | null,
): AdapterInfo {
  const vendor = String(
    gl.getParameter(debugInfo ? debugInfo.UNMASKED_VENDOR_WEBGL : gl.VENDOR) ?? '',
  );
  const description = String(
    gl.getParameter(debugInfo ? debugInfo.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '',
  );
  return {
    vendor,
    architecture: 'webgl2',
    description,
    isFallbackAdapter: SOFTWARE_ADAPTER_NAME.test(`${vendor} ${description}`),
  };
}

/**
 * WebGPU-shaped API over a WebGL2 context. See README.md in this folder for how each concept maps
 * to GL and what it costs.
 */
export class WebGL2Device extends Device {
  readonly caps: Caps;
  readonly queue: WebGL2Queue;
  readonly surface: WebGL2Surface | null;
  // replaced by restore(): the caches hold objects of the lost context
  state: GLStateCache;
  framebuffers: FramebufferCache;
  vaos: VertexArrayCache;
  readback: ReadbackPool;
  /** The texture unit used for uploads, above every unit a pipeline assigns. */
  readonly scratchUnit: number;
  defaultSampler: WebGLSampler;
  timerExt: object | null;
  /** The most anisotropy a sampler gets (EXT_texture_filter_anisotropic; 1 without it). */
  maxAnisotropy = 1;
  /** True when Ignis created the context (and may lose it on destroy). */
  ownsContext = false;

  constructor(
    readonly gl: WebGL2RenderingContext,
    canvas: HTMLCanvasElement | OffscreenCanvas | null,
    options: WebGL2DeviceOptions,
  ) {
    super(options);
    const ext = (name: string): boolean => gl.getExtension(name) !== null;
    const colorBufferFloat = ext('EXT_color_buffer_float');
    const colorBufferHalf = colorBufferFloat || ext('EXT_color_buffer_half_float');
    const floatLinear = ext('OES_texture_float_linear');
    const floatBlend = ext('EXT_float_blend');
    this.timerExt = gl.getExtension('EXT_disjoint_timer_query_webgl2');
    this.#enableAnisotropy();
    const param = (p: number): number => Number(gl.getParameter(p));
    const debugInfo = gl.getExtension('WEBGL_debug_renderer_info');
    const units = param(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS);
    this.scratchUnit = units - 1;
    this.caps = restrictCaps(
      {
        backend: 'webgl2',
        shaderLanguage: 'glsl',
        features: {
          compute: false,
          storageBuffers: false,
          storageTextures: false,
          timestampQuery: this.timerExt !== null,
          indirect: false,
          floatRenderTargets: colorBufferFloat,
          halfFloatRenderTargets: colorBufferHalf,
          float32Filterable: floatLinear,
          float32Blendable: floatBlend,
          multisample: param(gl.MAX_SAMPLES) >= 4,
          independentBlend: false,
          vertexFormatBgra: false,
        },
        limits: {
          maxTextureDimension2D: param(gl.MAX_TEXTURE_SIZE),
          maxBufferSize: 1 << 30,
          maxComputeWorkgroupsPerDimension: 0,
          maxComputeInvocationsPerWorkgroup: 0,
          maxComputeWorkgroupSizeX: 0,
          maxComputeWorkgroupSizeY: 0,
          maxComputeWorkgroupSizeZ: 0,
          maxStorageBufferBindingSize: 0,
          maxUniformBufferBindingSize: param(gl.MAX_UNIFORM_BLOCK_SIZE),
          minUniformBufferOffsetAlignment: param(gl.UNIFORM_BUFFER_OFFSET_ALIGNMENT),
          minStorageBufferOffsetAlignment: 256,
          maxColorAttachments: Math.min(
            param(gl.MAX_COLOR_ATTACHMENTS),
            param(gl.MAX_DRAW_BUFFERS),
          ),
          maxColorAttachmentBytesPerSample:
            16 * Math.min(param(gl.MAX_COLOR_ATTACHMENTS), param(gl.MAX_DRAW_BUFFERS)),
          maxVertexBuffers: Math.min(8, param(gl.MAX_VERTEX_ATTRIBS)),
          maxVertexAttributes: param(gl.MAX_VERTEX_ATTRIBS),
          maxSampledTexturesPerShaderStage: Math.min(param(gl.MAX_TEXTURE_IMAGE_UNITS), units - 1),
          maxStorageBuffersPerShaderStage: 0,
        },
        adapter: webglAdapter(gl, debugInfo),
      },
      options.restrict,
    );
    this.state = new GLStateCache(gl);
    this.framebuffers = new FramebufferCache(this);
    this.vaos = new VertexArrayCache(this);
    this.readback = new ReadbackPool(gl);
    this.queue = new WebGL2Queue(this);
    this.surface = canvas ? new WebGL2Surface(this, canvas) : null;
    this.defaultSampler = nearestSampler(gl);
    const target = canvas as
      (EventTarget & { addEventListener?: EventTarget['addEventListener'] }) | null;
    target?.addEventListener?.('webglcontextlost', (event) => {
      event.preventDefault();
      this.markLost({ reason: 'context-lost', message: 'the WebGL2 context was lost' });
    });
  }

  override resetState(): void {
    this.state.reset();
  }

  /** @internal The bundle cut into runs at `finish()` (a debug device replays it as recorded). */
  override prepareRenderBundle(bundle: RenderBundle): void {
    if (!this.debug) this.queue.compiled(bundle);
  }

  /**
   * Waits for the context to come back (`webglcontextrestored`; 10 s at most), enables the
   * extensions again (a restored context has none) and replaces every cache of GL objects.
   */
  protected override cacheStatsImpl(): Record<string, number> {
    return {
      framebuffers: this.framebuffers.size,
      vertexArrays: this.vaos.size,
      readbackBuffers: this.readback.free,
    };
  }

  protected override async restoreImpl(): Promise<void> {
    const gl = this.gl;
    if (gl.isContextLost()) {
      const canvas = gl.canvas as unknown as EventTarget;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(
            new DeviceLostError(
              'context-lost',
              'the WebGL2 context was not restored within 10 s (the browser decides; WEBGL_lose_context.restoreContext() asks for it)',
            ),
          );
        }, 10_000);
        canvas.addEventListener(
          'webglcontextrestored',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
    for (const name of [
      'EXT_color_buffer_float',
      'EXT_color_buffer_half_float',
      'OES_texture_float_linear',
      'EXT_float_blend',
    ])
      gl.getExtension(name);
    this.timerExt = gl.getExtension('EXT_disjoint_timer_query_webgl2');
    this.#enableAnisotropy();
    this.state = new GLStateCache(gl);
    this.framebuffers = new FramebufferCache(this);
    this.vaos = new VertexArrayCache(this);
    this.readback = new ReadbackPool(gl);
    this.defaultSampler = nearestSampler(gl);
    this.surface?.forgetTexture();
  }

  protected createBufferImpl(desc: BufferDescriptor): WebGL2Buffer {
    return new WebGL2Buffer(this, desc);
  }
  protected createTextureImpl(desc: TextureDescriptor): WebGL2Texture {
    return new WebGL2Texture(this, desc);
  }
  /** EXT_texture_filter_anisotropic, where the context has it: samplers clamp to its maximum. */
  #enableAnisotropy(): void {
    const gl = this.gl;
    const ext = gl.getExtension('EXT_texture_filter_anisotropic');
    this.maxAnisotropy = ext
      ? Math.max(1, Number(gl.getParameter(ext.MAX_TEXTURE_MAX_ANISOTROPY_EXT)))
      : 1;
  }

  protected createSamplerImpl(desc: SamplerDescriptor): WebGL2Sampler {
    return new WebGL2Sampler(this, desc);
  }
  protected createShaderModuleImpl(desc: ShaderModuleDescriptor): WebGL2ShaderModule {
    return new WebGL2ShaderModule(this, desc);
  }
  protected createRenderPipelineImpl(
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): WebGL2RenderPipeline {
    return new WebGL2RenderPipeline(this, desc, bindings);
  }
  protected createComputePipelineImpl(
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): WebGL2ComputePipeline {
    return new WebGL2ComputePipeline(this, desc, bindings);
  }
  protected createQuerySetImpl(desc: QuerySetDescriptor): WebGL2QuerySet {
    return new WebGL2QuerySet(this, desc);
  }
  protected destroyImpl(): void {
    this.framebuffers.destroy();
    this.vaos.destroy();
    this.readback.destroy();
    this.gl.deleteSampler(this.defaultSampler);
    if (this.ownsContext) this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
