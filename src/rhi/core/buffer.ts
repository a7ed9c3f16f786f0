import { Resource } from './resource.js';
import { BufferUsage, usageNames } from './flags.js';
import { EncoderStateError, UsageError } from './errors.js';
import { validateBufferRange } from './validate/buffer.js';
import type { BufferDescriptor } from './descriptors.js';
import type { Device } from './device.js';

/** A linear GPU allocation. Backends subclass it and implement the `*Impl` hooks. */
export abstract class Buffer extends Resource {
  readonly kind = 'buffer' as const;
  readonly size: number;
  readonly usage: number;
  #mapped: ArrayBuffer | null = null;
  /** The host copy of the contents (devices with `hostShadows`, STORAGE or UNIFORM buffers). */
  #shadow: Uint8Array | null = null;
  #shadowStale = false;

  constructor(device: Device, desc: BufferDescriptor) {
    super(device, desc.label);
    this.size = desc.size;
    this.usage = desc.usage;
    if (device.hostShadows && desc.usage & (BufferUsage.STORAGE | BufferUsage.UNIFORM))
      this.#shadow = new Uint8Array(desc.size);
  }

  /**
   * The host copy of the contents, or null where the device keeps none for this buffer. `stale`
   * when the GPU wrote the buffer in a way the copy cannot follow (a shader's storage write, a
   * copy from a texture or from a buffer without a copy).
   */
  get hostShadow(): { readonly bytes: Uint8Array; readonly stale: boolean } | null {
    return this.#shadow ? { bytes: this.#shadow, stale: this.#shadowStale } : null;
  }

  /** After `device.restore()`: the host copy, where there is one, becomes the contents again. */
  override afterRestore(): void {
    // a queue write (WebGPU's needs COPY_DST; a buffer filled only through mappedAtCreation
    // comes back zeroed)
    if (this.#shadow && !this.#shadowStale && this.usage & BufferUsage.COPY_DST)
      this.device.queue.restoreBuffer(this, this.#shadow);
  }

  /** @internal Core's queue keeps the host copy in step with writes and copies. */
  updateShadow(offset: number, data: Uint8Array | null): void {
    if (!this.#shadow) return;
    if (!data) {
      this.#shadowStale = true;
      return;
    }
    this.#shadow.set(data, offset);
    // a write of the whole buffer makes the copy whole again
    if (offset === 0 && data.byteLength === this.size) this.#shadowStale = false;
  }

  override get byteSize(): number {
    return this.size;
  }

  /** Set by the device right after creation when `mappedAtCreation` was asked for. */
  protected beginMappedAtCreation(): void {
    this.#mapped = new ArrayBuffer(this.size);
    this.device.noteMapped(1);
  }

  override destroy(): void {
    if (this.#mapped && !this.destroyed) {
      this.#mapped = null;
      this.device.noteMapped(-1);
    }
    super.destroy();
  }

  get mapState(): 'unmapped' | 'mapped' {
    return this.#mapped ? 'mapped' : 'unmapped';
  }

  /** The CPU view of a buffer created with `mappedAtCreation: true`, until `unmap()`. */
  getMappedRange(): ArrayBuffer {
    this.assertAlive('getMappedRange');
    if (!this.#mapped) {
      throw new EncoderStateError(
        'getMappedRange() on a buffer that is not mapped (create it with mappedAtCreation: true)',
        'unmapped',
        this.label,
      );
    }
    return this.#mapped;
  }

  /** Ends the mapping; the written bytes become the buffer's contents. */
  unmap(): void {
    this.assertAlive('unmap');
    const data = this.#mapped;
    if (!data)
      throw new EncoderStateError('unmap() on a buffer that is not mapped', 'unmapped', this.label);
    this.#mapped = null;
    this.device.noteMapped(-1);
    this.updateShadow(0, new Uint8Array(data));
    this.uploadImpl(0, new Uint8Array(data));
  }

  /**
   * Reads `size` bytes at `offset` back to the CPU. Never stalls: the copy is queued behind the
   * work already submitted and the promise resolves when the GPU has done it. Needs COPY_SRC (or
   * MAP_READ).
   */
  read(offset = 0, size?: number): Promise<ArrayBuffer> {
    this.assertAlive('read');
    if ((this.usage & (BufferUsage.COPY_SRC | BufferUsage.MAP_READ)) === 0) {
      const actual = usageNames(this.usage, BufferUsage);
      throw new UsageError(
        `buffer.read() needs BufferUsage.COPY_SRC or MAP_READ, but the buffer's usage is ${actual}`,
        'COPY_SRC',
        actual,
        this.label,
      );
    }
    if (this.#mapped)
      throw new EncoderStateError(
        'read() of a buffer that is still mapped; unmap() it first',
        'mapped',
        this.label,
      );
    // the rest of the buffer by default (computed once the offset is known to be a number)
    const bytes = size ?? (typeof offset === 'number' ? this.size - offset : 0);
    validateBufferRange('read', this.size, offset, bytes, this.label);
    return this.readImpl(offset, bytes);
  }

  /** Backend: makes `data` the contents at `offset` (used by unmap of mappedAtCreation). */
  protected abstract uploadImpl(offset: number, data: Uint8Array): void;
  protected abstract readImpl(offset: number, size: number): Promise<ArrayBuffer>;
}
