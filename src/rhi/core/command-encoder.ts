import { BufferUsage, TextureUsage } from './flags.js';
import { requireResource } from './validate/resource.js';
import { Resource } from './resource.js';
import { EncoderStateError, ValidationError } from './errors.js';
import { CommandBuffer } from './command-buffer.js';
import { CommandList, FoldingCommandList } from './command-list.js';
import { HazardTracker, type TrackedResource } from './hazards.js';
import {
  BARRIER_SCOPES,
  type BarrierScope,
  type Command,
  type DrawCommand,
  type RecordedCommand,
  type UniformSliceCommand,
} from './commands.js';
import { RenderPass } from './render-pass.js';
import { ComputePass } from './compute-pass.js';
import { requireBufferUsage, validateBufferRange } from './validate/buffer.js';
import { requireTextureUsage } from './validate/texture.js';
import { validateBufferLayout, validateTextureRegion } from './validate/copy.js';
import { UnsupportedFeatureError } from './errors.js';
import { resolveRenderPass } from './validate/pass.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Device } from './device.js';
import type {
  ComputePassDescriptor,
  Extent2D,
  ImageCopyBuffer,
  ImageCopyTexture,
  RenderPassDescriptor,
} from './descriptors.js';
import { orZero } from './validate/copy.js';

/** `auto` inserts barriers where a hazard is seen; `explicit` throws `MissingBarrierError` instead. */
export type BarrierMode = 'auto' | 'explicit';

/**
 * What a pass records through: handed by the encoder to the pass it begins, and to nobody else, so
 * every command in a command buffer went through a pass's validated methods. Closed when the pass
 * ends (`end`), after which it records nothing.
 */
export interface PassRecorder {
  readonly device: Device;
  /** Appends a command to the open pass. */
  record(command: Command): void;
  /** Appends `slice` again, at `offset` (UniformSliceCommand: its resource's offset is set already). */
  recordSlice(slice: UniformSliceCommand, offset: number): void;
  /** Appends a draw (`record`, for the one command of every draw: the sink's `writeDraw`). */
  recordDraw(draw: DrawCommand): void;
  /** A read of `resource` in this pass in one of `scopes` (auto mode inserts a missing barrier; explicit mode throws). */
  trackRead(resource: TrackedResource, scopes: readonly BarrierScope[]): void;
  /** A write of `resource` in this pass. */
  trackWrite(resource: TrackedResource, scope: BarrierScope): void;
  /** Records the pass's end command and returns the encoder to `recording`. */
  end(command: Command): void;
}

/**
 * A backend's encoder that translates each command as it is recorded (WebGPU, into one
 * `GPUCommandEncoder`), so that a submit only submits. Core hands it every command in order after
 * validating it, except the barriers it inserts before a pass it has already handed over (a
 * backend with a sink orders passes itself). Backends without one replay the list at submit.
 */
export interface CommandSink {
  /** A `setUniformSlice` arrives with its resource's offset set to this recording's. */
  write(command: RecordedCommand): void;
  /**
   * `write` for the two commands of a draw per object, which core hands over apart: a small
   * method each that a JIT can inline where `write`'s switch over every command is too big (its
   * dispatch was a third of Firefox's samples of a stub frame of such draws).
   */
  writeSlice(slice: UniformSliceCommand): void;
  writeDraw(draw: DrawCommand): void;
  /** Called by `encoder.finish()`: the last command was written. */
  finish(): void;
}

/** A barrier: work in `from` scope becomes visible to work in `to` scope. */
export interface BarrierDescriptor {
  from: BarrierScope;
  to: BarrierScope;
  /** The resources the barrier covers; all of them when omitted. */
  resources?: ReadonlyArray<Buffer | Texture>;
}

/**
 * Records GPU work as plain-data commands.
 *
 * States: `recording` → (`beginRenderPass` | `beginComputePass`) → `in-pass` → `pass.end()` →
 * `recording` → `finish()` → `finished`. Beginning a pass while one is open, recording outside a
 * pass while one is open, and `finish()` with a pass open are `EncoderStateError`s. Every check
 * happens here, in core, before a backend sees anything.
 */
export class CommandEncoder {
  readonly label: string;
  readonly #commands: CommandList;
  readonly #hazards = new HazardTracker();
  readonly #sink: CommandSink | undefined;
  #state: 'recording' | 'in-pass' | 'finished' = 'recording';
  #debugDepth = 0;
  #passBegin = 0;
  /** `device.destroyedCount` when recording began (CommandBuffer.recordedAt). */
  readonly #recordedAt: number;
  #timestamps = false;

  constructor(
    readonly device: Device,
    label: string | undefined,
    readonly barrierMode: BarrierMode,
    sink?: CommandSink,
  ) {
    this.label = label ?? '';
    // draws fold into runs where a backend replays the list at submit (WebGL2, null), except on a
    // debug device (which checks GL errors after every command). A backend with a sink encodes
    // each draw as it is recorded: folding its list would only cost time, so it keeps every draw.
    this.#commands =
      !device.debug && sink === undefined ? new FoldingCommandList() : new CommandList();
    this.#sink = sink;
    this.#recordedAt = device.destroyedCount;
  }

  /** Appends a validated command, and hands it to the backend's sink when it has one. */
  #push(command: Command): void {
    this.#commands.push(command);
    this.#sink?.write(command);
  }

  get state(): 'recording' | 'in-pass' | 'finished' {
    return this.#state;
  }

  /** The recorded commands so far (a copy, for tests and tracing). */
  get commands(): readonly Command[] {
    return this.#commands.toArray();
  }

  #assertRecording(operation: string): void {
    if (this.#state === 'finished') {
      throw new EncoderStateError(
        `${operation} on an encoder that is already finished`,
        this.#state,
        this.label,
      );
    }
    if (this.#state === 'in-pass') {
      throw new EncoderStateError(
        `${operation} while a pass is open; call pass.end() first`,
        this.#state,
        this.label,
      );
    }
  }

  beginRenderPass(desc: RenderPassDescriptor): RenderPass {
    this.#assertRecording('beginRenderPass');
    if (desc === null || typeof desc !== 'object')
      throw new ValidationError(
        'descriptor',
        `beginRenderPass takes a descriptor object, got ${desc === null ? 'null' : typeof desc}`,
        this.label,
      );
    const label = desc.label ?? `render pass ${this.#hazards.passCount}`;
    if (
      !desc.colorAttachments ||
      (desc.colorAttachments.length === 0 && !desc.depthStencilAttachment)
    ) {
      throw new ValidationError(
        'pass-attachments',
        'A render pass needs at least one attachment',
        label,
      );
    }
    if (desc.timestampWrites) this.#checkTimestamps(desc.timestampWrites.querySet, label);
    const pass = resolveRenderPass(desc, label, this.device.caps.limits, this.device);
    this.#startPass(label);
    this.#push({ type: 'beginRenderPass', pass });
    for (const a of pass.colorAttachments) {
      this.#hazards.write(a.texture, 'render-write');
      if (a.resolveTarget) this.#hazards.write(a.resolveTarget, 'render-write');
    }
    if (pass.depthStencilAttachment)
      this.#hazards.write(pass.depthStencilAttachment.texture, 'render-write');
    return new RenderPass(this.#recorder(), pass);
  }

  beginComputePass(desc: ComputePassDescriptor = {}): ComputePass {
    this.#assertRecording('beginComputePass');
    if (desc === null || typeof desc !== 'object')
      throw new ValidationError(
        'descriptor',
        `beginComputePass takes a descriptor object, got ${desc === null ? 'null' : typeof desc}`,
        this.label,
      );
    const label = desc.label ?? `compute pass ${this.#hazards.passCount}`;
    const caps = this.device.caps;
    if (!caps.features.compute) {
      throw new UnsupportedFeatureError(
        'compute',
        caps.backend,
        'run element-wise work with the ping-pong runner (createPingPongRunner of ignis-rhi/compute)',
        label,
      );
    }
    if (desc.timestampWrites) this.#checkTimestamps(desc.timestampWrites.querySet, label);
    this.#startPass(label);
    this.#push({ type: 'beginComputePass', label, timestampWrites: desc.timestampWrites });
    return new ComputePass(this.#recorder(), label);
  }

  #checkTimestamps(querySet: { assertAlive(op: string): void }, label: string): void {
    this.#timestamps = true;
    if (!this.device.caps.features.timestampQuery) {
      throw new UnsupportedFeatureError(
        'timestampQuery',
        this.device.caps.backend,
        'omit timestampWrites and time with fences',
        label,
      );
    }
    requireResource(querySet, 'query-set', 'timestampWrites', this.device);
  }

  #startPass(label: string): void {
    this.#state = 'in-pass';
    this.#passBegin = this.#commands.length;
    this.#hazards.beginPass(label);
  }

  /**
   * The private door of a pass: one object per pass with its methods on a prototype (a pass is
   * begun every frame), declared in this class's body so that it reaches the encoder's private
   * members. It closes when the pass ends.
   */
  static readonly #Door = class Door implements PassRecorder {
    #open = true;
    readonly #encoder: CommandEncoder;
    constructor(encoder: CommandEncoder) {
      this.#encoder = encoder;
    }
    get device(): Device {
      return this.#encoder.device;
    }
    #check(): void {
      if (!this.#open)
        throw new EncoderStateError(
          'a pass recorded after it ended',
          'recording',
          this.#encoder.label,
        );
    }
    record(command: Command): void {
      this.#check();
      this.#encoder.#push(command);
    }
    recordSlice(slice: UniformSliceCommand, offset: number): void {
      this.#check();
      const encoder = this.#encoder;
      encoder.#commands.pushSlice(slice, offset);
      encoder.#sink?.writeSlice(slice);
    }
    recordDraw(draw: DrawCommand): void {
      this.#check();
      const encoder = this.#encoder;
      encoder.#commands.push(draw);
      encoder.#sink?.writeDraw(draw);
    }
    trackRead(resource: TrackedResource, scopes: readonly BarrierScope[]): void {
      this.#check();
      this.#encoder.#trackRead(resource, scopes);
    }
    trackWrite(resource: TrackedResource, scope: BarrierScope): void {
      this.#check();
      this.#encoder.#hazards.write(resource, scope);
    }
    end(command: Command): void {
      this.#check();
      this.#open = false;
      const encoder = this.#encoder;
      encoder.#push(command);
      encoder.#hazards.endPass();
      encoder.#state = 'recording';
    }
  };

  #recorder(): PassRecorder {
    return new CommandEncoder.#Door(this);
  }

  /**
   * A read of `resource` in the current pass (or copy) in one of `scopes`. Auto mode inserts the
   * missing barrier before the pass; explicit mode throws `MissingBarrierError`.
   */
  #trackRead(resource: TrackedResource, scopes: readonly BarrierScope[]): void {
    const hazard = this.#hazards.read(resource, scopes);
    if (!hazard) return;
    if (this.barrierMode === 'explicit') this.#hazards.fail(hazard);
    this.#commands.insert(this.#passBegin, {
      type: 'barrier',
      from: hazard.from,
      to: hazard.to,
      resources: [hazard.resource.label || `#${hazard.resource.id}`],
      inserted: true,
    });
    this.#hazards.barrier(hazard.from, hazard.to, [hazard.resource]);
    // the pass's own commands moved one slot on; the hazard tracker only needs the begin index
    this.#passBegin++;
  }

  /**
   * Declares that work after this point in `to` scope sees the results of earlier work in `from`
   * scope. In `auto` mode the encoder inserts these itself; declaring them anyway is harmless.
   */
  barrier(desc: BarrierDescriptor): void {
    this.#assertRecording('barrier');
    for (const scope of [desc.from, desc.to]) {
      if (!BARRIER_SCOPES.includes(scope)) {
        throw new ValidationError(
          'barrier-scope',
          `Barrier scope ${String(scope)} is not one of ${BARRIER_SCOPES.join(', ')}`,
          this.label,
          { scope },
        );
      }
    }
    desc.resources?.forEach((r) =>
      requireResource(r, r instanceof Resource ? r.kind : 'buffer', 'barrier', this.device),
    );
    this.#hazards.barrier(desc.from, desc.to, desc.resources);
    this.#push({
      type: 'barrier',
      from: desc.from,
      to: desc.to,
      resources: desc.resources?.map((r) => r.label || `#${r.id}`),
      inserted: false,
    });
  }

  copyBufferToBuffer(
    src: Buffer,
    srcOffset: number,
    dst: Buffer,
    dstOffset: number,
    size: number,
  ): void {
    this.#assertRecording('copyBufferToBuffer');
    requireResource(src, 'buffer', 'copyBufferToBuffer (source)', this.device);
    requireResource(dst, 'buffer', 'copyBufferToBuffer (destination)', this.device);
    requireBufferUsage(src.usage, BufferUsage.COPY_SRC, 'copyBufferToBuffer source', src.label);
    requireBufferUsage(
      dst.usage,
      BufferUsage.COPY_DST,
      'copyBufferToBuffer destination',
      dst.label,
    );
    validateBufferRange('copy-source', src.size, srcOffset, size, src.label);
    validateBufferRange('copy-destination', dst.size, dstOffset, size, dst.label);
    // WebGPU: source and destination are different buffers (D3D12 cannot copy within one)
    if (src === dst) {
      throw new ValidationError(
        'copy-same-buffer',
        `copyBufferToBuffer from and to the same buffer "${src.label}" (bytes ${srcOffset} → ${dstOffset}); WebGPU copies between two buffers: copy through a second one`,
        src.label,
        { srcOffset, dstOffset, size },
      );
    }
    this.#copy('copyBufferToBuffer', [src], [dst], {
      type: 'copyBufferToBuffer',
      src,
      srcOffset,
      dst,
      dstOffset,
      size,
    });
  }

  copyBufferToTexture(src: ImageCopyBuffer, dst: ImageCopyTexture, size: Extent2D): void {
    this.#assertRecording('copyBufferToTexture');
    requireResource(src?.buffer, 'buffer', 'copyBufferToTexture (source)', this.device);
    requireResource(dst?.texture, 'texture', 'copyBufferToTexture (destination)', this.device);
    requireBufferUsage(
      src.buffer.usage,
      BufferUsage.COPY_SRC,
      'copyBufferToTexture source',
      src.buffer.label,
    );
    requireTextureUsage(
      dst.texture.usage,
      TextureUsage.COPY_DST,
      'copyBufferToTexture destination',
      dst.texture.label,
    );
    const mipLevel = orZero(dst.mipLevel);
    const x = orZero(dst.origin?.x);
    const y = orZero(dst.origin?.y);
    validateTextureRegion(dst.texture, mipLevel, x, y, size);
    const bytesPerRow = validateBufferLayout(
      dst.texture.format,
      src.buffer.size,
      src.offset ?? 0,
      src.bytesPerRow,
      size,
      src.buffer.label,
    );
    if (size.width === 0 || size.height === 0) return; // WebGPU: valid, and copies nothing
    this.#copy('copyBufferToTexture', [src.buffer], [dst.texture], {
      type: 'copyBufferToTexture',
      src: src.buffer,
      offset: src.offset ?? 0,
      bytesPerRow,
      dst: dst.texture,
      mipLevel,
      x,
      y,
      size,
    });
  }

  copyTextureToBuffer(src: ImageCopyTexture, dst: ImageCopyBuffer, size: Extent2D): void {
    this.#assertRecording('copyTextureToBuffer');
    requireResource(src?.texture, 'texture', 'copyTextureToBuffer (source)', this.device);
    requireResource(dst?.buffer, 'buffer', 'copyTextureToBuffer (destination)', this.device);
    requireTextureUsage(
      src.texture.usage,
      TextureUsage.COPY_SRC,
      'copyTextureToBuffer source',
      src.texture.label,
    );
    requireBufferUsage(
      dst.buffer.usage,
      BufferUsage.COPY_DST,
      'copyTextureToBuffer destination',
      dst.buffer.label,
    );
    const mipLevel = orZero(src.mipLevel);
    const x = orZero(src.origin?.x);
    const y = orZero(src.origin?.y);
    validateTextureRegion(src.texture, mipLevel, x, y, size);
    const bytesPerRow = validateBufferLayout(
      src.texture.format,
      dst.buffer.size,
      dst.offset ?? 0,
      dst.bytesPerRow,
      size,
      dst.buffer.label,
    );
    if (size.width === 0 || size.height === 0) return; // WebGPU: valid, and copies nothing
    this.#copy('copyTextureToBuffer', [src.texture], [dst.buffer], {
      type: 'copyTextureToBuffer',
      src: src.texture,
      mipLevel,
      x,
      y,
      dst: dst.buffer,
      offset: dst.offset ?? 0,
      bytesPerRow,
      size,
    });
  }

  copyTextureToTexture(src: ImageCopyTexture, dst: ImageCopyTexture, size: Extent2D): void {
    this.#assertRecording('copyTextureToTexture');
    requireResource(src?.texture, 'texture', 'copyTextureToTexture (source)', this.device);
    requireResource(dst?.texture, 'texture', 'copyTextureToTexture (destination)', this.device);
    requireTextureUsage(
      src.texture.usage,
      TextureUsage.COPY_SRC,
      'copyTextureToTexture source',
      src.texture.label,
    );
    requireTextureUsage(
      dst.texture.usage,
      TextureUsage.COPY_DST,
      'copyTextureToTexture destination',
      dst.texture.label,
    );
    if (src.texture.format !== dst.texture.format) {
      throw new ValidationError(
        'copy-format-mismatch',
        `copyTextureToTexture from ${src.texture.format} to ${dst.texture.format}; formats must match`,
        dst.texture.label,
        {
          src: src.texture.format,
          dst: dst.texture.format,
        },
      );
    }
    const srcMip = orZero(src.mipLevel);
    const dstMip = orZero(dst.mipLevel);
    const srcX = orZero(src.origin?.x);
    const srcY = orZero(src.origin?.y);
    const dstX = orZero(dst.origin?.x);
    const dstY = orZero(dst.origin?.y);
    validateTextureRegion(src.texture, srcMip, srcX, srcY, size);
    validateTextureRegion(dst.texture, dstMip, dstX, dstY, size);
    // WebGPU: a copy within one texture is between different subresources (mip levels here)
    if (src.texture === dst.texture && srcMip === dstMip)
      throw new ValidationError(
        'copy-same-subresource',
        `copyTextureToTexture within mip level ${srcMip} of "${src.texture.label}"; WebGPU copies between different subresources: another mip level or another texture`,
        src.texture.label,
        { mipLevel: srcMip },
      );
    if (size.width === 0 || size.height === 0) return; // WebGPU: valid, and copies nothing
    this.#copy('copyTextureToTexture', [src.texture], [dst.texture], {
      type: 'copyTextureToTexture',
      src: src.texture,
      srcMip,
      srcX,
      srcY,
      dst: dst.texture,
      dstMip,
      dstX,
      dstY,
      size,
    });
  }

  /** A copy is a pass of its own for hazard tracking: copy-read of sources, copy-write of destinations. */
  #copy(
    label: string,
    reads: TrackedResource[],
    writes: TrackedResource[],
    command: Command,
  ): void {
    this.#passBegin = this.#commands.length;
    this.#hazards.beginPass(label);
    for (const r of reads) this.#trackRead(r, ['copy-read']);
    for (const w of writes) this.#hazards.write(w, 'copy-write');
    this.#push(command);
    this.#hazards.endPass();
  }

  pushDebugGroup(label: string): void {
    this.#assertRecording('pushDebugGroup');
    this.#debugDepth++;
    this.#push({ type: 'pushDebugGroup', label });
  }

  popDebugGroup(): void {
    this.#assertRecording('popDebugGroup');
    if (this.#debugDepth === 0)
      throw new EncoderStateError(
        'popDebugGroup() without a matching pushDebugGroup()',
        'recording',
        this.label,
      );
    this.#debugDepth--;
    this.#push({ type: 'popDebugGroup' });
  }

  finish(): CommandBuffer {
    if (this.#state === 'in-pass')
      throw new EncoderStateError(
        'finish() while a pass is open; call pass.end() first',
        this.#state,
        this.label,
      );
    if (this.#state === 'finished')
      throw new EncoderStateError('finish() called twice', this.#state, this.label);
    if (this.#debugDepth !== 0) {
      throw new EncoderStateError(
        `finish() with ${this.#debugDepth} debug group(s) still pushed`,
        this.#state,
        this.label,
      );
    }
    this.#state = 'finished';
    this.#sink?.finish();
    // the list itself: nothing records into a finished encoder
    return new CommandBuffer(this.label, this.#commands, this.device, this.#sink, {
      recordedAt: this.#recordedAt,
      timestamps: this.#timestamps,
    });
  }

  /** One line per command; barriers say whether they were declared or inserted. */
  trace(): string[] {
    return traceCommands(this.#commands.toArray());
  }
}

/** Recorded commands as one readable line each (for tests and debugging). */
export function traceCommands(commands: readonly Command[]): string[] {
  return commands.map((c) => {
    switch (c.type) {
      case 'barrier':
        return `barrier ${c.from} -> ${c.to}${c.resources ? ` [${c.resources.join(', ')}]` : ''} (${c.inserted ? 'inserted' : 'declared'})`;
      case 'beginRenderPass':
        return `beginRenderPass "${c.pass.label}" ${c.pass.width}x${c.pass.height}`;
      case 'beginComputePass':
        return `beginComputePass "${c.label}"`;
      case 'dispatch':
        return `dispatch ${c.x} ${c.y} ${c.z}`;
      case 'draw':
        return `draw ${c.vertexCount} x${c.instanceCount}`;
      case 'executeBundles':
        return `executeBundles ${c.bundles.map((b) => `"${b.label}" (${b.length} commands)`).join(', ')}`;
      default:
        return c.type;
    }
  });
}
