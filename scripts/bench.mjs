// `npm run bench [-- options]`: the particle benchmark in headless Chromium (see bench/runner.mjs
// and docs/benchmarks.md). `npm start` runs its default scenario through `main()`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, startServer } from './browser.mjs';
import { parseArgs, runBench, writeOutputs, markdownTable, claims, compareRuns, capsSummary } from '../bench/runner.mjs';

/** Frames are measured with vsync and the frame-rate limit off (BROWSER.md); precise heap numbers. */
const BENCH_FLAGS = ['--disable-gpu-vsync', '--disable-frame-rate-limit', '--enable-precise-memory-info'];

export async function main(argv) {
  let o;
  try {
    o = parseArgs(argv);
  } catch (e) {
    console.error(e.message);
    return 2;
  }
  const { browser, args } = await launchBrowser({ gpu: o.gpu, extraFlags: BENCH_FLAGS });
  const { server, url } = await startServer();
  let result;
  try {
    result = await runBench(o, { browser, url, flags: args });
  } finally {
    await browser.close();
    await server.close();
  }
  const files = writeOutputs(o, result);
  console.log(`\n${capsSummary(result.meta)}\n\n${markdownTable(result.rows)}\n${claims(result.rows)}\n`);
  console.log(`wrote ${files.json}, ${files.md}, ${files.chart} and screenshots in ${o.out}/`);
  let code = result.rows.some((r) => !r.skipped) ? 0 : 1;
  if (o.compare) {
    const cmp = compareRuns(result.rows, o.compare, o.threshold);
    console.log(`\ncompared with ${o.compare} (commit ${cmp.baselineMeta.commit}, ${cmp.baselineMeta.date}):\n${cmp.table}`);
    if (o.check && cmp.slower.length > 0) {
      console.error(
        `\n--check: ${cmp.slower.length} row(s) slower than the baseline by more than ${(o.threshold * 100).toFixed(0)}%: ${cmp.slower.join(', ')}`,
      );
      code = 1;
    }
  }
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await main(process.argv.slice(2)));
}
