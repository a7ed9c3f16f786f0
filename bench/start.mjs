// `npm start`: the main job. Runs the benchmark's default scenario — 100,000 particles on every
// path (compute on WebGPU, ping-pong on the WebGL2 fallback, the CPU baseline), each drawn with
// the library's default drawMode 'auto' (the table says what it measured fastest), then the same
// particles through the post-process chain as one frame on each backend, a short run — in
// headless Chromium, prints a compact frame-time table, and writes the full results (markdown,
// JSON, chart) and a screenshot per path in output/ (the particles' in output/particles/).
// Same code path as `npm run bench`; extra arguments are passed on (e.g. `npm start -- --counts 20000`).
// Imports nothing but Node built-ins and scripts/setup.mjs before setup has run: on a fresh clone
// node_modules does not exist yet (tests/node/entry-points.test.ts holds it to that).
import { ensureSetup } from '../scripts/setup.mjs';

const defaults = [
  '--counts',
  '100000',
  '--paths',
  'compute,pingpong,cpu',
  '--draw',
  'auto',
  '--frames',
  '12',
  '--warmup',
  '3',
  '--repeat',
  '1',
  '--size',
  '960x540',
  '--out',
  'output',
  // and the same particles rendered into the post-process chain (bloom, AgX, grading): one frame
  '--suites',
  'particles,frame',
  '--frame-counts',
  '100000',
];

ensureSetup();
const { main } = await import('./cli.mjs');
process.exit(await main([...defaults, ...process.argv.slice(2)]));
