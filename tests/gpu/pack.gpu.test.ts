// The package as a user gets it: `npm pack` on a copy of the tree (prepack builds dist/), the
// tarball's contents, and a scratch project that installs it and type-checks a consumer with
// plain tsc and skipLibCheck: false (the declarations must bring @webgpu/types themselves), then
// runs the installed dist/ in the browser on both backends.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectedDistResult, runDistInBrowser } from './dist-page.js';

const ROOT = path.resolve(__dirname, '../..');

describe('the packed package', () => {
  it('packs dist, README, LICENSE and CHANGELOG only; a consumer installs it, type-checks, and runs it in the browser', async () => {
    // a copy of the tracked tree, so the build never touches this dist/. Its node_modules is a
    // folder of links to this one's packages (never one link to the folder: an `npm ci` there
    // would empty this node_modules through it) plus a copy of npm's marker, newer than the
    // lock file, so setup sees the install as current.
    const copy = mkdtempSync(path.join(os.tmpdir(), 'ignis-pack-src-'));
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    for (const f of files) {
      mkdirSync(path.dirname(path.join(copy, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(copy, f), { preserveTimestamps: true });
    }
    const modules = path.join(copy, 'node_modules');
    mkdirSync(modules);
    for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
      if (entry === '.package-lock.json') continue;
      symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
    }
    cpSync(
      path.join(ROOT, 'node_modules/.package-lock.json'),
      path.join(modules, '.package-lock.json'),
    );
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-pack-out-'));
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: copy,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(pack.status, pack.stderr).toBe(0);
    // the build (prepack) prints first; the JSON report is the last thing, starting at a line "["
    const start = pack.stdout.startsWith('[\n') ? 0 : pack.stdout.lastIndexOf('\n[\n') + 1;
    const info = JSON.parse(pack.stdout.slice(start)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const paths = (info[0]?.files ?? []).map((f) => f.path);
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.d.ts');
    expect(paths.filter((p) => !p.startsWith('dist/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
    ]);
    const tarball = path.join(out, info[0]?.filename as string);

    const consumer = mkdtempSync(path.join(os.tmpdir(), 'ignis-consumer-'));
    writeFileSync(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    const install = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', tarball, 'typescript@5.9.3'],
      { cwd: consumer, encoding: 'utf8', timeout: 240_000 },
    );
    expect(install.status, install.stderr).toBe(0);
    writeFileSync(
      path.join(consumer, 'main.ts'),
      `import { createDevice, BufferUsage, type Device } from 'ignis-rhi';
import { createPingPongRunner } from 'ignis-rhi/compute';
import { createParticleSystem, orbitCamera } from 'ignis-rhi/particles';
import { bloom } from 'ignis-rhi/postfx';
import { createPortableCompute, type PortableCompute } from 'ignis-rhi/portable';
import { NullDevice, stepState } from 'ignis-rhi/testing';
export const parts = [createPingPongRunner, orbitCamera, bloom, NullDevice, stepState, createPortableCompute];
export type Portable = PortableCompute;
export async function start(canvas: HTMLCanvasElement): Promise<Device> {
  const device = await createDevice({ backend: 'auto', canvas });
  device.createBuffer({ size: 16, usage: BufferUsage.VERTEX });
  const ps = await createParticleSystem(device, { count: 1000 });
  ps.destroy();
  return device;
}
`,
    );
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
        },
        files: ['main.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [path.join(consumer, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
    const installed = JSON.parse(
      readFileSync(path.join(consumer, 'node_modules/ignis-rhi/package.json'), 'utf8'),
    ) as { name: string; sideEffects: boolean };
    expect([installed.name, installed.sideEffects]).toEqual(['ignis-rhi', false]);
    // and the installed files run in the browser on both backends, as they are
    const { errors, result } = await runDistInBrowser(
      path.join(consumer, 'node_modules/ignis-rhi/dist'),
    );
    expect(errors).toEqual([]);
    expect(result).toEqual(expectedDistResult());
  }, 300_000);
});
