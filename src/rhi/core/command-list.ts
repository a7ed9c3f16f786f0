import type { Command, RecordedCommand, UniformSliceCommand } from './commands.js';

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
  readonly #chunks: RecordedCommand[][] = [new Array<RecordedCommand>(CHUNK)];
  /**
   * The chunk being filled (the last of `#chunks`), made at its full length and filled by index:
   * a store costs half what a `push` that grows the array costs (measured in V8). Its first `#fill`
   * entries are commands; `#trim()` cuts it to them before anyone reads the chunks.
   */
  #last: RecordedCommand[] = this.#chunks[0] as RecordedCommand[];
  #fill = 0;
  #length = 0;
  /** Each `setUniformSlice` recording's offset, in order (UniformSliceCommand). */
  readonly #sliceOffsets: number[] = [];

  /** The chunks in order (every one but the last holds at least one command). */
  get chunks(): readonly (readonly RecordedCommand[])[] {
    this.#trim();
    return this.#chunks;
  }

  /** The offsets of the `setUniformSlice` commands, one per recording, in order. */
  get sliceOffsets(): readonly number[] {
    return this.#sliceOffsets;
  }

  get length(): number {
    return this.#length;
  }

  push(command: RecordedCommand): void {
    let fill = this.#fill;
    if (fill >= CHUNK) {
      this.#trim();
      this.#chunks.push((this.#last = new Array<RecordedCommand>(CHUNK)));
      fill = 0;
    }
    // (after a trim the chunk is `fill` long: the store appends)
    this.#last[fill] = command;
    this.#fill = fill + 1;
    this.#length++;
  }

  /** Cuts the chunk being filled to its commands (its length is then what it holds). */
  #trim(): void {
    if (this.#last.length !== this.#fill) this.#last.length = this.#fill;
  }

  /** Records `slice` again, at `offset` (an allocation-free store of a number and a reference). */
  pushSlice(slice: UniformSliceCommand, offset: number): void {
    this.push(slice);
    this.#sliceOffsets.push(offset);
  }

  /** Puts `command` at index `at` (0 … length), the commands from there on moving one later. */
  insert(at: number, command: Command): void {
    this.#trim();
    let start = 0;
    for (const chunk of this.#chunks) {
      if (at <= start + chunk.length) {
        chunk.splice(at - start, 0, command);
        if (chunk === this.#last) this.#fill++;
        this.#length++;
        return;
      }
      start += chunk.length;
    }
    throw new RangeError(`CommandList.insert at ${at} of ${this.#length} (a bug in Ignis)`);
  }

  /** A flat copy, in order, each uniform slice as the `setBinding` it stands for. */
  toArray(): Command[] {
    return flatten(this.chunks, this.#sliceOffsets);
  }
}

/** The commands of `chunks` in one list, each `setUniformSlice` as a `setBinding` of its own. */
export function flatten(
  chunks: readonly (readonly RecordedCommand[])[],
  sliceOffsets: readonly number[],
): Command[] {
  const out: Command[] = [];
  let slice = 0;
  for (const chunk of chunks)
    for (const c of chunk) {
      if (c.type !== 'setUniformSlice') {
        out.push(c);
        continue;
      }
      const { buffer, size } = c.resource;
      const offset = sliceOffsets[slice++] as number;
      out.push({
        type: 'setBinding',
        slot: c.slot,
        resource: { kind: 'uniform', buffer, offset, size },
      });
    }
  return out;
}
