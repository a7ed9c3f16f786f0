// ignis-check from a test file: `renderOnEveryRung(scene, options)` runs the scene on the rungs (as
// `npm run ignis-check` does, in each engine of `browsers`), and returns each rung's image (PNG bytes), its comparison with the
// first rung and the report folder — for users who test with vitest:
//   const result = await renderOnEveryRung('scenes/my-effect.ts', { rungs: ['webgpu', 'webgl2'] });
//   expect(result.status).toBe('ok');
import path from 'node:path';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { ensureSetup } from './setup.mjs';
import { parseArgs, runCheck } from './ignis-check.mjs';

/**
 * Runs `scene` on every rung (options as the CLI's, camelCase: rungs, browsers, connect, frames, dt, width, height,
 * params, tolerance, maxDiff, stateTolerance, timeout, out). Resolves to `{ status: 'ok' |
 * 'mismatch' | 'error', rungs: [{ rung, png, differing, share, pixelsOk, stateOk, error }], out }`.
 */
export async function renderOnEveryRung(scene, options = {}) {
  ensureSetup();
  const o = {
    ...parseArgs([scene]),
    out: mkdtempSync(path.join(os.tmpdir(), 'ignis-check-')),
    ...options,
  };
  const { status, rows, out } = await runCheck(o);
  return {
    status,
    out,
    rungs: rows.map((r) => ({
      engine: r.engine,
      label: r.label,
      rung: r.rung,
      backend: r.backend,
      error: r.error,
      skipped: r.skipped,
      differing: r.differing,
      share: r.share,
      pixelsOk: r.pixelsOk,
      stateOk: r.stateOk,
      png: existsSync(path.join(out, r.image)) ? readFileSync(path.join(out, r.image)) : null,
    })),
  };
}
