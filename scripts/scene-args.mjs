// The command line of ignis-check and ignis-bench: one parser over a table of options, and the
// entry point both share. Node built-ins only (the CLIs parse their arguments before setup has
// installed anything).
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rungs of check/rungs.ts, in ladder order (tests/node/scene-kit.test.ts keeps them equal). */
export const RUNG_NAMES = ['webgpu', 'webgpu-no-compute', 'webgl2', 'webgl2-half-float', 'cpu'];

/** The options both CLIs take: name → how its value is read into `o`. */
/** The browser engines a rung can run in (scripts/engines.mjs). */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

const COMMON = {
  // a rung alone runs in every engine of --browsers; `engine:rung` (firefox:webgl2) in that one
  '--rungs': (o, v, fail) => {
    o.rungs = v.split(',').filter(Boolean);
    const bad = o.rungs.filter((r) => {
      const [engine, rung] = r.includes(':') ? r.split(':') : [ENGINES[0], r];
      return !ENGINES.includes(engine) || !RUNG_NAMES.includes(rung);
    });
    if (bad.length)
      fail(
        `unknown rung ${bad.join(', ')}; the rungs are ${RUNG_NAMES.join(', ')}, alone or after an engine (${ENGINES.join(', ')}) and a colon`,
      );
  },
  '--browsers': (o, v, fail) => {
    o.browsers = v.split(',').filter(Boolean);
    const bad = o.browsers.filter((b) => !ENGINES.includes(b));
    if (bad.length || o.browsers.length === 0)
      fail(`unknown browser ${bad.join(', ') || '(none)'}; the browsers are ${ENGINES.join(', ')}`);
  },
  // browsers already running elsewhere (ws:// CDP or BiDi, http:// WebDriver); rungs are sharded
  '--connect': (o, v, fail) => {
    o.connect = v.split(',').filter(Boolean);
    const bad = o.connect.filter((e) => !/^(wss?|https?):\/\//.test(e));
    if (bad.length || o.connect.length === 0)
      fail(
        `--connect ${bad.join(', ') || v}: an endpoint is ws://… (CDP, WebDriver BiDi) or http://… (WebDriver)`,
      );
  },
  '--frames': (o, v, fail) => (o.frames = Math.max(1, Math.round(number(v, '--frames', fail)))),
  '--dt': (o, v, fail) => (o.dt = number(v, '--dt', fail)),
  '--size': (o, v, fail) => {
    const m = /^(\d+)x(\d+)$/.exec(v);
    if (!m) fail(`--size ${v} must be WIDTHxHEIGHT`);
    o.width = Number(m[1]);
    o.height = Number(m[2]);
  },
  '--timeout': (o, v, fail) => (o.timeout = number(v, '--timeout', fail)),
  '--out': (o, v) => (o.out = v),
};

/** Flags without a value. */
const SWITCHES = { '--gpu': (o) => (o.gpu = true) };

export function number(v, name, fail) {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) fail(`${name} ${v} is not a non-negative number`);
  return n;
}

/** `name=value,…` → `{ name: value }` (numbers where they parse). */
export function parseParams(text, option, fail) {
  const out = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) fail(`${option} entry "${pair}" is not name=value`);
    const v = pair.slice(eq + 1);
    out[pair.slice(0, eq)] = v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return out;
}

/**
 * Parses `argv` for `tool` (its name, in messages) into `defaults` extended by the common options,
 * `own` (option → reader) and `ownSwitches` (flag → setter); one positional argument, the scene.
 * Throws an Error naming the tool.
 */
export function parseSceneArgs(tool, argv, defaults, own, ownSwitches = {}) {
  const o = {
    rungs: RUNG_NAMES,
    frames: 10,
    dt: 1 / 60,
    width: 256,
    height: 256,
    timeout: 60,
    gpu: false,
    ...defaults,
  };
  const fail = (msg) => {
    throw new Error(`${tool}: ${msg}`);
  };
  const readers = { ...COMMON, ...own };
  const switches = { ...SWITCHES, ...ownSwitches };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const reader = readers[a];
    if (switches[a]) switches[a](o);
    else if (reader) reader(o, argv[++i] ?? fail(`${a} needs a value`), fail);
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else if (o.scene) fail(`one scene at a time (got ${o.scene} and ${a})`);
    else o.scene = a;
  }
  if (!o.scene) fail(`no scene module given: npx ${tool} <scene.ts>`);
  return o;
}

/**
 * A CLI's entry point, when `moduleUrl` is the script node was started with: parses the arguments
 * (a bad one: its message and exit 2), runs `setup(options)`, then `run(options)`, whose result is the exit
 * code.
 */
export async function runCli(moduleUrl, parse, setup, run) {
  // npx starts a bin through a link in node_modules/.bin: compare the files the paths lead to
  const started = process.argv[1] && realpathSync(path.resolve(process.argv[1]));
  if (started !== realpathSync(fileURLToPath(moduleUrl))) return;
  let o;
  try {
    o = parse(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  // an error is 2 (a missing scene, a missing peer dependency, a browser that cannot start), with
  // a one-line message: 1 means a mismatch, and CI must be able to tell them apart
  const { setupFailsWith } = await import('./setup.mjs');
  setupFailsWith(2);
  if (!existsSync(path.resolve(o.scene))) {
    console.error(`${path.basename(fileURLToPath(moduleUrl), '.mjs')}: scene ${o.scene} not found`);
    process.exit(2);
  }
  try {
    setup(o);
    process.exit(await run(o));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  }
}

/**
 * The (engine, rung) pairs to run, engine by engine in ENGINES order, rung by rung in ladder order:
 * a rung alone in each of `browsers`, `engine:rung` in its engine. `label`: the rung's name in
 * reports (`webgl2` in Chromium, `firefox:webgl2` elsewhere).
 */
export function rungCells(rungs, browsers) {
  const pairs = new Map();
  for (const r of rungs) {
    const targets = r.includes(':') ? [r.split(':')] : browsers.map((b) => [b, r]);
    for (const [engine, rung] of targets)
      pairs.set(`${engine}:${rung}`, {
        engine,
        rung,
        label: engine === 'chromium' ? rung : `${engine}:${rung}`,
      });
  }
  const order = (c) => ENGINES.indexOf(c.engine) * 100 + RUNG_NAMES.indexOf(c.rung);
  return [...pairs.values()].sort((a, b) => order(a) - order(b));
}
