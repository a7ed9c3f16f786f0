import type { Command } from './commands.js';

/**
 * Commands in a chunk this long at most. A frame of 10,000 draws records 20,000 commands or more;
 * one array that long lives outside the young generation, and every store into it while it grows
 * cost ~40 ns in V8 (measured, Node 20) — more than the rest of recording a draw. Arrays of 1,024
 * cost ~6 ns a store.
 */
const CHUNK = 1024;

/**
 * The commands of one encoder, in recording order, kept in chunks (see `CHUNK`). Hot loops walk
 * `chunks`; `toArray()` is the flat list for everything else.
 */
export class CommandList {
  readonly #chunks: Command[][] = [[]];
  /** The chunk being filled (the last of `#chunks`). */
  #last: Command[] = this.#chunks[0] as Command[];
  #length = 0;

  /** The chunks in order (every one but the last holds at least one command). */
  get chunks(): readonly (readonly Command[])[] {
    return this.#chunks;
  }

  get length(): number {
    return this.#length;
  }

  push(command: Command): void {
    let last = this.#last;
    if (last.length >= CHUNK) this.#chunks.push((this.#last = last = []));
    last.push(command);
    this.#length++;
  }

  /** Puts `command` at index `at` (0 … length), the commands from there on moving one later. */
  insert(at: number, command: Command): void {
    let start = 0;
    for (const chunk of this.#chunks) {
      if (at <= start + chunk.length) {
        chunk.splice(at - start, 0, command);
        this.#length++;
        return;
      }
      start += chunk.length;
    }
    throw new RangeError(`CommandList.insert at ${at} of ${this.#length} (a bug in Ignis)`);
  }

  /** A flat copy, in order. */
  toArray(): Command[] {
    return this.#chunks.length === 1 ? [...(this.#chunks[0] as Command[])] : this.#chunks.flat();
  }
}
