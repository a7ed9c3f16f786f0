// Reads a Firefox (Gecko) profile and says where the time of each benchmark frame went: for every
// function matching --frames (by default the draws suite's frame functions in
// bench/page/draw-frames.ts and draws.ts, one name per kind: ignisPassFrame, rawBundleFrame,
// uploadFrame, rawGLPassFrame, …), the
// samples under it, grouped by the first JavaScript functions
// called below it and the library the sample ended in (libc: copies and IPC; libxul: Gecko,
// SpiderMonkey's allocator and collector — its own labels, such as "Minor GC", show by name).
// Firefox writes the profile itself when started with these variables (no profiler UI needed,
// headless included), e.g. around the draws suite:
//   MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_SHUTDOWN=/tmp/ff.json \
//   MOZ_PROFILER_STARTUP_FEATURES=js,stackwalk,cpu MOZ_PROFILER_STARTUP_INTERVAL=1 \
//   MOZ_PROFILER_STARTUP_ENTRIES=64000000 MOZ_PROFILER_STARTUP_FILTERS=GeckoMain \
//   npm run bench -- --suites draws --browser firefox --draw-counts 10000 --repeat 1 --out /tmp/d
//   node bench/gecko-profile.mjs /tmp/ff.json [--frames REGEX] [--top 20]
// Native frames are not symbolicated (Debian's libxul has no symbols): they are named by library.
import { readFileSync } from 'node:fs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const file = process.argv[2];
if (!file || file.startsWith('--'))
  throw new Error('usage: node bench/gecko-profile.mjs PROFILE.json [--frames REGEX] [--top N]');
const framesRe = new RegExp(arg('frames', '^\\w*Frame .*bench/page/draw'));
const top = Number(arg('top', '20'));
const profile = JSON.parse(readFileSync(file, 'utf8'));

const threads = [];
const libs = [];
(function walk(p) {
  threads.push(...p.threads);
  libs.push(...(p.libs ?? []));
  for (const child of p.processes ?? []) walk(child);
})(profile);

/** A frame's name: a JavaScript function without its origin, or the library of an address. */
function nameOf(location) {
  if (!location.startsWith('0x')) return location.replace(/\(https?:\/\/[^/]+\//, '(');
  const at = BigInt(location);
  const lib = libs.find((l) => at >= BigInt(l.start) && at < BigInt(l.end));
  return lib ? lib.name : 'jit';
}

for (const t of threads) {
  const strings = t.stringTable;
  if (!strings.some((s) => framesRe.test(s))) continue;
  const frames = t.frameTable.data;
  const loc = t.frameTable.schema.location;
  const stacks = t.stackTable.data;
  const prefix = t.stackTable.schema.prefix;
  const frameOf = t.stackTable.schema.frame;
  const byFrame = new Map();
  for (const sample of t.samples.data) {
    let s = sample[t.samples.schema.stack];
    const chain = []; // leaf first
    while (s !== null && s !== undefined) {
      chain.push(strings[frames[stacks[s][frameOf]][loc]]);
      s = stacks[s][prefix];
    }
    const k = chain.findIndex((l) => framesRe.test(l));
    if (k < 0) continue;
    const below = chain.slice(0, k).reverse();
    const js = below.filter((l) => !l.startsWith('0x')).map((l) => l.split(' ')[0]);
    const key = `${js.slice(0, 3).join(' > ') || '(native)'} | ${nameOf(chain[0])}`;
    const name = nameOf(chain[k]);
    const groups = byFrame.get(name) ?? new Map();
    groups.set(key, (groups.get(key) ?? 0) + 1);
    byFrame.set(name, groups);
  }
  for (const [name, groups] of byFrame) {
    const total = [...groups.values()].reduce((a, b) => a + b, 0);
    console.log(`\n${t.name} (pid ${t.pid}): ${name}: ${total} samples`);
    for (const [key, n] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `${String(n).padStart(7)}  ${((n / total) * 100).toFixed(1).padStart(5)}%  ${key}`,
      );
  }
}
