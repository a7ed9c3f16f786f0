#!/usr/bin/env node
// Digests of particle state and pixels (tests/gpu/cases/digest.ts) for a refactor that must not
// change results: `node scripts/particle-digest.mjs OUT.json [BASELINE.json]` records them in
// Chromium and Firefox (both backends, every path and draw mode; IGNIS_DIGEST_ENGINE=webkit for
// WebKit instead of Firefox) and, given a baseline, lists what differs (exit 1 when anything does).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [out, baseline] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/particle-digest.mjs OUT.json [BASELINE.json]');
  process.exit(2);
}
const vitest = 'node_modules/vitest/vitest.mjs';
const run = spawnSync(process.execPath, [vitest, 'run', '--config', 'tests/gpu/digest.config.ts'], {
  encoding: 'utf8',
  maxBuffer: 64 << 20,
});
const digests = {};
for (const line of `${run.stdout}${run.stderr}`.split('\n')) {
  const at = line.indexOf('DIGEST ');
  if (at >= 0) Object.assign(digests, JSON.parse(line.slice(at + 7)));
}
if (run.status !== 0 || Object.keys(digests).length === 0) {
  console.error(run.stdout, run.stderr);
  process.exit(1);
}
writeFileSync(out, `${JSON.stringify(digests, null, 1)}\n`);
console.log(`${Object.keys(digests).length} digests in ${out}`);
if (baseline) {
  const before = JSON.parse(readFileSync(baseline, 'utf8'));
  const keys = new Set([...Object.keys(before), ...Object.keys(digests)]);
  const differ = [...keys].filter((k) => before[k] !== digests[k]);
  for (const k of differ) console.log(`differs: ${k} (${before[k]} → ${digests[k]})`);
  console.log(`${keys.size - differ.length} of ${keys.size} identical to ${baseline}`);
  process.exit(differ.length > 0 ? 1 : 0);
}
