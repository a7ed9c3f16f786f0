// Where Ignis's pass frame of the `draws` suite loses to the hand-written one beyond Ignis's own
// JavaScript (issue 33; docs/benchmarks.md, "What JavaScript costs beside the calls"). The suite's
// frames on one device, in the same interleaved rounds (bench/page/draw-frames.ts
// `measureDraws`), with controls:
//   raw       the hand-written frame (WebGL2: a `bindBufferRange` and a `drawArrays` a draw;
//             WebGPU: a `setBindGroup` with a dynamic offset and a `draw`)
//   bundle    Ignis's bundle frame: on WebGL2 the very GL calls of `raw` (the same sequence) and
//             ~0.02 µs of Ignis's JavaScript a draw (bench/cpu-draws.mjs --bundles)
//   ignis     Ignis's pass frame: recorded, and on WebGL2 replayed at the submit
//   rawJs     `raw` after plain JavaScript of a known cost a draw (an array filled before the calls,
//             as a recording is): what a µs of JavaScript costs in a frame beside the calls and
//             the GPU's threads
//   js        that JavaScript alone, in the same rounds (the GPU idle)
// `--pin` (Chromium): the page's renderer process on CPU 0, every other Chromium process (the GPU
// process, SwiftShader's threads) on CPU 1 (taskset), as a GPU of its own would leave the page's
// core to it. Medians of µs a draw and of the per-round ratios to `raw`:
//   node bench/cpu-probe-draws.mjs [--browser chromium|firefox] [--backend webgl2|webgpu]
//     [--draws 1000,10000] [--rounds 20] [--repeat 2] [--pin]
import { execSync } from 'node:child_process';
import { openBenchPage } from './bench-page.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const browserName = arg('browser', 'chromium');
const backend = arg('backend', 'webgl2');
const counts = arg('draws', '1000,10000').split(',').map(Number);
const rounds = Number(arg('rounds', '20'));
const repeat = Number(arg('repeat', '2'));
const pin = process.argv.includes('--pin');
if (!['webgl2', 'webgpu'].includes(backend))
  throw new Error(`cpu-probe-draws: --backend ${backend} is not webgl2 or webgpu`);
if (pin && browserName !== 'chromium')
  throw new Error('cpu-probe-draws: --pin is for Chromium (its GPU process is a process apart)');

const { page, engine, close } = await openBenchPage(browserName, 'cpu-probe-draws');
try {
  if (pin) {
    const pids = (pattern) =>
      execSync(`pgrep -f -- '${pattern}' || true`).toString().split(/\s+/).filter(Boolean);
    const renderers = new Set(pids('chromium.*--type=renderer'));
    for (const pid of pids('chromium'))
      execSync(`taskset -a -p ${renderers.has(pid) ? 1 : 2} ${pid} > /dev/null`);
  }
  console.log(`${await engine.version()}, ${backend}${pin ? ', pinned' : ''}`);
  for (const n of counts) {
    const rows = await page.evaluate(
      async (backend, n, rounds, repeat) => {
        const lib = await import('/src/all.ts');
        const df = await import('/bench/page/draw-frames.ts');
        const { rawWebGL2Frames } = await import('/bench/page/draws.ts');
        const device = await lib.createDevice({ backend });
        const data = df.drawData(n);
        const flags = { BufferUsage: lib.BufferUsage, TextureUsage: lib.TextureUsage };
        const rawOf = () =>
          backend === 'webgl2'
            ? rawWebGL2Frames(device, n, data)
            : df.rawWebGPUFrames(device.gpu, n, data);
        // the control's JavaScript: a recording's stores, a few operations a draw
        const log = new Float64Array(2 * n);
        let sink = 0;
        const record = () => {
          for (let i = 0; i < n; i++) {
            let x = i;
            for (let w = 0; w < 12; w++) x = (x * 1.0001 + w) % 1e9;
            log[2 * i] = df.SLOT * i;
            log[2 * i + 1] = x;
            sink += x;
          }
        };
        const raw2 = rawOf();
        const c = {
          raw: rawOf(),
          bundle: df.ignisFrames(device, n, data, flags, { bundle: true }),
          ignis: df.ignisFrames(device, n, data, flags),
          rawJs: {
            ...raw2,
            frame(n) {
              record();
              raw2.frame(n);
            },
          },
          // the same JavaScript alone, in the same rounds, the GPU idle
          js: { frame: record, idle: async () => {}, destroy() {} },
        };
        const out = [];
        for (let r = 0; r < repeat; r++) {
          const { us } = await df.measureDraws(c, n, rounds, 600_000);
          // what the JavaScript cost beside the calls, over what it cost alone, round by round
          const row = { amplified: df.median(us.js.map((x, i) => (us.rawJs[i] - us.raw[i]) / x)) };
          for (const k of Object.keys(c)) {
            row[k] = df.median(us[k]);
            row[`${k}÷raw`] = df.median(us[k].map((x, i) => x / us.raw[i]));
          }
          out.push(row);
        }
        for (const f of Object.values(c)) f.destroy();
        device.destroy();
        // (the sink is read, so the control's loop is not optimized away)
        return sink === -1 ? [] : out;
      },
      backend,
      n,
      rounds,
      repeat,
    );
    const f = (r, k) => `${r[k].toFixed(3)} (${r[`${k}÷raw`].toFixed(2)}×)`;
    for (const r of rows)
      console.log(
        `${n} draws: raw ${r.raw.toFixed(3)} µs/draw; Ignis bundle ${f(r, 'bundle')}; Ignis pass ${f(r, 'ignis')}; raw after ${r.js.toFixed(3)} µs of JavaScript alone: ${f(r, 'rawJs')}, the JavaScript ${r.amplified.toFixed(2)}× its time alone`,
      );
  }
} finally {
  await close();
}
