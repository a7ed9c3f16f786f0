// `npm run bench -- --runtime deno`: the particle benchmark under Deno's WebGPU (wgpu over Vulkan),
// for headless GPU servers where no browser reaches the GPU (docs/benchmarks.md, "On a real GPU").
// Builds the library into a folder of its own (never the project's dist/, which other tools may be
// reading), finds Deno ($DENO_BIN, then PATH, else the pinned npm package, installed on demand
// into node_modules/.cache/ignis-deno so the project's own node_modules tree is never touched),
// and runs bench/deno/particles.ts on that build. Without --gpu, on a machine with Debian's
// Chromium, Vulkan is SwiftShader's (the same software GPU the browser runs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DENO_VERSION = '2.9.6';
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** The Deno binary: $DENO_BIN, `deno` on PATH, or the pinned npm package (installed now if missing). */
export function findDeno(root = process.cwd()) {
  if (process.env.DENO_BIN) return process.env.DENO_BIN;
  if (spawnSync('deno', ['--version'], { stdio: 'ignore' }).status === 0) return 'deno';
  const prefix = path.join(root, 'node_modules', '.cache', 'ignis-deno');
  const local = path.join(prefix, 'node_modules', '.bin', 'deno');
  if (existsSync(local)) return local;
  console.log(`Deno not found: installing deno@${DENO_VERSION} from npm into ${prefix}`);
  const code = run(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--prefix', prefix, `deno@${DENO_VERSION}`],
    { cwd: root },
  );
  if (code !== 0 || !existsSync(local))
    throw new Error(`could not install deno@${DENO_VERSION}; set DENO_BIN to a Deno binary`);
  return local;
}

/** Builds the library into a temporary folder; returns the path of its index.js. */
function buildLibrary(root = process.cwd()) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'ignis-deno-dist-'));
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--config', 'vite.lib.config.ts', '--outDir', outDir];
  if (run(process.execPath, [...args, '--logLevel', 'error'], { cwd: root }) !== 0)
    throw new Error('building the library failed');
  return path.join(outDir, 'index.js');
}

export async function runDeno(o) {
  const dist = buildLibrary();
  const deno = findDeno();
  const env = {
    ...process.env,
    IGNIS_DIST: dist,
    DENO_WEBGPU_BACKEND: process.env.DENO_WEBGPU_BACKEND ?? 'vulkan',
  };
  if (!o.gpu && existsSync(SWIFTSHADER_ICD)) {
    env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    env.LD_LIBRARY_PATH = ['/usr/lib/chromium', env.LD_LIBRARY_PATH].filter(Boolean).join(':');
    console.log('Vulkan: SwiftShader (software); pass --gpu on a machine with a GPU');
  }
  const args = [
    'run',
    '-A',
    'bench/deno/particles.ts',
    '--out',
    path.join(o.out, 'deno'),
    '--counts',
    o.counts.join(','),
    '--draw',
    o.drawGiven ? o.draw.join(',') : 'instanced,pulled,splat,auto',
    '--size',
    o.size.join('x'),
    '--frames',
    String(o.frames),
    '--rounds',
    String(o.repeat),
    // the size sweep and the raw-reference comparison at the counts asked for, up to 1M
    '--size-count',
    String(Math.min(1_000_000, Math.max(...o.counts))),
    '--reference-counts',
    o.counts.filter((c) => c <= 1_000_000).join(',') || String(Math.min(...o.counts)),
    '--cpu-counts',
    o.cpuCounts.join(','),
  ];
  return run(deno, args, { env });
}
