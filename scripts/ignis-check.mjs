#!/usr/bin/env node
// ignis-check: runs a scene module (check/scene.ts) on every rung of the fallback ladder
// (check/rungs.ts) in headless Chromium, screenshots each, compares every rung with the first
// (per-channel tolerance and a share of differing pixels, and the scene's read() state if it has
// one), writes <out>/report.html with the images and the diff images, and exits 1 on a mismatch,
// 2 on an error (naming the scene and the rung). Every rung has a time limit.
// Rungs run in each browser engine of --browsers (default: those installed) or in browsers already
// running elsewhere (--connect, sharded across the endpoints); the report has a column per engine.
//   npm run ignis-check -- <scene.ts> [--rungs webgpu,webgl2,firefox:webgpu,…]
//     [--browsers chromium,firefox,webkit] [--connect ws://…,http://…] [--frames 10] [--dt 0.016667]
//     [--size 256x256] [--params count=4096,seed=2] [--tolerance 2] [--max-diff 0.005]
//     [--state-tolerance 1e-3] [--timeout 60] [--out ignis-check-report]
import path from 'node:path';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { ensureSetup } from './setup.mjs';
import { number, parseParams, parseSceneArgs, rungCells, runCli } from './scene-args.mjs';

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
  const { chooseEngines, decodeState, startRunners, withTimeout, PAGE_MS } =
    await import('./scene-runner.mjs');
  const { PNG } = await import('pngjs');
  const out = path.resolve(o.out);
  mkdirSync(out, { recursive: true });
  const wanted = await chooseEngines(o, 'ignis-check');
  const qualified = o.rungs.filter((r) => r.includes(':')).map((r) => r.split(':')[0]);
  const pool = await startRunners(scenePath, {
    gpu: o.gpu,
    connect: o.connect ?? [],
    engines: [...new Set([...(wanted ?? []), ...qualified])],
  });
  const browsers = wanted ?? pool.engines;
  const cells = rungCells(o.rungs, browsers);
  const versions = {};
  let rows;
  try {
    for (const r of pool.runners) versions[r.engine] ??= await r.version();
    rows = await pool.run(cells, async (runner, cell) => {
      const row = { engine: cell.engine, rung: cell.rung, label: cell.label, image: image(cell) };
      const r = await runner.runRung(
        o.scene,
        cell.rung,
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
        row.state = decodeState(r.outcome.state);
        try {
          writeFileSync(
            path.join(out, row.image),
            await withTimeout(r.page.screenshot('canvas'), PAGE_MS, 'the screenshot'),
          );
        } catch (e) {
          row.error = `rung ${row.rung}: ${e.message}`;
        }
        await withTimeout(r.page.close(), PAGE_MS, 'closing the page').catch(() => {});
      }
      return row;
    });
  } finally {
    await pool.close();
  }
  rows = rows.map((r, i) =>
    r.missing
      ? { ...cells[i], image: image(cells[i]), error: `scene ${o.scene}: ${r.missing}` }
      : r,
  );
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
        r.diff = image(r).replace(/\.png$/, '-diff.png');
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
  const engines = [...new Set(cells.map((c) => c.engine))];
  writeFileSync(
    path.join(out, 'report.json'),
    JSON.stringify(
      {
        scene: o.scene,
        status,
        engines: Object.fromEntries(engines.map((e) => [e, versions[e] ?? 'not running'])),
        options: { ...o, scene: undefined },
        rows: summary,
      },
      null,
      2,
    ),
  );
  writeFileSync(path.join(out, 'report.html'), html(o, status, rows, first, engines, versions));
  return { status, rows, out };
}

/** A rung's image file: `webgl2.png` in Chromium, `firefox-webgl2.png` in another engine. */
const image = (cell) => `${cell.label.replace(':', '-')}.png`;

function html(o, status, rows, first, engines, versions) {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const cell = (r) => {
    if (!r) return '<td>—</td>';
    if (r.error) return `<td class="bad">${esc(r.error)}</td>`;
    if (r.skipped) return `<td>skipped: ${esc(r.skipped)}</td>`;
    const verdict =
      r === first
        ? 'reference'
        : `${r.differing} pixels differ (${(100 * r.share).toFixed(2)}%, limit ${(100 * o.maxDiff).toFixed(2)}%)${r.stateWorst !== undefined ? `; state worst ${r.stateWorst}` : ''}`;
    const ok = r === first || (r.pixelsOk && r.stateOk !== false);
    return `<td><div class="imgs"><img src="${r.image}">${r.diff ? `<img src="${r.diff}">` : ''}</div><small>${esc(r.backend ?? '')}</small><br><span class="${ok ? 'ok' : 'bad'}">${esc(verdict)}</span></td>`;
  };
  const rungs = [...new Set(rows.map((r) => r.rung))];
  return `<!doctype html><meta charset="utf-8"><title>ignis-check ${esc(o.scene)}</title>
<style>body{font:14px system-ui;background:#111;color:#ddd}td{padding:6px;vertical-align:top}img{image-rendering:pixelated;width:160px;margin-right:4px}.imgs{white-space:nowrap}.ok{color:#7d7}.bad{color:#f77}</style>
<h1>ignis-check: ${esc(o.scene)} — ${status}</h1>
<p>${o.frames} frames of ${o.dt.toFixed(4)} s at ${o.width}×${o.height}; every rung in every engine is compared with the first that ran (${esc(first ? first.label : 'none')}): a pixel differs when a channel is more than ${o.tolerance}/255 away. Beside each image, its diff (red: differing pixels).</p>
<table><tr><th>rung</th>${engines.map((e) => `<th>${esc(e)}<br><small>${esc(versions[e] ?? 'not running')}</small></th>`).join('')}</tr>
${rungs.map((rung) => `<tr><td>${esc(rung)}</td>${engines.map((e) => cell(rows.find((r) => r.rung === rung && r.engine === e))).join('')}</tr>`).join('\n')}
</table>`;
}

await runCli(
  import.meta.url,
  parseArgs,
  (o) => ensureSetup(o.connect ? { npmOnly: true } : {}),
  async (o) => {
    const { status, rows, out } = await runCheck(o);
    for (const r of rows)
      console.log(
        `${r.label.padEnd(22)} ${r.error ? `ERROR ${r.error}` : r.skipped ? `skipped: ${r.skipped}` : r.differing === undefined ? 'reference' : `${r.differing} pixels differ${r.stateWorst !== undefined ? `, state worst ${r.stateWorst}` : ''} — ${r.pixelsOk && r.stateOk !== false ? 'ok' : 'MISMATCH'}`}`,
      );
    console.log(`${status}: ${path.relative(process.cwd(), path.join(out, 'report.html'))}`);
    return status === 'ok' ? 0 : status === 'mismatch' ? 1 : 2;
  },
);
