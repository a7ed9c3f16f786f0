// `npm run soak [-- --frames N] [-- --report]`: the soak of tests/gpu/cases/soak.ts, N frames (10,000 by
// default) on each backend of each engine there is (Chromium; Firefox and WebKit where
// installed), then its curves — resources alive, backend cache entries, JS heap — as
// docs/images/soak.svg and a table in test-output/soak/summary.md. The run fails where the test
// fails (an error, objects or caches not back at their warm-up level).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureSetup } from './setup.mjs';

const at = process.argv.indexOf('--frames');
let frames = at >= 0 ? Number(process.argv[at + 1]) : 10_000;
if (!Number.isInteger(frames) || frames < 100) {
  console.error(`ignis soak: --frames ${process.argv[at + 1]} must be an integer ≥ 100`);
  process.exit(2);
}
// --report: the curves and the table again from the samples of the last run, without running it
const reportOnly = process.argv.includes('--report');
let status = 0;
if (!reportOnly) {
  ensureSetup();
  const { ENGINE_NAMES, ensureEngines } = await import('./engines.mjs');
  ensureEngines(ENGINE_NAMES);
  const result = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--project',
      'gpu',
      'tests/gpu/soak.gpu.test.ts',
      '--testTimeout=3600000',
      '--hookTimeout=600000',
    ],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, IGNIS_SOAK_FRAMES: String(frames) } },
  );
  status = result.status ?? 1;
}

const dir = path.join(ROOT, 'test-output', 'soak');
const runs = [];
for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []) {
  const {
    engine,
    frames: ran,
    runs: byBackend,
  } = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  if (reportOnly) frames = ran;
  for (const [backend, samples] of Object.entries(byBackend))
    runs.push({ name: `${engine}:${backend}`, samples });
}
if (runs.length === 0) {
  console.error('ignis soak: no samples were written (see the test output above)');
  process.exit(status || 1);
}

const COLORS = ['#e6550d', '#3182bd', '#31a354', '#756bb1', '#de2d26', '#636363'];
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Panels stacked: one quantity each against the frame, a line per run. */
function soakSvg(panels) {
  const W = 760;
  const PH = 170;
  const m = { l: 80, r: 170, t: 34, b: 30 };
  const H = m.t + panels.length * PH + 10;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.l}" y="20" font-size="14">${esc(`Soak: ${frames} frames of churn per run, a loss and restore at frame ${Math.floor(frames / 2)}`)}</text>`,
  ];
  panels.forEach(({ title, value, unit }, p) => {
    const top = m.t + p * PH;
    const h = PH - m.b - 10;
    const lines = runs
      .map((r) => ({
        name: r.name,
        pts: r.samples.map((s) => [s.frame, value(s)]).filter(([, y]) => y !== null),
      }))
      .filter((l) => l.pts.length > 0);
    const ys = lines.flatMap((l) => l.pts.map(([, y]) => y));
    const y0 = 0;
    const y1 = Math.max(1, ...ys) * 1.15;
    const px = (x) => m.l + (x / frames) * (W - m.l - m.r);
    const py = (y) => top + h - ((y - y0) / (y1 - y0)) * h;
    parts.push(`<text x="${m.l}" y="${top + 2}" font-weight="bold">${esc(title)}</text>`);
    parts.push(`<line x1="${m.l}" y1="${top + h}" x2="${W - m.r}" y2="${top + h}" stroke="#999"/>`);
    parts.push(`<line x1="${m.l}" y1="${top + 8}" x2="${m.l}" y2="${top + h}" stroke="#999"/>`);
    for (const t of [0, 0.5, 1]) {
      const y = y0 + t * (y1 - y0);
      parts.push(
        `<text x="${m.l - 6}" y="${py(y) + 4}" text-anchor="end">${esc(`${Math.round(y * 10) / 10}${unit}`)}</text>`,
      );
    }
    for (const t of [0, 0.5, 1])
      parts.push(
        `<text x="${px(t * frames)}" y="${top + h + 14}" text-anchor="middle">${Math.round(t * frames)}</text>`,
      );
    lines.forEach((l, i) => {
      const color = COLORS[runs.findIndex((r) => r.name === l.name) % COLORS.length];
      const d = l.pts
        .map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`)
        .join('');
      parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
      if (p === 0) {
        const ly = m.t + 14 + i * 16;
        parts.push(
          `<line x1="${W - m.r + 10}" y1="${ly - 4}" x2="${W - m.r + 30}" y2="${ly - 4}" stroke="${color}" stroke-width="2"/>`,
        );
        parts.push(`<text x="${W - m.r + 34}" y="${ly}">${esc(l.name)}</text>`);
      }
    });
    if (lines.length === 0)
      parts.push(`<text x="${m.l + 10}" y="${top + h / 2}">not measured by these engines</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

const svg = soakSvg([
  { title: 'resources alive (device.stats())', value: (s) => s.objects, unit: '' },
  { title: 'backend cache entries (device.cacheStats())', value: (s) => s.caches, unit: '' },
  {
    title: 'JS heap (performance.memory, Chromium only)',
    value: (s) => (s.heap === null ? null : s.heap / 2 ** 20),
    unit: ' MiB',
  },
]);
writeFileSync(path.join(ROOT, 'docs', 'images', 'soak.svg'), `${svg}\n`);
const rows = runs.map(({ name, samples }) => {
  const warm = samples.find((s) => s.frame >= frames / 10) ?? samples[0];
  const end = samples[samples.length - 1];
  // the heap saws with the collector: its floor (the least sampled) in each half says more
  const floor = (from, to) => {
    const heaps = samples.filter((s) => s.frame >= from && s.frame < to && s.heap !== null);
    return heaps.length === 0 ? '—' : (Math.min(...heaps.map((s) => s.heap)) / 2 ** 20).toFixed(1);
  };
  return `| ${name} | ${warm.objects} → ${end.objects} | ${warm.caches} → ${end.caches} | ${floor(frames / 10, frames / 2)} → ${floor(frames / 2, frames + 1)} |`;
});
const table = [
  `${frames} frames per run (after the warm-up → at the end; the heap's floor in the first half → in the second):`,
  '',
  '| run | resources alive | cache entries | JS heap floor (MiB) |',
  '| --- | --- | --- | --- |',
  ...rows,
].join('\n');
writeFileSync(path.join(dir, 'summary.md'), `${table}\n`);
console.log(`\nignis soak: docs/images/soak.svg written\n${table}`);
process.exit(status);
