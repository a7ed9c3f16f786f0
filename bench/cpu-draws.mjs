/* global performance -- Node and the pages have it as a global */
// The RHI's own JavaScript per draw (issue 33), without a GPU: the WebGPU backend over a stub
// GPUDevice whose every call returns at once (bench/stub-gpu.mjs; the encoders a frame calls per
// draw are plain objects of no-op methods, which a JIT inlines, so the hand-written frame costs
// next to nothing and the Ignis column is Ignis's own JavaScript per draw): what is timed is its
// recording, validation, hazard tracking and bind-group lookups per draw and nothing of a browser's
// or a driver's. A frame: N draws, each with its own 256-byte slice of one uniform buffer (written
// once per frame), the pipeline changing every 100 draws (bench/draws-stub.mjs). The hand-written
// frame makes the calls a careful WebGPU program makes: one bind group with a dynamic offset per
// draw. `--backend webgl2`: the WebGL2 backend over a no-op WebGL2 context (bench/stub-gl.mjs),
// Ignis's recording and its replay at submit against a hand-written frame of `bindBufferRange` and
// `drawArrays` per draw. In Node it needs `npm run build` (it imports dist/); `--browser chromium`
// or `--browser firefox` runs the same frames in a page of that engine (the sources, served by
// Vite), so the JavaScript engine's own cost is seen apart from the GPU's. `--compare DIR` times a
// second build of Ignis (`npx vite build --config vite.lib.config.ts --outDir DIR` from another
// commit; in a page DIR must be inside the repository, e.g. output/base) in the same interleaved
// rounds: an A/B where the machine's drift cancels; in a page the sources (served unminified) are
// timed beside it unless `--build DIR2` names a second build to time in their place, so that both
// sides are minified alike (the sources ran ~8% faster than their own build in Firefox's page);
// in Node, `--build DIR2` is timed in place of dist/.
// `--bundles` times each build's frame again with
// the draws recorded once per N in a render bundle, which each frame's pass executes. `--first`
// (Node) times what a bundle costs before its frames are alike: its `finish()`, the first frame
// that executes it and the second, in ms (a backend that made its form of the bundle at the first
// execution shows it in the first frame).
// `--profile FILE` (Chromium): V8's sampling profiler over the timed rounds and as many rounds
// before them to warm up, written to FILE (a .cpuprofile, which Chrome's DevTools open) and its top
// functions by self time printed (bench/v8-profile.mjs; time the sources, without --build, for
// readable names). In Node, `node --cpu-prof` does the same.
//   node bench/cpu-draws.mjs [--backend webgpu|webgl2] [--draws 100,1000,10000] [--rounds 9]
//     [--browser chromium|firefox] [--compare DIR] [--build DIR2] [--bundles | --first]
//     [--profile FILE]
import { ROOT } from '../scripts/setup.mjs';
import { pathToFileURL } from 'node:url';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { timeDraws, timeFirstFrames } from './draws-stub.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const options = {
  backend: arg('backend', 'webgpu'),
  counts: arg('draws', '100,1000,10000').split(',').map(Number),
  rounds: Number(arg('rounds', '9')),
  bundles: process.argv.includes('--bundles'),
  dom: readFileSync(createRequire(import.meta.url).resolve('typescript/lib/lib.dom.d.ts'), 'utf8'),
};
const browserName = arg('browser', null);
const profileFile = arg('profile', null);
if (profileFile !== null && browserName !== 'chromium')
  throw new Error('cpu-draws: --profile needs --browser chromium (in Node: node --cpu-prof)');
const compare = arg('compare', null);
/** A build to time in place of dist/ (Node) or the sources (a page). */
const build = arg('build', null);
const load = async (dir) =>
  Object.assign(
    {},
    ...(await Promise.all(
      ['index', 'testing'].map((e) => import(pathToFileURL(join(dir, `${e}.js`)).href)),
    )),
  );

let rows, where;
if (process.argv.includes('--first')) {
  if (browserName !== null) throw new Error('cpu-draws: --first runs in Node only (no --browser)');
  const libs =
    build === null
      ? { dist: await load(join(ROOT, 'dist')) }
      : { [build]: await load(resolve(build)) };
  if (compare !== null) libs[compare] = await load(resolve(compare));
  const first = await timeFirstFrames(libs, { ...options, now: () => performance.now() });
  console.log(
    `a render bundle's first frames on a stub ${options.backend === 'webgpu' ? 'GPUDevice' : 'WebGL2 context'}: ms, medians of ${options.rounds} rounds (${new Date().toISOString().slice(0, 10)}, node ${process.version})`,
  );
  console.log('| draws | build | finish() | first frame | second frame |');
  console.log('| ---: | --- | ---: | ---: | ---: |');
  for (const r of first)
    console.log(
      `| ${r.draws} | ${r.build} | ${r.finish.toFixed(3)} | ${r.first.toFixed(3)} | ${r.second.toFixed(3)} |`,
    );
  process.exit(0);
}
if (browserName === null) {
  const libs =
    build === null
      ? { dist: await load(join(ROOT, 'dist')) }
      : { [build]: await load(resolve(build)) };
  if (compare !== null) libs[compare] = await load(resolve(compare));
  rows = await timeDraws(libs, { ...options, now: () => performance.now() });
  where = `node ${process.version}`;
} else {
  const { openBenchPage } = await import('./bench-page.mjs');
  const { page, engine, close } = await openBenchPage(browserName, 'cpu-draws');
  try {
    // a build to compare is served from the repository too: it must be inside it (dist/, output/)
    const inside = (dir, flag) => {
      if (dir === null) return null;
      const at = relative(ROOT, resolve(dir));
      if (at.startsWith('..') || isAbsolute(at))
        throw new Error(`cpu-draws: ${flag} ${dir} must be inside ${ROOT} for the page to load it`);
      return at;
    };
    const other = inside(compare, '--compare');
    const own = inside(build, '--build');
    const time = (o) =>
      page.evaluate(
        async (o, other, own) => {
          const built = (dir) => [`/${dir}/index.js`, `/${dir}/testing.js`];
          const builds = own === null ? { src: ['/src/all.ts'] } : { [own]: built(own) };
          if (other !== null) builds[other] = built(other);
          const libs = {};
          for (const [name, urls] of Object.entries(builds))
            libs[name] = Object.assign({}, ...(await Promise.all(urls.map((u) => import(u)))));
          const { timeDraws } = await import('/bench/draws-stub.mjs');
          return timeDraws(libs, { ...o, now: () => performance.now() });
        },
        o,
        other,
        own,
      );
    if (profileFile === null) rows = await time(options);
    else {
      // (the puppeteer page under the engine's page: Chromium's only)
      const cdp = await page.page.createCDPSession();
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
      // started before the warm-up: code compiled while it runs keeps its source lines
      // (`node bench/v8-profile.mjs FILE --lines`)
      await cdp.send('Profiler.start');
      await time(options);
      rows = await time(options);
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
      const { printSelfTimes } = await import('./v8-profile.mjs');
      console.log(`V8 profile of the timed rounds: ${profileFile}; self time:`);
      printSelfTimes(profile, 15);
    }
    where = await engine.version();
  } finally {
    await close();
  }
}

console.log(
  `draws on a stub ${options.backend === 'webgpu' ? 'GPUDevice' : 'WebGL2 context'}: µs per draw, medians of ${options.rounds} interleaved rounds (${new Date().toISOString().slice(0, 10)}, ${where})`,
);
console.log('| draws a frame | build | Ignis | hand-written | Ignis ÷ hand-written |');
console.log('| ---: | --- | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.draws} | ${r.build} | ${r.ignis.toFixed(3)} | ${r.raw.toFixed(3)} | ${r.ratio.toFixed(2)}× |`,
  );
