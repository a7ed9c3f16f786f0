// Reads a V8 CPU profile (`.cpuprofile`: Node's `--cpu-prof`, or Chromium's through
// `node bench/cpu-draws.mjs --browser chromium --profile FILE`) and lists the functions by their
// own (self) time, each with its file and line, as a share of the samples. V8 inlines small
// functions into their callers, whose self time then holds them (a profile of the sources, served
// unminified, names them best).
// `--lines`: by source line instead (of code compiled while the profiler ran: cpu-draws starts it
// before its warm-up; a page's sources are lines of the module as Vite serves it).
// `--callers`: the samples in functions without a source (the browser's own: `drawArrays`,
// `bindBufferRange`, `setBindGroup`, the collector) by the function of a source that called them,
// so one API call's time under the hand-written frame and under Ignis's replay can be compared.
//   node bench/v8-profile.mjs FILE.cpuprofile [--top 20] [--lines | --callers]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** A profile node's function, file and line: `draw render-commands.ts:279`. */
function frameName(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').pop().split('?')[0];
  return `${functionName || '(anonymous)'} ${file}${file ? `:${lineNumber + 1}` : ''}`;
}

/** The `top` functions by self time: `{ share, name }`, share in % of all samples. */
export function selfTimes(profile, top = 20) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const name = frameName(byId.get(id));
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]) => ({ share: (100 * t) / total, name }));
}

/**
 * The `top` source lines by their samples (`positionTicks`: V8 records them for code compiled
 * while the profiler runs, inlined callees' lines included): `{ share, name }`, in % of the
 * samples that have a line.
 */
export function lineTimes(profile, top = 20) {
  const lines = new Map();
  let total = 0;
  for (const n of profile.nodes) {
    const file = n.callFrame.url.split('/').pop().split('?')[0];
    for (const t of n.positionTicks ?? []) {
      const name = `${n.callFrame.functionName || '(anonymous)'} ${file}:${t.line}`;
      lines.set(name, (lines.get(name) ?? 0) + t.ticks);
      total += t.ticks;
    }
  }
  return [...lines]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => ({ share: (100 * n) / total, name }));
}

/**
 * The `top` functions without a source (natives, builtins, `(garbage collector)`) by self time,
 * each with the nearest caller that has a source: `{ share, name }`, in % of all samples.
 */
export function callerTimes(profile, top = 20) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const leaf = byId.get(id);
    if (leaf.callFrame.url) return;
    let up = parent.get(id);
    while (up !== undefined && !byId.get(up).callFrame.url) up = parent.get(up);
    const name = `${frameName(leaf)} ← ${up === undefined ? '(root)' : frameName(byId.get(up))}`;
    times.set(name, (times.get(name) ?? 0) + dt);
  });
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]) => ({ share: (100 * t) / total, name }));
}

export function printSelfTimes(profile, top = 20, { lines = false, callers = false } = {}) {
  const list = callers ? callerTimes : lines ? lineTimes : selfTimes;
  for (const { share, name } of list(profile, top))
    console.log(`${share.toFixed(1).padStart(5)}%  ${name}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file || file.startsWith('--'))
    throw new Error(
      'usage: node bench/v8-profile.mjs FILE.cpuprofile [--top N] [--lines | --callers]',
    );
  const i = process.argv.indexOf('--top');
  printSelfTimes(
    JSON.parse(readFileSync(file, 'utf8')),
    i >= 0 ? Number(process.argv[i + 1]) : 20,
    {
      lines: process.argv.includes('--lines'),
      callers: process.argv.includes('--callers'),
    },
  );
}
