// The built library runs from a plain <script type="module"> with no bundler: build it, serve the
// folder with a bare static server (no Vite transforms), import it in the page and run particles.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectedDistResult, frontEndFetched, runDistInBrowser } from './dist-page.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('dist', () => {
  it('imports and runs from a plain <script type="module">', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ignis-dist-'));
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'vite.lib.config.ts',
        '--outDir',
        dir,
        '--logLevel',
        'error',
      ],
      { cwd: root },
    );
    const { errors, result } = await runDistInBrowser(dir);
    expect(errors).toEqual([]);
    // particles, and the portable entry: the same WGSL as compute on WebGPU, GLSL on WebGL2
    const { fetched, rest } = frontEndFetched(dir, result);
    expect(rest).toEqual(expectedDistResult());
    // the WGSL front end: never fetched for WebGPU compute particles, fetched for WebGL2's
    expect(fetched).toEqual({ webgpu: false, webgl2: true });
  }, 120_000);
});
