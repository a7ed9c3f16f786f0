import { RhiError, DeviceLostError, UnsupportedFeatureError, ValidationError } from './errors.js';
import { validateBufferDescriptor } from './validate/buffer.js';
import { validateTextureDescriptor } from './validate/texture.js';
import {
  validateComputePipelineDescriptor,
  validateRenderPipelineDescriptor,
} from './validate/pipeline.js';
import { validateSamplerDescriptor } from './validate/sampler.js';
import { validateShaderModuleDescriptor } from './validate/shader-module.js';
import { validateQuerySetDescriptor } from './validate/query-set.js';
import { isPositiveInteger } from './validate/buffer.js';
import { CommandEncoder, type BarrierMode, type CommandSink } from './command-encoder.js';
import { RenderBundleEncoder } from './render-bundle-encoder.js';
import type { RenderBundle } from './render-bundle.js';
import { resolveRenderBundle } from './validate/pass.js';
import {
  BindGroup,
  BindGroupLayout,
  type BindGroupDescriptor,
  type BindGroupLayoutDescriptor,
} from './bind-group.js';
import type { Caps, FeatureRestrictions } from './caps.js';
import type { Resource, ResourceKind } from './resource.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';
import type { ShaderModule } from './shader-module.js';
import type { RenderPipeline } from './render-pipeline.js';
import type { ComputePipeline } from './compute-pipeline.js';
import type { QuerySet } from './query-set.js';
import type { Queue } from './queue.js';
import type { Surface } from './surface.js';
import type {
  BindingLayoutEntry,
  BufferDescriptor,
  ComputePipelineDescriptor,
  Labeled,
  QuerySetDescriptor,
  RenderBundleEncoderDescriptor,
  RenderPipelineDescriptor,
  SamplerDescriptor,
  ShaderModuleDescriptor,
  TextureDescriptor,
  CreateTextureDescriptor,
} from './descriptors.js';
import { show } from './show.js';

/** Options every backend takes (barriers, frames in flight, restrictions, debug, host copies). */
export interface DeviceOptions {
  /** How passes are ordered: `auto` inserts barriers, `explicit` checks the ones you declare. */
  barriers?: BarrierMode;
  /** Frames the CPU may run ahead of the GPU; `beginFrame()` waits beyond it. Default 2. */
  maxFramesInFlight?: number;
  /** Turn features off (never on), to run a fallback on hardware that has the feature. */
  restrict?: FeatureRestrictions;
  /**
   * Extra checks that cost time: WebGL2 calls `gl.getError()` after every replayed command and
   * reports what GL rejected (a stall per command: for development, not for benchmarks); WebGPU
   * runs every submit in an error scope, so what it rejects there names `queue.submit` and the
   * command buffers' labels.
   */
  debug?: boolean;
  /**
   * Keep a host copy of every STORAGE or UNIFORM buffer's contents (what `writeBuffer`, a mapped
   * write and buffer-to-buffer copies put there), so CPU fallbacks can read buffers without a GPU
   * readback. It costs the buffers' size in JavaScript memory and a copy per write. Default: on
   * where the CPU is the only path for compute (no compute and no float render targets).
   */
  hostShadows?: boolean;
}

/** How many live resources of a kind and their bytes. */
export interface KindStats {
  count: number;
  bytes: number;
}
/** Live resources per kind, and the total (`device.stats()`). */
export type DeviceStats = Record<ResourceKind, KindStats> & { total: KindStats };

/** A listener of `device.onError`. */
export type ErrorListener = (error: RhiError) => void;

/** Why a device was lost. */
export interface DeviceLostInfo {
  reason: 'destroyed' | 'unknown' | 'context-lost';
  message: string;
}

/**
 * The resource factory. Every `create*` validates its descriptor here, in core, then asks the
 * backend (`*Impl`) to make the object; a backend never re-checks what core checked.
 */
/**
 * A texture descriptor with WebGPU's size shapes accepted: `[width, height?, layers?]` or
 * `{ width, height?, depthOrArrayLayers? }` (height defaults to 1). Ignis textures are 2D: more
 * than one layer is a typed error.
 */
function normalizeTextureSize(desc: CreateTextureDescriptor): TextureDescriptor {
  const dimension = desc.dimension as unknown;
  if (dimension !== undefined && dimension !== '2d')
    throw new ValidationError(
      'texture-dimension',
      dimension === '1d' || dimension === '3d'
        ? `Texture dimension '${dimension}': Ignis textures are '2d'`
        : `Texture dimension ${show(dimension)} is not one of '1d', '2d', '3d' (and Ignis textures are '2d')`,
      desc.label,
      { dimension },
    );
  const size = desc.size as unknown;
  if (!size || typeof size !== 'object') return desc as TextureDescriptor;
  const s = Array.isArray(size)
    ? {
        width: size[0] as unknown,
        height: size[1] as unknown,
        depthOrArrayLayers: size[2] as unknown,
      }
    : (size as { width?: unknown; height?: unknown; depthOrArrayLayers?: unknown });
  // only a missing height or layer count defaults to 1 (null is WebIDL's 0: an error below)
  const width = s.width;
  const height = s.height === undefined ? 1 : s.height;
  const layers = s.depthOrArrayLayers === undefined ? 1 : s.depthOrArrayLayers;
  if (layers !== 1)
    throw new ValidationError(
      'texture-layers',
      `Texture depthOrArrayLayers ${show(layers)}: Ignis textures are 2D with one layer`,
      desc.label,
      { depthOrArrayLayers: layers },
    );
  const { dimension: _dimension, ...rest } = desc;
  return { ...rest, size: { width: width as number, height: height as number } };
}

/** A device on one backend: creates resources, records and submits work, reports errors and loss. */
export abstract class Device {
  abstract readonly caps: Caps;
  abstract readonly queue: Queue;
  abstract readonly surface: Surface | null;
  readonly barrierMode: BarrierMode;
  /** With `backend: 'auto'`, why WebGPU was not taken (null when it was, or not asked for). */
  fallbackReason: string | null = null;
  readonly maxFramesInFlight: number;
  readonly debug: boolean;
  readonly #hostShadows: boolean | undefined;
  #lost: Promise<DeviceLostInfo>;
  readonly #listeners = new Set<ErrorListener>();
  readonly #restoredListeners = new Set<() => void>();
  readonly #live = new Map<number, Resource>();
  /** How to make each live resource again on a restored backend (the backend call and its descriptor). */
  readonly #recreate = new Map<number, () => Resource>();
  #nextId = 1;
  #resolveLost!: (info: DeviceLostInfo) => void;
  #isLost = false;
  #destroyed = false;

  constructor(options: DeviceOptions) {
    this.barrierMode = options.barriers ?? 'auto';
    if (this.barrierMode !== 'auto' && this.barrierMode !== 'explicit') {
      throw new ValidationError(
        'device-barriers',
        `barriers ${String(this.barrierMode)} must be 'auto' or 'explicit'`,
      );
    }
    this.maxFramesInFlight = options.maxFramesInFlight ?? 2;
    this.debug = options.debug ?? false;
    this.#hostShadows = options.hostShadows;
    if (this.#hostShadows !== undefined && typeof this.#hostShadows !== 'boolean')
      throw new ValidationError(
        'device-host-shadows',
        `hostShadows ${String(options.hostShadows)} must be true or false`,
      );
    if (!isPositiveInteger(this.maxFramesInFlight)) {
      throw new ValidationError(
        'frames-in-flight',
        `maxFramesInFlight ${String(options.maxFramesInFlight)} must be a positive integer`,
      );
    }
    this.#lost = new Promise((resolve) => (this.#resolveLost = resolve));
  }

  /**
   * Resolves once when the device is lost (context loss, `GPUDevice.lost`, `destroy()`); after a
   * `restore()`, a new promise for the next loss.
   */
  get lost(): Promise<DeviceLostInfo> {
    return this.#lost;
  }

  get backend(): Caps['backend'] {
    return this.caps.backend;
  }

  /** Whether STORAGE and UNIFORM buffers keep a host copy (see `DeviceOptions.hostShadows`). */
  get hostShadows(): boolean {
    const f = this.caps.features;
    return this.#hostShadows ?? (!f.compute && !f.floatRenderTargets);
  }

  get isLost(): boolean {
    return this.#isLost;
  }

  /** Subscribes to every error the device reports asynchronously (backend errors, loss). */
  onError(listener: ErrorListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Backends call this for errors core could not foresee. Unheard errors go to console.error. */
  reportError(error: RhiError): void {
    if (this.#listeners.size === 0) console.error(error);
    for (const l of this.#listeners) l(error);
  }

  /** Backends call this once when the device is gone. */
  protected markLost(info: DeviceLostInfo): void {
    if (this.#isLost) return;
    this.#isLost = true;
    this.#resolveLost(info);
    if (info.reason !== 'destroyed')
      this.reportError(new DeviceLostError(info.reason, info.message));
  }

  nextResourceId(): number {
    return this.#nextId++;
  }

  /**
   * Counts destroyed resources: a command buffer recorded since the count last moved uses only
   * resources that are still alive (recording checked each), so submit skips its per-command check.
   */
  get destroyedCount(): number {
    return this.#destroyedCount;
  }
  #destroyedCount = 0;
  /** Buffers mapped now (mappedAtCreation, not yet unmapped): while any is, submit checks each command. */
  get mappedBuffers(): number {
    return this.#mappedBuffers;
  }
  #mappedBuffers = 0;
  /** @internal A buffer was mapped (+1) or unmapped or destroyed while mapped (−1). */
  noteMapped(delta: 1 | -1): void {
    this.#mappedBuffers += delta;
  }

  untrackResource(resource: Resource): void {
    this.#destroyedCount++;
    this.#live.delete(resource.id);
    this.#recreate.delete(resource.id);
  }

  #track<T extends Resource>(resource: T, recreate: () => Resource): T {
    this.#live.set(resource.id, resource);
    this.#recreate.set(resource.id, recreate);
    return resource;
  }

  /**
   * After a loss (a WebGL2 context loss, a lost GPUDevice; not `destroy()`): gets a backend again
   * (WebGL2: waits for the context to be restored; WebGPU: requests a new GPUDevice), then rebuilds
   * every live resource in creation order from the descriptor it was made with — the same objects,
   * new backend objects inside. Buffers with a host copy (`hostShadows`) get their contents back;
   * other buffers and every texture start zeroed. Pipelines are recompiled. Then `lost` is a new
   * promise and the `onRestored` listeners run (particle systems re-seed their state there).
   */
  async restore(): Promise<void> {
    if (this.#destroyed)
      throw new ValidationError(
        'device-restore',
        'restore() after device.destroy(): a destroyed device stays destroyed; create a new one',
      );
    if (!this.#isLost)
      throw new ValidationError('device-restore', 'restore() on a device that is not lost');
    await this.restoreImpl();
    const mapped = this.#mappedBuffers;
    for (const [id, resource] of [...this.#live].sort((a, b) => a[0] - b[0])) {
      const fresh = (this.#recreate.get(id) as () => Resource)();
      resource.adopt(fresh);
    }
    // a buffer made mappedAtCreation is made so again above, but only its stand-in is mapped: the
    // buffers themselves keep their mapping (adopt copies no private state)
    this.#mappedBuffers = mapped;
    this.#isLost = false;
    this.#lost = new Promise((resolve) => (this.#resolveLost = resolve));
    for (const [, resource] of [...this.#live].sort((a, b) => a[0] - b[0])) resource.afterRestore();
    for (const listener of this.#restoredListeners) listener();
  }

  /** Runs `listener` after every successful `restore()`; returns the unsubscribe function. */
  onRestored(listener: () => void): () => void {
    this.#restoredListeners.add(listener);
    return () => this.#restoredListeners.delete(listener);
  }

  /** Backend: a working context or device again, caches cleared (see `restore`). */
  protected async restoreImpl(): Promise<void> {
    throw new UnsupportedFeatureError(
      'restore',
      this.caps.backend,
      'this backend cannot restore a lost device; create a new one',
    );
  }

  /**
   * Entries of the backend's own caches by name — WebGPU: bind groups, bind group layouts,
   * pipeline layouts, readback staging buffers; WebGL2: framebuffers, vertex arrays, readback
   * buffers; null: none. They are made on demand and released with the resources they were made
   * from, so a steady frame keeps them flat; what a leak in a backend would grow (the soak test).
   */
  cacheStats(): Record<string, number> {
    return this.cacheStatsImpl();
  }

  /** The backend's part of `cacheStats()`. */
  protected cacheStatsImpl(): Record<string, number> {
    return {};
  }

  /** Live resource counts and bytes per kind, and their total. */
  stats(): DeviceStats {
    const zero = (): KindStats => ({ count: 0, bytes: 0 });
    const out: DeviceStats = {
      buffer: zero(),
      texture: zero(),
      sampler: zero(),
      'shader-module': zero(),
      'render-pipeline': zero(),
      'compute-pipeline': zero(),
      'query-set': zero(),
      total: zero(),
    };
    for (const r of this.#live.values()) {
      out[r.kind].count++;
      out[r.kind].bytes += r.byteSize;
      out.total.count++;
      out.total.bytes += r.byteSize;
    }
    return out;
  }

  #assertUsable(operation: string, desc?: Labeled): void {
    if (desc === null || typeof desc !== 'object')
      throw new ValidationError(
        'descriptor',
        `${operation} takes a descriptor object, got ${desc === null ? 'null' : typeof desc}`,
        undefined,
        { operation },
      );
    if (this.#isLost)
      throw new DeviceLostError(
        'lost',
        `${operation} on a lost device${desc?.label ? ` ("${desc.label}")` : ''}`,
      );
  }

  createBuffer(desc: BufferDescriptor): Buffer {
    this.#assertUsable('createBuffer', desc);
    validateBufferDescriptor(desc, this.caps.limits);
    return this.#track(this.createBufferImpl(desc), () => this.createBufferImpl(desc));
  }

  createTexture(desc: CreateTextureDescriptor): Texture {
    this.#assertUsable('createTexture', desc);
    const normalized = normalizeTextureSize(desc);
    validateTextureDescriptor(normalized, this.caps);
    return this.#track(this.createTextureImpl(normalized), () =>
      this.createTextureImpl(normalized),
    );
  }

  createSampler(desc: SamplerDescriptor = {}): Sampler {
    this.#assertUsable('createSampler', desc);
    validateSamplerDescriptor(desc);
    return this.#track(this.createSamplerImpl(desc), () => this.createSamplerImpl(desc));
  }

  createShaderModule(desc: ShaderModuleDescriptor): ShaderModule {
    this.#assertUsable('createShaderModule', desc);
    const language = validateShaderModuleDescriptor(desc, this.caps);
    return this.#track(this.createShaderModuleImpl(desc, language), () =>
      this.createShaderModuleImpl(desc, language),
    );
  }

  createRenderPipeline(desc: RenderPipelineDescriptor): RenderPipeline {
    this.#assertUsable('createRenderPipeline', desc);
    const bindings = validateRenderPipelineDescriptor(desc, this.caps, this);
    return this.#track(this.createRenderPipelineImpl(desc, bindings), () =>
      this.createRenderPipelineImpl(desc, bindings),
    );
  }

  createComputePipeline(desc: ComputePipelineDescriptor): ComputePipeline {
    this.#assertUsable('createComputePipeline', desc);
    const bindings = validateComputePipelineDescriptor(desc, this.caps, this);
    return this.#track(this.createComputePipelineImpl(desc, bindings), () =>
      this.createComputePipelineImpl(desc, bindings),
    );
  }

  createQuerySet(desc: QuerySetDescriptor): QuerySet {
    this.#assertUsable('createQuerySet', desc);
    validateQuerySetDescriptor(desc, this.caps);
    return this.#track(this.createQuerySetImpl(desc), () => this.createQuerySetImpl(desc));
  }

  /** The slots of one bind group, for `createBindGroup` (or read one from a pipeline: `getBindGroupLayout`). */
  createBindGroupLayout(desc: BindGroupLayoutDescriptor): BindGroupLayout {
    this.#assertUsable('createBindGroupLayout', desc);
    return new BindGroupLayout(desc);
  }

  /**
   * Resources for one group's slots, checked now (usage, ranges, alignment, kinds) and bound with
   * `pass.setBindGroup(index, group)`.
   */
  createBindGroup(desc: BindGroupDescriptor): BindGroup {
    this.#assertUsable('createBindGroup', desc);
    return new BindGroup(this, desc);
  }

  createCommandEncoder(desc: Labeled = {}): CommandEncoder {
    this.#assertUsable('createCommandEncoder', desc);
    return new CommandEncoder(
      this,
      desc.label,
      this.barrierMode,
      this.createCommandSink(desc.label),
    );
  }

  /**
   * Records draws once, to be executed by render passes every frame (`pass.executeBundles`): the
   * draw calls of a pass, checked now against `desc`'s formats, and not recorded again per frame.
   */
  createRenderBundleEncoder(desc: RenderBundleEncoderDescriptor): RenderBundleEncoder {
    this.#assertUsable('createRenderBundleEncoder', desc);
    return new RenderBundleEncoder(this, resolveRenderBundle(desc, this.caps.limits));
  }

  /**
   * @internal Called by `RenderBundleEncoder.finish()`: the backend makes its form of `bundle` now
   * (WebGPU: the `GPURenderBundle`; WebGL2: the bundle cut into runs), so that the first frame that
   * executes it does not pay for that. The default makes nothing.
   */
  prepareRenderBundle(_bundle: RenderBundle): void {}

  /**
   * Backend: an encoder that translates commands as they are recorded (see `CommandSink`), or
   * undefined to replay the recorded list at submit (the default).
   */
  protected createCommandSink(_label: string | undefined): CommandSink | undefined {
    return undefined;
  }

  /**
   * Starts a frame: fences what the previous frame submitted (one completion promise per frame,
   * never one per submit), waits until fewer than `maxFramesInFlight` frames are on the GPU, so the
   * CPU never runs unboundedly ahead, and resets cached backend state (a host may have touched it).
   */
  async beginFrame(): Promise<void> {
    this.queue.fenceFrame();
    await this.queue.waitForInFlightBelow(this.maxFramesInFlight);
    this.resetState();
  }

  /** Forgets cached backend state (WebGL2: the shadow state); a no-op where nothing is cached. */
  resetState(): void {}

  /** Releases every live resource and the backend device. */
  destroy(): void {
    this.#destroyed = true;
    for (const r of [...this.#live.values()]) r.destroy();
    this.destroyImpl();
    this.markLost({ reason: 'destroyed', message: 'device.destroy() was called' });
  }

  protected abstract createBufferImpl(desc: BufferDescriptor): Buffer;
  protected abstract createTextureImpl(desc: TextureDescriptor): Texture;
  protected abstract createSamplerImpl(desc: SamplerDescriptor): Sampler;
  protected abstract createShaderModuleImpl(
    desc: ShaderModuleDescriptor,
    language: Caps['shaderLanguage'],
  ): ShaderModule;
  protected abstract createRenderPipelineImpl(
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): RenderPipeline;
  protected abstract createComputePipelineImpl(
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ): ComputePipeline;
  protected abstract createQuerySetImpl(desc: QuerySetDescriptor): QuerySet;
  protected abstract destroyImpl(): void;
}
