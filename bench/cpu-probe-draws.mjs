/* global performance -- the marks run in the page (page.evaluate) */
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
// core to it. `--profile FILE` (Chromium): V8's profile of the rounds written to FILE, its functions
// by self time printed, and the browser's own functions (the API calls) by the frame that called
// them (`node bench/v8-profile.mjs FILE --callers`). `--calls` (WebGL2): the GL calls of one frame
// of `raw`, `bundle` and `ignis` counted by name first (each after two frames unseen). `--trace
// FILE` (Chromium): Chromium's trace of the rounds (GPU categories), each frame between marks, and
// per contender the page's main thread a frame: wall time and the trace's slices in it, such as
// `CommandBufferHelper::Flush` (bench/trace-summary.mjs). `--objects` (WebGL2): one contender more,
// the hand-written frame drawing with the programs, vertex arrays, framebuffer and uniform buffer
// Ignis's bundle frame binds (draws.ts `rawWebGL2FramesOn`): what those objects cost apart from
// the rest of Ignis's frame. `--aa`: one contender more, the hand-written frame again (its own
// objects, the same code): an A/A, what ratio two equal frames read in these rounds — the floor
// under which no ratio of this probe means anything. `--floor` (WebGL2): one contender more, the
// hand-written frame recorded first and called after (draws.ts `rawWebGL2Frames(…, { recorded })`:
// offsets checked and logged, runs counted, then the same GL calls), what record-then-replay
// costs without an RHI's layers. `--split` (WebGL2): Ignis's pass frame in two more contenders,
// its recording alone (no GL call) and the queue's replay of one recording (the upload and every
// GL call, nothing recorded: draw-frames.ts `ignisFrames(…, { part })`), and after each repeat
// the recording and the control's JavaScript timed back to back, nothing drawn between: what the
// pass adds to the hand-written frame, and what the GPU's work beside it makes of it. `--touch K`
// (WebGL2): one contender more, the hand-written frame after the control's JavaScript that sends
// the GPU process a command and a flush every K draws: whether an idle GPU process makes the calls
// after JavaScript dearer. `--burst D`: about D draws a contender in each round (20,000 by default,
// `DRAWS_PER_BURST`); in Chromium's WebGL2 three times that makes the page wait for the GPU
// process to take its commands, as a heavy frame does. `--flags "…"` (Chromium): flags for the
// browser beside its own, e.g. `--js-flags=--single-threaded-gc`. `--alloc`: one contender more,
// the hand-written frame after the control's JavaScript pushing its log into a fresh array each
// frame (as a recording's log is), beside `rawJs`, which writes the same into one array kept.
// Medians of µs a draw and of the per-round ratios to `raw`:
//   node bench/cpu-probe-draws.mjs [--browser chromium|firefox] [--backend webgl2|webgpu]
//     [--draws 1000,10000] [--rounds 20] [--repeat 2] [--pin] [--profile FILE] [--calls]
//     [--trace FILE] [--objects] [--aa] [--floor] [--split] [--touch K] [--burst D] [--alloc]
//     [--flags "…"]
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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
const profileFile = arg('profile', null);
const traceFile = arg('trace', null);
const countCalls = process.argv.includes('--calls');
const onObjects = process.argv.includes('--objects');
const aa = process.argv.includes('--aa');
const floor = process.argv.includes('--floor');
const split = process.argv.includes('--split');
const touch = Number(arg('touch', '0'));
const burst = Number(arg('burst', '20000'));
const alloc = process.argv.includes('--alloc');
const browserFlags = arg('flags', '').split(' ').filter(Boolean);
if (browserFlags.length > 0 && browserName !== 'chromium')
  throw new Error('cpu-probe-draws: --flags is for Chromium');
if (touch > 0 && backend !== 'webgl2') throw new Error('cpu-probe-draws: --touch is for webgl2');
if (floor && backend !== 'webgl2') throw new Error('cpu-probe-draws: --floor is for webgl2');
if (split && backend !== 'webgl2') throw new Error('cpu-probe-draws: --split is for webgl2');
if (profileFile !== null && browserName !== 'chromium')
  throw new Error('cpu-probe-draws: --profile needs --browser chromium');
if (traceFile !== null && browserName !== 'chromium')
  throw new Error('cpu-probe-draws: --trace needs --browser chromium');
if (countCalls && backend !== 'webgl2') throw new Error('cpu-probe-draws: --calls is for webgl2');
if (onObjects && backend !== 'webgl2') throw new Error('cpu-probe-draws: --objects is for webgl2');
if (!['webgl2', 'webgpu'].includes(backend))
  throw new Error(`cpu-probe-draws: --backend ${backend} is not webgl2 or webgpu`);
if (pin && browserName !== 'chromium')
  throw new Error('cpu-probe-draws: --pin is for Chromium (its GPU process is a process apart)');

const { page, engine, close } = await openBenchPage(browserName, 'cpu-probe-draws', browserFlags);
try {
  if (pin) {
    const pids = (pattern) =>
      execSync(`pgrep -f -- '${pattern}' || true`).toString().split(/\s+/).filter(Boolean);
    const renderers = new Set(pids('chromium.*--type=renderer'));
    for (const pid of pids('chromium'))
      execSync(`taskset -a -p ${renderers.has(pid) ? 1 : 2} ${pid} > /dev/null`);
  }
  console.log(`${await engine.version()}, ${backend}${pin ? ', pinned' : ''}`);
  // (the puppeteer page under the engine's page: Chromium's only)
  const cdp = profileFile === null ? null : await page.page.createCDPSession();
  if (traceFile !== null)
    await page.page.tracing.start({
      path: traceFile,
      categories: ['gpu', 'toplevel', 'disabled-by-default-gpu.service', 'blink.user_timing'],
    });
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
  }
  for (const n of counts) {
    const rows = await page.evaluate(
      // (the options in one object)
      async ({
        backend,
        n,
        rounds,
        repeat,
        countCalls,
        marks,
        onObjects,
        aa,
        floor,
        split,
        touch,
        burst,
        alloc,
      }) => {
        const lib = await import('/src/all.ts');
        const df = await import('/bench/page/draw-frames.ts');
        const { rawWebGL2Frames, rawWebGL2FramesOn, spyOnGL } =
          await import('/bench/page/draws.ts');
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
        // (a draw's operations, small enough for the JIT to inline in each loop below)
        const work = (i) => {
          let x = i;
          for (let w = 0; w < 12; w++) x = (x * 1.0001 + w) % 1e9;
          sink += x;
          return x;
        };
        const record = () => {
          for (let i = 0; i < n; i++) {
            log[2 * i] = df.SLOT * i;
            log[2 * i + 1] = work(i);
          }
        };
        // `frames` with JavaScript before each frame
        const after = (js, frames) => ({
          ...frames,
          frame(n) {
            js();
            frames.frame(n);
          },
        });
        // with --touch K, the control's JavaScript sends the GPU process a command and a flush
        // every K draws: does an idle GPU process make the calls after the JavaScript dearer?
        const gl = backend === 'webgl2' ? device.gl : null;
        const recordTouching = () => {
          for (let i = 0; i < n; i++) {
            log[2 * i] = df.SLOT * i;
            log[2 * i + 1] = work(i);
            if (i % touch === touch - 1) {
              gl.hint(gl.FRAGMENT_SHADER_DERIVATIVE_HINT, i & touch ? gl.NICEST : gl.DONT_CARE);
              gl.flush();
            }
          }
        };
        // with --alloc, the control's JavaScript writing its log into a fresh array grown by
        // `push` each frame, as a recording's log is: what the allocation adds to the same work
        const recordAllocating = () => {
          const fresh = [];
          for (let i = 0; i < n; i++) fresh.push(df.SLOT * i, work(i));
          sink += fresh.length;
        };
        const c = {
          raw: rawOf(),
          bundle: df.ignisFrames(device, n, data, flags, { bundle: true }),
          ignis: df.ignisFrames(device, n, data, flags),
          rawJs: after(record, rawOf()),
          // the same JavaScript alone, in the same rounds, the GPU idle
          js: { frame: record, idle: async () => {}, destroy() {} },
        };
        if (alloc) c.rawAlloc = after(recordAllocating, rawOf());
        if (touch > 0) c.rawJsTouch = after(recordTouching, rawOf());
        // with --objects, the hand-written frame on the GL objects of Ignis's bundle frame
        if (onObjects) c.rawOnIgnis = await rawWebGL2FramesOn(device, data, c.bundle, n);
        // with --aa, the hand-written frame twice: what two equal frames read against each other
        if (aa) c.rawAgain = rawOf();
        // with --floor, the hand-written frame recorded first and called after
        if (floor) c.rawRecorded = rawWebGL2Frames(device, n, data, { recorded: true });
        // with --split, Ignis's pass frame in two: its recording alone (no GL call; the GPU idle),
        // and the replay of one recording (the upload and every GL call, nothing recorded)
        if (split) {
          c.record = {
            ...df.ignisFrames(device, n, data, flags, { part: 'record' }),
            idle: async () => {},
          };
          c.replay = df.ignisFrames(device, n, data, flags, { part: 'replay' });
        }
        // with --trace, each frame between two marks the trace names it by
        if (marks)
          for (const [k, f] of Object.entries(c)) {
            const frame = f.frame;
            f.frame = (n) => {
              performance.mark(`frame-start:${k} at ${n}`);
              frame(n);
              performance.mark(`frame-end:${k} at ${n}`);
            };
          }
        const out = [];
        if (countCalls) {
          const names = [];
          const restore = spyOnGL(device.gl, (name) => names.push(name));
          const calls = {};
          for (const k of ['raw', 'bundle', 'ignis']) {
            for (let i = 0; i < 2; i++) {
              c[k].frame(n);
              await c[k].idle();
            }
            names.length = 0;
            c[k].frame(n);
            const byName = {};
            for (const x of names) byName[x] = (byName[x] ?? 0) + 1;
            calls[k] = byName;
            await c[k].idle();
          }
          restore();
          out.push({ calls });
        }
        for (let r = 0; r < repeat; r++) {
          const { us } = await df.measureDraws(c, n, rounds, 600_000, burst);
          // what the JavaScript cost beside the calls, over what it cost alone, round by round
          const row = { amplified: df.median(us.js.map((x, i) => (us.rawJs[i] - us.raw[i]) / x)) };
          for (const k of Object.keys(c)) {
            row[k] = df.median(us[k]);
            row[`${k}÷raw`] = df.median(us[k].map((x, i) => x / us.raw[i]));
          }
          if (split) {
            // the recording and the control's JavaScript back to back for 0.2 s, nothing drawn in
            // between: what each costs without the GPU's work beside it (the rounds run each burst
            // right after another contender's GL work)
            const backToBack = (frame) => {
              const t0 = performance.now();
              let frames = 0;
              while (performance.now() - t0 < 200) {
                frame(n);
                frames++;
              }
              return ((performance.now() - t0) * 1000) / (frames * n);
            };
            row.recordAlone = backToBack(c.record.frame);
            row.jsAlone = backToBack(c.js.frame);
          }
          out.push(row);
        }
        for (const f of Object.values(c)) f.destroy();
        device.destroy();
        // (the sink is read, so the control's loop is not optimized away)
        return sink === -1 ? [] : out;
      },
      {
        backend,
        n,
        rounds,
        repeat,
        countCalls,
        marks: traceFile !== null,
        onObjects,
        aa,
        floor,
        split,
        touch,
        burst,
        alloc,
      },
    );
    const f = (r, k) => `${r[k].toFixed(3)} (${r[`${k}÷raw`].toFixed(2)}×)`;
    for (const { calls } of rows.filter((r) => r.calls))
      for (const [k, byName] of Object.entries(calls))
        console.log(
          `${n} draws, GL calls of one ${k} frame: ${Object.entries(byName)
            .map(([name, count]) => `${name} ${count}`)
            .join(', ')}`,
        );
    for (const r of rows.filter((r) => !r.calls))
      console.log(
        `${n} draws: raw ${r.raw.toFixed(3)} µs/draw; Ignis bundle ${f(r, 'bundle')}; Ignis pass ${f(r, 'ignis')}; raw after ${r.js.toFixed(3)} µs of JavaScript alone: ${f(r, 'rawJs')}, the JavaScript ${r.amplified.toFixed(2)}× its time alone${r.rawOnIgnis === undefined ? '' : `; raw on Ignis's GL objects ${f(r, 'rawOnIgnis')}`}${r.rawAgain === undefined ? '' : `; raw again (A/A) ${f(r, 'rawAgain')}`}${r.rawRecorded === undefined ? '' : `; raw recorded then called (the floor) ${f(r, 'rawRecorded')}`}${r.rawAlloc === undefined ? '' : `; raw after the JavaScript that pushes its log into a fresh array ${f(r, 'rawAlloc')}`}${r.rawJsTouch === undefined ? '' : `; raw after the JavaScript that flushes a command every ${touch} draws ${f(r, 'rawJsTouch')}`}${r.record === undefined ? '' : `; Ignis's recording alone ${f(r, 'record')} (back to back ${r.recordAlone.toFixed(3)}; the control's JavaScript back to back ${r.jsAlone.toFixed(3)}), its replay alone ${f(r, 'replay')}`}`,
      );
  }
  if (traceFile !== null) {
    await page.page.tracing.stop();
    const { frameTraceSummary } = await import('./trace-summary.mjs');
    console.log(`Chromium's trace of the rounds: ${traceFile}; the page's main thread a frame:`);
    for (const line of frameTraceSummary(JSON.parse(readFileSync(traceFile, 'utf8'))))
      console.log(line);
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    const { printSelfTimes } = await import('./v8-profile.mjs');
    console.log(`V8 profile of the rounds: ${profileFile}; self time:`);
    printSelfTimes(profile, 25);
    console.log("the browser's own functions by their caller:");
    printSelfTimes(profile, 25, { callers: true });
  }
} finally {
  await close();
}
