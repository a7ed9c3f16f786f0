import {
  outsidePass,
  unreachable,
  type BoundResource,
  type Command,
  type RecordedCommand,
  type UniformSliceCommand,
} from '../core/commands.js';
import type { CommandSink } from '../core/command-encoder.js';
import type { Buffer } from '../core/buffer.js';
import type { RenderBundle } from '../core/render-bundle.js';
import type { CommandBuffer } from '../core/command-buffer.js';
import type { Texture } from '../core/texture.js';
import type { PassTimestampWrites } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { WebGPUBuffer } from './buffer.js';
import type { WebGPUTexture } from './texture.js';
import type { WebGPURenderPipeline } from './render-pipeline.js';
import type { WebGPUComputePipeline } from './compute-pipeline.js';
import type { WebGPUQuerySet } from './query-set.js';
import { dynamicOffsets, type GroupLayout } from './bind-groups.js';
import { SlotMap } from '../core/slot-map.js';
import { MAX_BINDINGS_PER_BIND_GROUP, slotOf } from '../core/slots.js';

type DrawCommand = Extract<Command, { type: 'draw' }>;

const gpuBuffer = (b: Buffer): GPUBuffer => (b as WebGPUBuffer).gpu;
const gpuTexture = (t: Texture): GPUTexture => (t as WebGPUTexture).gpu;

function timestamps(t: PassTimestampWrites | undefined): GPURenderPassTimestampWrites | undefined {
  if (!t) return undefined;
  // a pass may write only one end (an update timed from one pass's beginning to another's end):
  // the other key is left out, not undefined
  return {
    querySet: (t.querySet as WebGPUQuerySet).gpu,
    ...(t.beginningOfPassWriteIndex !== undefined
      ? { beginningOfPassWriteIndex: t.beginningOfPassWriteIndex }
      : {}),
    ...(t.endOfPassWriteIndex !== undefined ? { endOfPassWriteIndex: t.endOfPassWriteIndex } : {}),
  };
}

/** The open pass encoder; a pass command outside one is a bug (no closure: this runs per command). */
function within<T>(pass: T | null, c: RecordedCommand): T {
  return pass ?? outsidePass(c);
}

/** What draws are encoded into: a render pass, or a render bundle. */
type RenderCommands = GPURenderCommandsMixin & GPUBindingCommandsMixin;

/** The command encoder, which a render bundle's writer has none of: reaching this there is a bug. */
function topLevel(encoder: GPUCommandEncoder | null, c: RecordedCommand): GPUCommandEncoder {
  if (encoder) return encoder;
  throw new Error(
    `${c.type} encoded into a render bundle; core records only draws there (a bug in Ignis)`,
  );
}

/**
 * Translates Ignis commands into one `GPUCommandEncoder`, one exhaustive switch. Used two ways:
 * while recording (core's encoder hands each validated command over as it is recorded, so a
 * submit only submits), and to replay a finished command list at submit (with `debug`, where the
 * submit runs in an error scope that names it, and for a command buffer recorded before a
 * `device.restore()`, whose GPUCommandEncoder belonged to the lost GPUDevice).
 */
export class WebGPUCommandEncoder implements CommandSink {
  /** The GPUDevice this encodes for: a command buffer of another one is replayed instead. */
  readonly gpuDevice: GPUDevice;
  readonly #device: WebGPUDevice;
  /** Null in a render bundle's writer (`bundle`). */
  readonly #encoder: GPUCommandEncoder | null;
  readonly #debug: boolean;
  /** Where draws go: the open render pass, or the render bundle being encoded. */
  #render: RenderCommands | null = null;
  /** The open render pass (viewport, scissor, bundles, end). */
  #pass: GPURenderPassEncoder | null = null;
  #compute: GPUComputePassEncoder | null = null;
  #pipeline: WebGPURenderPipeline | WebGPUComputePipeline | null = null;
  readonly #slots = new SlotMap<BoundResource>();
  /** A binding changed that needs bind groups looked up again (or the pipeline's layout did). */
  #dirty = true;
  /**
   * Groups where only uniform slices' starts changed (bit `1 << index`): their bound groups stay,
   * with new dynamic offsets; the others are left as they are.
   */
  #offsetsMoved = 0;
  /** The bind group set at each index in this pass. */
  readonly #bound: (GPUBindGroup | undefined)[] = [];
  readonly #offsets: Uint32Array;
  /**
   * Where the device takes dynamic offsets faster as an array than as a `Uint32Array` range
   * (Firefox; `WebGPUDevice.offsetsAsArrays`): an array per count of offsets, reused.
   */
  readonly #offsetArrays: number[][] | null;
  /** Commands written so far: the pair below holds only right after its last draw. */
  #written = 0;
  /** The last uniform slice written in full, and when. */
  #slice: UniformSliceCommand | null = null;
  #sliceAt = -1;
  /**
   * A run's pair: a slice and the draw written right after it. When the same slice command and the
   * same draw command come again right after the pair's last draw, only the slice's offset moved
   * (a draw per object, each with its own slice of one buffer), so the draw is the bound group
   * again with that offset in its place and the draw call, without the slots and the flush.
   * `pairPlace` is the slice's place among its group's dynamic offsets.
   */
  #pairSlice: UniformSliceCommand | null = null;
  #pairDraw: DrawCommand | null = null;
  #pairAt = -2;
  /** When the pair's slice came again (the draw right after it is the pair's again). */
  #pairSliceAt = -2;
  #pairGroup: GroupLayout | null = null;
  /** The pair's group's bit in `#offsetsMoved`. */
  #pairBit = 0;
  #pairPlace = 0;
  /**
   * The pair's group's dynamic offsets, as the flush set them at the pair's first draw, its slice's
   * moved by each draw of the run: an array of the pair's own, as the flush's is refilled per group
   * (a pipeline may have several groups with dynamic offsets: a uniform of a material's bind group
   * beside each object's slice). A `number[]` where the device takes offsets as arrays.
   */
  readonly #pairOffsets: Uint32Array | number[];

  /** `bundle`: encode a render bundle's draws into it instead of a command encoder's passes. */
  constructor(device: WebGPUDevice, label: string, bundle?: GPURenderBundleEncoder) {
    this.#device = device;
    this.gpuDevice = device.gpu;
    this.#encoder = bundle ? null : device.gpu.createCommandEncoder({ label });
    this.#render = bundle ?? null;
    this.#debug = device.debug;
    this.#offsets = new Uint32Array(device.bindGroups.maxDynamicUniforms);
    this.#offsetArrays = device.offsetsAsArrays ? [] : null;
    this.#pairOffsets = device.offsetsAsArrays ? [] : new Uint32Array(this.#offsets.length);
  }

  /**
   * Sets the bind groups the pipeline's layout needs from the slots, when they changed: looked up
   * again when a resource changed, the same groups with new dynamic offsets when only the slices
   * of uniform buffers moved (a draw per object, each with its own slice of one buffer).
   */
  #flush(): void {
    const pipeline = this.#pipeline;
    const pass = this.#render ?? this.#compute;
    if ((!this.#dirty && this.#offsetsMoved === 0) || !pipeline || !pass) return;
    const full = this.#dirty;
    const moved = this.#offsetsMoved;
    const offsets = this.#offsets;
    const arrays = this.#offsetArrays;
    const groups = pipeline.layout.groups;
    // (indexed: SpiderMonkey called the array iterator's `next` for a `for…of` here, 3% of a draw)
    for (let k = 0; k < groups.length; k++) {
      const g = groups[k] as GroupLayout;
      let group = this.#bound[g.index];
      if (!full && group !== undefined && (moved & (1 << g.index)) === 0) continue; // unchanged
      // (a static buffer entry's offset picks the bind group: such a group is looked up again)
      if (full || g.staticBuffers || group === undefined)
        this.#bound[g.index] = group = this.#device.bindGroups.get(g, this.#slots);
      const n = g.dynamicOrder.length;
      if (n === 0) pass.setBindGroup(g.index, group);
      else if (arrays) {
        const a = (arrays[n] ??= new Array<number>(n).fill(0));
        dynamicOffsets(g, this.#slots, a);
        pass.setBindGroup(g.index, group, a);
      } else {
        dynamicOffsets(g, this.#slots, offsets);
        pass.setBindGroup(g.index, group, offsets, 0, n);
      }
    }
    this.#dirty = false;
    this.#offsetsMoved = 0;
  }

  /**
   * After a draw written in full right after `slice`: the pair, where a group of dynamic offsets of
   * the pipeline holds the slice's slot among them (bound in this pass), and that group's offsets
   * kept as the flush set them. Other groups may have dynamic offsets too (between the pair's draws
   * nothing of theirs moves); the group may hold static buffers too (a storage buffer, a uniform past
   * the dynamic ones): the flush looks such a group up at every draw because a static entry's
   * offset picks the bind group, but between the pair's draws nothing but the slice moves, so the
   * group bound at its first draw stays right.
   */
  #makePair(slice: UniformSliceCommand, draw: DrawCommand, at: number): void {
    this.#pairAt = -2;
    const pipeline = this.#pipeline;
    if (!pipeline) return;
    const groups = pipeline.layout.groups;
    for (let k = 0; k < groups.length; k++) {
      const g = groups[k] as GroupLayout;
      for (let i = 0; i < g.dynamicOrder.length; i++)
        if (
          slotOf(g.entries[g.dynamicOrder[i] as number] as GroupLayout['entries'][number]) ===
          slice.slot
        ) {
          // (a slot is in one group only)
          if (this.#bound[g.index] === undefined) return;
          const offsets = this.#pairOffsets;
          const n = dynamicOffsets(g, this.#slots, offsets);
          // (an array is passed whole: as long as this group's offsets, whatever the last pair's)
          if (!(offsets instanceof Uint32Array)) offsets.length = n;
          this.#pairSlice = slice;
          this.#pairDraw = draw;
          this.#pairAt = at;
          this.#pairGroup = g;
          this.#pairBit = 1 << g.index;
          this.#pairPlace = i;
          return;
        }
    }
  }

  /** The pair's draw again: its group with the slice's new offset, and the draw call. */
  #pairAgain(draw: DrawCommand): void {
    const g = this.#pairGroup as GroupLayout;
    const pass = this.#render as RenderCommands;
    const offsets = this.#pairOffsets;
    offsets[this.#pairPlace] = (this.#pairSlice as UniformSliceCommand).resource.offset;
    const group = this.#bound[g.index] as GPUBindGroup;
    if (this.#offsetArrays === null)
      pass.setBindGroup(g.index, group, offsets as Uint32Array, 0, g.dynamicOrder.length);
    else pass.setBindGroup(g.index, group, offsets as number[]);
    this.#offsetsMoved = 0;
    pass.draw(draw.vertexCount, draw.instanceCount, draw.firstVertex, draw.firstInstance);
  }

  #beginPass(): void {
    this.#slots.clear();
    this.#bound.length = 0;
    this.#pipeline = null;
    this.#dirty = true;
    this.#offsetsMoved = 0;
  }

  #finished: GPUCommandBuffer | null = null;

  finish(): void {
    this.#finished = topLevel(this.#encoder, { type: 'endRenderPass' }).finish();
  }

  /** The finished GPUCommandBuffer (after `finish()`). */
  get commandBuffer(): GPUCommandBuffer {
    if (!this.#finished)
      throw new Error('WebGPUCommandEncoder.commandBuffer before finish() (a bug in Ignis)');
    return this.#finished;
  }

  /** Replays a finished command list into a new encoder of `device`'s current GPUDevice. */
  static replay(device: WebGPUDevice, cb: CommandBuffer): GPUCommandBuffer {
    const writer = new WebGPUCommandEncoder(device, cb.label);
    writer.#writeAll(cb.chunks, cb.sliceOffsets);
    writer.finish();
    return writer.commandBuffer;
  }

  /**
   * The `GPURenderBundle` of `bundle` on `device`'s current GPUDevice: encoded at `finish()` (or, on
   * a debug device, at its first execution), and again after a `device.restore()` (the one before
   * belonged to the lost GPUDevice).
   */
  static renderBundle(device: WebGPUDevice, bundle: RenderBundle): GPURenderBundle {
    const known = device.renderBundles.get(bundle);
    if (known && known.gpu === device.gpu) return known.bundle;
    const encoder = device.gpu.createRenderBundleEncoder({
      label: bundle.label,
      colorFormats: bundle.colorFormats as GPUTextureFormat[],
      depthStencilFormat: bundle.depthStencilFormat as GPUTextureFormat | undefined,
      sampleCount: bundle.sampleCount,
    });
    new WebGPUCommandEncoder(device, bundle.label, encoder).#writeAll(
      bundle.chunks,
      bundle.sliceOffsets,
    );
    const gpu = encoder.finish({ label: bundle.label });
    device.renderBundles.set(bundle, { gpu: device.gpu, bundle: gpu });
    return gpu;
  }

  /** Writes finished commands in order (a command buffer's or a bundle's). */
  #writeAll(
    chunks: readonly (readonly RecordedCommand[])[],
    sliceOffsets: readonly number[],
  ): void {
    let slice = 0;
    for (const chunk of chunks)
      for (const c of chunk) {
        // a uniform slice: the command object is shared by the run's recordings; each one's
        // offset is in the log
        if (c.type === 'setUniformSlice') c.resource.offset = sliceOffsets[slice++] as number;
        this.write(c);
      }
  }

  /**
   * A uniform slice: the pair's slice again only marks its group's offsets moved (the slot holds
   * its resource already, one object for the run, moved to this slice's offset; the draw that
   * follows uses it, or, another draw, the flush); any other is written as the binding it is.
   */
  writeSlice(c: UniformSliceCommand): void {
    const at = ++this.#written;
    if (c === this.#pairSlice && this.#pairAt === at - 1) {
      this.#offsetsMoved |= this.#pairBit;
      this.#pairSliceAt = at;
      return;
    }
    this.#slice = c;
    this.#sliceAt = at;
    this.#bind(c);
  }

  /** A draw: the pair's draw again (`#pairAgain`), or the flush and the draw call. */
  writeDraw(c: DrawCommand): void {
    const at = ++this.#written;
    if (c === this.#pairDraw && this.#pairSliceAt === at - 1 && this.#pairAt === at - 2) {
      this.#pairAgain(c);
      this.#pairAt = at;
      return;
    }
    this.#flush();
    within(this.#render, c).draw(c.vertexCount, c.instanceCount, c.firstVertex, c.firstInstance);
    if (this.#sliceAt === at - 1) this.#makePair(this.#slice as UniformSliceCommand, c, at);
  }

  /** A binding into the slots: only a slice's start moved (its group's offsets), or the groups' contents. */
  #bind(c: Extract<RecordedCommand, { type: 'setBinding' | 'setUniformSlice' }>): void {
    if (!this.#render && !this.#compute) outsidePass(c);
    const before = this.#slots.get(c.slot);
    const now = c.resource;
    this.#slots.set(c.slot, now);
    // (whether the slot's entry takes a dynamic offset is the flush's question: a group with a
    // static buffer entry is looked up again either way)
    if (
      before?.kind === 'uniform' &&
      now.kind === 'uniform' &&
      before.buffer === now.buffer &&
      before.size === now.size
    )
      this.#offsetsMoved |= 1 << ((c.slot / MAX_BINDINGS_PER_BIND_GROUP) | 0);
    else this.#dirty = true;
  }

  write(c: RecordedCommand): void {
    switch (c.type) {
      // a draw's commands first: SpiderMonkey tests a switch's string cases in order
      case 'setUniformSlice':
        this.writeSlice(c);
        return;
      case 'draw':
        this.writeDraw(c);
        return;
    }
    const encoder = this.#encoder;
    ++this.#written;
    switch (c.type) {
      case 'setBinding':
        this.#bind(c);
        break;
      case 'drawIndexed':
        this.#flush();
        within(this.#render, c).drawIndexed(
          c.indexCount,
          c.instanceCount,
          c.firstIndex,
          c.baseVertex,
          c.firstInstance,
        );
        break;
      case 'beginRenderPass': {
        const p = c.pass;
        const depth = p.depthStencilAttachment;
        this.#render = this.#pass = topLevel(encoder, c).beginRenderPass({
          label: p.label,
          colorAttachments: p.colorAttachments.map((a) => ({
            view: (a.texture as WebGPUTexture).view,
            resolveTarget: a.resolveTarget ? (a.resolveTarget as WebGPUTexture).view : undefined,
            loadOp: a.loadOp,
            storeOp: a.storeOp,
            clearValue: a.clearValue,
          })),
          depthStencilAttachment: depth
            ? {
                view: (depth.texture as WebGPUTexture).view,
                depthLoadOp: depth.depthLoadOp,
                depthStoreOp: depth.depthStoreOp,
                depthClearValue: depth.depthClearValue,
              }
            : undefined,
          timestampWrites: timestamps(p.timestampWrites),
        });
        this.#beginPass();
        break;
      }
      case 'endRenderPass':
        within(this.#pass, c).end();
        this.#render = this.#pass = null;
        break;
      case 'beginComputePass':
        this.#compute = topLevel(encoder, c).beginComputePass({
          label: c.label,
          timestampWrites: timestamps(c.timestampWrites),
        });
        this.#beginPass();
        break;
      case 'endComputePass':
        within(this.#compute, c).end();
        this.#compute = null;
        break;
      case 'setRenderPipeline': {
        const next = c.pipeline as WebGPURenderPipeline;
        within(this.#render, c).setPipeline(next.gpu);
        if (!this.#pipeline || this.#pipeline.layout.key !== next.layout.key) this.#dirty = true;
        this.#pipeline = next;
        break;
      }
      case 'setComputePipeline': {
        const next = c.pipeline as WebGPUComputePipeline;
        within(this.#compute, c).setPipeline(next.gpu);
        if (!this.#pipeline || this.#pipeline.layout.key !== next.layout.key) this.#dirty = true;
        this.#pipeline = next;
        break;
      }
      case 'setVertexBuffer':
        within(this.#render, c).setVertexBuffer(c.slot, gpuBuffer(c.buffer), c.offset);
        break;
      case 'setIndexBuffer':
        within(this.#render, c).setIndexBuffer(gpuBuffer(c.buffer), c.format, c.offset);
        break;
      case 'setViewport':
        within(this.#pass, c).setViewport(c.x, c.y, c.width, c.height, c.minDepth, c.maxDepth);
        break;
      case 'setScissorRect':
        within(this.#pass, c).setScissorRect(c.x, c.y, c.width, c.height);
        break;
      case 'executeBundles': {
        const pass = within(this.#pass, c);
        pass.executeBundles(
          c.bundles.map((b) => WebGPUCommandEncoder.renderBundle(this.#device, b)),
        );
        // WebGPU: after the bundles the pass has no pipeline or bind groups
        this.#beginPass();
        break;
      }
      case 'drawIndirect':
        this.#flush();
        within(this.#render, c).drawIndirect(gpuBuffer(c.buffer), c.offset);
        break;
      case 'drawIndexedIndirect':
        this.#flush();
        within(this.#render, c).drawIndexedIndirect(gpuBuffer(c.buffer), c.offset);
        break;
      case 'dispatch':
        this.#flush();
        within(this.#compute, c).dispatchWorkgroups(c.x, c.y, c.z);
        break;
      case 'dispatchIndirect':
        this.#flush();
        within(this.#compute, c).dispatchWorkgroupsIndirect(gpuBuffer(c.buffer), c.offset);
        break;
      case 'copyBufferToBuffer':
        topLevel(encoder, c).copyBufferToBuffer(
          gpuBuffer(c.src),
          c.srcOffset,
          gpuBuffer(c.dst),
          c.dstOffset,
          c.size,
        );
        break;
      case 'copyBufferToTexture':
        topLevel(encoder, c).copyBufferToTexture(
          { buffer: gpuBuffer(c.src), offset: c.offset, bytesPerRow: c.bytesPerRow },
          { texture: gpuTexture(c.dst), mipLevel: c.mipLevel, origin: [c.x, c.y] },
          [c.size.width, c.size.height],
        );
        break;
      case 'copyTextureToBuffer':
        topLevel(encoder, c).copyTextureToBuffer(
          { texture: gpuTexture(c.src), mipLevel: c.mipLevel, origin: [c.x, c.y] },
          { buffer: gpuBuffer(c.dst), offset: c.offset, bytesPerRow: c.bytesPerRow },
          [c.size.width, c.size.height],
        );
        break;
      case 'copyTextureToTexture':
        topLevel(encoder, c).copyTextureToTexture(
          { texture: gpuTexture(c.src), mipLevel: c.srcMip, origin: [c.srcX, c.srcY] },
          { texture: gpuTexture(c.dst), mipLevel: c.dstMip, origin: [c.dstX, c.dstY] },
          [c.size.width, c.size.height],
        );
        break;
      case 'pushDebugGroup':
        topLevel(encoder, c).pushDebugGroup(c.label);
        break;
      case 'popDebugGroup':
        topLevel(encoder, c).popDebugGroup();
        break;
      case 'barrier':
        // WebGPU orders passes itself. With `debug`, the barrier is a marker for captures; by
        // default nothing (a marker per barrier is a call across the binding: Deno pays ~10 µs).
        // (Core inserts a barrier it finds at a draw before the pass's begin: a writer that
        // encodes while recording never sees it, and has no `debug`, so writes no marker anyway.)
        if (this.#debug) topLevel(encoder, c).insertDebugMarker(`barrier ${c.from} -> ${c.to}`);
        break;
      case 'drawRun':
        // (an encoder with a sink, this one, keeps every draw in its list: CommandEncoder)
        throw new Error('a run of draws reached the WebGPU backend (a bug in Ignis)');
      default:
        unreachable(c);
    }
  }
}
