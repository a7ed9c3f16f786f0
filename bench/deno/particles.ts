// The particle benchmark on a headless GPU server, where no browser reaches the GPU: Deno's WebGPU
// (wgpu over Vulkan) runs the built library (dist/) offscreen. `npm run bench -- --runtime deno`
// runs it (bench/deno-runner.mjs finds or installs Deno and builds dist/ first); by hand:
//   deno run -A bench/deno/particles.ts --out <dir> [--counts 1e5,1e6] [--draw instanced,pulled,splat,auto]
//     [--size 1280x720] [--frames 30] [--sizes 0.07,0.3,1] [--cpu-counts 1e6,1e7]
// Measures, per count and draw mode: GPU time of the update and of the draw (timestamps), CPU time
// of Ignis per frame (encode + submit), submit-to-done time per frame, and the steady frame time
// of a loop that only waits in beginFrame(); what `auto` chose and why; the update's bandwidth;
// the splat against the raster modes as particles grow; the CPU path against the compute update.
// Writes <out>/latest.json and <out>/latest.md.
declare const Deno: {
  args: string[];
  version: { deno: string };
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
const lib = (await import(
  new URL('../../dist/index.js', import.meta.url).href
)) as typeof import('../../src/index.js');
const { createDevice, createParticleSystem, orbitCamera, TextureUsage } = lib;
type ParticleSystem = import('../../src/index.js').ParticleSystem;
type QuerySet = import('../../src/index.js').QuerySet;

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? (Deno.args[i + 1] as string) : fallback;
}
const numbers = (v: string): number[] => v.split(',').filter(Boolean).map(Number);
const OUT = arg('out', 'bench/results/deno');
const COUNTS = numbers(arg('counts', '100000,1000000,4000000,16000000'));
const MODES = arg('draw', 'instanced,pulled,splat,auto').split(',') as Array<
  'instanced' | 'pulled' | 'splat' | 'auto'
>;
const [WIDTH, HEIGHT] = arg('size', '1280x720').split('x').map(Number) as [number, number];
const FRAMES = Number(arg('frames', '30'));
const SIZES = numbers(arg('sizes', '0.07,0.2,0.5,1.5'));
const SIZE_COUNT = Number(arg('size-count', '1000000'));
const CPU_COUNTS = numbers(arg('cpu-counts', '1000000,10000000'));
const DT = 1 / 60;

const device = await createDevice({ backend: 'webgpu' });
const timing = device.caps.features.timestampQuery;
const a = device.caps.adapter;
const adapter = `${a.vendor} ${a.architecture} ${a.description}`.trim() || 'adapter not named';
console.log(`adapter: ${adapter}; timestamps: ${timing ? 'yes' : 'no'}`);
const camera = orbitCamera({ aspect: WIDTH / HEIGHT });
const target = device.createTexture({
  label: 'bench target',
  size: { width: WIDTH, height: HEIGHT },
  format: 'rgba8unorm',
  usage: TextureUsage.RENDER_ATTACHMENT,
});

const median = (v: number[]): number => {
  const s = [...v].filter(Number.isFinite).sort((x, y) => x - y);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)] as number);
};
const round = (v: number, d = 4): number | null =>
  Number.isFinite(v) ? Number(v.toFixed(d)) : null;

/** Records and submits one frame (update, prepareDraw, pass, draw); timestamps in pairs 0–2. */
function frame(ps: ParticleSystem, q: QuerySet | null): void {
  const ts = (pair: number) =>
    q
      ? { querySet: q, beginningOfPassWriteIndex: 2 * pair, endOfPassWriteIndex: 2 * pair + 1 }
      : undefined;
  const enc = device.createCommandEncoder({ label: 'bench frame' });
  ps.update(enc, DT, ps.path === 'cpu' ? {} : { timestampWrites: ts(0) });
  ps.prepareDraw(enc, camera, target, { timestampWrites: ts(2) });
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    timestampWrites: ts(1),
  });
  ps.draw(pass, camera);
  pass.end();
  device.queue.submit([enc.finish()]);
}

async function preroll(ps: ParticleSystem): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const enc = device.createCommandEncoder();
    for (let k = 0; k < 10; k++) ps.update(enc, 0.1);
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
}

interface Row {
  kind: 'particles';
  scenario: string;
  path: string;
  backend: string;
  drawMode: string;
  chosen: string;
  reason: string;
  count: number;
  size: number;
  e2eMs: { median: number | null };
  steadyMs: number | null;
  cpuMs: number | null;
  gpuMs: { update: number | null; draw: number | null } | null;
  updateGBs: number | null;
  drawNsPerParticle: number | null;
}

async function measure(
  count: number,
  mode: 'instanced' | 'pulled' | 'splat' | 'auto',
  size: number,
  path: 'compute' | 'cpu' = 'compute',
): Promise<Row> {
  const ps = await createParticleSystem(device, { count, path, drawMode: mode, size });
  const q = timing ? device.createQuerySet({ label: 'bench', type: 'timestamp', count: 6 }) : null;
  await preroll(ps);
  frame(ps, null); // the first draw: auto starts measuring here
  await device.queue.onSubmittedWorkDone();
  await ps.drawModeDecided;
  for (let i = 0; i < 3; i++) {
    frame(ps, null);
    await device.queue.onSubmittedWorkDone();
  }
  const e2e: number[] = [];
  const cpu: number[] = [];
  const update: number[] = [];
  const draw: number[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const t0 = performance.now();
    frame(ps, q);
    cpu.push(performance.now() - t0);
    await device.queue.onSubmittedWorkDone();
    e2e.push(performance.now() - t0);
    if (q) {
      const t = await q.readTimestamps();
      update.push(((t[1] as number) - (t[0] as number)) / 1e6);
      // the splat's compute pass belongs to the draw
      const splat = ((t[5] as number) - (t[4] as number)) / 1e6;
      draw.push(((t[3] as number) - (t[2] as number)) / 1e6 + (Number.isFinite(splat) ? splat : 0));
    }
  }
  // steady state: a loop that waits only in beginFrame() (2 frames in flight), as an app does
  const s0 = performance.now();
  for (let i = 0; i < FRAMES; i++) {
    await device.beginFrame();
    frame(ps, null);
  }
  await device.queue.onSubmittedWorkDone();
  const steady = (performance.now() - s0) / FRAMES;
  const gpuUpdate = median(update);
  const gpuDraw = median(draw);
  const row: Row = {
    kind: 'particles',
    scenario: `particles/${path}@webgpu-deno/${mode}/${count}/size${size}`,
    path,
    backend: 'webgpu',
    drawMode: mode,
    chosen: ps.drawMode,
    reason: ps.drawModeReason,
    count,
    size,
    e2eMs: { median: round(median(e2e)) },
    steadyMs: round(steady),
    cpuMs: round(median(cpu)),
    gpuMs: q ? { update: path === 'cpu' ? null : round(gpuUpdate), draw: round(gpuDraw) } : null,
    // an update reads and writes 32 bytes per particle
    updateGBs: path === 'cpu' ? null : round((count * 64) / (gpuUpdate / 1e3) / 1e9, 1),
    drawNsPerParticle: round((gpuDraw * 1e6) / count, 3),
  };
  console.log(
    `${row.scenario}: e2e ${row.e2eMs.median} ms, steady ${row.steadyMs} ms, CPU ${row.cpuMs} ms, GPU update ${row.gpuMs?.update} draw ${row.gpuMs?.draw} ms${mode === 'auto' ? ` → ${ps.drawMode}: ${ps.drawModeReason}` : ''}`,
  );
  q?.destroy();
  ps.destroy();
  return row;
}

const rows: Row[] = [];
for (const count of COUNTS) for (const mode of MODES) rows.push(await measure(count, mode, 0.07));
const sizeRows: Row[] = [];
for (const size of SIZES)
  for (const mode of ['instanced', 'pulled', 'splat'] as const)
    sizeRows.push(await measure(SIZE_COUNT, mode, size));
/**
 * One update step alone, no draw: the compute path's GPU time (timestamps), and the CPU path's
 * JavaScript step plus its upload call (queue.writeBuffer), the CPU time it costs a frame.
 */
async function updateOnly(count: number, path: 'compute' | 'cpu'): Promise<number> {
  const ps = await createParticleSystem(device, { count, path });
  const q =
    timing && path === 'compute'
      ? device.createQuerySet({ label: 'bench update', type: 'timestamp', count: 2 })
      : null;
  await preroll(ps);
  const samples: number[] = [];
  for (let i = 0; i < Math.min(FRAMES, 10) + 2; i++) {
    const enc = device.createCommandEncoder();
    const t0 = performance.now();
    ps.update(
      enc,
      DT,
      q
        ? { timestampWrites: { querySet: q, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } }
        : {},
    );
    const js = performance.now() - t0;
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    const ms = q
      ? await q.readTimestamps().then((t) => ((t[1] as number) - (t[0] as number)) / 1e6)
      : js;
    if (i >= 2) samples.push(ms);
  }
  q?.destroy();
  ps.destroy();
  return median(samples);
}
const cpuRows: Array<{ count: number; cpuMs: number; gpuMs: number }> = [];
for (const count of CPU_COUNTS) {
  const row = {
    count,
    cpuMs: await updateOnly(count, 'cpu'),
    gpuMs: await updateOnly(count, 'compute'),
  };
  console.log(
    `update ${count}: CPU path ${row.cpuMs.toFixed(2)} ms, compute ${row.gpuMs.toFixed(3)} ms`,
  );
  cpuRows.push(row);
}

const fmt = (v: number | null | undefined, d = 3): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(d);
const md: string[] = [
  `# Particles on ${adapter} (Deno ${Deno.version.deno}, ${WIDTH}×${HEIGHT} offscreen)`,
  '',
  `${FRAMES} measured frames per row, medians. GPU times from timestamp queries; the splat's compute pass counts as draw. CPU ms: Ignis's JavaScript per frame (encode + submit). e2e: submit to done, one frame at a time. Steady: a loop that waits only in beginFrame() (2 frames in flight).`,
  '',
  '| count | draw asked | drawn with | e2e ms | steady ms | CPU ms | GPU update ms | GPU draw ms | draw ns/particle | update GB/s |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.count.toLocaleString('en-US')} | ${r.drawMode} | ${r.chosen} | ${fmt(r.e2eMs.median, 2)} | ${fmt(r.steadyMs, 2)} | ${fmt(r.cpuMs, 3)} | ${fmt(r.gpuMs?.update)} | ${fmt(r.gpuMs?.draw)} | ${fmt(r.drawNsPerParticle, 2)} | ${fmt(r.updateGBs, 0)} |`,
  ),
  '',
  '`auto` chose:',
  '',
  ...rows
    .filter((r) => r.drawMode === 'auto')
    .map((r) => `- ${r.count.toLocaleString('en-US')}: ${r.chosen} — ${r.reason}`),
  '',
  `Draw GPU ms at ${SIZE_COUNT.toLocaleString('en-US')} particles as they grow (world size; the default is 0.07):`,
  '',
  '| size | instanced | pulled | splat | splat / best raster |',
  '|---|---|---|---|---|',
  ...SIZES.map((size) => {
    const at = (m: string) =>
      sizeRows.find((r) => r.size === size && r.drawMode === m)?.gpuMs?.draw ?? NaN;
    const best = Math.min(at('instanced'), at('pulled'));
    return `| ${size} | ${fmt(at('instanced'))} | ${fmt(at('pulled'))} | ${fmt(at('splat'))} | ${fmt(at('splat') / best, 2)}× |`;
  }),
  '',
  'One update step alone: the CPU path (its JavaScript step and the upload call) against the compute path (GPU time):',
  '',
  '| count | CPU path ms | compute update GPU ms | compute update GB/s | CPU / GPU |',
  '|---|---|---|---|---|',
  ...cpuRows.map(
    (r) =>
      `| ${r.count.toLocaleString('en-US')} | ${fmt(r.cpuMs, 2)} | ${fmt(r.gpuMs)} | ${fmt((r.count * 64) / (r.gpuMs / 1e3) / 1e9, 0)} | ${fmt(r.cpuMs / r.gpuMs, 0)}× |`,
  ),
  '',
];
await Deno.mkdir(OUT, { recursive: true });
await Deno.writeTextFile(
  `${OUT}/latest.json`,
  `${JSON.stringify(
    {
      meta: {
        date: new Date().toISOString(),
        runtime: `deno ${Deno.version.deno}`,
        adapter,
        canvas: { width: WIDTH, height: HEIGHT },
        frames: FRAMES,
        timestamps: timing,
      },
      rows,
      sizeRows,
      cpuRows,
    },
    null,
    2,
  )}\n`,
);
await Deno.writeTextFile(`${OUT}/latest.md`, md.join('\n'));
console.log(md.join('\n'));
target.destroy();
device.destroy();
