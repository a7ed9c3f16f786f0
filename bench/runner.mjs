// Node side of the benchmark: builds scenarios from options, runs them interleaved (A B C A B C …)
// in headless Chromium, aggregates medians and percentiles, and writes JSON, a markdown table, an
// SVG chart and screenshots. Shared by `npm run bench`, `npm start` and the smoke test.
// The particle suite is one use of the scene kit: ignis-bench's runner over the particle scene
// (check/scenes/particles.ts, a cell per path, draw mode and count); the other suites run their
// workloads in the bench page (bench/page/).
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { chartSvg } from './chart.mjs';
import { runBench as runScene, repeatOrder } from '../scripts/ignis-bench.mjs';

/** The particle suite's scene: the one ignis-check runs on every rung in `npm test`. */
export const PARTICLE_SCENE = fileURLToPath(
  new URL('../check/scenes/particles.ts', import.meta.url),
);
/** The presets suite's scene: the particles demo's presets, as ignis-check runs them. */
export const PRESET_SCENE = fileURLToPath(new URL('../check/scenes/presets.ts', import.meta.url));

export const DEFAULT_BACKEND = { compute: 'webgpu', pingpong: 'webgl2', cpu: 'webgpu' };

export const DEFAULTS = {
  counts: [10_000, 100_000, 1_000_000],
  paths: ['compute', 'pingpong', 'cpu'],
  draw: ['instanced', 'pulled'],
  size: [1280, 720],
  repeat: 2,
  frames: 30,
  warmup: 5,
  budgetMs: 6000,
  tooSlowMs: 5000,
  /** The GPU's clock guard of the particle suite's cells (ignis-bench --clocks). */
  clocks: 'auto',
  preroll: 30,
  out: 'bench/results',
  compare: null,
  check: false,
  threshold: 0.15,
  gpu: false,
  quiet: false,
  suites: ['particles', 'post', 'blur', 'frame'],
  postSizes: [
    [1280, 720],
    [1920, 1080],
  ],
  radii: [4, 8, 16, 32],
  frameCounts: [100_000],
  cpuCounts: [100_000],
  sortCounts: [100_000, 1_000_000],
  trailCounts: [10_000, 100_000],
  trailLengths: [16],
  livingCounts: [1_000_000],
  livingShares: [0.01, 0.1, 1],
  livingDraw: ['pulled', 'splat'],
  presets: ['fireworks', 'sparks', 'swirl', 'shapes', 'fire', 'smoke'],
  presetCounts: [100_000],
  moduleCounts: [100_000],
  moduleExtras: ['none', 'mesh', 'field', 'colliders', 'depth'],
  referenceCounts: [100_000],
  referenceLooks: ['disc'],
  referenceLooksGiven: false,
  /** Draws a frame in the draws suite (the RHI's CPU cost per draw). */
  drawCounts: [100, 1000, 10000],
  portableCounts: [1024, 4096, 16384],
  /** Sides of the portable suite's Life grids (n×n cells). */
  portableGrids: [256, 1024],
  /** `chromium` (headless, the default) or `deno` (Deno's WebGPU: a headless GPU server). */
  runtime: 'chromium',
  /** The browser engine: `chromium` (SwiftShader) or `firefox` (wgpu/lavapipe, llvmpipe). */
  browser: 'chromium',
  /** A scenario that runs longer than this is reported as failed and the run goes on. */
  scenarioTimeoutMs: 300_000,
};

export const SUITES = [
  'particles',
  'post',
  'blur',
  'frame',
  'cpu',
  'reference',
  'portable',
  'sort',
  'trails',
  'living',
  'presets',
  'modules',
  'draws',
];
/** Where the sort suite runs: the compute sort on WebGPU, the fragment-pass sort on WebGL2. */
export const SORT_PATHS = [
  ['compute', 'webgpu'],
  ['pingpong', 'webgl2'],
];
/** Where the trails suite runs: the state copy on compute, the texture copy on the WebGL2 ping-pong, the CPU's uploads. */
export const TRAIL_PATHS = [
  ['compute', 'webgpu'],
  ['pingpong', 'webgl2'],
  ['cpu', 'webgpu'],
];
/** Where the presets suite runs: each backend's GPU path, the draw mode `auto` chooses. */
export const PRESET_PATHS = [
  ['compute', 'webgpu'],
  ['pingpong', 'webgl2'],
];
/** Where the portable flock runs: its WGSL as is, its GLSL translation, its JavaScript translation. */
export const PORTABLE_PATHS = [
  ['compute', 'webgpu'],
  ['pingpong', 'webgl2'],
  ['cpu', 'webgl2'],
];
/** The CPU update loops compared by the `cpu` suite (bench/page/workloads.ts). */
export const CPU_LOOPS = ['ignis', 'reference', 'plain'];
/** Where the post-process scenarios run: both paths on WebGPU, the fragment path on WebGL2. */
export const POST_PATHS = [
  ['compute', 'webgpu'],
  ['fragment', 'webgpu'],
  ['fragment', 'webgl2'],
];
/** The whole frame per backend: particles and post on compute (WebGPU), ping-pong + fragment (WebGL2). */
export const FRAME_PATHS = [
  ['compute', 'compute', 'webgpu'],
  ['pingpong', 'fragment', 'webgl2'],
];

const USAGE = `npm run bench -- [options]
  --counts 10000,100000,1000000   particle counts
  --paths compute,pingpong,cpu    paths; path@backend picks the backend (defaults: compute@webgpu, pingpong@webgl2, cpu@webgpu)
  --draw instanced,pulled         draw modes
  --size 1280x720                 canvas size in pixels
  --repeat 2                      interleaved repeats of every scenario
  --frames 30 --warmup 5          measured frames (per metric) and warm-up frames
  --budget-ms 6000                stop a metric after this long once 5 frames are in
  --too-slow-ms 5000              skip a scenario whose warm-up frame takes longer
  --clocks auto                   the particle cells' GPU clock guard: auto, on or off (ignis-bench --clocks)
  --preroll 30                    update-only steps of 0.1 s before measuring (reach the steady state)
  --out bench/results             where results go
  --compare <file.json>           print each row's ratio to a saved run
  --check                         with --compare: exit 1 when a row is slower by more than --threshold
  --threshold 0.15                allowed slowdown for --check
  --gpu                           use a hardware adapter instead of SwiftShader
  --suites particles,post,blur,frame   what to run: particle update+draw; the post chain alone;
                                  the blur alone; particles + post as one frame; also \`cpu\`:
                                  the CPU path's update loop against a plain hand-written one,
                                  \`reference\`, \`portable\`: a WGSL gather kernel on every path, and
                                  \`draws\`: the RHI's CPU cost per draw (--draw-counts)
  --post-sizes 1280x720,1920x1080 sizes of the post chain alone
  --radii 4,8,16,32               blur radii (blur at the first post size)
  --frame-counts 100000           particle counts of the whole frame (at --size)
  --cpu-counts 100000             particle counts of the cpu suite
  --sort-counts 100000,1000000    particle counts of the sort suite (alpha blending drawn unsorted
                                  and sorted back to front: the depth sort's cost, per path)
  --trail-counts 10000,100000     particle counts of the trails suite (the frame without trails and
                                  with ribbons of --trail-lengths 16 positions, per path)
  --living-counts 1000000         slots of the living suite: the frame drawing every slot (culling the
                                  dead in the vertex stage) against drawing the living only
                                  (compact), at --living-shares 0.01,0.1,1 of the slots alive, in
                                  --living-draw pulled,splat (compute@webgpu; also instanced, and
                                  sorted: alpha sorted back to front, the sort's cost included)
  --presets fireworks,sparks,swirl,shapes,fire,smoke  the presets suite: each of the particles
                                  demo's presets (check/scenes/presets.ts) at --preset-counts
                                  100000, drawn in the mode \`auto\` chooses, on compute@webgpu and
                                  pingpong@webgl2
  --module-extras none,mesh,field,colliders,depth  the modules suite: the particle scene at
                                  --module-counts 100000 with one module more (emission from a
                                  2,048-triangle mesh, a 16³ curl-noise field, SDF colliders,
                                  scene-depth collisions), the update's GPU time against none
  --portable-counts 1024,4096,16384  boids of the portable suite (one WGSL flock, an O(n²) gather,
                                  on compute@webgpu, pingpong@webgl2 and cpu@webgl2; step + draw)
  --portable-grids 256,1024       sides of the portable suite's Life grids (a 2-D WGSL kernel with
                                  computed write indices: the ping-pong path's scatter form)
  --draw-counts 100,1000,10000    draws a frame in the draws suite (Ignis's CPU cost per draw against
                                  a hand-written WebGPU / WebGL2 frame and three.js, both backends)
  --reference-counts 100000       particle counts of the reference suite (Ignis's draw against a
                                  hand-written WebGPU and WebGL2 draw of the same look, --draw modes)
  --reference-looks disc          the reference suite's looks: disc (the soft disc, the default)
                                  and sprite (a 32² image per particle, options.texture); under
                                  --runtime deno both unless given
  --browser firefox               run in Firefox (WebGPU on wgpu/lavapipe, WebGL2 on llvmpipe)
                                  instead of Chromium (SwiftShader)
  --runtime deno                  run the particle scenarios under Deno's WebGPU instead of Chromium
                                  (headless GPU servers; with --gpu it uses the machine's Vulkan GPU)
  --draw also takes splat and auto (defaults: instanced,pulled in Chromium; all four under Deno)`;

export function parseArgs(argv) {
  const o = structuredClone(DEFAULTS);
  const list = (v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n\n${USAGE}`);
      return v;
    };
    switch (a) {
      case '--counts':
        o.counts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--paths':
        o.paths = list(next());
        break;
      case '--draw':
        o.draw = list(next());
        o.drawGiven = true;
        break;
      case '--browser':
        o.browser = next();
        if (!['chromium', 'firefox'].includes(o.browser))
          throw new Error(`--browser: ${o.browser} is not chromium or firefox`);
        break;
      case '--runtime':
        o.runtime = next();
        if (!['chromium', 'deno'].includes(o.runtime))
          throw new Error(`--runtime: ${o.runtime} is not chromium or deno`);
        break;
      case '--size':
        o.size = next().split('x').map(Number);
        break;
      case '--repeat':
        o.repeat = Number(next());
        break;
      case '--frames':
        o.frames = Number(next());
        break;
      case '--warmup':
        o.warmup = Number(next());
        break;
      case '--budget-ms':
        o.budgetMs = Number(next());
        break;
      case '--too-slow-ms':
        o.tooSlowMs = Number(next());
        break;
      case '--clocks': {
        const v = next();
        if (v !== 'auto' && v !== 'on' && v !== 'off')
          throw new Error(`bench: --clocks ${v} is not auto, on or off`);
        o.clocks = v;
        break;
      }
      case '--preroll':
        o.preroll = Number(next());
        break;
      case '--portable-counts':
        o.portableCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--portable-grids':
        o.portableGrids = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--draw-counts':
        o.drawCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--reference-counts':
        o.referenceCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--reference-looks':
        o.referenceLooks = list(next());
        o.referenceLooksGiven = true;
        for (const l of o.referenceLooks)
          if (l !== 'disc' && l !== 'sprite')
            throw new Error(`--reference-looks takes disc and sprite, got ${l}`);
        break;
      case '--cpu-counts':
        o.cpuCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--sort-counts':
        o.sortCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--trail-counts':
        o.trailCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--living-counts':
        o.livingCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--living-shares':
        o.livingShares = list(next()).map(Number);
        break;
      case '--living-draw':
        o.livingDraw = list(next());
        break;
      case '--presets':
        o.presets = list(next());
        break;
      case '--module-counts':
        o.moduleCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--module-extras':
        o.moduleExtras = list(next());
        break;
      case '--preset-counts':
        o.presetCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--trail-lengths':
        o.trailLengths = list(next()).map(Number);
        break;
      case '--out':
        o.out = next();
        break;
      case '--compare':
        o.compare = next();
        break;
      case '--check':
        o.check = true;
        break;
      case '--threshold':
        o.threshold = Number(next());
        break;
      case '--gpu':
        o.gpu = true;
        break;
      case '--quiet':
        o.quiet = true;
        break;
      case '--suites':
        o.suites = list(next());
        break;
      case '--post-sizes':
        o.postSizes = list(next()).map((v) => v.split('x').map(Number));
        break;
      case '--radii':
        o.radii = list(next()).map(Number);
        break;
      case '--frame-counts':
        o.frameCounts = list(next()).map((c) => Number(c.replace(/_/g, '')));
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${a}\n\n${USAGE}`);
    }
  }
  for (const c of o.counts)
    if (!Number.isInteger(c) || c < 1) throw new Error(`--counts: ${c} is not a positive integer`);
  for (const p of o.paths) {
    const [name, backend] = p.split('@');
    if (!(name in DEFAULT_BACKEND))
      throw new Error(`--paths: unknown path ${name} (compute, pingpong, cpu)`);
    if (backend && backend !== 'webgpu' && backend !== 'webgl2')
      throw new Error(`--paths: unknown backend ${backend} (webgpu, webgl2)`);
  }
  for (const d of o.draw)
    if (!['instanced', 'pulled', 'splat', 'auto'].includes(d))
      throw new Error(`--draw: unknown draw mode ${d} (instanced, pulled, splat, auto)`);
  if (o.size.length !== 2 || o.size.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--size must look like 1280x720`);
  for (const k of ['repeat', 'frames'])
    if (!Number.isInteger(o[k]) || o[k] < 1) throw new Error(`--${k} must be a positive integer`);
  for (const extra of o.moduleExtras)
    if (!DEFAULTS.moduleExtras.includes(extra))
      throw new Error(
        `--module-extras: unknown module ${extra} (${DEFAULTS.moduleExtras.join(', ')})`,
      );
  for (const preset of o.presets)
    if (!DEFAULTS.presets.includes(preset))
      throw new Error(`--presets: unknown preset ${preset} (${DEFAULTS.presets.join(', ')})`);
  for (const suite of o.suites)
    if (!SUITES.includes(suite))
      throw new Error(`--suites: unknown suite ${suite} (${SUITES.join(', ')})`);
  for (const size of o.postSizes)
    if (size.length !== 2 || size.some((n) => !Number.isInteger(n) || n < 1))
      throw new Error('--post-sizes must look like 1280x720,1920x1080');
  for (const r of o.radii)
    if (!Number.isInteger(r) || r < 0 || r > 35)
      throw new Error(`--radii: ${r} is not an integer from 0 to 35`);
  for (const c of o.frameCounts)
    if (!Number.isInteger(c) || c < 1)
      throw new Error(`--frame-counts: ${c} is not a positive integer`);
  return o;
}

/**
 * The cells of the suites that run as scenes (the particle scene): `particles` (per path × draw
 * mode × count) and `sort` (alpha blending unsorted and sorted, per path and count) — a rung (the
 * backend) and the scene's params each, with the scenario id.
 */
export function particleCells(o) {
  const out = [];
  if (o.suites.includes('particles'))
    for (const count of o.counts)
      for (const p of o.paths)
        for (const draw of o.draw) {
          const [pathName, b] = p.split('@');
          const backend = b ?? DEFAULT_BACKEND[pathName];
          out.push({
            id: `particles/${pathName}@${backend}/${draw}/${count}`,
            kind: 'particles',
            rung: backend,
            params: { count, path: pathName, draw, preroll: o.preroll },
          });
        }
  if (o.suites.includes('sort'))
    for (const count of o.sortCounts)
      for (const [pathName, backend] of SORT_PATHS)
        for (const sort of [0, 1])
          out.push({
            id: `sort/${pathName}@${backend}/pulled/${count}/${sort ? 'sorted' : 'unsorted'}`,
            kind: 'sort',
            rung: backend,
            params: { count, path: pathName, draw: 'pulled', preroll: o.preroll, sort },
          });
  if (o.suites.includes('trails'))
    for (const count of o.trailCounts)
      for (const [pathName, backend] of TRAIL_PATHS)
        for (const trail of [0, ...o.trailLengths])
          out.push({
            id: `trails/${pathName}@${backend}/pulled/${count}/${trail ? `trail${trail}` : 'none'}`,
            kind: 'trails',
            rung: backend,
            params: { count, path: pathName, draw: 'pulled', preroll: o.preroll, trail },
          });
  if (o.suites.includes('modules'))
    for (const count of o.moduleCounts)
      for (const [pathName, backend] of PRESET_PATHS)
        for (const extra of o.moduleExtras)
          out.push({
            id: `modules/${pathName}@${backend}/pulled/${count}/${extra}`,
            kind: 'modules',
            rung: backend,
            params: { count, path: pathName, draw: 'pulled', preroll: 5, extra },
          });
  if (o.suites.includes('living'))
    for (const count of o.livingCounts)
      for (const draw of o.livingDraw)
        for (const alive of o.livingShares)
          for (const compact of [0, 1])
            out.push({
              id: `living/compute@webgpu/${draw}/${count}/${alive}/${compact ? 'living' : 'every-slot'}`,
              kind: 'living',
              rung: 'webgpu',
              // 12 steps of 0.1 s: past the one-second lives, the steady share alive; 'sorted':
              // the pulled draw of alpha particles sorted back to front every frame
              params: {
                count,
                path: 'compute',
                draw: draw === 'sorted' ? 'pulled' : draw,
                ...(draw === 'sorted' ? { sort: 1 } : {}),
                preroll: 12,
                alive,
                compact,
              },
            });
  return out;
}

/** The presets suite's cells: each preset per count and path, the draw mode `auto` chooses. */
export function presetCells(o) {
  const out = [];
  if (o.suites.includes('presets'))
    for (const count of o.presetCounts)
      for (const preset of o.presets)
        for (const [pathName, backend] of PRESET_PATHS)
          out.push({
            id: `presets/${pathName}@${backend}/auto/${count}/${preset}`,
            kind: 'presets',
            rung: backend,
            // 20 update-only steps of 0.1 s: the emitters' steady state (the fireworks' cycle is 3 s)
            params: { count, path: pathName, draw: 'auto', preroll: 20, preset },
          });
  return out;
}

/** The page suites' scenarios (every suite but particles, which runs as a scene). */
export function buildScenarios(o) {
  const out = [];
  const common = {
    warmup: o.warmup,
    frames: o.frames,
    budgetMs: o.budgetMs,
    tooSlowMs: o.tooSlowMs,
    preroll: o.preroll,
  };
  if (o.suites.includes('post'))
    for (const [width, height] of o.postSizes)
      for (const [postPath, backend] of POST_PATHS) {
        const id = `post/${postPath}@${backend}/${width}x${height}`;
        out.push({
          ...common,
          preroll: 0,
          kind: 'post',
          id,
          path: postPath,
          postPath,
          backend,
          drawMode: 'pulled',
          count: 0,
          width,
          height,
        });
      }
  if (o.suites.includes('blur')) {
    const [width, height] = o.postSizes[0];
    for (const radius of o.radii)
      for (const [postPath, backend] of POST_PATHS) {
        const id = `blur/${postPath}@${backend}/r${radius}/${width}x${height}`;
        out.push({
          ...common,
          preroll: 0,
          kind: 'blur',
          id,
          path: postPath,
          postPath,
          radius,
          backend,
          drawMode: 'pulled',
          count: 0,
          width,
          height,
        });
      }
  }
  if (o.suites.includes('frame'))
    for (const count of o.frameCounts)
      for (const [particlePath, postPath, backend] of FRAME_PATHS) {
        const id = `frame/${particlePath}+${postPath}@${backend}/pulled/${count}/${o.size[0]}x${o.size[1]}`;
        out.push({
          ...common,
          kind: 'frame',
          id,
          path: particlePath,
          particlePath,
          postPath,
          backend,
          drawMode: 'pulled',
          count,
          width: o.size[0],
          height: o.size[1],
        });
      }
  if (o.suites.includes('reference'))
    for (const count of o.referenceCounts)
      for (const backend of ['webgpu', 'webgl2'])
        for (const drawMode of o.draw.filter((d) => d === 'instanced' || d === 'pulled'))
          for (const look of o.referenceLooks)
            out.push({
              ...common,
              kind: 'reference',
              id: `reference/${backend}/${drawMode}/${count}${look === 'disc' ? '' : `/${look}`}`,
              path: backend === 'webgpu' ? 'compute' : 'pingpong',
              backend,
              drawMode,
              look,
              count,
              width: o.size[0],
              height: o.size[1],
            });
  if (o.suites.includes('draws'))
    for (const count of o.drawCounts)
      for (const backend of ['webgpu', 'webgl2'])
        out.push({
          ...common,
          kind: 'draws',
          id: `draws/${backend}/${count}`,
          path: backend === 'webgpu' ? 'compute' : 'pingpong',
          backend,
          drawMode: 'instanced',
          count,
          width: 256,
          height: 256,
        });
  if (o.suites.includes('portable'))
    for (const count of o.portableCounts)
      for (const [pathName, backend] of PORTABLE_PATHS)
        out.push({
          ...common,
          preroll: 0,
          kind: 'portable',
          program: 'flock',
          id: `portable/${pathName}@${backend}/${count}`,
          path: pathName,
          backend,
          drawMode: 'instanced',
          count,
          width: o.size[0],
          height: o.size[1],
        });
  if (o.suites.includes('portable'))
    for (const side of o.portableGrids)
      for (const [pathName, backend] of PORTABLE_PATHS)
        out.push({
          ...common,
          preroll: 0,
          kind: 'portable',
          program: 'life',
          id: `portable-life/${pathName}@${backend}/${side}x${side}`,
          path: pathName,
          backend,
          drawMode: 'instanced',
          count: side * side,
          width: o.size[0],
          height: o.size[1],
        });
  if (o.suites.includes('cpu'))
    for (const count of o.cpuCounts)
      for (const loop of CPU_LOOPS)
        out.push({
          ...common,
          preroll: 10,
          kind: 'cpu',
          id: `cpu/${loop}/${count}`,
          path: loop,
          backend: 'webgpu',
          drawMode: 'pulled',
          count,
          width: o.size[0],
          height: o.size[1],
        });
  return out;
}

export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

const median = (v) => percentile(v, 50);
/** a[i] ÷ b[i] for each pair of samples taken back to back (the shorter array decides how many). */
const pairRatios = (a, b) => a.slice(0, Math.min(a.length, b.length)).map((x, i) => x / b[i]);
const round = (v, d = 3) => (v === null || v === undefined ? null : Number(v.toFixed(d)));

function visiblePixels(png) {
  const img = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4)
    if (img.data[i] + img.data[i + 1] + img.data[i + 2] > 24) n++;
  return n;
}

/** Whether an adapter description names a software rasteriser (the CPU drawing, not a GPU). */
export function isSoftwareAdapter(adapter) {
  return /swiftshader|llvmpipe|lavapipe|softpipe|software|microsoft basic render/i.test(
    adapter ?? '',
  );
}

function screenshotLabel(s, m) {
  const software = isSoftwareAdapter(m.adapter) ? ' · software GPU (SwiftShader)' : '';
  const ms = `e2e median ${median(m.e2eMs).toFixed(1)} ms${software}`;
  if (s.kind === 'post')
    return `post chain alone (bloom, AgX, grade) · ${s.postPath} path on ${s.backend} · ${s.width}×${s.height} · ${ms}`;
  if (s.kind === 'blur')
    return `blur r${s.radius} · ${s.postPath} path on ${s.backend} · ${s.width}×${s.height} · ${ms}`;
  if (s.kind === 'portable' && s.program === 'life')
    return `portable Life (one WGSL source, 2-D grid) · ${s.path} path on ${s.backend} · ${Math.sqrt(s.count)}² cells · ${ms}`;
  if (s.kind === 'portable')
    return `portable flock (one WGSL source) · ${s.path} path on ${s.backend} · ${s.count.toLocaleString('en-US')} boids · ${ms}`;
  if (s.kind === 'frame')
    return `${s.count.toLocaleString('en-US')} particles (${s.particlePath}) + post (${s.postPath}) on ${s.backend} · ${s.width}×${s.height} · ${ms}`;
  return `${s.path} path on ${s.backend} · ${s.drawMode} draw · ${s.count.toLocaleString('en-US')} particles · ${s.width}×${s.height} · e2e median ${median(m.e2eMs).toFixed(1)} ms${software}`;
}

/**
 * How long one capture may take (ms). Past it the page counts as stalled and is not asked again:
 * a capture that stalled in Chromium stalled again on the same page (120 s twice in a fresh
 * clone's `npm test`, which then ran out of time), and the scenario's run in a fresh page for its
 * picture (`runBench`, below) is the way out.
 */
export const CAPTURE_MS = 90_000;

/**
 * The scenario's screenshot: the bare frame's visible pixels counted, the labelled frame saved.
 * A capture that fails is tried once more (a loaded machine has refused one: CI's stop 55); a
 * capture that stalls past `captureMs` is not (the page is stuck). A failure that stays is logged
 * with its reason, and the row goes without a screenshot (null).
 */
export async function screenshotScenario(page, s, m, out, log, captureMs = CAPTURE_MS) {
  let stalled = false;
  const capture = async () => {
    let timer;
    const stall = new Promise((_, reject) => {
      timer = setTimeout(() => {
        stalled = true;
        reject(new Error(`the screenshot took longer than ${captureMs / 1000} s`));
      }, captureMs);
    });
    try {
      return await Promise.race([page.screenshot({ type: 'png' }), stall]);
    } finally {
      clearTimeout(timer);
    }
  };
  const file = path.join(out, `${s.id.replace(/[/@]/g, '_')}.png`);
  let visible = null;
  for (let attempt = 1; ; attempt++) {
    try {
      visible ??= visiblePixels(await capture());
      // the label once: a retry after it is in the page must not add a second
      if (!(await page.evaluate(() => document.getElementById('ignis-bench-label') !== null)))
        await page.evaluate(labelFrame, screenshotLabel(s, m));
      writeFileSync(file, await capture());
      return { file, visible };
    } catch (e) {
      log(
        `\n${s.id}: screenshot attempt ${attempt} failed (${e.message})${stalled ? '; the page stalled: not asked again' : ''}`,
      );
      if (stalled || attempt === 2) return null;
    }
  }
}

/** Runs in the page: a caption across the top of the frame, for the saved screenshot. */
function labelFrame(text) {
  const el = document.createElement('div');
  el.id = 'ignis-bench-label';
  el.textContent = text;
  el.style.cssText =
    'position:fixed;left:0;top:0;right:0;padding:4px 8px;font:12px/1.4 system-ui,sans-serif;color:#fff;background:rgba(0,0,0,.65);z-index:10';
  document.body.append(el);
}

function gitCommit() {
  try {
    const sha = execSync('git rev-parse --short HEAD', {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty =
      execSync('git status --porcelain', {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() !== '';
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** `promise`, or a rejection naming `what` after `ms`. */
function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} took longer than ${(ms / 1000).toFixed(0)} s`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The particle suite through the scene kit: ignis-bench's runner over the particle scene, the
 * cells interleaved `repeat` times, in `browser`; its own report lands in <out>/particles/. Returns
 * the suite's rows in the benchmark's row format.
 */
async function runParticleSuite(o, browser, scene = PARTICLE_SCENE, cells = particleCells(o)) {
  if (cells.length === 0) return [];
  const folder = scene === PARTICLE_SCENE ? 'particles' : 'presets';
  const out = path.join(o.out, folder);
  const t0 = Date.now();
  const { rows, errors } = await runScene(
    {
      scene,
      rungs: [],
      grid: {},
      runtime: 'browser',
      frames: o.frames,
      warmup: o.warmup,
      repeat: o.repeat,
      dt: 1 / 60,
      width: o.size[0],
      height: o.size[1],
      budgetMs: o.budgetMs,
      tooSlowMs: o.tooSlowMs,
      clocks: o.clocks,
      timeout: o.scenarioTimeoutMs / 1000,
      screenshots: true,
      threshold: 1.5,
      out,
    },
    {
      browser,
      cells: cells.map(({ rung, params }) => ({ rung, params })),
      onCell: (done, total) => {
        if (!o.quiet)
          process.stdout.write(
            `\r\x1b[K[${folder} ${done}/${total}] ${cells[(done - 1) % cells.length].id} … (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
          );
      },
    },
  );
  if (!o.quiet) process.stdout.write('\r\x1b[K');
  return cells.map((c, i) => particleRow(o, c, rows[i], errors, out, folder));
}

/** A row that was not measured: its measurements null, and why. */
function skippedRow(base, skipped) {
  return {
    ...base,
    frames: 0,
    e2eMs: null,
    rafMs: null,
    gpuMs: null,
    cpuMs: null,
    gpuBytes: null,
    heapBytes: null,
    visiblePixels: null,
    alive: null,
    skipped,
  };
}

/** A scene-kit row of the particle suite as a benchmark row (the columns the tables read). */
function particleRow(o, cell, r, errors, out, folder) {
  const base = {
    scenario: cell.id,
    kind: cell.kind,
    postPath: null,
    radius: null,
    size: `${o.size[0]}x${o.size[1]}`,
    path: cell.params.path,
    drawMode: cell.params.draw,
    backend: cell.rung,
    count: cell.params.count,
    adapter: r.adapter,
  };
  if (r.skipped || r.frames === 0)
    return skippedRow(base, r.skipped ?? errors.find((e) => e.includes(`(${r.key},`)) ?? 'not run');
  // the update is the kernel's pass ('particles step'; the CPU path has none), the sort its
  // passes ('particles sort…'), the draw the rest of the frame's (the draw pass, and the splat's
  // compute pass)
  const passes = Object.entries(r.gpuPassMs);
  const sum = (list) => (list.length > 0 ? list.reduce((t, [, ms]) => t + ms, 0) : null);
  const update = r.gpuPassMs['particles step'] ?? null;
  const sorting = passes.filter(([label]) => label.startsWith('particles sort'));
  // the living list's compaction (options.compact), a pass of its own after the update
  const compaction = passes.filter(([label]) => label === 'particles living list');
  const draw = sum(
    passes.filter(
      ([label]) =>
        label !== 'particles step' &&
        label !== 'particles living list' &&
        !label.startsWith('particles sort'),
    ),
  );
  const info = r.info ?? {};
  const mid = median(r.repeatMedians);
  return {
    ...base,
    frames: r.frames,
    e2eMs: { median: round(r.e2eMs), p95: round(r.e2eP95Ms), p99: round(r.e2eP99Ms) },
    rafMs: { median: round(r.rafMs), p95: round(r.rafP95Ms) },
    gpuMs: passes.length > 0 ? { update: round(update), draw: round(draw) } : null,
    cpuMs: round(r.cpuMs),
    gpuSpansMs:
      passes.length > 0
        ? {
            update: round(update),
            draw: round(draw),
            ...(sorting.length > 0 ? { sort: round(sum(sorting)) } : {}),
            ...(compaction.length > 0 ? { living: round(sum(compaction)) } : {}),
          }
        : null,
    describe: `${info.path} (${info.pathReason}), ${info.drawn} (${info.drawModeReason})`,
    drawn: info.drawn ?? null,
    gpuBytes: r.gpuBytes ?? null,
    heapBytes: r.heapBytes ?? null,
    visiblePixels: r.screenshot ? visiblePixels(readFileSync(path.join(out, r.screenshot))) : null,
    alive: info.alive ?? null,
    repeatMedians: r.repeatMedians.map((v) => round(v)),
    spread: round((Math.max(...r.repeatMedians) - Math.min(...r.repeatMedians)) / mid),
    screenshot: r.screenshot ? `${folder}/${r.screenshot}` : null,
  };
}

/** Whether a scenario's row has a screenshot (the timing-only suites have none). */
function takesScreenshot(s) {
  return s.kind !== 'cpu' && s.kind !== 'reference' && s.kind !== 'draws';
}

/**
 * A new page with the scenario run in it: `m` its measurement, or `{ skipped: 'failed: …' }` when it
 * failed or hung (one scenario that fails is reported, never the end of the whole run).
 */
async function openAndRun(browser, url, s, o, log) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => log(`\n[page error] ${e.message}`));
  await page.setViewport({
    width: Math.ceil(s.width),
    height: Math.ceil(s.height),
    deviceScaleFactor: 1,
  });
  await page.goto(`${url}/bench/page/index.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__benchReady === true, { timeout: 60_000 });
  let m;
  try {
    m = await withTimeout(
      page.evaluate((sc) => window.__bench.run(sc), s),
      o.scenarioTimeoutMs,
      'the run',
    );
  } catch (e) {
    // one scenario that fails or hangs is reported, never the end of the whole run
    m = {
      skipped: `failed: ${e.message}`,
      backend: s.backend,
      adapter: '',
      e2eMs: [],
      rafMs: [],
      cpuMs: [],
    };
  }
  return { page, m };
}

/** The scenario's page cleaned up and closed (a page that hangs there is left behind). */
async function closeScenarioPage(page) {
  await withTimeout(
    page.evaluate(() => window.__bench.cleanup()),
    60_000,
    'cleanup',
  ).catch(() => {});
  await withTimeout(page.close(), 60_000, 'closing the page').catch(() => {});
}

/**
 * Runs every scenario `repeat` times, interleaved, every other repeat in reverse order
 * (`repeatOrder`); returns { meta, rows }.
 */
export async function runBench(o, { browser, url, flags, log = console.log }) {
  mkdirSync(o.out, { recursive: true });
  const particleRows = [
    ...(await runParticleSuite(o, browser)),
    ...(await runParticleSuite(o, browser, PRESET_SCENE, presetCells(o))),
  ];
  const scenarios = buildScenarios(o);
  const samples = new Map(scenarios.map((s) => [s.id, []]));
  const shots = new Map();
  const total = scenarios.length * o.repeat;
  let done = 0;
  const t0 = Date.now();
  for (let r = 0; r < o.repeat; r++) {
    for (const s of repeatOrder(scenarios, r)) {
      done++;
      if (!o.quiet)
        process.stdout.write(
          `\r\x1b[K[${done}/${total}] repeat ${r + 1}/${o.repeat} ${s.id} … (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
        );
      const { page, m } = await openAndRun(browser, url, s, o, log);
      if (!m.skipped && r === o.repeat - 1 && takesScreenshot(s)) {
        // pixels are counted on the bare frame; the saved screenshot carries a label saying what it is
        const shot = await screenshotScenario(page, s, m, o.out, log, o.captureMs);
        if (shot) shots.set(s.id, shot);
      }
      await closeScenarioPage(page);
      samples.get(s.id).push(m);
    }
  }
  if (!o.quiet && total > 0)
    process.stdout.write(`\r\x1b[K${total} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  // a scenario without a screenshot whose earlier repeat ran (its last failed, or the capture
  // did): one run more for the picture alone, labelled with the last repeat that ran (the run's
  // own times are not kept), so every row that has times has a screenshot
  for (const s of scenarios) {
    const ran = samples.get(s.id).filter((m) => !m.skipped);
    if (shots.has(s.id) || !takesScreenshot(s) || ran.length === 0) continue;
    log(`\n${s.id}: no screenshot from its last repeat; run once more for it`);
    const { page, m } = await openAndRun(browser, url, s, o, log);
    const shot = m.skipped
      ? null
      : await screenshotScenario(page, s, ran.at(-1), o.out, log, o.captureMs);
    if (shot) shots.set(s.id, shot);
    else log(`\n${s.id}: no screenshot (${m.skipped ?? 'the capture failed'})`);
    await closeScenarioPage(page);
  }
  const rows = [
    ...particleRows,
    ...scenarios.map((s) => aggregate(s, samples.get(s.id), shots.get(s.id))),
  ];
  const adapters = {};
  const caps = {};
  for (const r of particleRows) if (r.adapter) adapters[r.backend] = r.adapter;
  for (const list of samples.values())
    for (const m of list) {
      if (m.backend) adapters[m.backend] = m.adapter;
      if (m.backend && m.caps) caps[m.backend] = m.caps;
    }
  const meta = {
    commit: gitCommit(),
    date: new Date().toISOString(),
    browser: await browser.version(),
    adapters,
    caps,
    flags,
    cpuCores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    canvas: { width: o.size[0], height: o.size[1] },
    repeat: o.repeat,
    frames: o.frames,
    warmup: o.warmup,
    preroll: o.preroll,
  };
  return { meta, rows };
}

function aggregate(s, runs, shot) {
  const base = {
    scenario: s.id,
    kind: s.kind,
    ...(s.program ? { program: s.program } : {}),
    postPath: s.postPath ?? null,
    radius: s.radius ?? null,
    size: `${s.width}x${s.height}`,
    path: s.path,
    drawMode: s.drawMode,
    ...(s.look ? { look: s.look } : {}),
    backend: s.backend,
    count: s.count,
  };
  const ok = runs.filter((m) => !m.skipped);
  if (ok.length === 0) return skippedRow(base, runs[0]?.skipped ?? 'not run');
  const all = (k) => ok.flatMap((m) => m[k] ?? []);
  const e2e = all('e2eMs');
  const raf = all('rafMs');
  const repeatMedians = ok.map((m) => median(m.e2eMs));
  const mid = median(repeatMedians);
  const gpuUpdate = ok.every((m) => m.gpuUpdateMs) ? all('gpuUpdateMs') : null;
  const gpuDraw = ok.every((m) => m.gpuDrawMs) ? all('gpuDrawMs') : null;
  return {
    ...base,
    frames: e2e.length,
    e2eMs: {
      median: round(median(e2e)),
      p95: round(percentile(e2e, 95)),
      p99: round(percentile(e2e, 99)),
    },
    rafMs: { median: round(median(raf)), p95: round(percentile(raf, 95)) },
    gpuMs:
      gpuUpdate || gpuDraw
        ? {
            update: gpuUpdate ? round(median(gpuUpdate)) : null,
            draw: gpuDraw ? round(median(gpuDraw)) : null,
          }
        : null,
    cpuMs: round(median(all('cpuMs'))),
    gpuSpansMs: ok.every((m) => m.gpuSpansMs)
      ? Object.fromEntries(
          Object.keys(ok[0].gpuSpansMs).map((k) => [
            k,
            round(median(ok.flatMap((m) => m.gpuSpansMs[k] ?? []))),
          ]),
        )
      : null,
    describe: ok[ok.length - 1].describe,
    drawn: ok[ok.length - 1].drawn ?? null,
    ...(ok.every((m) => m.reference)
      ? {
          reference: {
            e2eMs: round(median(ok.flatMap((m) => m.reference.e2eMs))),
            cpuMs: round(median(ok.flatMap((m) => m.reference.cpuMs))),
            gpuDrawMs: ok.every((m) => m.reference.gpuDrawMs)
              ? round(median(ok.flatMap((m) => m.reference.gpuDrawMs)))
              : null,
            // Ignis ÷ the hand-written draw per pair (the two measured back to back), then the
            // median: drift over a run (a software GPU's threads, the machine's load) moves both
            // of a pair alike and cancels, where a ratio of the two medians carries it
            e2eRatio: round(median(ok.flatMap((m) => pairRatios(m.e2eMs, m.reference.e2eMs))), 4),
            gpuRatio: ok.every((m) => m.gpuDrawMs && m.reference.gpuDrawMs)
              ? round(median(ok.flatMap((m) => pairRatios(m.gpuDrawMs, m.reference.gpuDrawMs))), 4)
              : null,
            control: {
              cpuMs: round(median(ok.flatMap((m) => m.reference.control.cpuMs))),
              jsUs: ok[0].reference.control.jsUs,
            },
            // the two images of one frame, compared: the repeat that differed most
            image: ok
              .map((m) => m.reference.image)
              .reduce((a, b) => (b.differing > a.differing ? b : a)),
          },
        }
      : {}),
    ...(ok.every((m) => m.draws)
      ? {
          draws: Object.fromEntries(
            ['ignis', 'raw', 'three', 'bundle', 'rawBundle', 'upload']
              .filter((k) => ok.every((m) => m.draws[k]))
              .map((k) => [k, round(median(ok.flatMap((m) => m.draws[k])), 4)]),
          ),
          drawsLit: ok[ok.length - 1].draws.lit,
          // the ratios per round, then their median: a round's contenders ran back to back
          drawRatios: Object.fromEntries(
            [
              ['raw', 'ignis', 'raw'],
              ['three', 'ignis', 'three'],
              ['bundle', 'bundle', 'raw'],
              ['bundleVsRawBundle', 'bundle', 'rawBundle'],
            ]
              .filter(([, a, b]) => ok.every((m) => m.draws[a] && m.draws[b]))
              .map(([name, a, b]) => [
                name,
                round(median(ok.flatMap((m) => m.draws[a].map((x, i) => x / m.draws[b][i]))), 3),
              ])
              // what each frame costs beyond the frame without draws, per round: the draws alone
              .concat(
                [
                  ['rawBeyondUpload', 'ignis', 'raw'],
                  ['bundleBeyondUpload', 'bundle', 'raw'],
                ]
                  .filter(([, a]) => ok.every((m) => m.draws[a] && m.draws.upload))
                  .map(([name, a, b]) => [
                    name,
                    round(
                      median(
                        ok.flatMap((m) =>
                          m.draws[a].map(
                            (x, i) => (x - m.draws.upload[i]) / (m.draws[b][i] - m.draws.upload[i]),
                          ),
                        ),
                      ),
                      3,
                    ),
                  ]),
              ),
          ),
        }
      : {}),
    gpuBytes: ok[ok.length - 1].gpuBytes,
    heapBytes: ok[ok.length - 1].heapBytes,
    visiblePixels: shot?.visible ?? null,
    alive: ok[ok.length - 1].alive,
    repeatMedians: repeatMedians.map((v) => round(v)),
    ...(ok.length < runs.length
      ? { skippedRepeats: runs.filter((m) => m.skipped).map((m) => m.skipped) }
      : {}),
    spread: round((Math.max(...repeatMedians) - Math.min(...repeatMedians)) / mid),
    screenshot: shot ? path.basename(shot.file) : null,
  };
}

const fmt = (v, d = 2) =>
  v === null || v === undefined ? '—' : typeof v === 'number' ? v.toFixed(d) : String(v);
const mb = (v) => (v === null || v === undefined ? '—' : (v / 2 ** 20).toFixed(1));

const isParticles = (r) => (r.kind ?? 'particles') === 'particles';
/** The draw column: the mode asked for, and under `auto` what it chose. */
const drawLabel = (r) => (r.drawMode === 'auto' && r.drawn ? `auto→${r.drawn}` : r.drawMode);

/** The sort suite: alpha blending unsorted and sorted, e2e and the sort's GPU time, per path. */
export function sortTable(rows) {
  const sort = rows.filter((r) => r.kind === 'sort');
  if (sort.length === 0) return '';
  const out = [
    '\nSorted alpha blending (pulled draw): the frame unsorted and sorted back to front, and the depth sort alone (GPU ms of its passes, medians):\n',
    '| path@backend | count | unsorted e2e ms | sorted e2e ms | sorted / unsorted | sort GPU ms | draw GPU ms | sorted CPU ms |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of sort.filter((x) => x.scenario.endsWith('/sorted'))) {
    const base = sort.find((x) => x.scenario === r.scenario.replace(/sorted$/, 'unsorted'));
    const where = `${r.path}@${r.backend}`;
    if (r.skipped || !base || base.skipped) {
      out.push(
        `| ${where} | ${r.count} | ${base?.skipped ? `skipped: ${base.skipped}` : fmt(base?.e2eMs?.median)} | ${r.skipped ? `skipped: ${r.skipped}` : fmt(r.e2eMs.median)} | | | | |`,
      );
      continue;
    }
    out.push(
      `| ${where} | ${r.count} | ${fmt(base.e2eMs.median)} | ${fmt(r.e2eMs.median)} | ${(r.e2eMs.median / base.e2eMs.median).toFixed(2)}× | ${fmt(r.gpuSpansMs?.sort, 3)} | ${fmt(r.gpuSpansMs?.draw, 3)} | ${fmt(r.cpuMs, 3)} |`,
    );
  }
  return out.join('\n');
}

/** The trails suite: the frame without trails and with ribbons of each length, per path. */
export function trailTable(rows) {
  const trails = rows.filter((r) => r.kind === 'trails');
  if (trails.length === 0) return '';
  const out = [
    '\nTrails (pulled draw): the frame without trails and with a ribbon of the last N positions per particle (e2e ms medians; GPU ms of the draw pass, ribbons and particles):\n',
    '| path@backend | count | trail | e2e ms | with / without | draw GPU ms |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of trails.filter((x) => !x.scenario.endsWith('/none'))) {
    const base = trails.find((x) => x.scenario === r.scenario.replace(/trail\d+$/, 'none'));
    const where = `${r.path}@${r.backend}`;
    const length = r.scenario.split('/').pop();
    if (r.skipped || !base || base.skipped) {
      out.push(
        `| ${where} | ${r.count} | ${length} | ${r.skipped ? `skipped: ${r.skipped}` : fmt(r.e2eMs?.median)} | | |`,
      );
      continue;
    }
    out.push(
      `| ${where} | ${r.count} | none | ${fmt(base.e2eMs.median)} | 1.00× | ${fmt(base.gpuSpansMs?.draw, 3)} |`,
    );
    out.push(
      `| ${where} | ${r.count} | ${length} | ${fmt(r.e2eMs.median)} | ${(r.e2eMs.median / base.e2eMs.median).toFixed(2)}× | ${fmt(r.gpuSpansMs?.draw, 3)} |`,
    );
  }
  return out.join('\n');
}

/** The presets suite: each preset's frame and its GPU passes, per path. */
export function presetTable(rows) {
  const presets = rows.filter((r) => r.kind === 'presets');
  if (presets.length === 0) return '';
  const out = [
    "\nPresets (the particles demo's, check/scenes/presets.ts; the draw mode `auto` chose; e2e ms medians, GPU ms of the update, the sort and the draw):\n",
    '| preset | path@backend | draw | count | e2e ms | p95 | update GPU ms | sort GPU ms | draw GPU ms | alive |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of presets) {
    const preset = r.scenario.split('/').pop();
    const where = `${r.path}@${r.backend}`;
    if (r.skipped) {
      out.push(
        `| ${preset} | ${where} | ${r.drawMode} | ${r.count} | skipped: ${r.skipped} | | | | | |`,
      );
      continue;
    }
    out.push(
      `| ${preset} | ${where} | ${drawLabel(r)} | ${r.count} | ${fmt(r.e2eMs.median)} | ${fmt(r.e2eMs.p95)} | ${fmt(r.gpuMs?.update, 3)} | ${fmt(r.gpuSpansMs?.sort, 3)} | ${fmt(r.gpuMs?.draw, 3)} | ${r.alive ?? ''} |`,
    );
  }
  return out.join('\n');
}

/** The modules suite: the update's GPU time with one module more, against none, per path. */
export function moduleTable(rows) {
  const modules = rows.filter((r) => r.kind === 'modules');
  if (modules.length === 0) return '';
  const out = [
    '\nModules (the particle scene with one module more; GPU ms of the update pass, medians; e2e ms of the frame):\n',
    '| path@backend | count | module | update GPU ms | × none | per particle ns | e2e ms |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of modules) {
    const extra = r.scenario.split('/').pop();
    const base = modules.find((x) => x.scenario === r.scenario.replace(/[^/]+$/, 'none'));
    const where = `${r.path}@${r.backend}`;
    if (r.skipped) {
      out.push(`| ${where} | ${r.count} | ${extra} | skipped: ${r.skipped} | | | |`);
      continue;
    }
    const update = r.gpuMs?.update;
    const ratio =
      update != null && base?.gpuMs?.update ? `${(update / base.gpuMs.update).toFixed(2)}×` : '';
    out.push(
      `| ${where} | ${r.count} | ${extra} | ${fmt(update, 3)} | ${ratio} | ${update == null ? '' : ((update * 1e6) / r.count).toFixed(1)} | ${fmt(r.e2eMs.median)} |`,
    );
  }
  return out.join('\n');
}

/** The living suite: the frame drawing every slot against drawing the living only, per share alive. */
export function livingTable(rows) {
  const living = rows.filter((r) => r.kind === 'living');
  if (living.length === 0) return '';
  const out = [
    '\nThe living only (compact): every slot drawn (the dead culled in the vertex stage) against a GPU-compacted list drawn indirectly (e2e ms medians; GPU ms of the compaction pass and of the draw):\n',
    '| draw | slots | alive | every slot e2e | living e2e | living / every | compaction GPU ms | draw GPU ms (every → living) | sort GPU ms (every → living) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of living.filter((x) => x.scenario.endsWith('/living'))) {
    const base = living.find((x) => x.scenario === r.scenario.replace(/living$/, 'every-slot'));
    const [, , draw, count, alive] = r.scenario.split('/');
    if (r.skipped || !base || base.skipped) {
      out.push(
        `| ${draw} | ${count} | ${alive} | ${base?.skipped ? `skipped: ${base.skipped}` : fmt(base?.e2eMs?.median)} | ${r.skipped ? `skipped: ${r.skipped}` : fmt(r.e2eMs?.median)} | | | | |`,
      );
      continue;
    }
    const span = (x, k) => fmt(x.gpuSpansMs?.[k], 3);
    out.push(
      `| ${draw} | ${count} | ${alive} | ${fmt(base.e2eMs.median)} | ${fmt(r.e2eMs.median)} | ${(r.e2eMs.median / base.e2eMs.median).toFixed(2)}× | ${span(r, 'living')} | ${span(base, 'draw')} → ${span(r, 'draw')} | ${base.gpuSpansMs?.sort === undefined ? '' : `${span(base, 'sort')} → ${span(r, 'sort')}`} |`,
    );
  }
  return out.join('\n');
}

/** The cpu suite: JS ms per step of each loop, and each against the plain hand-written one. */
export function cpuTable(rows) {
  const cpu = rows.filter((r) => r.kind === 'cpu');
  if (cpu.length === 0) return '';
  const out = [
    '\nThe CPU update loop alone, JavaScript ms per step (median):\n',
    '| loop | count | ms per step | / plain loop |',
    '|---|---|---|---|',
  ];
  for (const r of cpu) {
    const plain = cpu.find((p) => p.path === 'plain' && p.count === r.count && !p.skipped);
    if (r.skipped) {
      out.push(`| ${r.path} | ${r.count} | skipped: ${r.skipped} | |`);
      continue;
    }
    const ratio = plain ? `${(r.e2eMs.median / plain.e2eMs.median).toFixed(2)}×` : '—';
    out.push(`| ${r.path} | ${r.count} | ${fmt(r.e2eMs.median, 2)} | ${ratio} |`);
  }
  return out.join('\n');
}

/** The portable suite: one WGSL flock per path, step + draw, e2e ms per frame and ratio to compute. */
export function portableTable(rows) {
  const flock = portableRows(
    rows.filter((r) => r.kind === 'portable' && r.program !== 'life'),
    '\nThe portable flock (one WGSL gather kernel, O(n²); step + draw), e2e ms per frame (median):\n',
    'boids',
  );
  const life = portableRows(
    rows.filter((r) => r.kind === 'portable' && r.program === 'life'),
    '\nPortable Life (one WGSL kernel on a 2-D grid, writes at computed indices: the ping-pong path scatters; one step + a cleared frame), e2e ms per frame (median):\n',
    'cells',
  );
  return [flock, life].filter(Boolean).join('\n');
}

function portableRows(pr, title, unit) {
  if (pr.length === 0) return '';
  const out = [
    title,
    `| path@backend | ${unit} | e2e median ms | e2e p95 | CPU ms | / compute |`,
    '|---|---|---|---|---|---|',
  ];
  for (const r of pr) {
    if (r.skipped) {
      out.push(`| ${r.path}@${r.backend} | ${r.count} | skipped: ${r.skipped} | | | |`);
      continue;
    }
    const base = pr.find((p) => p.path === 'compute' && p.count === r.count && !p.skipped);
    const ratio = base ? `${(r.e2eMs.median / base.e2eMs.median).toFixed(2)}×` : '—';
    out.push(
      `| ${r.path}@${r.backend} | ${r.count} | ${fmt(r.e2eMs.median, 2)} | ${fmt(r.e2eMs.p95, 2)} | ${fmt(r.cpuMs, 3)} | ${ratio} |`,
    );
  }
  return out.join('\n');
}

export function markdownTable(allRows) {
  const rows = allRows.filter(isParticles);
  if (rows.length === 0) return '';
  const head =
    '| path@backend | draw | count | frames | e2e median ms | e2e p95 | e2e p99 | rAF median ms | rAF p95 | GPU update ms | GPU draw ms | CPU ms | repeat medians | spread | GPU MiB | heap MiB | visible px | alive |';
  const sep = `|${'---|'.repeat(18)}`;
  const lines = rows.map((r) =>
    r.skipped
      ? `| ${r.path}@${r.backend} | ${r.drawMode} | ${r.count} | skipped: ${r.skipped} |${' |'.repeat(14)}`
      : `| ${r.path}@${r.backend} | ${drawLabel(r)} | ${r.count} | ${r.frames} | ${fmt(r.e2eMs.median)} | ${fmt(r.e2eMs.p95)} | ${fmt(r.e2eMs.p99)} | ${fmt(r.rafMs.median)} | ${fmt(r.rafMs.p95)} | ${r.gpuMs ? fmt(r.gpuMs.update, 3) : 'unavailable'} | ${r.gpuMs ? fmt(r.gpuMs.draw, 3) : 'unavailable'} | ${fmt(r.cpuMs, 3)} | ${r.repeatMedians.map((v) => fmt(v, 1)).join(' / ')}${r.skippedRepeats ? ` (+${r.skippedRepeats.length} skipped: ${r.skippedRepeats[0]})` : ''} | ${fmt(r.spread * 100, 0)}% | ${mb(r.gpuBytes)} | ${mb(r.heapBytes)} | ${r.visiblePixels} | ${r.alive} |`,
  );
  return [head, sep, ...lines].join('\n');
}

/** The terminal's table: one row per scenario, the columns a person compares first. */
export function terminalTable(allRows) {
  const rows = allRows.filter(isParticles);
  const head = [
    'path',
    'backend',
    'draw',
    'count',
    'frame ms',
    'GPU update ms',
    'GPU draw ms',
    'CPU ms',
  ];
  const body = rows.map((r) =>
    r.skipped
      ? [r.path, r.backend, r.drawMode, String(r.count), `skipped: ${r.skipped}`, '', '', '']
      : [
          r.path,
          r.backend,
          drawLabel(r),
          r.count.toLocaleString('en-US'),
          fmt(r.e2eMs.median, 1),
          r.gpuMs?.update != null ? fmt(r.gpuMs.update, 2) : r.path === 'cpu' ? 'on CPU' : 'n/a',
          r.gpuMs?.draw != null ? fmt(r.gpuMs.draw, 2) : 'n/a',
          fmt(r.cpuMs, 2),
        ],
  );
  const widths = head.map((h, i) =>
    Math.max(h.length, ...body.map((b) => (b[i].startsWith('skipped') ? 0 : b[i].length))),
  );
  const line = (cells) =>
    cells
      .map((c, i) =>
        i >= 3 && !c.startsWith('skipped') ? c.padStart(widths[i]) : c.padEnd(widths[i]),
      )
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** What ran the numbers, one line per backend, saying so plainly when the "GPU" is the CPU. */
export function hardwareLines(meta) {
  const lines = Object.entries(meta.adapters ?? {}).map(
    ([backend, a]) =>
      `${backend.padEnd(7)} ${a || 'adapter not reported'}${isSoftwareAdapter(a) ? '  ← software GPU: SwiftShader draws on the CPU' : ''}`,
  );
  const software = Object.values(meta.adapters ?? {}).some(isSoftwareAdapter);
  const head = `hardware: ${meta.cpuCores} CPU cores (${meta.cpuModel}), ${meta.browser}, canvas ${meta.canvas.width}×${meta.canvas.height}`;
  const note = software
    ? `note: on a software GPU the draw dominates and absolute times are ${meta.cpuCores}-core CPU times; compare rows with each other, not with a real GPU`
    : null;
  return [head, ...lines, ...(note ? [note] : [])].join('\n');
}

/** The classic claims, from rows of the same run: CPU vs GPU paths per count; update vs draw. */
export function claims(rows) {
  const ok = rows.filter((r) => !r.skipped && isParticles(r));
  const out = [];
  const counts = [...new Set(ok.map((r) => r.count))].sort((a, b) => a - b);
  const draws = [...new Set(ok.map((r) => r.drawMode))];
  for (const draw of draws) {
    const series = [
      ...new Set(ok.filter((r) => r.drawMode === draw).map((r) => `${r.path}@${r.backend}`)),
    ];
    if (series.length < 2 || counts.length < 2) continue;
    out.push(`\nCPU path vs GPU paths, e2e median ms (${draw} draw):\n`);
    out.push(`| count | ${series.join(' | ')} | cpu / fastest GPU |`);
    out.push(`|---|${series.map(() => '---|').join('')}---|`);
    for (const c of counts) {
      const cells = series.map(
        (name) =>
          ok.find((r) => r.count === c && r.drawMode === draw && `${r.path}@${r.backend}` === name)
            ?.e2eMs.median ?? null,
      );
      const cpu = cells[series.findIndex((n) => n.startsWith('cpu@'))];
      const gpu = cells.filter((_, i) => !series[i].startsWith('cpu@')).filter((v) => v !== null);
      const ratio = cpu != null && gpu.length > 0 ? `${(cpu / Math.min(...gpu)).toFixed(2)}×` : '—';
      out.push(`| ${c} | ${cells.map((v) => fmt(v)).join(' | ')} | ${ratio} |`);
    }
  }
  const at = ok.filter(
    (r) => r.count === 100_000 && r.gpuMs && r.gpuMs.update !== null && r.gpuMs.draw !== null,
  );
  if (at.length > 0) {
    out.push('\nGPU time of the update against the draw at 100,000 particles:\n');
    out.push('| path@backend | draw | update ms | draw ms | bottleneck |');
    out.push('|---|---|---|---|---|');
    for (const r of at)
      out.push(
        `| ${r.path}@${r.backend} | ${r.drawMode} | ${fmt(r.gpuMs.update, 3)} | ${fmt(r.gpuMs.draw, 3)} | ${r.gpuMs.draw > r.gpuMs.update ? `draw (${(r.gpuMs.draw / r.gpuMs.update).toFixed(1)}×)` : `update (${(r.gpuMs.update / r.gpuMs.draw).toFixed(1)}×)`} |`,
      );
  }
  return out.join('\n');
}

/** One line of features and one of key limits per backend, from the run's meta. */
export function capsSummary(meta) {
  const keys = [
    'maxTextureDimension2D',
    'maxBufferSize',
    'maxStorageBufferBindingSize',
    'maxComputeWorkgroupsPerDimension',
    'maxComputeInvocationsPerWorkgroup',
    'maxColorAttachments',
  ];
  return Object.entries(meta.caps ?? {})
    .map(([backend, c]) => {
      const features = Object.entries(c.features)
        .map(([k, v]) => `${k}=${v ? 'yes' : 'no'}`)
        .join(' ');
      const limits = keys.map((k) => `${k}=${c.limits[k]}`).join(' ');
      return `${backend} (${meta.adapters[backend]})\n  features: ${features}\n  limits:   ${limits}`;
    })
    .join('\n');
}

export function compareRuns(rows, baselineFile, threshold) {
  const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
  const byId = new Map(baseline.rows.map((r) => [r.scenario, r]));
  const lines = [
    '| scenario | baseline e2e ms | now e2e ms | ratio | verdict |',
    '|---|---|---|---|---|',
  ];
  const slower = [];
  for (const r of rows) {
    const b = byId.get(r.scenario);
    if (!b || r.skipped || b.skipped) {
      lines.push(
        `| ${r.scenario} | ${b && !b.skipped ? fmt(b.e2eMs.median) : '—'} | ${r.skipped ? 'skipped' : fmt(r.e2eMs.median)} | — | not comparable |`,
      );
      continue;
    }
    const ratio = r.e2eMs.median / b.e2eMs.median;
    const verdict =
      ratio > 1 + threshold
        ? `slower by ${((ratio - 1) * 100).toFixed(0)}%`
        : ratio < 1 - threshold
          ? `faster by ${((1 - ratio) * 100).toFixed(0)}%`
          : 'same';
    if (ratio > 1 + threshold) slower.push(r.scenario);
    lines.push(
      `| ${r.scenario} | ${fmt(b.e2eMs.median)} | ${fmt(r.e2eMs.median)} | ${ratio.toFixed(2)} | ${verdict} |`,
    );
  }
  return { table: lines.join('\n'), slower, baselineMeta: baseline.meta };
}

export function writeOutputs(o, result) {
  mkdirSync(o.out, { recursive: true });
  const json = path.join(o.out, 'latest.json');
  writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    `# Benchmark ${result.meta.date}`,
    '',
    `commit ${result.meta.commit} · ${result.meta.browser} · ${result.meta.cpuCores} cores (${result.meta.cpuModel}) · canvas ${result.meta.canvas.width}×${result.meta.canvas.height} · ${result.meta.repeat} interleaved repeats`,
    '',
    Object.entries(result.meta.adapters)
      .map(([b, a]) => `- ${b}: ${a}`)
      .join('\n'),
    '',
    '```',
    hardwareLines(result.meta),
    '',
    capsSummary(result.meta),
    '```',
    '',
    markdownTable(result.rows),
    claims(result.rows),
    '',
    postTable(result.rows),
    blurClaims(result.rows),
    cpuTable(result.rows),
    referenceTable(result.rows),
    drawsTable(result.rows),
    portableTable(result.rows),
    sortTable(result.rows),
    trailTable(result.rows),
    livingTable(result.rows),
    presetTable(result.rows),
    moduleTable(result.rows),
    '',
  ].join('\n');
  writeFileSync(path.join(o.out, 'latest.md'), md);
  writeFileSync(
    path.join(o.out, 'chart.svg'),
    chartSvg(
      result.rows,
      `e2e frame time vs particle count (${result.meta.date.slice(0, 10)}, ${result.meta.canvas.width}×${result.meta.canvas.height})`,
    ),
  );
  return { json, md: path.join(o.out, 'latest.md'), chart: path.join(o.out, 'chart.svg') };
}

const spanText = (spans, names) =>
  names.map((n) => (spans && spans[n] != null ? fmt(spans[n], 2) : 'n/a'));

/**
 * The post-process rows (chain alone, blur alone, whole frame) as a markdown table, which also reads
 * well in a terminal: e2e frame time and the GPU time of each span from timestamps.
 */
/** The draws suite: CPU µs per draw of Ignis, a hand-written frame and three.js, per backend and N. */
export function drawsTable(rows) {
  const draws = rows.filter((r) => r.kind === 'draws');
  if (draws.length === 0) return '';
  const out = [
    "\nThe RHI's CPU cost per draw (a frame of N draws, each with its own uniform slice, the pipeline changing every 100; recording + submit of bursts of frames, the GPU waited for outside the clock; medians of interleaved rounds; ratios: median of the per-round ratios; upload: the hand-written frame without its draws, per draw of N; beyond the upload: both frames less that, per round):\n",
    '| backend | draws a frame | Ignis µs/draw | hand-written µs/draw | three.js µs/draw | Ignis ÷ hand-written | Ignis ÷ three.js | Ignis bundle µs/draw | hand-written bundle µs/draw | Ignis bundle ÷ hand-written | Ignis bundle ÷ hand-written bundle | upload µs/draw | Ignis ÷ hand-written beyond the upload | Ignis bundle ÷ hand-written beyond the upload |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const ratio = (x) => (x === undefined ? '–' : `${x.toFixed(2)}×`);
  for (const r of draws) {
    if (r.skipped || !r.draws) {
      out.push(
        `| ${r.backend} | ${r.count} | skipped: ${r.skipped ?? 'no samples'} | | | | | | | | | | | |`,
      );
      continue;
    }
    const d = r.draws;
    const q = r.drawRatios;
    out.push(
      `| ${r.backend} | ${r.count.toLocaleString('en-US')} | ${fmt(d.ignis, 3)} | ${fmt(d.raw, 3)} | ${d.three === undefined ? '–' : fmt(d.three, 3)} | ${ratio(q.raw)} | ${ratio(q.three)} | ${d.bundle === undefined ? '–' : fmt(d.bundle, 3)} | ${d.rawBundle === undefined ? '– (none in WebGL2)' : fmt(d.rawBundle, 3)} | ${ratio(q.bundle)} | ${ratio(q.bundleVsRawBundle)} | ${d.upload === undefined ? '–' : fmt(d.upload, 3)} | ${ratio(q.rawBeyondUpload)} | ${ratio(q.bundleBeyondUpload)} |`,
    );
  }
  return out.join('\n');
}

/** The reference suite: Ignis's draw-only frame against the hand-written one: e2e, GPU (timestamps) and CPU. */
export function referenceTable(rows) {
  const ref = rows.filter((r) => r.kind === 'reference');
  if (ref.length === 0) return '';
  const js = ref.find((r) => r.reference?.control)?.reference.control.jsUs ?? '–';
  const out = [
    `\nIgnis's draw against a hand-written draw of the same look on the same state (draw-only frames, interleaved; medians; the ratios are medians of each back-to-back pair's ratio). GPU ms: the draw's pass by the GPU's timestamps, one frame at a time (WebGPU where the device has them). CPU ms: recording and submitting one frame, from bursts of 20 frames back to back on 1,024 particles (the frame's CPU work does not depend on the count). Control: the hand-written frame after ${js} µs of plain JavaScript (timed alone; about Ignis's own JavaScript per frame on a quiet CPU, bench/cpu-overhead.mjs) — what a few microseconds of anyone's JavaScript cost in these bursts here:\n`,
    '| backend | draw | look | count | Ignis e2e ms | reference e2e ms | e2e ratio | Ignis GPU ms | reference GPU ms | GPU ratio | Ignis CPU ms | reference CPU ms | CPU ratio | control CPU ms | control ratio | pixels differing / lit |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of ref) {
    if (r.skipped || !r.reference) {
      out.push(
        `| ${r.backend} | ${r.drawMode} | ${r.look ?? 'disc'} | ${r.count} | skipped: ${r.skipped ?? 'no reference'} | | | | | | | | | | | |`,
      );
      continue;
    }
    const q = r.reference;
    const g = r.gpuMs?.draw ?? null;
    const qg = q.gpuDrawMs ?? null;
    const gpu =
      g !== null && qg !== null
        ? `${fmt(g, 3)} | ${fmt(qg, 3)} | ${(q.gpuRatio ?? g / qg).toFixed(2)}×`
        : '– | – | –';
    out.push(
      `| ${r.backend} | ${r.drawMode} | ${r.look ?? 'disc'} | ${r.count} | ${fmt(r.e2eMs.median)} | ${fmt(q.e2eMs)} | ${(q.e2eRatio ?? r.e2eMs.median / q.e2eMs).toFixed(2)}× | ${gpu} | ${fmt(r.cpuMs, 3)} | ${fmt(q.cpuMs, 3)} | ${(r.cpuMs / q.cpuMs).toFixed(2)}× | ${q.control ? fmt(q.control.cpuMs, 3) : '–'} | ${q.control ? `${(q.control.cpuMs / q.cpuMs).toFixed(2)}×` : '–'} | ${q.image ? `${q.image.differing} / ${q.image.lit}` : '–'} |`,
    );
  }
  return out.join('\n');
}

export function postTable(rows) {
  const post = rows.filter((r) => ['post', 'blur', 'frame'].includes(r.kind));
  if (post.length === 0) return '';
  const head =
    '| scenario | path@backend | size | frame ms (e2e median) | GPU ms: bloom | tone map + grade | blur H + V | particles update + draw | CPU ms |';
  const sep = `|${'---|'.repeat(9)}`;
  const lines = post.map((r) => {
    const what =
      r.kind === 'post'
        ? 'post chain'
        : r.kind === 'blur'
          ? `blur r${r.radius}`
          : `${r.count.toLocaleString('en-US')} particles + post`;
    const where =
      r.kind === 'frame' ? `${r.path}+${r.postPath}@${r.backend}` : `${r.postPath}@${r.backend}`;
    if (r.skipped) return `| ${what} | ${where} | ${r.size} | skipped: ${r.skipped} | | | | | |`;
    const g = r.gpuSpansMs;
    const [bloom, tone] = spanText(g, ['bloom', 'tone map + grade']);
    const blur =
      g && g['blur horizontal'] != null ? fmt(g['blur horizontal'] + g['blur vertical'], 2) : '—';
    const parts = g && g.draw != null ? fmt((g.update ?? 0) + g.draw, 2) : '—';
    return `| ${what} | ${where} | ${r.size} | ${fmt(r.e2eMs.median, 1)} | ${r.kind === 'blur' ? '—' : bloom} | ${r.kind === 'blur' ? '—' : tone} | ${blur} | ${parts} | ${fmt(r.cpuMs, 2)} |`;
  });
  return [head, sep, ...lines].join('\n');
}

/** The classic claim about blurs: a workgroup-memory compute blur against a fragment blur, per radius. */
export function blurClaims(rows) {
  const blurs = rows.filter(
    (r) => r.kind === 'blur' && !r.skipped && r.backend === 'webgpu' && r.gpuSpansMs,
  );
  const radii = [...new Set(blurs.map((r) => r.radius))].sort((a, b) => a - b);
  if (radii.length === 0) return '';
  const gpu = (r) => r.gpuSpansMs['blur horizontal'] + r.gpuSpansMs['blur vertical'];
  const out = [
    '\nCompute (workgroup memory) vs fragment blur on WebGPU, GPU ms of both passes:\n',
    '| radius | compute | fragment | fragment / compute |',
    '|---|---|---|---|',
  ];
  for (const radius of radii) {
    const c = blurs.find((r) => r.radius === radius && r.postPath === 'compute');
    const f = blurs.find((r) => r.radius === radius && r.postPath === 'fragment');
    out.push(
      `| ${radius} | ${c ? fmt(gpu(c), 2) : '—'} | ${f ? fmt(gpu(f), 2) : '—'} | ${c && f ? `${(gpu(f) / gpu(c)).toFixed(2)}×` : '—'} |`,
    );
  }
  return out.join('\n');
}
