import type { DrawCommand, RecordedCommand, UniformSliceCommand } from '../core/commands.js';
import type { RenderBundle } from '../core/render-bundle.js';

/** Commands replayed as recorded (the queue's switch), with their uniform slices' offsets. */
export interface ReplaySegment {
  readonly chunks: readonly (readonly RecordedCommand[])[];
  readonly sliceOffsets: readonly number[];
}

/**
 * A run of draws between which only one uniform slot's slice moved: the same slice command (one
 * slot, buffer and size) and the same draw command again and again, nothing in between. The draw
 * before the run was replayed in full (pipeline, vertex arrays, every binding flushed), so each
 * draw of the run needs only its slice bound and the draw call — the hand-written frame's calls.
 */
export interface SliceRun {
  readonly slice: UniformSliceCommand;
  readonly draw: DrawCommand;
  /** Each draw's slice offset, in order. */
  readonly offsets: Int32Array;
}

/** A render bundle as the WebGL2 queue executes it: its commands cut into segments and runs. */
export type CompiledBundle = readonly (ReplaySegment | SliceRun)[];

export function isSliceRun(s: ReplaySegment | SliceRun): s is SliceRun {
  return (s as SliceRun).offsets !== undefined;
}

/**
 * Cuts a bundle's commands into what the queue replays through its switch and runs of draws that
 * only move a uniform slice (SliceRun). Made once per bundle, at `finish()` (a debug device's:
 * never); it holds Ignis objects, not GL handles, so it stays right after a context restore.
 */
export function compileBundle(bundle: RenderBundle): CompiledBundle {
  const out: (ReplaySegment | SliceRun)[] = [];
  let commands: RecordedCommand[] = [];
  let sliceOffsets: number[] = [];
  let run: { slice: UniformSliceCommand; draw: DrawCommand; offsets: number[] } | null = null;
  let last: { slice: UniformSliceCommand; draw: DrawCommand } | null = null;
  const closeRun = (): void => {
    if (!run) return;
    out.push({ slice: run.slice, draw: run.draw, offsets: Int32Array.from(run.offsets) });
    run = null;
  };
  const closeReplay = (): void => {
    if (commands.length === 0) return;
    out.push({ chunks: [commands], sliceOffsets });
    commands = [];
    sliceOffsets = [];
  };
  const all = bundle.chunks.flat();
  let slice = 0;
  for (let i = 0; i < all.length;) {
    const c = all[i] as RecordedCommand;
    const next = all[i + 1];
    if (c.type === 'setUniformSlice' && next?.type === 'draw') {
      const offset = bundle.sliceOffsets[slice++] as number;
      if (last && last.slice === c && last.draw === next) {
        if (!run) {
          closeReplay();
          run = { slice: c, draw: next, offsets: [] };
        }
        run.offsets.push(offset);
      } else {
        closeRun();
        commands.push(c, next);
        sliceOffsets.push(offset);
        last = { slice: c, draw: next };
      }
      i += 2;
      continue;
    }
    closeRun();
    // anything else between two draws may change what the next one needs bound
    last = null;
    commands.push(c);
    if (c.type === 'setUniformSlice') sliceOffsets.push(bundle.sliceOffsets[slice++] as number);
    // (a bundle's list folds no runs, but one replays as recorded all the same)
    if (c.type === 'drawRun')
      for (let k = 0; k < c.count; k++) sliceOffsets.push(bundle.sliceOffsets[slice++] as number);
    i++;
  }
  closeRun();
  closeReplay();
  return out;
}
