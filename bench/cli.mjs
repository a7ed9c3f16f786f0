// The benchmark's command line, shared by `npm run bench` and `npm start` (both through thin entry
// points in scripts/ that install what is missing first). Prints a compact table a person can read
// in a terminal, with the hardware named next to it; the full results go to files.
import { FRAME_TIMING_FLAGS, launchBrowser, startServer } from '../scripts/browser.mjs';
import {
  parseArgs,
  runBench,
  writeOutputs,
  postTable,
  cpuTable,
  portableTable,
  sortTable,
  trailTable,
  livingTable,
  presetTable,
  moduleTable,
  referenceTable,
  drawsTable,
  terminalTable,
  hardwareLines,
  compareRuns,
} from './runner.mjs';

/** Chromium with the frame-timing flags, or Firefox on an X display of its own. */
async function openBrowser(o) {
  if (o.browser !== 'firefox') {
    const { browser, args } = await launchBrowser({ gpu: o.gpu, extraFlags: FRAME_TIMING_FLAGS });
    return { browser, args, close: () => browser.close() };
  }
  const { ensureEngines, launchEngine, startDisplay } = await import('../scripts/engines.mjs');
  ensureEngines(['firefox']);
  const display = await startDisplay();
  const engine = await launchEngine('firefox', { display: display.display });
  return {
    browser: engine.browser,
    args: [],
    close: async () => {
      await engine.close();
      await display.stop();
    },
  };
}

export async function main(argv) {
  let o;
  try {
    o = parseArgs(argv);
  } catch (e) {
    console.error(e.message);
    return 2;
  }
  if (o.runtime === 'deno') {
    const { runDeno } = await import('./deno-runner.mjs');
    return runDeno(o);
  }
  const { browser, args, close } = await openBrowser(o);
  // cross-origin isolated: the pages' clock steps by 5 µs, not 100 (CPU times per frame need it)
  const { server, url } = await startServer({ crossOriginIsolated: true });
  let result;
  try {
    result = await runBench(o, { browser, url, flags: args });
  } finally {
    await close();
    await server.close();
  }
  const files = writeOutputs(o, result);
  const post = [
    postTable(result.rows),
    cpuTable(result.rows),
    referenceTable(result.rows),
    drawsTable(result.rows),
    portableTable(result.rows),
    sortTable(result.rows),
    trailTable(result.rows),
    livingTable(result.rows),
    presetTable(result.rows),
    moduleTable(result.rows),
  ]
    .filter(Boolean)
    .join('\n');
  const particles = result.rows.some((r) => r.kind === 'particles')
    ? `${terminalTable(result.rows)}\n`
    : '';
  console.log(`\n${hardwareLines(result.meta)}\n\n${particles}${post ? `\n${post}\n` : ''}`);
  console.log(
    `full results: ${files.md} (every column, p95/p99, the claims), ${files.json}, ${files.chart}`,
  );
  console.log(
    `screenshots:  ${o.out}/particles/<rung>_<params>.png (the particle suite, run by the scene kit; its own report beside them), ${o.out}/<scenario>.png (post_…, blur_…, frame_…, each labelled)`,
  );
  let code = result.rows.some((r) => !r.skipped) ? 0 : 1;
  if (o.compare) {
    const cmp = compareRuns(result.rows, o.compare, o.threshold);
    console.log(
      `\ncompared with ${o.compare} (commit ${cmp.baselineMeta.commit}, ${cmp.baselineMeta.date}):\n${cmp.table}`,
    );
    if (o.check && cmp.slower.length > 0) {
      console.error(
        `\n--check: ${cmp.slower.length} row(s) slower than the baseline by more than ${(o.threshold * 100).toFixed(0)}%: ${cmp.slower.join(', ')}`,
      );
      code = 1;
    }
  }
  return code;
}
