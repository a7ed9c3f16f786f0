// `npm run build` emits ES modules with no bare imports (a plain <script type="module">
// cannot resolve them), type declarations beside it, and the module works when imported.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { init, parse } from 'es-module-lexer';

const root = path.resolve(import.meta.dirname, '../..');

describe('library build', () => {
  it('emits dist/index.js with no bare imports, and declarations', async () => {
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'vite.lib.config.ts',
        '--logLevel',
        'error',
      ],
      {
        cwd: root,
      },
    );
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
    // every module's imports, static and dynamic (es-module-lexer reads the minified code), are
    // relative imports of files in dist/ (the entries share chunks): a plain
    // <script type="module"> resolves them, no bundler or import map needed
    await init;
    const modules = readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.js'));
    const index = parse(readFileSync(path.join(root, 'dist/index.js'), 'utf8'))[0];
    expect(index.length).toBeGreaterThan(0);
    for (const file of modules)
      for (const i of parse(readFileSync(path.join(root, 'dist', file), 'utf8'))[0]) {
        expect(i.n, `${file}: import ${i.n}`).toMatch(/^\.\/[\w.-]+\.js$/);
        expect(existsSync(path.join(root, 'dist', i.n as string)), `dist/${i.n}`).toBe(true);
      }
    for (const entry of ['compute', 'portable', 'particles', 'postfx', 'effects', 'testing'])
      expect(existsSync(path.join(root, 'dist', `${entry}.js`)), `dist/${entry}.js`).toBe(true);
    expect(existsSync(path.join(root, 'dist/index.d.ts'))).toBe(true);
    const lib = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
    const device = await lib.createDevice({ backend: 'null' });
    expect(device.caps.backend).toBe('null');
    expect(lib.BufferUsage.STORAGE).toBe(128);
  }, 60_000);

  it('bench/cpu-overhead.mjs runs the built WebGPU backend over a stub GPUDevice and times both frames', () => {
    // after the build above; times are reported, never asserted (they are the benchmark's)
    const out = execFileSync(
      process.execPath,
      [path.join(root, 'bench/cpu-overhead.mjs'), '--frames', '200', '--rounds', '1'],
      { cwd: root, encoding: 'utf8' },
    );
    const m = /Ignis ([\d.]+), hand-written ([\d.]+); Ignis's own JavaScript (-?[\d.]+)/.exec(out);
    expect(m, out).not.toBeNull();
    const [ignis, raw] = [Number(m?.[1]), Number(m?.[2])];
    expect(ignis).toBeGreaterThan(0);
    expect(raw).toBeGreaterThan(0);
    expect(out, "the median of the rounds' ratios is reported").toMatch(
      /Ignis ÷ hand-written [\d.]+× \(median of the rounds' ratios\)/,
    );
  });
});
