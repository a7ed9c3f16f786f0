// `npm run bench -- --runtime deno`: the particle benchmark under Deno's WebGPU (wgpu over Vulkan),
// for headless GPU servers where no browser reaches the GPU (docs/benchmarks.md, "On a real GPU").
// Builds the library into a folder of its own (never the project's dist/, which other tools may be
// reading), finds Deno and runs bench/deno/particles.ts on that build (scripts/deno.mjs).
import path from 'node:path';
import { buildLibrary, denoEnv, findDeno, run } from '../scripts/deno.mjs';

export async function runDeno(o) {
  const dist = path.join(buildLibrary(process.cwd()), 'index.js');
  const deno = findDeno();
  const env = { ...denoEnv({ gpu: o.gpu }), IGNIS_DIST: dist };
  // `--suites draws`: the RHI's CPU cost per draw (bench/deno/draws.ts), Ignis against the
  // hand-written WebGPU frame; the particle benchmark otherwise
  if (o.suites.includes('draws')) {
    const status = run(
      deno,
      [
        'run',
        '-A',
        'bench/deno/draws.ts',
        '--out',
        path.join(o.out, 'deno'),
        '--draw-counts',
        o.drawCounts.join(','),
        '--rounds',
        String(Math.max(3, o.frames)),
      ],
      { env },
    );
    if (status !== 0 || o.suites.length === 1) return status;
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
    // the soft disc and the sprite, unless the command named its looks
    '--reference-looks',
    o.referenceLooksGiven ? o.referenceLooks.join(',') : 'disc,sprite',
    // the splat against hand-written splats (raw-splat.ts) at the counts asked for
    '--splat-counts',
    o.counts.join(','),
    '--cpu-counts',
    o.cpuCounts.join(','),
  ];
  return run(deno, args, { env });
}
