import { BufferUsage } from '../rhi/core/flags.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Device } from '../rhi/core/device.js';

/**
 * Slots of a uniform buffer handed out between two submissions: values written with
 * `queue.writeBuffer` land before the submit that uses them, so every use recorded before a submit
 * needs a slot of its own. When one submit needs more slots than the ring has, the ring grows: a
 * buffer of twice the slots takes over, and the old one (which commands already recorded still
 * bind) is destroyed once a submit has taken them. Slots are reused from the next submit on.
 *
 * `take()` returns the offset in `buffer`; read `buffer` after `take()` (it changes when the ring
 * grows).
 */
export class UniformRing {
  #buffer: Buffer;
  #slots: number;
  #next = 0;
  #used = 0;
  #submitCount = -1;
  /** Outgrown buffers still bound by commands not yet submitted. */
  #retired: Buffer[] = [];

  constructor(
    private readonly device: Device,
    slots: number,
    readonly slotBytes: number,
    private readonly label: string,
  ) {
    this.#slots = slots;
    this.#buffer = this.#create();
  }

  /** The buffer the last `take()` offset belongs to. */
  get buffer(): Buffer {
    return this.#buffer;
  }

  /** Slots in the current buffer. */
  get slots(): number {
    return this.#slots;
  }

  #create(): Buffer {
    return this.device.createBuffer({
      label: `${this.label} (${this.#slots} slots)`,
      size: this.#slots * this.slotBytes,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
  }

  /** The byte offset of the next free slot. */
  take(): number {
    const submits = this.device.queue.submitCount;
    if (submits !== this.#submitCount) {
      this.#submitCount = submits;
      this.#used = 0;
      // no new array per submit when nothing was retired (take() runs every frame)
      if (this.#retired.length > 0) {
        for (const b of this.#retired) b.destroy();
        this.#retired = [];
      }
    }
    if (this.#used >= this.#slots) {
      this.#retired.push(this.#buffer);
      this.#slots *= 2;
      this.#buffer = this.#create();
      this.#next = 0;
      this.#used = 0;
    }
    this.#used++;
    const offset = this.#next * this.slotBytes;
    this.#next = (this.#next + 1) % this.#slots;
    return offset;
  }

  destroy(): void {
    this.#buffer.destroy();
    for (const b of this.#retired) b.destroy();
    this.#retired = [];
  }
}
