// The README's facts about the package, measured instead of typed: what each entry loads (the
// entry's file and every chunk it imports, statically and transitively: bytes and gzip -9
// bytes, summed over the files) and what the tarball holds (`npm pack --dry-run`). The README keeps
// them between `<!-- package-facts -->` markers; `npm run facts` rewrites them from a fresh build,
// and tests/gpu/pack.gpu.test.ts fails when a size there is more than 5% off the packed package's,
// or the tarball's contents differ (factsDrift).
//   node scripts/package-facts.mjs [--write | --check]   (after `npm run build`)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ENTRIES } from './entries.mjs';
import { ensureSetup } from './setup.mjs';

// es-module-lexer reads the built modules' imports: a dev dependency, there once setup has run
ensureSetup({ npmOnly: true });
const { init, parse } = await import('es-module-lexer');
await init;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- package-facts:start (npm run facts writes this; npm test checks it) -->';
const END = '<!-- package-facts:end -->';

/**
 * The files `file` (in `dist`) loads before it runs: itself and its relative static imports,
 * transitively (es-module-lexer reads minified modules as written). Dynamic `import()`s are not
 * followed: what they load comes later, on demand (`lazyGraph`).
 */
export function moduleGraph(dist, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const target of relativeImports(dist, file, false))
    moduleGraph(dist, path.posix.join(path.posix.dirname(file), target), seen);
  return seen;
}

/** What `files` load on demand: the static graphs of their dynamic imports, less `files` themselves. */
export function lazyGraph(dist, files) {
  const lazy = new Set();
  for (const file of files)
    for (const target of relativeImports(dist, file, true))
      moduleGraph(dist, path.posix.join(path.posix.dirname(file), target), lazy);
  for (const f of files) lazy.delete(f);
  return lazy;
}

/** The relative specifiers `file` imports statically (`dynamic`: by `import()` with a literal). */
function relativeImports(dist, file, dynamic) {
  const [imports] = parse(readFileSync(path.join(dist, file), 'utf8'));
  return imports
    .filter((i) => i.d > -1 === dynamic && i.n?.startsWith('./'))
    .map((i) => /** @type {string} */ (i.n));
}

/** Bytes and gzip -9 bytes of `files` in `dist`, summed. */
function weigh(dist, files) {
  let bytes = 0;
  let gzipBytes = 0;
  for (const f of files) {
    const data = readFileSync(path.join(dist, f));
    bytes += data.length;
    gzipBytes += gzipSync(data, { level: 9 }).length;
  }
  return { bytes, gzipBytes };
}

/**
 * `{ entry, files, bytes, gzipBytes, lazy }` for every entry of the package, from `dist`: what
 * importing it loads, and (`lazy`) what it may load later on demand.
 */
export function entrySizes(dist = path.join(ROOT, 'dist')) {
  return Object.entries(ENTRIES).map(([subpath, [, built]]) => {
    const files = [...moduleGraph(dist, `${built}.js`)];
    const lazyFiles = [...lazyGraph(dist, files)];
    return {
      entry: subpath ? `ignis-rhi/${subpath}` : 'ignis-rhi',
      files,
      ...weigh(dist, files),
      lazy: { files: lazyFiles, ...weigh(dist, lazyFiles) },
    };
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

/** What a particle app on WebGPU imports: the RHI (createDevice) and the particles. */
export const PARTICLE_APP = ['ignis-rhi', 'ignis-rhi/particles'];

/**
 * The files among `files` (in `dist`) built from the WGSL front end — wgsl_reflect's parser and
 * Ignis's translator to GLSL and JavaScript — found by the sources their source maps name. For a
 * bundler's output (`dist` its folder), `from` names the package's own front-end files, for a
 * bundler whose maps name those rather than following them to wgsl_reflect.
 */
export function frontEndFiles(dist, files, from = []) {
  const names = from.map((f) => `/${path.basename(f)}`);
  return files.filter((f) => {
    const map = path.join(dist, `${f}.map`);
    try {
      const { sources } = JSON.parse(readFileSync(map, 'utf8'));
      return sources.some((s) => /wgsl_reflect/.test(s) || names.some((n) => s.endsWith(n)));
    } catch {
      return false;
    }
  });
}

/** A line of the report: `label`: size, gzip, files. */
const line = (label, w, files) =>
  `- ${label}: ${kib(w.bytes)} KiB, ${kib(w.gzipBytes)} KiB gzip (${files} ${files === 1 ? 'file' : 'files'})`;

/** The README section for these sizes (entrySizes of `dist`) and tarball files. */
export function factsSection(sizes, files, dist = path.join(ROOT, 'dist')) {
  const tarball = files.filter((f) => f.startsWith('dist/'));
  const other = files.filter((f) => !f.startsWith('dist/')).sort();
  const count = (re) => tarball.filter((f) => re.test(f)).length;
  const app = [
    ...new Set(sizes.filter((s) => PARTICLE_APP.includes(s.entry)).flatMap((s) => s.files)),
  ];
  const lazy = [...lazyGraph(dist, app)];
  return [
    START,
    '',
    'What an import loads before it runs (the entry and every chunk it imports statically; minified as shipped, with source maps beside them; gzip -9 per file):',
    '',
    ...sizes.map((s) => line(`\`${s.entry}\``, s, s.files.length)),
    line(`a particle app (\`${PARTICLE_APP.join('` and `')}\`)`, weigh(dist, app), app.length),
    line(
      'loaded later by it, only where a system translates (the WGSL front end)',
      weigh(dist, lazy),
      lazy.length,
    ),
    '',
    `The tarball holds ${tarball.length} files under \`dist/\` (${count(/\.js$/)} modules, ${count(/\.js\.map$/)} source maps, ${count(/\.d\.ts$/)} declarations) and ${other.map((f) => `\`${f}\``).join(', ')} — the scene kit's scripts and pages (\`npx ignis-check\`, \`npx ignis-bench\`) among them.`,
    END,
  ].join('\n');
}

/**
 * Where the README's section (`readme`) and the measured one (`section`, from factsSection)
 * disagree: each size line more than 5% (and more than 1 KiB) from the measured figure, a line
 * added or missing, or the tarball's contents. Empty: they agree.
 */
export function factsDrift(readme, section) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) return [`README.md has no ${START} … ${END} section`];
  const lines = (text) =>
    text.split('\n').filter((l) => l.startsWith('- ') || l.startsWith('The tarball'));
  // a line's name: the tarball's line, or what a size line measures (before its ": ")
  const key = (l) => (l.startsWith('The tarball') ? 'The tarball' : l.slice(0, l.indexOf(': ')));
  const sizes = (l) => [...l.matchAll(/(\d+) KiB/g)].map((m) => Number(m[1]));
  const said = lines(readme.slice(a, b));
  const measured = lines(section);
  const problems = [];
  for (const want of measured) {
    const got = said.find((l) => key(l) === key(want));
    if (!got) problems.push(`missing: ${want}`);
    else if (key(want) === 'The tarball') {
      if (got !== want)
        problems.push(`the tarball differs:\n  README:   ${got}\n  measured: ${want}`);
    } else {
      const [x, y] = [sizes(got), sizes(want)];
      if (x.length !== y.length || x.some((v, i) => Math.abs(v - y[i]) > Math.max(1, 0.05 * y[i])))
        problems.push(
          `${key(want)}: the README says ${x.join(' / ')} KiB, the build ${y.join(' / ')} KiB (more than 5% apart)`,
        );
    }
  }
  for (const l of said)
    if (!measured.some((m) => key(m) === key(l))) problems.push(`not measured any more: ${l}`);
  return problems;
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
  if (process.argv.includes('--check')) {
    const drift = factsDrift(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), section);
    for (const d of drift) console.error(d);
    process.exit(drift.length > 0 ? 1 : 0);
  }
  const file = path.join(ROOT, 'README.md');
  const readme = readFileSync(file, 'utf8');
  if (process.argv.includes('--write')) writeFileSync(file, withFacts(readme, section));
  else console.log(section);
}
