// ignis-check: runs a scene module (check/scene.ts) on every rung of the fallback ladder
// (check/rungs.ts) in headless Chromium, screenshots each, compares every rung with the first
// (per-channel tolerance and a share of differing pixels, and the scene's read() state if it has
// one), writes <out>/report.html with the images and the diff images, and exits 1 on a mismatch,
// 2 on an error (naming the scene and the rung). Every rung has a time limit.
//   npm run ignis-check -- <scene.ts> [--rungs webgpu,webgl2,…] [--frames 10] [--dt 0.016667]
//     [--size 256x256] [--params count=4096,seed=2] [--tolerance 2] [--max-diff 0.005]
//     [--state-tolerance 1e-3] [--timeout 60] [--out ignis-check-report]
import path from 'node:path';
import { URLSearchParams } from 'node:url';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { ensureSetup, ROOT } from './setup.mjs';

const RUNG_NAMES = ['webgpu', 'webgpu-no-compute', 'webgl2', 'webgl2-half-float', 'cpu'];

export function parseArgs(argv) {
  const o = {
    rungs: RUNG_NAMES,
    frames: 10,
    dt: 1 / 60,
    width: 256,
    height: 256,
    params: {},
    tolerance: 2,
    maxDiff: 0.005,
    stateTolerance: 1e-3,
    timeout: 60,
    out: 'ignis-check-report',
  };
  const fail = (msg) => {
    throw new Error(`ignis-check: ${msg}`);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i] ?? fail(`${a} needs a value`);
    const num = (v, name) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) fail(`${name} ${v} is not a non-negative number`);
      return n;
    };
    switch (a) {
      case '--rungs': {
        o.rungs = next().split(',').filter(Boolean);
        const bad = o.rungs.filter((r) => !RUNG_NAMES.includes(r));
        if (bad.length)
          fail(`unknown rung ${bad.join(', ')}; the rungs are ${RUNG_NAMES.join(', ')}`);
        break;
      }
      case '--frames':
        o.frames = Math.max(1, Math.round(num(next(), '--frames')));
        break;
      case '--dt':
        o.dt = num(next(), '--dt');
        break;
      case '--size': {
        const v = next();
        const m = /^(\d+)x(\d+)$/.exec(v);
        if (!m) fail(`--size ${v} must be WIDTHxHEIGHT`);
        o.width = Number(m[1]);
        o.height = Number(m[2]);
        break;
      }
      case '--params':
        for (const pair of next().split(',').filter(Boolean)) {
          const eq = pair.indexOf('=');
          if (eq <= 0) fail(`--params entry "${pair}" is not name=value`);
          const v = pair.slice(eq + 1);
          o.params[pair.slice(0, eq)] = v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
        }
        break;
      case '--tolerance':
        o.tolerance = num(next(), '--tolerance');
        break;
      case '--max-diff':
        o.maxDiff = num(next(), '--max-diff');
        break;
      case '--state-tolerance':
        o.stateTolerance = num(next(), '--state-tolerance');
        break;
      case '--timeout':
        o.timeout = num(next(), '--timeout');
        break;
      case '--out':
        o.out = next();
        break;
      default:
        if (a.startsWith('--')) fail(`unknown option ${a}`);
        if (o.scene) fail(`one scene at a time (got ${o.scene} and ${a})`);
        o.scene = a;
    }
  }
  if (!o.scene) fail('no scene module given: npm run ignis-check -- <scene.ts>');
  return o;
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
  const { launchBrowser } = await import('./browser.mjs');
  const { createServer } = await import('vite');
  const { PNG } = await import('pngjs');
  const out = path.resolve(o.out);
  mkdirSync(out, { recursive: true });
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    server: {
      host: '127.0.0.1',
      port: 0,
      hmr: false,
      watch: null,
      fs: { allow: [ROOT, path.dirname(scenePath)] },
    },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const address = server.httpServer.address();
  const base = `http://127.0.0.1:${address.port}`;
  const { browser } = await launchBrowser();
  const rows = [];
  try {
    for (const rung of o.rungs) {
      const page = await browser.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await page.setViewport({ width: o.width, height: o.height });
      const q = new URLSearchParams({
        scene: `/@fs${scenePath}`,
        rung,
        frames: String(o.frames),
        dt: String(o.dt),
        width: String(o.width),
        height: String(o.height),
        params: JSON.stringify(o.params),
      });
      const row = { rung, image: `${rung}.png` };
      try {
        await page.goto(`${base}/check/index.html?${q}`, { waitUntil: 'load' });
        await page.waitForFunction(() => window.__check !== undefined, {
          timeout: o.timeout * 1000,
        });
        const outcome = await page.evaluate(() => window.__check);
        if (outcome.error) row.error = `${outcome.error} (at ${outcome.stage})`;
        else {
          row.backend = outcome.backend;
          row.state = outcome.state;
          const canvas = await page.$('canvas');
          const file = path.join(out, row.image);
          await canvas.screenshot({ path: file });
        }
      } catch (e) {
        row.error = /Waiting failed|timeout/i.test(String(e))
          ? `no result within ${o.timeout} s (--timeout)${pageErrors.length ? `; page errors: ${pageErrors.join('; ')}` : ''}`
          : String(e.message ?? e);
      }
      if (row.error) row.error = `scene ${o.scene}, rung ${rung}: ${row.error}`;
      rows.push(row);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  // compare every rung with the first that ran
  const first = rows.find((r) => !r.error);
  const read = (r) => PNG.sync.read(readFileSync(path.join(out, r.image)));
  let mismatch = false;
  if (first) {
    const ref = read(first);
    for (const r of rows) {
      if (r.error || r === first) continue;
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

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  ensureSetup();
  const { status, rows, out } = await runCheck(o);
  for (const r of rows)
    console.log(
      `${r.rung.padEnd(18)} ${r.error ? `ERROR ${r.error}` : r.differing === undefined ? 'reference' : `${r.differing} pixels differ${r.stateWorst !== undefined ? `, state worst ${r.stateWorst}` : ''} — ${r.pixelsOk && r.stateOk !== false ? 'ok' : 'MISMATCH'}`}`,
    );
  console.log(`${status}: ${path.relative(process.cwd(), path.join(out, 'report.html'))}`);
  process.exit(status === 'ok' ? 0 : status === 'mismatch' ? 1 : 2);
}
