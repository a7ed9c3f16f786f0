// bench/trace-summary.mjs over a small trace made here: the page's marked frames, slices on its
// thread inside and outside them, a slice on another thread (the GPU process's), which must not
// count.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { frameTraceSummary } from '../../bench/trace-summary.mjs';

const page = { pid: 1, tid: 10 };
const gpu = { pid: 2, tid: 20 };
const mark = (name: string, ts: number) => ({ ...page, ph: 'I', name, ts });
const slice = (at: typeof page, name: string, ts: number, dur: number) => ({
  ...at,
  ph: 'X',
  name,
  ts,
  dur,
});

describe('the trace summary of marked frames', () => {
  it('sums the page thread’s slices inside each frame, per contender, a frame', () => {
    const trace = {
      traceEvents: [
        { ...page, ph: 'M', name: 'thread_name', args: { name: 'CrRendererMain' } },
        { ...gpu, ph: 'M', name: 'thread_name', args: { name: 'CrGpuMain' } },
        mark('frame-start:raw at 10', 1000),
        slice(page, 'Flush', 1100, 200),
        slice(gpu, 'Flush', 1150, 5000), // another thread's
        mark('frame-end:raw at 10', 2000),
        slice(page, 'Flush', 2500, 900), // between frames
        mark('frame-start:ignis at 10', 3000),
        slice(page, 'Flush', 3100, 300),
        slice(page, 'Wait', 3500, 100),
        mark('frame-end:ignis at 10', 5000),
        mark('frame-start:raw at 10', 6000),
        slice(page, 'Flush', 6100, 400),
        mark('frame-end:raw at 10', 7000),
      ],
    };
    expect(frameTraceSummary(trace, 2)).toEqual([
      'raw at 10: 2 frames, 1.000 ms a frame',
      '  0.300 ms  1.00×  Flush',
      'ignis at 10: 1 frames, 2.000 ms a frame',
      '  0.300 ms  1.00×  Flush',
      '  0.100 ms  1.00×  Wait',
    ]);
  });

  it('says so when the trace has no marked frames', () => {
    expect(frameTraceSummary({ traceEvents: [slice(page, 'Flush', 0, 1)] })).toEqual([
      'no marked frames in the trace (frame-start:NAME … frame-end:NAME)',
    ]);
  });
});
