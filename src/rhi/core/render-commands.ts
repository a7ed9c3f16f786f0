import { BindGroup } from './bind-group.js';
import { BufferUsage } from './flags.js';
import { requireResource } from './validate/resource.js';
import { EncoderStateError, UnsupportedFeatureError, ValidationError } from './errors.js';
import { operationName, SlotTable } from './bindings.js';
import { requireBufferUsage } from './validate/buffer.js';
import { isNonNegativeInteger } from './validate/buffer.js';
import {
  validateDrawArguments,
  validateDrawIndexedArguments,
  validateIndexRange,
  validatePipelineForPass,
  validateVertexBufferRange,
  type DrawTargetFormats,
} from './validate/pass.js';
import type { Command, StorageAccess } from './commands.js';
import type { PassRecorder } from './command-encoder.js';
import type { RenderPipeline } from './render-pipeline.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';
import type { TextureFormat } from './formats.js';

const RENDER_READ_SCOPES = ['vertex-read', 'fragment-read'] as const;
const VERTEX_READ_SCOPES = ['vertex-read'] as const;
const INDIRECT_READ_SCOPES = ['indirect-read'] as const;

/** What draws are recorded for: a render pass's attachments, or a render bundle's formats. */
export interface DrawTarget extends DrawTargetFormats {
  readonly label: string;
  /**
   * Whether sampling `texture` would read an attachment being drawn (a feedback loop). A render
   * bundle's attachments are known when a pass executes it, which checks them then.
   */
  isAttachment(texture: Texture): boolean;
}

/**
 * Records draws: the commands a render pass and a render bundle share (WebGPU's render commands
 * and binding commands). Resources are bound one by one to a slot; the pipeline's flat layout says
 * what each slot must hold, checked at each draw. Once closed (`pass.end()`, `bundle.finish()`)
 * every call is an `EncoderStateError`.
 */
export abstract class RenderCommands {
  readonly label: string;
  protected readonly recorder: PassRecorder;
  readonly #target: DrawTarget;
  /** The call that closes these commands, for the message of a call after it. */
  readonly #closedBy: string;
  #slots: SlotTable;
  /** Made at the first setVertexBuffer (a pass that pulls its vertices never needs one). */
  #vertexBuffers: Map<number, { buffer: Buffer; offset: number }> | null = null;
  #pipeline: RenderPipeline | null = null;
  #indexBuffer: { buffer: Buffer; format: 'uint16' | 'uint32'; offset: number } | null = null;
  #closed = false;
  #lastDraw: Extract<Command, { type: 'draw' }> | null = null;
  /**
   * Bumped by every call that changes what a draw's check reads besides the bindings (the slot
   * table has its own version): the pipeline, the vertex and index buffers, a reset.
   */
  #drawState = 0;
  /**
   * What the last `draw()`'s full check saw: `#drawState`, the slot table's version and
   * `device.destroyedCount`. A draw with the same arguments while all three are unchanged (and
   * the device not lost) would be judged the same: it records the last command again, unchecked.
   */
  #checkedState = -1;
  #checkedSlots = -1;
  #checkedDestroyed = -1;

  constructor(recorder: PassRecorder, target: DrawTarget, closedBy: string) {
    this.recorder = recorder;
    this.#target = target;
    this.label = target.label;
    this.#closedBy = closedBy;
    this.#slots = new SlotTable(recorder, target.label);
  }

  /** Formats of the color attachments, in order (what a pipeline drawn here must target). */
  get colorFormats(): readonly TextureFormat[] {
    return this.#target.colorFormats;
  }
  get sampleCount(): number {
    return this.#target.sampleCount;
  }
  /** Format of the depth attachment, or undefined for a pass without one. */
  get depthStencilFormat(): TextureFormat | undefined {
    return this.#target.depthStencilFormat;
  }

  /** Throws `EncoderStateError` once these commands are closed. */
  protected open(operation: string): void {
    if (this.#closed)
      throw new EncoderStateError(`${operation} after ${this.#closedBy}`, 'ended', this.label);
  }

  /** Closes these commands: every later call throws. */
  protected close(): void {
    this.#closed = true;
  }

  /**
   * Forgets the pipeline, the bindings and the vertex and index buffers: WebGPU's state after
   * `executeBundles`, whose bundles set their own.
   */
  protected resetState(): void {
    this.#slots = new SlotTable(this.recorder, this.label);
    this.#vertexBuffers = null;
    this.#pipeline = null;
    this.#indexBuffer = null;
    this.#lastDraw = null;
    this.#drawState++;
  }

  setPipeline(pipeline: RenderPipeline): void {
    this.open('setPipeline');
    requireResource(pipeline, 'render-pipeline', 'setPipeline', this.recorder.device);
    validatePipelineForPass(pipeline, this.#target, this.label);
    this.#pipeline = pipeline;
    this.#drawState++;
    this.recorder.record({ type: 'setRenderPipeline', pipeline });
  }

  setVertexBuffer(slot: number, buffer: Buffer, offset = 0): void {
    this.open('setVertexBuffer');
    const op = operationName('setVertexBuffer', slot);
    requireResource(buffer, 'buffer', op, this.recorder.device);
    requireBufferUsage(buffer.usage, BufferUsage.VERTEX, op, buffer.label);
    if (!isNonNegativeInteger(slot) || slot >= this.recorder.device.caps.limits.maxVertexBuffers) {
      throw new ValidationError(
        'vertex-buffer-slot',
        `Vertex buffer slot ${String(slot)} must be below limits.maxVertexBuffers (${this.recorder.device.caps.limits.maxVertexBuffers})`,
        this.label,
        { slot },
      );
    }
    if (!isNonNegativeInteger(offset) || offset % 4 !== 0 || offset > buffer.size) {
      throw new ValidationError(
        'vertex-buffer-offset',
        `Vertex buffer offset ${String(offset)} must be a multiple of 4 within ${buffer.size}`,
        buffer.label,
        {
          offset,
        },
      );
    }
    (this.#vertexBuffers ??= new Map()).set(slot, { buffer, offset });
    this.#drawState++;
    this.recorder.record({ type: 'setVertexBuffer', slot, buffer, offset });
  }

  setIndexBuffer(buffer: Buffer, format: 'uint16' | 'uint32', offset = 0): void {
    this.open('setIndexBuffer');
    requireResource(buffer, 'buffer', 'setIndexBuffer', this.recorder.device);
    requireBufferUsage(buffer.usage, BufferUsage.INDEX, 'setIndexBuffer', buffer.label);
    if (format !== 'uint16' && format !== 'uint32') {
      throw new ValidationError(
        'index-format',
        `Index format ${String(format)} must be 'uint16' or 'uint32'`,
        buffer.label,
        { format },
      );
    }
    const bytes = format === 'uint16' ? 2 : 4;
    if (!Number.isInteger(offset) || offset < 0 || offset % bytes !== 0 || offset > buffer.size)
      throw new ValidationError(
        'index-offset',
        `setIndexBuffer offset ${String(offset)} must be a multiple of ${bytes} (${format}) from 0 to the buffer's ${buffer.size} bytes`,
        buffer.label,
        { offset, format },
      );
    this.#indexBuffer = { buffer, format, offset };
    this.#drawState++;
    this.recorder.record({ type: 'setIndexBuffer', buffer, format, offset });
  }

  setUniformBuffer(slot: number, buffer: Buffer, offset?: number, size?: number): void {
    this.open('setUniformBuffer');
    this.#slots.uniform(slot, buffer, offset, size);
  }

  /**
   * Storage buffers of the vertex or fragment stage: read (e.g. vertex pulling), or written by the
   * fragment stage where the pipeline declares the slot read_write (tracked as a 'render-write').
   */
  setStorageBuffer(
    slot: number,
    buffer: Buffer,
    options: { access?: StorageAccess; offset?: number; size?: number } = {},
  ): void {
    this.open('setStorageBuffer');
    this.#slots.storage(slot, buffer, options.access ?? 'auto', options.offset, options.size);
  }

  setTexture(slot: number, texture: Texture): void {
    this.open('setTexture');
    // (what is not a texture at all is refused by the slot table, below)
    const attached = texture != null && this.#target.isAttachment(texture);
    if (attached)
      throw new ValidationError(
        'feedback-loop',
        `Texture "${texture.label}" is sampled at slot ${slot} while it is an attachment of this ${this.#target.what}`,
        this.label,
        { slot },
      );
    this.#slots.texture(slot, texture);
  }

  setSampler(slot: number, sampler: Sampler): void {
    this.open('setSampler');
    this.#slots.sampler(slot, sampler);
  }

  /**
   * Binds `group`'s resources to `@group(index)` (WebGPU's `setBindGroup`); group 0 can also be
   * filled slot by slot. Dynamic offsets are not supported: a typed error says what to do instead.
   */
  setBindGroup(index: number, group: BindGroup, dynamicOffsets?: Iterable<number>): void {
    this.open('setBindGroup');
    if (group instanceof BindGroup)
      for (const r of group.resources.values())
        if (r.kind === 'texture' && this.#target.isAttachment(r.texture))
          throw new ValidationError(
            'feedback-loop',
            `Texture "${r.texture.label}" of bind group "${group.label}" is sampled while it is an attachment of this ${this.#target.what}`,
            this.label,
            { index },
          );
    this.#slots.group(index, group, dynamicOffsets);
  }

  /**
   * `lastVertex` / `lastInstance`: the highest vertex and instance index the draw reads (-1 when it
   * reads none, undefined when unknown: indexed draws read vertices the CPU cannot see). A vertex
   * buffer too short for them is an error here; WebGL would otherwise fail the draw silently.
   */
  #checkDraw(
    operation: string,
    lastVertex: number | undefined,
    lastInstance: number | undefined,
  ): RenderPipeline {
    const pipeline = this.#pipeline;
    if (!pipeline)
      throw new EncoderStateError(
        `${operation} without a pipeline; call setPipeline() first`,
        'no-pipeline',
        this.label,
      );
    pipeline.assertAlive(operation);
    const layouts = pipeline.descriptor.vertex.buffers;
    // a loop, not forEach: this runs for every draw
    for (let slot = 0; layouts && slot < layouts.length; slot++) {
      const layout = layouts[slot] as (typeof layouts)[number];
      const bound = this.#vertexBuffers?.get(slot);
      if (!bound) {
        throw new ValidationError(
          'vertex-buffer-missing',
          `${operation}: pipeline "${pipeline.label}" reads vertex buffer slot ${slot}, but none is set`,
          this.label,
          { slot },
        );
      }
      const { buffer } = bound;
      buffer.assertAlive(operation);
      validateVertexBufferRange(
        operation,
        pipeline,
        slot,
        bound,
        layout.stepMode === 'instance' ? lastInstance : lastVertex,
        this.label,
      );
      this.recorder.trackRead(buffer, VERTEX_READ_SCOPES);
    }
    this.#slots.check(pipeline.bindings, pipeline.label, RENDER_READ_SCOPES, 'render-write');
    return pipeline;
  }

  draw(vertexCount: number, instanceCount = 1, firstVertex = 0, firstInstance = 0): void {
    this.open('draw');
    const last = this.#lastDraw;
    const same =
      last !== null &&
      last.vertexCount === vertexCount &&
      last.instanceCount === instanceCount &&
      last.firstVertex === firstVertex &&
      last.firstInstance === firstInstance;
    const device = this.recorder.device;
    if (
      same &&
      this.#checkedState === this.#drawState &&
      this.#checkedSlots === this.#slots.version &&
      this.#checkedDestroyed === device.destroyedCount &&
      !device.isLost
    ) {
      // the last draw again, nothing its check read changed since it passed (its reads are
      // tracked already): a frame of objects, each drawn after its own uniform slice, pays for
      // one check a run (a fifth of the frame's JavaScript in Chromium's stub page)
      this.recorder.recordDraw(last);
      return;
    }
    validateDrawArguments(vertexCount, instanceCount, firstVertex, firstInstance, this.label);
    this.#checkDraw(
      'draw',
      vertexCount === 0 ? -1 : firstVertex + vertexCount - 1,
      instanceCount === 0 ? -1 : firstInstance + instanceCount - 1,
    );
    this.#checkedState = this.#drawState;
    this.#checkedSlots = this.#slots.version;
    this.#checkedDestroyed = device.destroyedCount;
    // the last draw's command again when nothing differs (commands are plain data nobody changes:
    // a frame of many equal draws then makes no object per draw for the collector to copy)
    this.recorder.recordDraw(
      same
        ? last
        : (this.#lastDraw = {
            type: 'draw',
            vertexCount,
            instanceCount,
            firstVertex,
            firstInstance,
          }),
    );
  }

  drawIndexed(
    indexCount: number,
    instanceCount = 1,
    firstIndex = 0,
    baseVertex = 0,
    firstInstance = 0,
  ): void {
    this.open('drawIndexed');
    validateDrawIndexedArguments(
      indexCount,
      instanceCount,
      firstIndex,
      baseVertex,
      firstInstance,
      this.label,
    );
    this.#checkDraw(
      'drawIndexed',
      undefined,
      instanceCount === 0 ? -1 : firstInstance + instanceCount - 1,
    );
    const index = this.#indexBuffer;
    if (!index)
      throw new EncoderStateError(
        'drawIndexed without an index buffer; call setIndexBuffer() first',
        'no-index-buffer',
        this.label,
      );
    index.buffer.assertAlive('drawIndexed');
    validateIndexRange(
      index.buffer,
      index.format,
      firstIndex,
      indexCount,
      this.label,
      index.offset,
    );
    this.recorder.trackRead(index.buffer, VERTEX_READ_SCOPES);
    this.recorder.record({
      type: 'drawIndexed',
      indexCount,
      instanceCount,
      firstIndex,
      baseVertex,
      firstInstance,
    });
  }

  /**
   * A draw whose arguments the GPU wrote: `buffer` holds (vertexCount, instanceCount, firstVertex,
   * firstInstance) as four u32 at `offset` (WebGPU's `drawIndirect`). Where `caps.features.indirect`
   * (WebGPU); WebGL2 has no indirect draws: read the counts back and call `draw()`. The counts are
   * not known when the draw is recorded, so vertex buffers are not range-checked (WebGPU clamps
   * out-of-range reads).
   */
  drawIndirect(buffer: Buffer, offset = 0): void {
    this.open('drawIndirect');
    this.#checkIndirect('drawIndirect', buffer, offset, 16);
    this.#checkDraw('drawIndirect', undefined, undefined);
    this.recorder.trackRead(buffer, INDIRECT_READ_SCOPES);
    this.recorder.record({ type: 'drawIndirect', buffer, offset });
  }

  /**
   * An indexed draw whose arguments the GPU wrote: five u32 at `offset` (indexCount, instanceCount,
   * firstIndex, baseVertex as i32, firstInstance), as WebGPU's `drawIndexedIndirect`. Where
   * `caps.features.indirect`; needs an index buffer (`setIndexBuffer`).
   */
  drawIndexedIndirect(buffer: Buffer, offset = 0): void {
    this.open('drawIndexedIndirect');
    this.#checkIndirect('drawIndexedIndirect', buffer, offset, 20);
    this.#checkDraw('drawIndexedIndirect', undefined, undefined);
    const index = this.#indexBuffer;
    if (!index)
      throw new EncoderStateError(
        'drawIndexedIndirect without an index buffer; call setIndexBuffer() first',
        'no-index-buffer',
        this.label,
      );
    index.buffer.assertAlive('drawIndexedIndirect');
    this.recorder.trackRead(index.buffer, VERTEX_READ_SCOPES);
    this.recorder.trackRead(buffer, INDIRECT_READ_SCOPES);
    this.recorder.record({ type: 'drawIndexedIndirect', buffer, offset });
  }

  /** The feature, the buffer (this device's, INDIRECT usage) and `bytes` of arguments at `offset`. */
  #checkIndirect(operation: string, buffer: Buffer, offset: number, bytes: number): void {
    const caps = this.recorder.device.caps;
    if (!caps.features.indirect)
      throw new UnsupportedFeatureError(
        'indirect',
        caps.backend,
        `read the counts back and call ${operation === 'drawIndirect' ? 'draw' : 'drawIndexed'}()`,
        this.label,
      );
    requireResource(buffer, 'buffer', operation, this.recorder.device);
    requireBufferUsage(buffer.usage, BufferUsage.INDIRECT, operation, buffer.label);
    if (!isNonNegativeInteger(offset) || offset % 4 !== 0 || offset + bytes > buffer.size) {
      throw new ValidationError(
        'draw-indirect-offset',
        `${operation} offset ${String(offset)} must be a multiple of 4 with ${bytes} bytes after it in the ${buffer.size}-byte buffer "${buffer.label}"`,
        this.label,
        { offset, bytes, size: buffer.size },
      );
    }
  }
}
