import type { Command } from './commands.js';

/**
 * The finished, immutable list of commands of one encoder. Submitted once: a second submit is an
 * `EncoderStateError` (WebGPU's rule, kept on every backend).
 */
export class CommandBuffer {
  #submitted = false;
  constructor(
    readonly label: string,
    readonly commands: readonly Command[],
  ) {}

  get submitted(): boolean {
    return this.#submitted;
  }

  /** Called by the queue. */
  markSubmitted(): void {
    this.#submitted = true;
  }
}
