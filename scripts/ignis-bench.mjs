#!/usr/bin/env node
// ignis-bench: frame times of a scene module (src/scene.ts) over a grid of parameters and rungs
// in headless Chromium — interleaved repeats (every cell once per repeat, in turn), warm-up frames,
// per-frame CPU time (the scene's frame call), end-to-end time (until the GPU is done) and GPU time
// (timestamp queries on the scene's passes, where the rung has them), medians. Writes
// <out>/bench.json, <out>/bench.md and <out>/bench.svg (against the first numeric grid axis);
// `--clocks` guards the GPU's clock on WebGPU rungs (check/clock-probe.ts: the default `auto`
// where timestamps work on a hardware adapter; each cell's measured frames start at the clock's
// top, and its row says the lowest share of the top found through them). `--check <saved
// bench.json>` exits 1 when a cell's median end-to-end time is above the saved one by more than
// `--threshold` (a CI regression gate).
//   npm run ignis-bench -- <scene.ts> [--param count=1000,10000 …] [--rungs webgpu,webgl2]
//     [--frames 20] [--warmup 5] [--repeat 3] [--size 256x256] [--timeout 120]
//     [--budget-ms 6000] [--too-slow-ms 5000] [--clocks auto|on|off] [--screenshots]
//     [--check saved.json] [--threshold 1.5] [--out ignis-bench-report]
// `npm run bench`'s particle suite is this runner over check/scenes/particles.ts (bench/runner.mjs).
import path from 'node:path';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ensureSetup } from './setup.mjs';
import { lineChartSvg } from './chart.mjs';
import { number, parseParams, parseSceneArgs, rungCells, runCli } from './scene-args.mjs';

export function parseArgs(argv) {
  const o = parseSceneArgs(
    'ignis-bench',
    argv,
    {
      rungs: ['webgpu', 'webgl2'],
      frames: 20,
      warmup: 5,
      repeat: 3,
      timeout: 120,
      grid: {},
      threshold: 1.5,
      clocks: 'auto',
      runtime: 'browser',
      out: 'ignis-bench-report',
    },
    {
      // --param name=v1,v2 adds an axis to the grid (repeat it for more axes)
      '--param': (o, v, fail) => {
        const eq = v.indexOf('=');
        if (eq <= 0) fail(`--param ${v} is not name=value[,value…]`);
        const values = Object.values(
          parseParams(
            v
              .slice(eq + 1)
              .split(',')
              .map((x, i) => `${i}=${x}`)
              .join(','),
            '--param',
            fail,
          ),
        );
        if (values.length === 0) fail(`--param ${v} has no values`);
        o.grid[v.slice(0, eq)] = values;
      },
      '--warmup': (o, v, fail) => (o.warmup = Math.round(number(v, '--warmup', fail))),
      '--repeat': (o, v, fail) => (o.repeat = Math.max(1, Math.round(number(v, '--repeat', fail)))),
      '--threshold': (o, v, fail) => (o.threshold = number(v, '--threshold', fail)),
      // stop measuring a cell's metric after this long once 5 frames are in
      '--budget-ms': (o, v, fail) => (o.budgetMs = number(v, '--budget-ms', fail)),
      // skip a cell whose warm-up frame takes longer than this
      '--too-slow-ms': (o, v, fail) => (o.tooSlowMs = number(v, '--too-slow-ms', fail)),
      '--clocks': (o, v, fail) => {
        if (v !== 'auto' && v !== 'on' && v !== 'off') fail(`--clocks ${v} is not auto, on or off`);
        o.clocks = v;
      },
      '--check': (o, v) => (o.check = v),
      // the same comparison with the saved run, reported without failing
      '--compare': (o, v) => (o.compare = v),
      '--runtime': (o, v, fail) => {
        if (v !== 'browser' && v !== 'deno') fail(`--runtime ${v} is not browser or deno`);
        o.runtime = v;
      },
    },
    // a PNG of each cell's last frame, on the last repeat (browser runtime)
    { '--screenshots': (o) => (o.screenshots = true) },
  );
  // Deno has WebGPU only: its default is the webgpu rung
  if (o.runtime === 'deno' && !argv.includes('--rungs')) o.rungs = ['webgpu'];
  if (o.runtime === 'deno' && o.screenshots)
    throw new Error(
      'ignis-bench: --screenshots needs the browser runtime (under Deno nothing is presented to take a picture of)',
    );
  return o;
}

/** Every combination of the grid's values, as params objects (one empty one for no grid). */
export function gridCells(grid) {
  return Object.entries(grid).reduce(
    (cells, [name, values]) => cells.flatMap((c) => values.map((v) => ({ ...c, [name]: v }))),
    [{}],
  );
}

/** The p-th percentile of `v`, interpolated between the nearest ranks (NaN for none). */
export function percentile(v, p) {
  if (v.length === 0) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const rank = (p / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  return s[lo] + (s[Math.ceil(rank)] - s[lo]) * (rank - lo);
}
const median = (v) => percentile(v, 50);
const cellKey = (rung, params) =>
  `${rung} ${Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`.trim();

/**
 * The cells' order in repeat `r`: as given in even repeats, reversed in odd ones, so that a drift
 * across a repeat (a browser warming up, a software GPU's caches, the machine) weighs on every
 * cell alike over each pair of repeats. Run always in one order, the last cell of a repeat read up
 * to 10% faster than the same work first (WebKit, a million particles: docs/benchmarks.md).
 */
export function repeatOrder(cells, r) {
  return r % 2 === 0 ? cells : [...cells].reverse();
}

/**
 * Runs the grid (every rung × every combination of `o.grid`, or the `cells` given: `{ rung,
 * params }` each), `o.repeat` times interleaved; writes bench.json, bench.md and bench.svg into
 * `o.out` and returns `{ rows, errors, out, md }` (every other repeat runs the cells in reverse:
 * `repeatOrder`). `browser`: a puppeteer Browser to open the pages in instead of launching one;
 * `onCell(done, total, key)`: progress.
 */
export async function runBench(o, { browser, cells: given, onCell } = {}) {
  const scenePath = path.resolve(o.scene);
  if (!existsSync(scenePath)) throw new Error(`ignis-bench: scene ${o.scene} not found`);
  const savedPath = o.check ?? o.compare;
  const saved = savedPath ? JSON.parse(readFileSync(savedPath, 'utf8')) : null;
  const { chooseEngines, poolOf, startRunners, startSceneRunner, withTimeout, PAGE_MS } =
    await import('./scene-runner.mjs');
  let pool;
  let engines = ['chromium'];
  if (o.runtime === 'deno')
    pool = poolOf(
      await (await import('./deno-scene-runner.mjs')).startDenoSceneRunner(scenePath, o),
    );
  else if (browser)
    pool = poolOf(await startSceneRunner(scenePath, { ...o, timing: true, browser }));
  else {
    engines = (await chooseEngines(o, 'ignis-bench')) ?? [];
    const qualified = o.rungs.filter((r) => r.includes(':')).map((r) => r.split(':')[0]);
    pool = await startRunners(scenePath, {
      ...o,
      timing: true,
      connect: o.connect ?? [],
      engines: [...new Set([...engines, ...qualified])],
    });
    if (o.connect && !o.browsers) engines = pool.engines;
  }
  const engineOf = pool.runners.length === 1 ? pool.runners[0].engine : null;
  const cells = (
    given ??
    rungCells(o.rungs, engines).flatMap((cell) =>
      gridCells(o.grid).map((params) => ({ ...cell, params })),
    )
  ).map((c) => ({
    ...c,
    engine: engineOf ?? c.engine ?? 'chromium',
    label: c.label ?? c.rung,
  }));
  const samples = new Map(
    cells.map((c) => [
      cellKey(c.label, c.params),
      { cpu: [], e2e: [], gpu: [], raf: [], passes: {}, repeats: [], untimed: 0 },
    ]),
  );
  const out = path.resolve(o.out);
  mkdirSync(out, { recursive: true });
  const errors = [];
  const versions = {};
  let done = 0;
  try {
    for (const runner of pool.runners) versions[runner.engine] ??= await runner.version?.();
    for (let r = 0; r < o.repeat; r++)
      await pool.run(repeatOrder(cells, r), async (runner, c) => {
        const key = cellKey(c.label, c.params);
        onCell?.(++done, o.repeat * cells.length, key);
        const got = await runner.runRung(
          o.scene,
          c.rung,
          {
            mode: 'bench',
            frames: String(o.frames),
            warmup: String(o.warmup),
            dt: String(o.dt),
            width: String(o.width),
            height: String(o.height),
            params: JSON.stringify(c.params),
            ...(o.budgetMs !== undefined ? { budgetMs: String(o.budgetMs) } : {}),
            ...(o.tooSlowMs !== undefined ? { tooSlowMs: String(o.tooSlowMs) } : {}),
            clocks: o.clocks ?? 'auto',
          },
          o.timeout,
        );
        if (got.error) {
          errors.push(`${got.error} (${key}, repeat ${r + 1})`);
          return;
        }
        const s = samples.get(key);
        const m = got.outcome;
        s.backend = m.backend;
        s.adapter = m.adapter;
        if (m.skipped) {
          s.skipped = m.skipped;
          await got.page.close();
          return;
        }
        s.cpu.push(...m.cpuMs);
        s.e2e.push(...m.e2eMs);
        s.gpu.push(...m.gpuMs);
        s.raf.push(...(m.rafMs ?? []));
        for (const [label, ms] of Object.entries(m.gpuPassMs ?? {}))
          (s.passes[label] ??= []).push(...ms);
        s.untimed = Math.max(s.untimed, m.untimedPasses);
        if (m.clock !== undefined) s.clock = Math.min(s.clock ?? Infinity, m.clock);
        if (m.clockNote) s.clockNote = m.clockNote;
        s.repeats.push(median(m.e2eMs));
        s.info = m.info;
        s.gpuBytes = m.gpuBytes;
        s.heapBytes = m.heapBytes;
        if (o.screenshots && r === o.repeat - 1 && got.page.screenshot) {
          const file = `${key.replace(/[^\w.=-]+/g, '_')}.png`;
          // a second try once: a capture stalled past PAGE_MS once in a test, on a loaded machine
          for (let attempt = 1; attempt <= 2 && !s.screenshot; attempt++)
            try {
              const png = await withTimeout(
                got.page.screenshot('canvas'),
                PAGE_MS,
                'the screenshot',
              );
              writeFileSync(path.join(out, file), png);
              s.screenshot = file;
            } catch (e) {
              // the times are measured; a picture the browser does not give is said, not waited for
              console.error(
                `\nignis-bench: no screenshot of ${key} (${e.message})${attempt === 1 ? '; trying once more' : ''}`,
              );
            }
        }
        await withTimeout(got.page.close(), PAGE_MS, 'closing the page').catch(() => {});
      });
  } finally {
    await pool.close();
  }
  const rows = cells.map((c) => {
    const key = cellKey(c.label, c.params);
    const s = samples.get(key);
    const row = {
      key,
      rung: c.label,
      engine: c.engine,
      params: c.params,
      backend: s.backend ?? null,
      adapter: s.adapter ?? null,
      ...(s.skipped ? { skipped: s.skipped } : {}),
      frames: s.e2e.length,
      e2eMs: median(s.e2e),
      e2eP95Ms: percentile(s.e2e, 95),
      e2eP99Ms: percentile(s.e2e, 99),
      cpuMs: median(s.cpu),
      gpuMs: median(s.gpu),
      gpuPassMs: Object.fromEntries(Object.entries(s.passes).map(([k, v]) => [k, median(v)])),
      rafMs: median(s.raf),
      rafP95Ms: percentile(s.raf, 95),
      ...(s.untimed ? { untimedPasses: s.untimed } : {}),
      ...(s.clock !== undefined ? { clock: s.clock } : {}),
      ...(s.clockNote ? { clockNote: s.clockNote } : {}),
      repeatMedians: s.repeats,
      ...(s.info ? { info: s.info } : {}),
      ...(s.gpuBytes !== undefined ? { gpuBytes: s.gpuBytes } : {}),
      ...(s.heapBytes !== undefined ? { heapBytes: s.heapBytes } : {}),
      ...(s.screenshot ? { screenshot: s.screenshot } : {}),
    };
    const before = saved?.rows?.find((x) => x.key === key);
    if (before && Number.isFinite(row.e2eMs)) {
      row.ratio = row.e2eMs / before.e2eMs;
      row.regressed = Boolean(o.check) && row.ratio > o.threshold;
    }
    return row;
  });
  const result = {
    scene: o.scene,
    date: new Date().toISOString(),
    options: { ...o },
    engines: versions,
    rows,
    errors,
  };
  writeFileSync(path.join(out, 'bench.json'), JSON.stringify(result, null, 2));
  writeFileSync(path.join(out, 'bench.svg'), chart(o, rows));
  const fmt = (v) => (Number.isFinite(v) ? v.toFixed(3) : '—');
  const md = [
    `# ignis-bench: ${o.scene}`,
    '',
    `${o.frames} measured frames after ${o.warmup} warm-up frames, ${o.repeat} interleaved repeats, ${o.width}×${o.height}; medians over every measured frame. CPU: the scene's frame call (recording and submitting); e2e: until the GPU is done; GPU: the scene's passes by timestamp queries (— where the rung has none), summed and by pass label; rAF: the interval between requestAnimationFrame callbacks of a free-running loop (browser only).${saved ? ` Against ${savedPath}${o.check ? `: a regression is a ratio above ${o.threshold}` : ' (--compare: reported, not gated)'}.` : ''}`,
    '',
    `Runtime: ${o.runtime === 'deno' ? "Deno's WebGPU (offscreen)" : Object.values(versions).filter(Boolean).join(', ') || 'a headless browser'}; adapter: ${[...new Set(rows.map((r) => r.adapter).filter(Boolean))].join('; ') || 'not named'}.`,
    '',
    clockLine(o, rows),
    '',
    `| rung | params | backend | e2e ms | CPU ms | GPU ms | GPU ms by pass | rAF ms | repeat medians${saved ? ' | vs saved |' : ' |'}`,
    `|---|---|---|---|---|---|---|---|---${saved ? '|---|' : '|'}`,
    ...rows.map(
      (r) =>
        `| ${r.rung}${r.skipped ? ` (skipped: ${r.skipped})` : ''} | ${
          Object.entries(r.params)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ') || '—'
        } | ${r.backend ?? '—'} | ${fmt(r.e2eMs)} | ${fmt(r.cpuMs)} | ${fmt(r.gpuMs)}${r.untimedPasses ? ` (${r.untimedPasses} passes untimed)` : ''} | ${
          Object.entries(r.gpuPassMs)
            .map(([k, v]) => `${k}: ${fmt(v)}`)
            .join('; ') || '—'
        } | ${fmt(r.rafMs)} | ${r.repeatMedians.map(fmt).join(', ')}${saved ? ` | ${r.ratio === undefined ? 'not in saved run' : `${r.ratio.toFixed(2)}×${r.regressed ? ' REGRESSED' : ''}`} |` : ' |'}`,
    ),
    ...(errors.length ? ['', ...errors.map((e) => `- error: ${e}`)] : []),
  ].join('\n');
  writeFileSync(path.join(out, 'bench.md'), `${md}\n`);
  return { rows, errors, out, md };
}

/**
 * What the report says of the GPU's clock (`--clocks`): the lowest share of its top found over
 * each guarded cell's measured frames, and why the others were not guarded.
 */
export function clockLine(o, rows) {
  if (o.clocks === 'off') return 'Clock: not guarded (--clocks off).';
  const guarded = rows.filter((r) => r.clock !== undefined);
  const why = new Map();
  for (const r of rows) if (r.clockNote) why.set(r.clockNote, (why.get(r.clockNote) ?? 0) + 1);
  const parts = [];
  if (guarded.length > 0)
    parts.push(
      `guarded (check/clock-probe.ts: each cell's measured frames start at its top, checked every second); the lowest share of its top found, per cell: ${guarded.map((r) => `${r.key} ${r.clock.toFixed(2)}`).join(', ')}`,
    );
  if (why.size > 0)
    parts.push(
      `not guarded on ${[...why].map(([note, n]) => `${n} cell${n > 1 ? 's' : ''} (${note})`).join(', ')}`,
    );
  return `Clock (--clocks ${o.clocks ?? 'auto'}): ${parts.join('; ') || 'no cell measured'}.`;
}

/**
 * e2e medians against the first grid axis whose values are all numbers (one line per rung and
 * combination of the other axes); a note instead when the grid has no such axis.
 */
export function chart(o, rows) {
  const axis = Object.keys(o.grid).find((k) => o.grid[k].every((v) => typeof v === 'number'));
  const series = new Map();
  for (const r of rows) {
    if (!axis || !Number.isFinite(r.e2eMs)) continue;
    const rest = Object.entries(r.params)
      .filter(([k]) => k !== axis)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const label = `${r.rung}${rest ? ` ${rest}` : ''}`;
    if (!series.has(label)) series.set(label, []);
    series.get(label).push([r.params[axis], r.e2eMs]);
  }
  return lineChartSvg({
    title: `ignis-bench: ${path.basename(o.scene)}${axis ? '' : ' (no numeric --param axis to plot)'}`,
    xLabel: axis ?? '—',
    yLabel: 'e2e median frame time',
    series,
  });
}

// under Deno neither Chromium nor the browser-side peers are needed, and with a built library in
// $IGNIS_DIST not even the npm packages (a GPU server may have no registry to install them from)
const setup = (o) => {
  if (o.runtime !== 'deno') ensureSetup(o.connect ? { npmOnly: true } : {});
  else if (!process.env.IGNIS_DIST) ensureSetup({ npmOnly: true, peers: [] });
};

await runCli(import.meta.url, parseArgs, setup, async (o) => {
  const { rows, errors, md } = await runBench(o);
  console.log(md);
  return errors.length ? 2 : rows.some((r) => r.regressed) ? 1 : 0;
});
