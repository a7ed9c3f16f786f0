import type {
  Command,
  DrawCommand,
  DrawRunCommand,
  RecordedCommand,
  UniformSliceCommand,
} from './commands.js';

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

  /** Logs a slice's offset (FoldingCommandList, which pushes the slice itself). */
  protected logSliceOffset(offset: number): void {
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

/**
 * A command list that folds draws: a slice and a draw that repeat the pair the list ends with (the
 * same slice command, the same draw command) are not appended but counted by a `DrawRunCommand`
 * after that pair — one entry per run of draws, not two per draw. For encoders whose backend
 * replays the list at the submit (CommandEncoder says which); the plain list's push stays as it
 * was for the others (the fold's checks, in it, cost WebGPU's frames 4–10% in the stub pages).
 */
export class FoldingCommandList extends CommandList {
  /**
   * `#tailSlice`: a slice recorded last and not yet appended (null: none). The command after it
   * decides: the pair again (the run counts one more draw, the slice is never appended), or
   * anything else (the slice is appended first). Held back rather than appended and taken back:
   * the store and its undo were a tenth of a slice draw's recording in V8.
   * `#pairSlice`, `#pairDraw`: the pair the list ends with (or ends with and then `#tailSlice`),
   * repeated by `#run` when it has been; null when the list does not end so.
   */
  #tailSlice: UniformSliceCommand | null = null;
  #pairSlice: UniformSliceCommand | null = null;
  #pairDraw: DrawCommand | null = null;
  #run: DrawRunCommand | null = null;

  override get chunks(): readonly (readonly RecordedCommand[])[] {
    this.#appendTail();
    return super.chunks;
  }

  override get length(): number {
    return super.length + (this.#tailSlice === null ? 0 : 1);
  }

  override push(command: RecordedCommand): void {
    const slice = this.#tailSlice;
    if (slice !== null) {
      this.#tailSlice = null;
      if (command === this.#pairDraw && slice === this.#pairSlice) {
        // the pair again: the slice joins the run instead (its offset is logged)
        const run = this.#run;
        if (run !== null) run.count++;
        else super.push((this.#run = { type: 'drawRun', slice, draw: command, count: 1 }));
        return;
      }
      super.push(slice);
      if (command.type === 'draw') {
        // a new pair: the list ends with it
        this.#pairSlice = slice;
        this.#pairDraw = command;
        this.#run = null;
        super.push(command);
        return;
      }
      this.#pairSlice = this.#pairDraw = this.#run = null;
    } else if (this.#pairDraw !== null) this.#pairSlice = this.#pairDraw = this.#run = null;
    super.push(command);
  }

  override pushSlice(slice: UniformSliceCommand, offset: number): void {
    this.logSliceOffset(offset);
    // a slice after a slice: the first is appended, and the list no longer ends with the pair
    if (this.#tailSlice !== null) this.#appendTail();
    this.#tailSlice = slice;
  }

  override insert(at: number, command: Command): void {
    // (the list may no longer end as the fold's state says: it starts again)
    this.#appendTail();
    super.insert(at, command);
  }

  /** Appends the slice held back, if any; the fold starts again after it. */
  #appendTail(): void {
    const slice = this.#tailSlice;
    this.#pairSlice = this.#pairDraw = this.#run = null;
    if (slice === null) return;
    this.#tailSlice = null;
    super.push(slice);
  }
}

/**
 * The commands of `chunks` in one list, each `setUniformSlice` as a `setBinding` of its own, each
 * run as its draws.
 */
export function flatten(
  chunks: readonly (readonly RecordedCommand[])[],
  sliceOffsets: readonly number[],
): Command[] {
  const out: Command[] = [];
  let slice = 0;
  for (const chunk of chunks)
    for (const c of chunk) {
      if (c.type === 'setUniformSlice') out.push(binding(c, sliceOffsets[slice++] as number));
      else if (c.type === 'drawRun')
        for (let i = 0; i < c.count; i++)
          out.push(binding(c.slice, sliceOffsets[slice++] as number), c.draw);
      else out.push(c);
    }
  return out;
}

/** The `setBinding` a slice's recording at `offset` stands for. */
function binding(c: UniformSliceCommand, offset: number): Command {
  const { buffer, size } = c.resource;
  return { type: 'setBinding', slot: c.slot, resource: { kind: 'uniform', buffer, offset, size } };
}
