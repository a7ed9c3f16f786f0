// `npm run bench [-- options]`: the particle benchmark in headless Chromium (bench/cli.mjs,
// bench/runner.mjs, docs/benchmarks.md).
// Entry points import nothing but Node built-ins and scripts/setup.mjs before setup has run: on a fresh
// clone node_modules does not exist yet (tests/node/entry-points.test.ts holds them to it).
import { ensureSetup } from '../scripts/setup.mjs';

ensureSetup();
const { main } = await import('./cli.mjs');
process.exit(await main(process.argv.slice(2)));
