import { BufferUsage, TextureUsage } from './flags.js';
import { requireResource } from './validate/resource.js';
import { DeviceLostError, EncoderStateError, ValidationError } from './errors.js';
import {
  isNonNegativeInteger,
  requireBufferUsage,
  validateWriteBuffer,
} from './validate/buffer.js';
import { requireTextureUsage } from './validate/texture.js';
import { FORMAT_INFO } from './formats.js';
import { show } from './show.js';
import { validateBufferLayout, validateTextureRegion } from './validate/copy.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import { CommandBuffer } from './command-buffer.js';
import type { RecordedCommand } from './commands.js';
import type { Extent2D, ImageCopyTexture, ImageDataLayout } from './descriptors.js';
import { orZero } from './validate/copy.js';
import { assertCommandAlive } from './validate/alive.js';
import type { Device } from './device.js';

/** Keeps buffers' host copies (DeviceOptions.hostShadows) in step with what the GPU will write. */
function trackShadow(c: RecordedCommand): void {
  switch (c.type) {
    case 'copyBufferToBuffer': {
      if (!c.dst.hostShadow) return;
      const src = c.src.hostShadow;
      c.dst.updateShadow(
        c.dstOffset,
        src && !src.stale ? src.bytes.slice(c.srcOffset, c.srcOffset + c.size) : null,
      );
      return;
    }
    case 'copyTextureToBuffer':
      c.dst.updateShadow(0, null);
      return;
    case 'copyBufferToTexture':
    case 'copyTextureToTexture':
      if ((c.type === 'copyBufferToTexture' ? c.mipLevel : c.dstMip) === 0)
        c.dst.updateShadow(0, 0, 0, 0, null);
      return;
    case 'beginRenderPass':
      for (const a of c.pass.colorAttachments) {
        a.texture.updateShadow(0, 0, 0, 0, null);
        a.resolveTarget?.updateShadow(0, 0, 0, 0, null);
      }
      return;
    case 'setBinding':
      if (c.resource.kind === 'storage' && c.resource.access !== 'read')
        c.resource.buffer.updateShadow(0, null);
      if (c.resource.kind === 'storage-texture') c.resource.texture.updateShadow(0, 0, 0, 0, null);
      return;
    case 'executeBundles':
      // what the bundle's draws write, as its recording tracked it (not a walk of its commands:
      // a bundle of 10,000 draws is executed every frame)
      for (const b of c.bundles)
        for (const r of b.writes.keys())
          if (r.kind === 'buffer') (r as Buffer).updateShadow(0, null);
          else (r as Texture).updateShadow(0, 0, 0, 0, null);
      return;
    default:
      return;
  }
}

/** Bytes to upload: an ArrayBuffer or any view of one. */
export type ArrayBufferSource = ArrayBuffer | ArrayBufferView;

/**
 * The bytes of `data` from element `dataOffset`, `size` elements long (WebGPU's writeBuffer rule:
 * elements of a typed array, bytes of an ArrayBuffer or DataView).
 */
function dataRange(data: unknown, dataOffset: unknown, size: unknown, label: string): Uint8Array {
  if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data))
    throw new ValidationError(
      'write-buffer-data',
      `writeBuffer data must be an ArrayBuffer, a typed array or a DataView, got ${Array.isArray(data) ? 'a plain array (wrap it: new Float32Array([...]))' : data === null ? 'null' : typeof data}`,
      label,
    );
  const element =
    ArrayBuffer.isView(data) && !(data instanceof DataView)
      ? (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT
      : 1;
  const length = data.byteLength / element;
  if (!isNonNegativeInteger(dataOffset) || dataOffset > length)
    throw new ValidationError(
      'write-buffer-data-offset',
      `writeBuffer dataOffset ${String(dataOffset)} must be an integer from 0 to ${length} (elements of the data)`,
      label,
      { dataOffset },
    );
  const count = size === undefined ? length - dataOffset : size;
  if (!isNonNegativeInteger(count) || dataOffset + count > length)
    throw new ValidationError(
      'write-buffer-data-size',
      `writeBuffer size ${String(size)} from dataOffset ${dataOffset} exceeds the data's ${length} elements`,
      label,
      { dataOffset, size },
    );
  return bytesOf(data).subarray(dataOffset * element, (dataOffset + count) * element);
}

function bytesOf(data: ArrayBufferSource): Uint8Array {
  return data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * The device's queue: uploads, submission, and completion. Submissions run in order.
 *
 * Frames in flight are counted per frame, not per submit: `device.beginFrame()` fences the work
 * submitted since the previous `beginFrame()` (one completion promise per frame, none when nothing
 * was submitted), then waits until fewer than `maxFramesInFlight` fenced frames are on the GPU. A
 * submit itself allocates nothing and waits for nothing: in Deno, `onSubmittedWorkDone()` stalls
 * until the GPU is idle, so a fence per submit would serialise CPU and GPU on every call.
 */
export abstract class Queue {
  /** The device whose queue this is (command buffers of another device are refused at submit). */
  #owner: Device | undefined;
  #inFlight = 0;
  #submitCount = 0;
  #fencedCount = 0;
  readonly #waiters: Array<() => void> = [];

  constructor(owner?: Device) {
    this.#owner = owner;
  }

  /** @internal Set by a device that makes its queue before it exists as `this`. */
  adoptOwner(owner: Device): void {
    this.#owner ??= owner;
  }

  /** Submissions so far: a ring of per-submit resources (uniform slots) restarts when it changes. */
  get submitCount(): number {
    return this.#submitCount;
  }

  /** Frames fenced by `device.beginFrame()` that the GPU has not finished yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Writes `data` into `buffer` at byte `offset`, as WebGPU does: `dataOffset` and `size` count
   * elements of a typed array (bytes of an ArrayBuffer or DataView); `size` defaults to the rest.
   */
  writeBuffer(
    buffer: Buffer,
    offset: number,
    data: ArrayBufferSource,
    dataOffset = 0,
    size?: number,
  ): void {
    requireResource(buffer, 'buffer', 'writeBuffer', this.#owner);
    requireBufferUsage(buffer.usage, BufferUsage.COPY_DST, 'writeBuffer', buffer.label);
    const bytes = dataRange(data, dataOffset, size, buffer.label);
    validateWriteBuffer(buffer.size, offset, bytes.byteLength, buffer.label);
    if (buffer.mapState !== 'unmapped')
      throw new ValidationError(
        'write-buffer-mapped',
        `writeBuffer into a buffer that is ${buffer.mapState}; unmap() it first`,
        buffer.label,
      );
    buffer.updateShadow(offset, bytes);
    this.writeBufferImpl(buffer, offset, bytes);
  }

  /** @internal `device.restore()`: a buffer's host copy becomes its contents again (no checks: it was a valid write). */
  restoreBuffer(buffer: Buffer, data: Uint8Array): void {
    this.writeBufferImpl(buffer, 0, data);
  }

  /** Uploads texels; `layout.bytesPerRow` may be any multiple of the texel size (no 256 rule here). */
  writeTexture(
    destination: ImageCopyTexture,
    data: ArrayBufferSource,
    layout: ImageDataLayout,
    size: Extent2D,
  ): void {
    requireResource(destination?.texture, 'texture', 'writeTexture', this.#owner);
    const texture = destination.texture;
    requireTextureUsage(texture.usage, TextureUsage.COPY_DST, 'writeTexture', texture.label);
    const mipLevel = orZero(destination.mipLevel);
    const x = orZero(destination.origin?.x);
    const y = orZero(destination.origin?.y);
    validateTextureRegion(texture, mipLevel, x, y, size);
    const bytes = bytesOf(data);
    if (layout === null || typeof layout !== 'object')
      throw new ValidationError(
        'copy-bytes-per-row',
        `writeTexture's data layout must be { offset?, bytesPerRow? }, not ${show(layout)}`,
        texture.label,
      );
    const bytesPerRow = validateBufferLayout(
      texture.format,
      bytes.byteLength,
      layout.offset ?? 0,
      layout.bytesPerRow,
      size,
      texture.label,
      false,
    );
    if (size.width === 0 || size.height === 0) return; // WebGPU: valid, and writes nothing
    // data that starts between texels is copied out, so backends may view it as texels
    let texels = bytes;
    let offset = layout.offset ?? 0;
    if (offset % FORMAT_INFO[texture.format].bytesPerTexel !== 0) {
      texels = bytes.slice(offset);
      offset = 0;
    }
    this.writeTextureImpl(texture, mipLevel, x, y, texels, offset, bytesPerRow, size);
    if (mipLevel === 0)
      texture.updateShadow(x, y, size.width, size.height, texels, offset, bytesPerRow);
  }

  submit(commandBuffers: readonly CommandBuffer[]): void {
    if (!Array.isArray(commandBuffers))
      throw new ValidationError(
        'submit-command-buffers',
        `queue.submit takes an array of command buffers, got ${String(commandBuffers)}`,
      );
    // indexed loops: this runs for every command of every frame, and allocates nothing
    for (let i = 0; i < commandBuffers.length; i++) {
      const cb = commandBuffers[i];
      if (!(cb instanceof CommandBuffer))
        throw new ValidationError(
          'submit-command-buffers',
          `queue.submit takes command buffers from encoder.finish(), got ${String(cb)}`,
        );
      if (this.#owner && cb.device && cb.device !== this.#owner)
        throw new ValidationError(
          'submit-device',
          `queue.submit: command buffer "${cb.label}" was recorded on another device's encoder`,
          cb.label,
        );
      if (cb.device?.isLost)
        throw new DeviceLostError('lost', 'queue.submit after the device was lost or destroyed');
      if (cb.submitted)
        throw new EncoderStateError('Command buffer submitted twice', 'submitted', cb.label);
      // recording checked every resource alive: nothing destroyed since, and no buffer mapped
      // (a buffer may be recorded mapped and unmapped before the submit), they all still are
      const owner = this.#owner;
      const unchanged =
        owner !== undefined &&
        cb.recorded !== undefined &&
        cb.device === owner &&
        owner.destroyedCount === cb.recorded.recordedAt &&
        owner.mappedBuffers === 0;
      if (unchanged) continue;
      for (const chunk of cb.chunks)
        for (let k = 0; k < chunk.length; k++)
          assertCommandAlive(chunk[k] as RecordedCommand, 'submit');
    }
    for (let i = 0; i < commandBuffers.length; i++) {
      const cb = commandBuffers[i] as CommandBuffer;
      cb.markSubmitted();
      // timestamps and host copies are all this pass keeps: skipped when there are neither
      if (cb.recorded && !cb.recorded.timestamps && this.#owner?.hostShadows === false) continue;
      for (const chunk of cb.chunks)
        for (let k = 0; k < chunk.length; k++) {
          const c = chunk[k] as RecordedCommand;
          const t =
            c.type === 'beginRenderPass'
              ? c.pass.timestampWrites
              : c.type === 'beginComputePass'
                ? c.timestampWrites
                : undefined;
          if (t?.beginningOfPassWriteIndex !== undefined)
            t.querySet.markWritten(t.beginningOfPassWriteIndex);
          if (t?.endOfPassWriteIndex !== undefined) t.querySet.markWritten(t.endOfPassWriteIndex);
          trackShadow(c);
        }
    }
    this.submitImpl(commandBuffers);
    this.#submitCount++;
  }

  /**
   * Fences the submissions since the last fence as one frame in flight (nothing when there were
   * none). Called by `device.beginFrame()`.
   */
  fenceFrame(): void {
    if (this.#fencedCount === this.#submitCount) return;
    this.#fencedCount = this.#submitCount;
    this.#inFlight++;
    // Counted in both outcomes: a frame that can never complete (device lost or destroyed) must
    // not leave beginFrame() waiting. The loss itself reaches the user once, through device.lost
    // and device.onError, so the rejection is not reported again here.
    const done = (): void => {
      this.#inFlight--;
      this.#waiters.splice(0).forEach((w) => w());
    };
    this.onSubmittedWorkDone().then(done, done);
  }

  /** Resolves when every submission so far has completed on the GPU. */
  abstract onSubmittedWorkDone(): Promise<void>;

  /** Resolves when fewer than `max` fenced frames are in flight. */
  async waitForInFlightBelow(max: number): Promise<void> {
    if (!Number.isInteger(max) || max < 1)
      throw new ValidationError(
        'frames-in-flight',
        `maxFramesInFlight ${max} must be a positive integer`,
      );
    while (this.#inFlight >= max) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  protected abstract writeBufferImpl(buffer: Buffer, offset: number, data: Uint8Array): void;
  protected abstract writeTextureImpl(
    texture: Texture,
    mipLevel: number,
    x: number,
    y: number,
    data: Uint8Array,
    offset: number,
    bytesPerRow: number,
    size: Extent2D,
  ): void;
  protected abstract submitImpl(commandBuffers: readonly CommandBuffer[]): void;
}
