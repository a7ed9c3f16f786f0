// Deno for the headless-GPU-server runs (`npm run bench -- --runtime deno`, `ignis-bench --runtime
// deno`): finds Deno ($DENO_BIN, then PATH, else the pinned npm package, installed on demand into
// node_modules/.cache/ignis-deno so the project's own node_modules tree is never touched), builds
// the library for it, and the environment it runs in: without --gpu, on a machine with Debian's
// Chromium, Vulkan is SwiftShader's (the same software GPU the browser runs). Node built-ins only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DENO_VERSION = '2.9.6';
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** spawnSync that throws when the command cannot start; returns the exit status. */
export function run(cmd, args, options = {}) {
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
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (code !== 0 || !existsSync(local))
    throw new Error(`could not install deno@${DENO_VERSION}; set DENO_BIN to a Deno binary`);
  return local;
}

/** Builds the library of the repository at `root` into a temporary folder; returns that folder. */
export function buildLibrary(root) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'ignis-deno-dist-'));
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--config', 'vite.lib.config.ts', '--outDir', outDir];
  if (run(process.execPath, [...args, '--logLevel', 'error'], { cwd: root }) !== 0)
    throw new Error('building the library failed');
  return outDir;
}

/** The environment Deno's WebGPU runs in: Vulkan, SwiftShader's unless `gpu`. */
export function denoEnv({ gpu = false, quiet = false } = {}) {
  const env = { ...process.env, DENO_WEBGPU_BACKEND: process.env.DENO_WEBGPU_BACKEND ?? 'vulkan' };
  if (!gpu && existsSync(SWIFTSHADER_ICD)) {
    env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    env.LD_LIBRARY_PATH = ['/usr/lib/chromium', env.LD_LIBRARY_PATH].filter(Boolean).join(':');
    if (!quiet) console.log('Vulkan: SwiftShader (software); pass --gpu on a machine with a GPU');
  }
  return env;
}
