// `npm start`: the main job. Runs the benchmark's default scenario — 100,000 particles on every
// path (compute on WebGPU, ping-pong on the WebGL2 fallback, the CPU baseline), a short run — in
// headless Chromium, prints the frame-time table and saves a screenshot per path in output/.
// Same code path as `npm run bench`; extra arguments are passed on (e.g. `npm start -- --counts 20000`).
import { main } from './bench.mjs';

const defaults = [
  '--counts',
  '100000',
  '--paths',
  'compute,pingpong,cpu',
  '--draw',
  'pulled',
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
];
process.exit(await main([...defaults, ...process.argv.slice(2)]));
