// Reads a Chromium trace (puppeteer's `page.tracing`, the JSON Chrome's chrome://tracing opens) of
// frames the page marked `frame-start:NAME` … `frame-end:NAME` (bench/cpu-probe-draws.mjs --trace)
// and says, per NAME, what the page's main thread spent a frame on: the wall time between the
// marks and the trace's complete slices that began inside them (`CommandBufferHelper::Flush`, the
// GPU command buffer handed to the GPU process; `WaitForGetOffset`, waiting for it to catch up).
//   node bench/trace-summary.mjs FILE.json [--top 6]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Lines: per marked frame name, frames, wall ms a frame, and the top slices' count and ms a frame. */
export function frameTraceSummary(trace, top = 6) {
  const events = trace.traceEvents ?? trace;
  const threads = new Map();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const marks = events
    .filter((e) => /^frame-(start|end):/.test(e.name))
    .sort((a, b) => a.ts - b.ts);
  const spans = [];
  let open = null;
  for (const m of marks) {
    if (m.name.startsWith('frame-start:')) open = m;
    else if (open && m.name.slice('frame-end:'.length) === open.name.slice('frame-start:'.length)) {
      spans.push({ name: open.name.slice('frame-start:'.length), t0: open.ts, t1: m.ts });
      open = null;
    }
  }
  if (spans.length === 0)
    return ['no marked frames in the trace (frame-start:NAME … frame-end:NAME)'];
  const thread = `${marks[0].pid}:${marks[0].tid}`;
  const slices = events
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === thread)
    .sort((a, b) => a.ts - b.ts);
  const by = new Map();
  let i = 0;
  for (const s of spans) {
    const a = by.get(s.name) ?? { frames: 0, wall: 0, slices: new Map() };
    by.set(s.name, a);
    a.frames++;
    a.wall += s.t1 - s.t0;
    while (i < slices.length && slices[i].ts < s.t0) i++;
    for (let j = i; j < slices.length && slices[j].ts < s.t1; j++) {
      const e = slices[j];
      const x = a.slices.get(e.name) ?? { n: 0, us: 0 };
      a.slices.set(e.name, x);
      x.n++;
      x.us += e.dur ?? 0;
    }
  }
  const lines = [];
  for (const [name, a] of by) {
    lines.push(`${name}: ${a.frames} frames, ${(a.wall / a.frames / 1000).toFixed(3)} ms a frame`);
    for (const [slice, x] of [...a.slices].sort((p, q) => q[1].us - p[1].us).slice(0, top))
      lines.push(
        `  ${(x.us / a.frames / 1000).toFixed(3)} ms  ${(x.n / a.frames).toFixed(2)}×  ${slice}`,
      );
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file || file.startsWith('--'))
    throw new Error('usage: node bench/trace-summary.mjs FILE.json [--top N]');
  const i = process.argv.indexOf('--top');
  const trace = JSON.parse(readFileSync(file, 'utf8'));
  for (const line of frameTraceSummary(trace, i >= 0 ? Number(process.argv[i + 1]) : 6))
    console.log(line);
}
