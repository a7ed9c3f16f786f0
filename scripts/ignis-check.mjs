#!/usr/bin/env node
// ignis-check: runs a scene module (check/scene.ts) on every rung of the fallback ladder
// (check/rungs.ts) in headless Chromium, screenshots each, compares every rung with the first
// (per-channel tolerance and a share of differing pixels, and the scene's read() state if it has
// one), writes <out>/report.html with the images and the diff images, and exits 1 on a mismatch,
// 2 on an error (naming the scene and the rung). Every rung has a time limit.
//   npm run ignis-check -- <scene.ts> [--rungs webgpu,webgl2,…] [--frames 10] [--dt 0.016667]
//     [--size 256x256] [--params count=4096,seed=2] [--tolerance 2] [--max-diff 0.005]
//     [--state-tolerance 1e-3] [--timeout 60] [--out ignis-check-report]
import path from 'node:path';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { ensureSetup } from './setup.mjs';
import { number, parseParams, parseSceneArgs, runCli } from './scene-args.mjs';

export function parseArgs(argv) {
  return parseSceneArgs(
    'ignis-check',
    argv,
    { params: {}, tolerance: 2, maxDiff: 0.005, stateTolerance: 1e-3, out: 'ignis-check-report' },
    {
      '--params': (o, v, fail) => Object.assign(o.params, parseParams(v, '--params', fail)),
      '--tolerance': (o, v, fail) => (o.tolerance = number(v, '--tolerance', fail)),
      '--max-diff': (o, v, fail) => (o.maxDiff = number(v, '--max-diff', fail)),
      '--state-tolerance': (o, v, fail) =>
        (o.stateTolerance = number(v, '--state-tolerance', fail)),
    },
  );
}

/** Pixels of two same-sized RGBA images that differ by more than `tolerance` in a channel, and a diff image. */
export function compareImages(a, b, tolerance, PNG) {
  if (a.width !== b.width || a.height !== b.height)
    return { differing: a.width * a.height, diff: null };
  const diff = new PNG({ width: a.width, height: a.height });
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let bad = false;
    for (let c = 0; c < 3; c++) if (Math.abs(a.data[i + c] - b.data[i + c]) > tolerance) bad = true;
    if (bad) differing++;
    const grey = (a.data[i] + a.data[i + 1] + a.data[i + 2]) / 12;
    diff.data[i] = bad ? 255 : grey;
    diff.data[i + 1] = bad ? 0 : grey;
    diff.data[i + 2] = bad ? 0 : grey;
    diff.data[i + 3] = 255;
  }
  return { differing, diff };
}

export async function runCheck(o) {
  const scenePath = path.resolve(o.scene);
  if (!existsSync(scenePath)) throw new Error(`ignis-check: scene ${o.scene} not found`);
  const { startSceneRunner } = await import('./scene-runner.mjs');
  const { PNG } = await import('pngjs');
  const out = path.resolve(o.out);
  mkdirSync(out, { recursive: true });
  const runner = await startSceneRunner(scenePath, { gpu: o.gpu });
  const rows = [];
  try {
    for (const rung of o.rungs) {
      const row = { rung, image: `${rung}.png` };
      const r = await runner.runRung(
        o.scene,
        rung,
        {
          frames: String(o.frames),
          dt: String(o.dt),
          width: String(o.width),
          height: String(o.height),
          params: JSON.stringify(o.params),
        },
        o.timeout,
      );
      if (r.error) row.error = r.error;
      else if (r.outcome.skipped) {
        row.skipped = r.outcome.skipped;
        await r.page.close();
      } else {
        row.backend = r.outcome.backend;
        row.state = r.outcome.state;
        await (await r.page.$('canvas')).screenshot({ path: path.join(out, row.image) });
        await r.page.close();
      }
      rows.push(row);
    }
  } finally {
    await runner.close();
  }
  // compare every rung with the first that ran
  const first = rows.find((r) => !r.error && !r.skipped);
  const read = (r) => PNG.sync.read(readFileSync(path.join(out, r.image)));
  let mismatch = false;
  if (first) {
    const ref = read(first);
    for (const r of rows) {
      if (r.error || r.skipped || r === first) continue;
      const img = read(r);
      const { differing, diff } = compareImages(ref, img, o.tolerance, PNG);
      r.differing = differing;
      r.share = differing / (ref.width * ref.height);
      if (diff) {
        r.diff = `${r.rung}-diff.png`;
        writeFileSync(path.join(out, r.diff), PNG.sync.write(diff));
      }
      r.pixelsOk = r.share <= o.maxDiff;
      if (first.state && r.state) {
        const n = Math.min(first.state.length, r.state.length);
        let worst = first.state.length === r.state.length ? 0 : Infinity;
        for (let i = 0; i < n; i++) {
          const d = Math.abs(first.state[i] - r.state[i]);
          if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
        }
        r.stateWorst = worst;
        r.stateOk = worst <= o.stateTolerance;
      }
      if (!r.pixelsOk || r.stateOk === false) mismatch = true;
    }
  }
  const errors = rows.filter((r) => r.error);
  const status = errors.length ? 'error' : mismatch ? 'mismatch' : 'ok';
  // the report keeps the verdicts, not the states themselves
  const summary = rows.map((r) =>
    Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'state')),
  );
  writeFileSync(
    path.join(out, 'report.json'),
    JSON.stringify(
      { scene: o.scene, status, options: { ...o, scene: undefined }, rows: summary },
      null,
      2,
    ),
  );
  writeFileSync(path.join(out, 'report.html'), html(o, status, rows, first));
  return { status, rows, out };
}

function html(o, status, rows, first) {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const cell = (r) => {
    if (r.error) return `<td colspan="3" class="bad">${esc(r.error)}</td>`;
    if (r.skipped) return `<td colspan="3">skipped: ${esc(r.skipped)}</td>`;
    const verdict =
      r === first
        ? 'reference'
        : `${r.differing} pixels differ (${(100 * r.share).toFixed(2)}%, limit ${(100 * o.maxDiff).toFixed(2)}%)${r.stateWorst !== undefined ? `; state worst ${r.stateWorst}` : ''}`;
    const ok = r === first || (r.pixelsOk && r.stateOk !== false);
    return `<td><img src="${r.image}"></td><td>${r.diff ? `<img src="${r.diff}">` : ''}</td><td class="${ok ? 'ok' : 'bad'}">${esc(verdict)}</td>`;
  };
  return `<!doctype html><meta charset="utf-8"><title>ignis-check ${esc(o.scene)}</title>
<style>body{font:14px system-ui;background:#111;color:#ddd}td{padding:6px;vertical-align:top}img{image-rendering:pixelated;max-width:256px}.ok{color:#7d7}.bad{color:#f77}</style>
<h1>ignis-check: ${esc(o.scene)} — ${status}</h1>
<p>${o.frames} frames of ${o.dt.toFixed(4)} s at ${o.width}×${o.height}; a pixel differs when a channel is more than ${o.tolerance}/255 away from the first rung's.</p>
<table><tr><th>rung</th><th>image</th><th>diff with the first rung</th><th>verdict</th></tr>
${rows.map((r) => `<tr><td>${esc(r.rung)}${r.backend ? `<br><small>${esc(r.backend)}</small>` : ''}</td>${cell(r)}</tr>`).join('\n')}
</table>`;
}

await runCli(
  import.meta.url,
  parseArgs,
  () => ensureSetup(),
  async (o) => {
    const { status, rows, out } = await runCheck(o);
    for (const r of rows)
      console.log(
        `${r.rung.padEnd(18)} ${r.error ? `ERROR ${r.error}` : r.skipped ? `skipped: ${r.skipped}` : r.differing === undefined ? 'reference' : `${r.differing} pixels differ${r.stateWorst !== undefined ? `, state worst ${r.stateWorst}` : ''} — ${r.pixelsOk && r.stateOk !== false ? 'ok' : 'MISMATCH'}`}`,
      );
    console.log(`${status}: ${path.relative(process.cwd(), path.join(out, 'report.html'))}`);
    return status === 'ok' ? 0 : status === 'mismatch' ? 1 : 2;
  },
);
