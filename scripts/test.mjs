// `npm test`: installs what is missing (npm packages, Chromium), checks types, lint and formatting,
// then runs both tiers with vitest
// (Node tests, then GPU tests in headless Chromium on every available backend) and ends with
// one line counting passed and failed tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureSetup } from './setup.mjs';

ensureSetup();
const { ENGINE_NAMES, ensureEngines } = await import('./engines.mjs');
// Firefox and WebKit beside Chromium (installed here when missing; skipped, saying why, when not)
for (const [engine, status] of Object.entries(ensureEngines(ENGINE_NAMES)))
  console.log(
    `ignis test: ${engine}: ${status.ok ? status.executable : `unavailable (${status.reason})`}`,
  );

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
// files that failed without a failing test (an import, a top-level await): counted apart, not
// added to the tests (a file with two failing tests is two failures, not three)
let brokenFiles = 0;
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests ?? 0;
  failed = json.numFailedTests ?? 0;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  brokenFiles = (json.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed'),
  ).length;
  printEngineSummary(json);
}
const code = result.status ?? 1;
const files =
  brokenFiles > 0 ? `, ${brokenFiles} test file${brokenFiles > 1 ? 's' : ''} failed to run` : '';
console.log(
  `\n${passed} passed, ${failed} failed, ${skipped} skipped${files}${code !== 0 && failed === 0 && brokenFiles === 0 ? ` (vitest exited with ${code})` : ''}`,
);
process.exit(code);

/**
 * Cases run, skipped (with the reasons, counted) and failed per engine, from the test names'
 * `[engine:backend]` / `[engine]` tags (tests without one are the Node tier's or the project's).
 */
function printEngineSummary(json) {
  const rows = new Map();
  for (const file of json.testResults ?? [])
    for (const t of file.assertionResults ?? []) {
      const tag = /\[(chromium|firefox|webkit)(?::(\w+))?\]/.exec(t.title);
      const key = tag ? tag[1] : 'other';
      const row = rows.get(key) ?? { run: 0, failed: 0, skipped: 0, reasons: new Map() };
      rows.set(key, row);
      if (t.status === 'passed') row.run++;
      else if (t.status === 'failed') {
        row.run++;
        row.failed++;
      } else {
        row.skipped++;
        const why = / — skipped: (.*)$/.exec(t.title)?.[1] ?? 'no reason given';
        row.reasons.set(why, (row.reasons.get(why) ?? 0) + 1);
      }
    }
  console.log('\nper engine: cases run / skipped / failed');
  for (const key of [...ENGINE_NAMES, 'other']) {
    const r = rows.get(key);
    if (!r) continue;
    const name = key === 'other' ? 'node & project' : key;
    console.log(
      `  ${name.padEnd(15)} ${String(r.run).padStart(5)} run ${String(r.skipped).padStart(5)} skipped ${String(r.failed).padStart(4)} failed`,
    );
    for (const [why, n] of r.reasons) console.log(`      skipped ${n}×: ${why.slice(0, 160)}`);
  }
}
