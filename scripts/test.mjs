// `npm test`: installs what is missing (npm packages, Chromium), checks types, lint and formatting,
// then runs both tiers with vitest
// (Node tests, then GPU tests in headless Chromium on every available backend) and ends with
// one line counting passed and failed tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureSetup } from './setup.mjs';

ensureSetup();

/** The static checks first: types, lint (floating promises, unused values), formatting. */
function check(what, bin, args) {
  console.log(`ignis test: ${what}`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', ...bin), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error(`\nignis test: ${what} failed (run it alone: npm run ${what})`);
    process.exit(r.status ?? 1);
  }
}
check('typecheck', ['typescript', 'bin', 'tsc'], ['-p', 'tsconfig.json', '--noEmit']);
check('lint', ['eslint', 'bin', 'eslint.js'], ['.']);
check('format:check', ['prettier', 'bin', 'prettier.cjs'], ['--check', '--log-level', 'warn', '.']);

const report = path.join(ROOT, 'test-output', 'vitest.json');
mkdirSync(path.dirname(report), { recursive: true });
const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  },
);
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests ?? 0;
  failed = (json.numFailedTests ?? 0) + (json.numFailedTestSuites ?? 0);
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
const code = result.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code);
