// The compositor stall (2026-12-06): the frame suite's WebGL2 page run again and again in one
// browser, each followed by a screenshot; at the first that stalls (20 s), what still works is
// printed. `node bench/results/compositor-stall/probe.mjs webgl2 30`; EXTRA="flags" adds flags,
// NOTIMING=1 drops FRAME_TIMING_FLAGS (scripts/browser.mjs).
import { execSync } from 'node:child_process';
import { FRAME_TIMING_FLAGS, launchBrowser, startServer } from '../../../scripts/browser.mjs';
import { parseArgs, buildScenarios } from '../../runner.mjs';
const within = (p, ms, what) => Promise.race([p, new Promise((_, r) => setTimeout(() => r(new Error(`${what} > ${ms} ms`)), ms))]);
const o = parseArgs(['--suites', 'frame', '--frame-counts', '100000', '--size', '960x540', '--frames', '12', '--warmup', '3', '--repeat', '1']);
const scenarios = buildScenarios(o).filter((s) => s.id.includes(process.argv[2] ?? 'webgl2'));
const extra = (process.env.EXTRA ?? '').split(' ').filter(Boolean);
const { browser } = await launchBrowser({
  extraFlags: process.env.NOTIMING ? extra : [...FRAME_TIMING_FLAGS, ...extra],
});
const { server, url } = await startServer({ crossOriginIsolated: true });
const N = Number(process.argv[3] ?? 8);
for (let i = 0; i < N; i++) {
  for (const s of scenarios) {
    const page = await browser.newPage();
    await page.setViewport({ width: s.width, height: s.height, deviceScaleFactor: 1 });
    await page.goto(`${url}/bench/page/index.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__benchReady === true, { timeout: 60_000 });
    const t0 = Date.now();
    const m = await page.evaluate((sc) => window.__bench.run(sc), s);
    const t1 = Date.now();
    try {
      await within(page.screenshot({ type: 'png' }), 20000, 'screenshot');
      console.log(`${i} ${s.id}: run ${t1 - t0} ms, shot ${Date.now() - t1} ms`);
    } catch (e) {
      console.log(`${i} ${s.id}: run ${t1 - t0} ms, STALL ${e.message}`);
      try { console.log('  evaluate:', await within(page.evaluate(() => 1 + 1), 5000, 'evaluate')); } catch (e2) { console.log('  evaluate', e2.message); }
      try { console.log('  rAF:', await within(page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r('raf ok')))), 5000, 'raf')); } catch (e2) { console.log('  ', e2.message); }
      const blank = await browser.newPage();
      await blank.setContent('<p>hi</p>');
      try { await within(blank.screenshot(), 10000, 'blank screenshot'); console.log('  blank page screenshot ok'); } catch (e2) { console.log('  ', e2.message); }
      console.log(execSync("ps -eLo pid,tid,pcpu,stat,comm,args | grep -E 'gpu-process' | grep -v grep | awk '$3>0.5' | head -20 | cut -c1-120").toString());
      console.log(execSync("top -b -n 1 | head -12 | tail -6").toString());
      process.exit(2);
    }
    await page.evaluate(() => window.__bench.cleanup());
    await page.close();
  }
}
await browser.close();
await server.close();
