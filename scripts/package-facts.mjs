// The README's facts about the package, measured instead of typed: what each entry loads (the
// entry's file and every chunk it imports, statically and transitively: bytes and gzip -9
// bytes, summed over the files) and what the tarball holds (`npm pack --dry-run`). The README keeps
// them between `<!-- package-facts -->` markers; `npm run facts` rewrites them from a fresh build,
// and tests/gpu/pack.gpu.test.ts fails when the README says anything else.
//   node scripts/package-facts.mjs [--write]   (after `npm run build`)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ENTRIES } from './entries.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- package-facts:start (npm run facts writes this; npm test checks it) -->';
const END = '<!-- package-facts:end -->';

/** The files `file` (in `dist`) loads: itself and its relative static imports, transitively. */
export function moduleGraph(dist, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(path.join(dist, file), 'utf8');
  for (const m of code.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*['"](\.\/[^'"]+)['"]/gm))
    moduleGraph(dist, path.posix.join(path.posix.dirname(file), m[1]), seen);
  for (const m of code.matchAll(/^\s*import\s*['"](\.\/[^'"]+)['"]/gm))
    moduleGraph(dist, path.posix.join(path.posix.dirname(file), m[1]), seen);
  return seen;
}

/** `{ entry, files, bytes, gzipBytes }` for every entry of the package, from `dist`. */
export function entrySizes(dist = path.join(ROOT, 'dist')) {
  return Object.entries(ENTRIES).map(([subpath, [, built]]) => {
    const files = [...moduleGraph(dist, `${built}.js`)];
    let bytes = 0;
    let gzipBytes = 0;
    for (const f of files) {
      const data = readFileSync(path.join(dist, f));
      bytes += data.length;
      gzipBytes += gzipSync(data, { level: 9 }).length;
    }
    return { entry: subpath ? `ignis-rhi/${subpath}` : 'ignis-rhi', files, bytes, gzipBytes };
  });
}

/** The tarball's file list (npm pack --dry-run), dist/ summarised by kind. */
export function tarballFiles(cwd = ROOT) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out.slice(out.indexOf('[')))[0].files.map((f) => f.path);
}

const kib = (n) => Math.round(n / 1024);

/** The README section for these sizes and files. */
export function factsSection(sizes, files) {
  const dist = files.filter((f) => f.startsWith('dist/'));
  const other = files.filter((f) => !f.startsWith('dist/')).sort();
  const count = (re) => dist.filter((f) => re.test(f)).length;
  return [
    START,
    '',
    'What an import loads (the entry and every chunk it imports; not minified; gzip -9 per file):',
    '',
    ...sizes.map(
      (s) =>
        `- \`${s.entry}\`: ${kib(s.bytes)} KiB, ${kib(s.gzipBytes)} KiB gzip (${s.files.length} files)`,
    ),
    '',
    `The tarball holds ${dist.length} files under \`dist/\` (${count(/\.js$/)} modules, ${count(/\.js\.map$/)} source maps, ${count(/\.d\.ts$/)} declarations) and ${other.map((f) => `\`${f}\``).join(', ')} — the scene kit's scripts and pages (\`npx ignis-check\`, \`npx ignis-bench\`) among them.`,
    END,
  ].join('\n');
}

/** The README with its facts section replaced by `section`. */
export function withFacts(readme, section) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} section`);
  return readme.slice(0, a) + section + readme.slice(b + END.length);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const section = factsSection(entrySizes(), tarballFiles());
  const file = path.join(ROOT, 'README.md');
  const readme = readFileSync(file, 'utf8');
  if (process.argv.includes('--write')) writeFileSync(file, withFacts(readme, section));
  else console.log(section);
}
