// ignis-bench --runtime deno: the scene runner's interface (`runRung(sceneLabel, rung, query,
// timeoutSeconds)` → `{ outcome, page }` or `{ error }`) under Deno's WebGPU, for headless GPU
// servers where no browser reaches the GPU. Needs neither Chromium nor Puppeteer: Node built-ins,
// Deno (found or installed by deno.mjs) and the built library.
import path from 'node:path';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { INSTALLED, ROOT } from './setup.mjs';
import { ENTRIES } from './entries.mjs';
import { buildLibrary, denoEnv, findDeno } from './deno.mjs';
/**
 * The library built once ($IGNIS_DIST when set: a folder with a build in it; dist/ of an installed
 * package), an import map pointing `ignis-rhi…` at it, and a Deno process per rung
 * (check/deno-scene.ts), killed at the time limit. WebGL2 rungs come back skipped.
 */
export async function startDenoSceneRunner(scenePath, { gpu = false } = {}) {
  const given = process.env.IGNIS_DIST;
  if (given && !existsSync(path.join(given, 'index.js')))
    throw new Error(`ignis-bench: IGNIS_DIST=${given} has no index.js (a built library folder)`);
  const dist = given || (INSTALLED ? path.join(ROOT, 'dist') : buildLibrary(ROOT));
  const deno = findDeno();
  const env = { ...denoEnv({ gpu }), NO_COLOR: '1' };
  const map = path.join(mkdtempSync(path.join(os.tmpdir(), 'ignis-deno-map-')), 'import-map.json');
  const imports = Object.fromEntries(
    Object.entries(ENTRIES).map(([subpath, [, built]]) => [
      subpath ? `ignis-rhi/${subpath}` : 'ignis-rhi',
      pathToFileURL(path.join(dist, `${built}.js`)).href,
    ]),
  );
  writeFileSync(map, JSON.stringify({ imports }));
  const script = path.join(ROOT, 'check', 'deno-scene.ts');
  const page = { close: async () => {} };
  return {
    engine: 'deno',
    version: async () => `Deno ${process.env.DENO_VERSION ?? ''}`.trim(),
    async runRung(sceneLabel, rung, query, timeoutSeconds) {
      const q = {
        scene: pathToFileURL(scenePath).href,
        rung,
        frames: Number(query.frames),
        dt: Number(query.dt),
        width: Number(query.width),
        height: Number(query.height),
        params: JSON.parse(query.params),
        bench: query.mode === 'bench',
        warmup: Number(query.warmup ?? 0),
        ...(query.budgetMs !== undefined ? { budgetMs: Number(query.budgetMs) } : {}),
        ...(query.tooSlowMs !== undefined ? { tooSlowMs: Number(query.tooSlowMs) } : {}),
        ...(query.clocks !== undefined ? { clocks: query.clocks } : {}),
      };
      const args = [
        'run',
        '-A',
        '--sloppy-imports',
        '--import-map',
        map,
        script,
        JSON.stringify(q),
      ];
      const { code, stdout, stderr, timedOut } = await new Promise((resolve) => {
        const child = spawn(deno, args, { env, cwd: process.cwd() });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
        child.on('close', (c, signal) => {
          clearTimeout(timer);
          resolve({ code: c, stdout: out, stderr: err, timedOut: signal === 'SIGKILL' });
        });
      });
      const line = stdout.split('\n').find((l) => l.startsWith('@@ignis-outcome '));
      let error;
      if (timedOut) error = `no result within ${timeoutSeconds} s (--timeout)`;
      else if (!line)
        error = `Deno exited with ${code}: ${stderr.trim().split('\n').slice(-5).join(' / ')}`;
      else {
        const outcome = JSON.parse(line.slice('@@ignis-outcome '.length));
        if (!outcome.error) return { outcome, page };
        error = `${outcome.error} (at ${outcome.stage})`;
      }
      return { error: `scene ${sceneLabel}, rung ${rung} (Deno): ${error}` };
    },
    async close() {},
  };
}
