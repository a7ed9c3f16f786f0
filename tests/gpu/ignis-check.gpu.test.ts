// ignis-check end to end: the CLI (scripts/ignis-check.mjs) run as a user runs it, on the
// repository's scenes and on broken ones; exit codes, the report and the diff images checked.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { renderOnEveryRung } from '../../scripts/scene-kit.mjs';
import {
  FIREFOX_PREFS,
  ensureEngines,
  startDisplay,
  startWebKitDriver,
} from '../../scripts/engines.mjs';
// @ts-expect-error plain ESM script without types
import { browserFlags } from '../../scripts/browser.mjs';
// @ts-expect-error plain ESM script without types
import { ensureBrowser } from '../../scripts/setup.mjs';

const ROOT = path.resolve(__dirname, '../..');

function check(args: string[]): {
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
} {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-check-'));
  // Chromium alone unless the test is about engines (the default is every engine installed)
  const engines = args.some((a) => a === '--browsers' || a === '--connect')
    ? []
    : ['--browsers', 'chromium'];
  const r = spawnSync(
    process.execPath,
    ['scripts/ignis-check.mjs', ...args, ...engines, '--out', out],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out };
}

interface Row {
  rung: string;
  error?: string;
  differing?: number;
  pixelsOk?: boolean;
  stateOk?: boolean;
  diff?: string;
}
const report = (out: string): { status: string; rows: Row[] } =>
  JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
    status: string;
    rows: Row[];
  };

/** The check passed, and every rung after the first matched it in pixels and in state. */
function expectEveryRungMatches(r: ReturnType<typeof check>, what = ''): void {
  expect(r.status, `${what}${r.stdout}${r.stderr}`).toBe(0);
  expect(
    report(r.out)
      .rows.slice(1)
      .every((x) => x.pixelsOk && x.stateOk),
  ).toBe(true);
}

describe('ignis-check', () => {
  it('passes a scene that draws alike on every rung, with a report of every rung', () => {
    const r = check(['check/scenes/triangle.ts']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const { status, rows } = report(r.out);
    expect(status).toBe('ok');
    expect(rows.map((x) => x.rung)).toEqual([
      'webgpu',
      'webgpu-no-compute',
      'webgl2',
      'webgl2-half-float',
      'cpu',
    ]);
    expect(rows.slice(1).every((x) => x.differing === 0)).toBe(true);
    const html = readFileSync(path.join(r.out, 'report.html'), 'utf8');
    for (const x of rows) expect(existsSync(path.join(r.out, `${x.rung}.png`)), x.rung).toBe(true);
    expect(html).toContain('webgl2-diff.png');
  }, 240_000);

  it("runs the particle system's paths (compute, fragment, ping-pong, CPU) and compares images and states", () => {
    const r = check([
      'check/scenes/particles.ts',
      '--rungs',
      'webgpu,webgpu-no-compute,webgl2,cpu',
      '--params',
      'count=2048',
    ]);
    expectEveryRungMatches(r);
  }, 240_000);

  // every shipped effect file (effects/*.json: the demo presets and the shows, loaded by
  // loadEffect), each a test of its own (tests/gpu/cases/effects.ts: each file draws the pixels of
  // the preset code it came from)
  for (const [effect, frames, extra] of [
    // thousands of thin trails: the CPU path's 1e-4 state differences move their edges by a
    // pixel here and there (0 pixels differ between the GPU rungs)
    ['fireworks', 40, ['--tolerance', '4', '--max-diff', '0.01']],
    ['sparks', 40, []],
    ['swirl', 40, []],
    // colliders and lit drops
    ['shapes', 40, []],
    // born on a mesh (effects/meshes/torus.json)
    ['embers', 40, []],
    // carried by a vector field (curl noise)
    ['drift', 40, []],
    // mesh particles: lit shards, tumbling, bouncing off a ball and the floor (by frame 100);
    // the bounces amplify the CPU path's last-bit float differences to 5e-3 in a few states
    // (62 of 98,304 pixels): 0 differ, state 0, between the GPU rungs
    ['debris', 100, ['--state-tolerance', '0.01']],
    // hundreds of overlapping translucent sprites: the CPU path's 1e-6 state differences move
    // a few pixels by 3/255
    ['fire', 40, ['--tolerance', '4']],
    ['smoke', 40, ['--tolerance', '4']],
    // events and sub-emitters: rockets, their stars, the stars' crackle (burst by frame 110);
    // rain whose every drop that reaches the floor splashes
    ['firework-show', 110, []],
    ['rain', 50, []],
  ] as const)
    it(`effects/${effect}.json looks and steps alike on compute, fragment and CPU paths`, () => {
      const r = check([
        'check/scenes/effect.ts',
        '--rungs',
        'webgpu,webgpu-no-compute,webgl2,cpu',
        '--frames',
        String(frames),
        '--params',
        `effect=${effect}`,
        ...extra,
      ]);
      expectEveryRungMatches(r, `${effect}: `);
      // and there is something to compare: the effect lit a few hundred pixels
      const image = PNG.sync.read(readFileSync(path.join(r.out, 'webgpu.png')));
      let lit = 0;
      for (let i = 0; i < image.data.length; i += 4)
        if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! > 120) lit++;
      expect(lit, effect).toBeGreaterThan(200);
    }, 240_000);

  it('sparks and mesh shards born on a turning torus, in a curl-noise wind, landing on a heightfield (a mesh, a field and a heightfield in one table), the terrain a mesh particle: alike on compute, fragment and CPU rungs', () => {
    const r = check([
      'check/scenes/scene-effects.ts',
      '--rungs',
      'webgpu,webgpu-no-compute,webgl2,cpu',
      '--frames',
      '120',
    ]);
    expectEveryRungMatches(r);
  }, 240_000);

  it('particles bounce off a slope through the scene depth (collision) alike on compute, fragment and CPU rungs (the CPU reading the depth as an array)', () => {
    const r = check([
      'check/scenes/collision.ts',
      '--rungs',
      'webgpu,webgpu-no-compute,webgl2,cpu',
      '--frames',
      '60',
    ]);
    expectEveryRungMatches(r);
  }, 240_000);

  it('runs the particles through the post-process chain: compute and fragment passes, WebGPU and WebGL2, alike', () => {
    const r = check([
      'check/scenes/postfx.ts',
      '--rungs',
      'webgpu,webgpu-no-compute,webgl2',
      '--params',
      'count=2048',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(
      report(r.out)
        .rows.slice(1)
        .map((x) => x.differing),
    ).toEqual([0, 0]);
  }, 240_000);

  it('skips the rungs a scene cannot run on (boids needs compute), saying why', () => {
    const r = check(['check/scenes/boids.ts', '--rungs', 'webgpu,webgl2']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /webgl2 +skipped: the scene needs compute: caps.features.compute is false on this rung/,
    );
    const rows = report(r.out).rows as Array<Row & { skipped?: string }>;
    expect(rows.map((x) => [x.rung, x.skipped === undefined])).toEqual([
      ['webgpu', true],
      ['webgl2', false],
    ]);
  }, 240_000);

  it('fails on a fallback that draws differently, and the diff image shows where', () => {
    const r = check(['tests/gpu/fixtures/broken-fallback.ts', '--rungs', 'webgpu,webgl2']);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/webgl2 +\d+ pixels differ — MISMATCH/);
    const row = report(r.out).rows.find((x) => x.rung === 'webgl2') as Row;
    expect(row.pixelsOk).toBe(false);
    const diff = PNG.sync.read(readFileSync(path.join(r.out, row.diff as string)));
    let red = 0;
    for (let i = 0; i < diff.data.length; i += 4)
      if (diff.data[i] === 255 && diff.data[i + 1] === 0) red++;
    expect(red).toBe(diff.width * diff.height); // the whole frame differs
  }, 240_000);

  it('names the scene and the rung when a module is not a scene, a frame throws or the GPU reports an error; bad options are errors', () => {
    const none = check(['tests/gpu/fixtures/no-create.ts', '--rungs', 'webgpu']);
    expect(none.status).toBe(2);
    expect(none.stdout).toMatch(
      /scene tests\/gpu\/fixtures\/no-create.ts, rung webgpu: the scene module exports no create\(device, canvas, params\) function \(it exports: scene\)/,
    );
    const throws = check(['tests/gpu/fixtures/throws-in-frame.ts', '--rungs', 'webgl2']);
    expect(throws.status).toBe(2);
    expect(throws.stdout).toMatch(/rung webgl2: the frame broke \(at frame 0\)/);
    const hangs = check([
      'tests/gpu/fixtures/never-ready.ts',
      '--rungs',
      'webgpu',
      '--timeout',
      '3',
    ]);
    expect(hangs.status).toBe(2);
    expect(hangs.stdout).toMatch(/rung webgpu: no result within 3 s \(--timeout\)/);
    // an error the GPU reports (a shader that does not compile) fails the rung with its message,
    // where the image alone (the clear colour) would have been compared
    const shader = check(['tests/gpu/fixtures/bad-shader.ts', '--rungs', 'webgpu']);
    expect(shader.status).toBe(2);
    expect(shader.stdout).toMatch(
      /rung webgpu: the device reported \d+ error\(s\); the first: ShaderCompileError: \[bad.wgsl\].*requires parenthesis/,
    );
    const bad = check(['check/scenes/triangle.ts', '--params', 'count']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--params entry "count" is not name=value/);
    const rung = check(['check/scenes/triangle.ts', '--rungs', 'webgpu,vulkan']);
    expect(rung.stderr).toMatch(/unknown rung vulkan/);
  }, 240_000);

  it('ignis-bench times a parameter grid on each rung (CPU, e2e, GPU timestamps per pass, rAF), keeps what the scene reports and a screenshot per cell, charts it, gates on a saved run (--check) or compares with it (--compare)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-'));
    const bench = (extra: string[]) =>
      spawnSync(
        process.execPath,
        [
          'scripts/ignis-bench.mjs',
          'check/scenes/particles.ts',
          '--browsers',
          'chromium',
          '--param',
          'count=512,2048',
          '--rungs',
          'webgpu,webgl2',
          '--frames',
          '4',
          '--warmup',
          '2',
          '--repeat',
          '1',
          ...extra,
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
      );
    const first = bench(['--out', out, '--screenshots']);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(path.join(out, 'bench.json'), 'utf8')) as {
      rows: Array<{
        key: string;
        backend: string;
        frames: number;
        e2eMs: number;
        cpuMs: number;
        gpuMs: number;
        gpuPassMs: Record<string, number>;
        rafMs: number;
        info: Record<string, unknown>;
        screenshot: string;
        clock?: number;
        clockNote?: string;
      }>;
    };
    expect(saved.rows.map((r) => r.key)).toEqual([
      'webgpu count=512',
      'webgpu count=2048',
      'webgl2 count=512',
      'webgl2 count=2048',
    ]);
    for (const r of saved.rows) {
      expect(r.frames).toBe(4);
      expect(r.e2eMs).toBeGreaterThan(0);
      expect(r.cpuMs).toBeGreaterThan(0);
      expect(r.e2eMs).toBeGreaterThanOrEqual(r.cpuMs);
      // GPU time from the timestamps the page put on the scene's passes (both backends have them
      // on SwiftShader): measured, so only its presence is asserted
      expect(r.gpuMs).toBeGreaterThan(0);
      // per pass, by the labels the scene gave them: the update's pass and the draw pass
      expect(Object.keys(r.gpuPassMs).sort()).toEqual(['particles draw', 'particles step']);
      for (const ms of Object.values(r.gpuPassMs)) expect(ms).toBeGreaterThan(0);
      // what the scene's info() said: the path each rung took, the particles alive
      expect(r.info).toMatchObject({
        path: r.backend === 'webgpu' ? 'compute' : 'pingpong',
        drawn: 'instanced',
        alive: Number(r.key.split('=')[1]),
      });
      // the last frame of each cell, as the canvas showed it
      expect(readFileSync(path.join(out, r.screenshot)).subarray(1, 4).toString()).toBe('PNG');
      // and the free-running requestAnimationFrame loop's intervals
      expect(r.rafMs).toBeGreaterThan(0);
      // the clock guard (--clocks auto) fits neither rung here, and each row says why
      expect(r.clock).toBeUndefined();
      expect(r.clockNote).toBe(
        r.backend === 'webgpu' ? 'a software adapter' : 'webgl2 has no compute',
      );
    }
    expect(first.stdout).toContain(
      'Clock (--clocks auto): not guarded on 2 cells (a software adapter), 2 cells (webgl2 has no compute).',
    );
    // the chart: e2e against count, one line per rung
    const svg = readFileSync(path.join(out, 'bench.svg'), 'utf8');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('>count (log)<');
    // a threshold of 0 makes every cell a regression against the saved run: exit 1, said per row
    const gated = bench([
      '--out',
      `${out}-2`,
      '--check',
      path.join(out, 'bench.json'),
      '--threshold',
      '0',
    ]);
    expect(gated.status, gated.stdout + gated.stderr).toBe(1);
    expect(gated.stdout).toMatch(/REGRESSED/);
    // --compare reports the same ratios without gating; a budget of 0 ms stops each cell's
    // measuring once 5 frames are in, however many were asked for
    const compared = bench([
      '--out',
      `${out}-3`,
      '--compare',
      path.join(out, 'bench.json'),
      '--threshold',
      '0',
      '--frames',
      '40',
      '--budget-ms',
      '0',
    ]);
    expect(compared.status, compared.stdout + compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/\d\.\d\d×/);
    expect(compared.stdout).not.toMatch(/REGRESSED/);
    const budgeted = JSON.parse(readFileSync(path.join(`${out}-3`, 'bench.json'), 'utf8')) as {
      rows: Array<{ frames: number }>;
    };
    expect(budgeted.rows.map((r) => r.frames)).toEqual([5, 5, 5, 5]);
  }, 240_000);

  it('ignis-bench times up to 512 passes a frame and counts the rest of each frame as untimed (never the rAF loop’s passes)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-passes-'));
    const r = spawnSync(
      process.execPath,
      [
        'scripts/ignis-bench.mjs',
        'tests/gpu/fixtures/many-passes.ts',
        '--browsers',
        'chromium',
        '--param',
        'passes=200,600',
        '--rungs',
        'webgpu',
        '--frames',
        '4',
        '--warmup',
        '1',
        '--repeat',
        '1',
        '--size',
        '32x32',
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const rows = (
      JSON.parse(readFileSync(path.join(out, 'bench.json'), 'utf8')) as {
        rows: Array<{ untimedPasses?: number; gpuPassMs: Record<string, number> }>;
      }
    ).rows;
    // 200 a frame: all timed, although the rAF loop's 5 frames begin 1,000 more
    expect(rows[0]!.untimedPasses).toBeUndefined();
    expect(rows[0]!.gpuPassMs['clear']).toBeGreaterThan(0);
    // 600 a frame: 88 beyond the 512 timestamp pairs
    expect(rows[1]!.untimedPasses).toBe(88);
  }, 240_000);

  it("ignis-bench --runtime deno: the same scene under Deno's WebGPU (offscreen), WebGL2 rungs skipped, errors named", () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-deno-'));
    const bench = (scene: string, extra: string[]) =>
      spawnSync(
        process.execPath,
        [
          'scripts/ignis-bench.mjs',
          scene,
          '--runtime',
          'deno',
          '--frames',
          '3',
          '--warmup',
          '1',
          '--repeat',
          '1',
          ...extra,
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
      );
    const r = bench('check/scenes/particles.ts', [
      '--param',
      'count=256,1024',
      '--rungs',
      'webgpu,webgl2',
      '--out',
      out,
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'bench.json'), 'utf8')) as {
      rows: Array<{
        key: string;
        adapter: string | null;
        skipped?: string;
        frames: number;
        e2eMs: number;
        gpuMs: number;
      }>;
    };
    expect(json.rows.map((x) => [x.key, x.frames])).toEqual([
      ['webgpu count=256', 3],
      ['webgpu count=1024', 3],
      ['webgl2 count=256', 0],
      ['webgl2 count=1024', 0],
    ]);
    for (const row of json.rows.slice(0, 2)) {
      expect(row.adapter).toMatch(/SwiftShader/);
      expect(row.e2eMs).toBeGreaterThan(0);
      expect(row.gpuMs).toBeGreaterThan(0);
    }
    for (const row of json.rows.slice(2)) expect(row.skipped).toMatch(/Deno has WebGPU only/);
    // --clocks on guards the clock on a software adapter too: the measured frames start after a
    // warm-up and the row says the lowest share of its top the probe found
    const guarded = bench('check/scenes/particles.ts', [
      '--param',
      'count=256',
      '--clocks',
      'on',
      '--out',
      `${out}-clocks`,
    ]);
    expect(guarded.status, guarded.stdout + guarded.stderr).toBe(0);
    const [row] = (
      JSON.parse(readFileSync(path.join(`${out}-clocks`, 'bench.json'), 'utf8')) as {
        rows: Array<{ frames: number; clock?: number; clockNote?: string }>;
      }
    ).rows;
    expect(row?.frames).toBe(3);
    expect(row?.clockNote).toBeUndefined();
    expect(row?.clock).toBeGreaterThan(0);
    expect(row?.clock).toBeLessThanOrEqual(1);
    expect(guarded.stdout).toMatch(/Clock \(--clocks on\): guarded .* webgpu count=256 \d\.\d\d\./);
    // a frame that throws: exit 2, the scene, the rung, the runtime and the frame named
    const broken = bench('tests/gpu/fixtures/throws-in-frame.ts', ['--out', `${out}-2`]);
    expect(broken.status).toBe(2);
    expect(broken.stdout).toMatch(
      /scene tests\/gpu\/fixtures\/throws-in-frame.ts, rung webgpu \(Deno\): .* \(at frame 0\)/,
    );
  }, 240_000);

  it("renderOnEveryRung: the same check from a test file, with each rung's image", async () => {
    const result = await renderOnEveryRung('tests/gpu/fixtures/broken-fallback.ts', {
      rungs: ['webgpu', 'webgl2'],
      browsers: ['chromium'],
      frames: 2,
    });
    expect(result.status).toBe('mismatch');
    expect(result.rungs.map((r) => [r.rung, r.pixelsOk])).toEqual([
      ['webgpu', undefined],
      ['webgl2', false],
    ]);
    // the images themselves: the clear colours the scene chose per backend
    const [gpu, gl] = result.rungs.map((r) => PNG.sync.read(Buffer.from(r.png!)));
    expect([gpu!.data[0], gpu!.data[2]]).toEqual([26, 77]);
    expect([gl!.data[0], gl!.data[2]]).toEqual([77, 26]);
  }, 240_000);
});

/**
 * A port nothing listens on, below Linux's ephemeral range (32768 on): a random port up to 40000
 * once met an outgoing connection's and Firefox's remote agent failed with
 * NS_ERROR_SOCKET_ADDRESS_IN_USE. Each try binds the port to see that it is free.
 */
async function freePort(): Promise<number> {
  for (let tries = 0; ; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
    if (tries >= 20) throw new Error('no free port from 20000 to 32000 after 20 tries');
  }
}

/** Starts `command` and resolves to the first match of `pattern` in what it prints. */
async function listening(
  command: string,
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ endpoint: string; close(): void }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`${command} printed no endpoint: ${text}`)),
      30_000,
    );
    const read = (d: Buffer): void => {
      text += d.toString();
      const m = pattern.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
  return { endpoint, close: () => child.kill() };
}

/**
 * A headless Chromium with the suite's flags and `--remote-debugging-port=0`, started as a plain
 * process (no puppeteer client attached), as a device cloud runs one: its DevTools endpoint.
 */
function remoteChromium(): Promise<{ endpoint: string; close(): void }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ignis-remote-chromium-'));
  return listening(
    ensureBrowser() as string,
    [
      '--headless=new',
      ...(browserFlags() as string[]),
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    /DevTools listening on (ws:\/\/\S+)/,
  );
}

/**
 * A headless Firefox with WebGPU on and its WebDriver BiDi port open (no client attached), on an
 * X display of its own: its BiDi endpoint (`ws://…/session`).
 */
async function remoteFirefox(): Promise<{ endpoint: string; close(): void }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ignis-remote-firefox-'));
  writeFileSync(
    path.join(profile, 'user.js'),
    Object.entries(FIREFOX_PREFS)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
      .join('\n'),
  );
  const display = await startDisplay();
  const port = await freePort();
  const firefox = ensureEngines(['firefox'], { install: false }).firefox;
  const b = await listening(
    firefox?.ok ? firefox.executable : 'firefox-esr',
    ['--headless', '--no-remote', '--profile', profile, `--remote-debugging-port=${port}`],
    /WebDriver BiDi listening on (ws:\/\/\S+)/,
    { ...process.env, DISPLAY: display.display },
  );
  return {
    endpoint: `${b.endpoint}/session`,
    close: () => {
      b.close();
      void display.stop();
    },
  };
}

/**
 * A WebKitWebDriver on a loopback port, on an X display of its own (no session yet), as a WebDriver
 * hub offers one: its http:// endpoint.
 */
async function remoteWebKit(): Promise<{ endpoint: string; close(): void }> {
  const display = await startDisplay();
  const driver = await startWebKitDriver({ ...process.env, DISPLAY: display.display });
  return {
    endpoint: driver.endpoint,
    close: () => {
      driver.close();
      void display.stop();
    },
  };
}

describe('ignis-check across engines', () => {
  const engines = ensureEngines(['firefox', 'webkit'], { install: false });
  const missing = Object.entries(engines)
    .filter(([, s]) => !s.ok)
    .map(([e, s]) => `${e} (${s.ok ? '' : s.reason})`);
  const title =
    'runs the particle scene in Chromium, Firefox and WebKit: every rung each engine has matches, the rest skipped with the API named; a column per engine';
  const itEngines = missing.length ? it.skip : it;
  itEngines(
    missing.length ? `${title} — skipped: ${missing.join('; ')} unavailable` : title,
    () => {
      const r = check([
        'check/scenes/particles.ts',
        '--browsers',
        'chromium,firefox,webkit',
        '--rungs',
        'webgpu,webgl2,cpu',
        '--params',
        'count=1024',
      ]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const rows = report(r.out).rows as Array<Row & { engine: string; skipped?: string }>;
      expect(rows.map((x) => `${x.engine}:${x.rung}`)).toEqual([
        'chromium:webgpu',
        'chromium:webgl2',
        'chromium:cpu',
        'firefox:webgpu',
        'firefox:webgl2',
        'firefox:cpu',
        'webkit:webgpu',
        'webkit:webgl2',
        'webkit:cpu',
      ]);
      const webkitGpu = rows.find((x) => x.engine === 'webkit' && x.rung === 'webgpu');
      expect(webkitGpu?.skipped).toMatch(/this browser has no webgpu/);
      for (const x of rows.slice(1).filter((x) => !x.skipped))
        expect([x.engine, x.rung, x.pixelsOk, x.stateOk]).toEqual([x.engine, x.rung, true, true]);
      const html = readFileSync(path.join(r.out, 'report.html'), 'utf8');
      for (const e of ['chromium', 'firefox', 'webkit']) expect(html).toContain(`<th>${e}<br>`);
      expect(existsSync(path.join(r.out, 'firefox-webgl2.png'))).toBe(true);
    },
    400_000,
  );

  itEngines(
    missing.length
      ? `carries a state of 4,000,000 numbers out of every engine's page and compares it whole — skipped: ${missing.join('; ')} unavailable`
      : "carries a state of 4,000,000 numbers out of every engine's page and compares it whole",
    () => {
      // (as a list of numbers it crashed Firefox's content process: the report said "Cannot read
      // properties of undefined (reading 'error')" for a million particles)
      const args = [
        'tests/gpu/fixtures/big-state.ts',
        '--browsers',
        'chromium,firefox,webkit',
        '--rungs',
        'webgpu,webgl2',
      ];
      type EngineRow = Row & { engine: string; skipped?: string; stateWorst?: number };
      const verdicts = (out: string) =>
        (report(out).rows as EngineRow[]).map((x) => [
          x.engine,
          x.rung,
          x.error ?? (x.skipped ? 'skipped' : x.stateWorst),
          x.stateOk,
        ]);
      const same = check(args);
      expect(same.status, same.stdout + same.stderr).toBe(0);
      expect(verdicts(same.out)).toEqual([
        ['chromium', 'webgpu', undefined, undefined],
        ['chromium', 'webgl2', 0, true],
        ['firefox', 'webgpu', 0, true],
        ['firefox', 'webgl2', 0, true],
        ['webkit', 'webgpu', 'skipped', undefined],
        ['webkit', 'webgl2', 0, true],
      ]);
      // the last of the 4,000,000 numbers one larger on WebGL2: found in every engine
      const differ = check([...args, '--params', 'differ=1']);
      expect(differ.status, differ.stdout + differ.stderr).toBe(1);
      expect(verdicts(differ.out)).toEqual([
        ['chromium', 'webgpu', undefined, undefined],
        ['chromium', 'webgl2', 1, false],
        ['firefox', 'webgpu', 0, true],
        ['firefox', 'webgl2', 1, false],
        ['webkit', 'webgpu', 'skipped', undefined],
        ['webkit', 'webgl2', 1, false],
      ]);
    },
    400_000,
  );

  itEngines(
    missing.length
      ? `a fallback that draws differently fails in every engine — skipped: ${missing.join('; ')} unavailable`
      : 'a fallback that draws differently fails in every engine',
    () => {
      const r = check([
        'tests/gpu/fixtures/broken-fallback.ts',
        '--browsers',
        'chromium,firefox,webkit',
        '--rungs',
        'webgpu,webgl2',
      ]);
      expect(r.status, r.stdout + r.stderr).toBe(1);
      // against Chromium's WebGPU image: WebGPU agrees in Firefox; WebGL2 differs in every engine
      const rows = report(r.out).rows as Array<Row & { engine: string; skipped?: string }>;
      expect(rows.map((x) => [x.engine, x.rung, x.skipped ? 'skipped' : x.pixelsOk])).toEqual([
        ['chromium', 'webgpu', undefined],
        ['chromium', 'webgl2', false],
        ['firefox', 'webgpu', true],
        ['firefox', 'webgl2', false],
        ['webkit', 'webgpu', 'skipped'],
        ['webkit', 'webgl2', false],
      ]);
    },
    400_000,
  );

  itEngines(
    missing.length
      ? `ignis-bench times each rung in each engine, a row per engine and rung — skipped: ${missing.join('; ')} unavailable`
      : 'ignis-bench times each rung in each engine, a row per engine and rung',
    () => {
      const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-engines-'));
      const r = spawnSync(
        process.execPath,
        [
          'scripts/ignis-bench.mjs',
          'check/scenes/particles.ts',
          '--browsers',
          'chromium,firefox,webkit',
          '--rungs',
          'webgpu,webgl2',
          '--param',
          'count=256',
          '--frames',
          '3',
          '--warmup',
          '1',
          '--repeat',
          '1',
          '--out',
          out,
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 300_000 },
      );
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const bench = JSON.parse(readFileSync(path.join(out, 'bench.json'), 'utf8')) as {
        engines: Record<string, string>;
        rows: Array<{
          key: string;
          engine: string;
          frames: number;
          skipped?: string;
          clockNote?: string;
        }>;
      };
      expect(bench.rows.map((x) => [x.key, x.engine, x.skipped ? 'skipped' : x.frames])).toEqual([
        ['webgpu count=256', 'chromium', 3],
        ['webgl2 count=256', 'chromium', 3],
        ['firefox:webgpu count=256', 'firefox', 3],
        ['firefox:webgl2 count=256', 'firefox', 3],
        ['webkit:webgpu count=256', 'webkit', 'skipped'],
        ['webkit:webgl2 count=256', 'webkit', 3],
      ]);
      expect(Object.keys(bench.engines).sort()).toEqual(['chromium', 'firefox', 'webkit']);
      // no engine's adapter here gets the clock guard: each WebGPU row says it is a software one
      // (Firefox names none, and says so by isFallbackAdapter), each WebGL2 row that it has no compute
      expect(bench.rows.filter((x) => !x.skipped).map((x) => [x.key, x.clockNote])).toEqual([
        ['webgpu count=256', 'a software adapter'],
        ['webgl2 count=256', 'webgl2 has no compute'],
        ['firefox:webgpu count=256', 'a software adapter'],
        ['firefox:webgl2 count=256', 'webgl2 has no compute'],
        ['webkit:webgl2 count=256', 'webgl2 has no compute'],
      ]);
    },
    400_000,
  );

  it('--connect: rungs sharded across two Chromiums already running on loopback give the report a local run gives; a Firefox endpoint (WebDriver BiDi) and a WebKit one (WebDriver over http) add theirs', async () => {
    // browsers as a device cloud runs them: started with a remote-debugging port, no client
    const launched = await Promise.all([
      remoteChromium(),
      remoteChromium(),
      ...(engines.firefox?.ok ? [remoteFirefox()] : []),
      ...(engines.webkit?.ok ? [remoteWebKit()] : []),
    ]);
    try {
      const endpoints = launched.map((b) => b.endpoint);
      const rungs = ['--rungs', 'webgpu,webgpu-no-compute,webgl2,cpu', '--params', 'count=512'];
      const remote = check([
        'check/scenes/particles.ts',
        '--connect',
        endpoints.join(','),
        ...rungs,
      ]);
      const local = check(['check/scenes/particles.ts', '--browsers', 'chromium', ...rungs]);
      expect(remote.status, remote.stdout + remote.stderr).toBe(0);
      expect(local.status, local.stdout + local.stderr).toBe(0);
      type EngineRow = Row & { engine: string };
      const verdicts = (out: string, engine: string) =>
        (report(out).rows as EngineRow[])
          .filter((x) => x.engine === engine)
          .map((x) => [x.rung, x.differing, x.pixelsOk, x.stateOk, x.error]);
      expect(verdicts(remote.out, 'chromium')).toEqual(verdicts(local.out, 'chromium'));
      // the same images, pixel for pixel
      for (const rung of ['webgpu', 'webgl2', 'cpu']) {
        const [a, b] = [remote.out, local.out].map(
          (dir) => PNG.sync.read(readFileSync(path.join(dir, `${rung}.png`))).data,
        );
        expect(Buffer.compare(a!, b!), rung).toBe(0);
      }
      // each endpoint told its engine: the Firefox one (BiDi) ran every rung in Firefox, the
      // WebKit one (WebDriver over http) every rung WebKit has
      if (engines.webkit?.ok) {
        const wk = (report(remote.out).rows as Array<EngineRow & { skipped?: string }>).filter(
          (x) => x.engine === 'webkit',
        );
        expect(wk.map((x) => [x.rung, x.skipped ? 'skipped' : x.pixelsOk])).toEqual([
          ['webgpu', 'skipped'],
          ['webgpu-no-compute', 'skipped'],
          ['webgl2', true],
          ['cpu', true],
        ]);
      }
      if (engines.firefox?.ok) {
        const ff = (report(remote.out).rows as EngineRow[]).filter((x) => x.engine === 'firefox');
        expect(ff.map((x) => [x.rung, x.pixelsOk])).toEqual([
          ['webgpu', true],
          ['webgpu-no-compute', true],
          ['webgl2', true],
          ['cpu', true],
        ]);
      }
    } finally {
      for (const b of launched) b.close();
    }
  }, 400_000);

  it('exits 2 with one line, no stack trace, for a scene that does not exist and for an unknown browser', () => {
    const none = check(['scenes/nope.ts']);
    expect(none.status).toBe(2);
    expect(none.stderr.trim()).toBe('ignis-check: scene scenes/nope.ts not found');
    const bad = check(['check/scenes/triangle.ts', '--browsers', 'chromium,netscape']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /unknown browser netscape; the browsers are chromium, firefox, webkit/,
    );
    expect(`${none.stderr}${bad.stderr}`).not.toMatch(/\n\s+at /);
  });
});
