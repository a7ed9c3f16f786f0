// `npm run bench -- --runtime deno`: the particle benchmark under Deno's WebGPU (wgpu over Vulkan),
// for headless GPU servers where no browser reaches the GPU (docs/benchmarks.md, "On a real GPU").
// Builds dist/, finds Deno ($DENO_BIN, then PATH, then node_modules/.bin, else installs the pinned
// npm package without saving it), and runs bench/deno/particles.ts. Without --gpu, on a machine
// with Debian's Chromium, Vulkan is SwiftShader's (the same software GPU the browser runs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const DENO_VERSION = '2.9.6';
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** The Deno binary: $DENO_BIN, `deno` on PATH, node_modules/.bin/deno, or installed now. */
export function findDeno(root = process.cwd()) {
  if (process.env.DENO_BIN) return process.env.DENO_BIN;
  if (spawnSync('deno', ['--version'], { stdio: 'ignore' }).status === 0) return 'deno';
  const local = path.join(root, 'node_modules', '.bin', 'deno');
  if (existsSync(local)) return local;
  console.log(
    `Deno not found: installing deno@${DENO_VERSION} from npm (not saved to package.json)`,
  );
  if (
    run('npm', ['install', '--no-save', `deno@${DENO_VERSION}`], { cwd: root }) !== 0 ||
    !existsSync(local)
  )
    throw new Error(`could not install deno@${DENO_VERSION}; set DENO_BIN to a Deno binary`);
  return local;
}

export async function runDeno(o) {
  if (run('npm', ['run', '--silent', 'build']) !== 0) return 1;
  const deno = findDeno();
  const env = { ...process.env, DENO_WEBGPU_BACKEND: process.env.DENO_WEBGPU_BACKEND ?? 'vulkan' };
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
  if (o.denoArgs) args.push(...o.denoArgs);
  return run(deno, args, { env });
}
