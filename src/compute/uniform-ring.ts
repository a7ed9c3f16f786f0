import { ValidationError } from '../rhi/core/errors.js';
import type { Queue } from '../rhi/core/queue.js';

/**
 * Slots of a uniform buffer handed out between two submissions: values written with
 * `queue.writeBuffer` land before the submit that uses them, so every use recorded before a submit
 * needs a slot of its own. More uses than slots before a submit is a typed error, not a silent
 * overwrite of an earlier draw's values.
 */
export class UniformRing {
  #next = 0;
  #used = 0;
  #submitCount = -1;

  constructor(
    private readonly queue: Queue,
    readonly slots: number,
    readonly slotBytes: number,
    private readonly what: string,
  ) {}

  /** The byte offset of the next free slot. */
  take(): number {
    if (this.queue.submitCount !== this.#submitCount) {
      this.#submitCount = this.queue.submitCount;
      this.#used = 0;
    }
    if (this.#used >= this.slots) {
      throw new ValidationError(
        'uniform-ring-full',
        `${this.what}: more than ${this.slots} uses recorded before one queue.submit(); submit in between, or split the work`,
        this.what,
        { slots: this.slots },
      );
    }
    this.#used++;
    const offset = this.#next * this.slotBytes;
    this.#next = (this.#next + 1) % this.slots;
    return offset;
  }
}
