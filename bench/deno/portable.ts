// The portable flock (demos/boids-portable/flock.wgsl) on a headless GPU server: Deno's WebGPU runs
// it as written (the compute path), and the same WGSL runs through its JavaScript translation (the
// CPU path, over host copies). Measures GPU time per step (timestamps) and CPU ms per step, and how
// far apart the two paths are after 1, 10 and 100 steps on real hardware. Usage (shared GPU.md):
//   deno run -A bench/deno/portable.ts <out-dir> [counts, e.g. 1024,4096,16384,65536] [cpu-max]
// Writes <out-dir>/portable-deno.json and portable-deno.md.
declare const Deno: {
  args: string[];
  version: { deno: string };
  env: { get(name: string): string | undefined };
  readTextFile(path: string | URL): Promise<string>;
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const portable = lib;
const { createDevice, BufferUsage } = lib;
// the demo's rules and start, shared (rules.ts imports nothing, so Deno loads it as it is)
const { DEFAULT_RULES, initialFlock, rulesBytes } = (await import(
  new URL('../../demos/boids-portable/rules.ts', import.meta.url).href
)) as typeof import('../../demos/boids-portable/rules.js');
const flockWgsl = await Deno.readTextFile(
  new URL('../../demos/boids-portable/flock.wgsl', import.meta.url),
);

const [outDir = '.', countsArg = '1024,4096,16384,65536', cpuMaxArg = '4096'] = Deno.args;
const counts = countsArg.split(',').map(Number);
const cpuMax = Number(cpuMaxArg);
const device = await createDevice({ backend: 'webgpu', hostShadows: true });
const adapter =
  `${device.caps.adapter.vendor} ${device.caps.adapter.architecture} ${device.caps.adapter.description}`.trim();
const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length
    ? ((s[Math.floor((s.length - 1) / 2)] as number) +
        (s[Math.ceil((s.length - 1) / 2)] as number)) /
        2
    : NaN;
};

function flock(path: 'compute' | 'cpu', count: number) {
  const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  const bufs = [0, 1].map(() => device.createBuffer({ size: 16 * count, usage }));
  device.queue.writeBuffer(bufs[0]!, 0, initialFlock(count));
  const r = device.createBuffer({ size: 32, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
  device.queue.writeBuffer(r, 0, rulesBytes(DEFAULT_RULES, count));
  const sim = portable.createPortableCompute(device, {
    code: flockWgsl,
    count,
    path,
    buffers: { rules: r },
  });
  let cur = 0;
  return {
    sim,
    step(enc: ReturnType<typeof device.createCommandEncoder>) {
      sim.dispatch(enc, { flockIn: bufs[cur]!, flockOut: bufs[1 - cur]! });
      cur = 1 - cur;
    },
    read: async () => new Float32Array(await bufs[cur]!.read()),
    destroy() {
      sim.destroy();
      for (const b of [...bufs, r]) b.destroy();
    },
  };
}

const rows: Array<Record<string, unknown>> = [];
for (const count of counts) {
  // GPU time of one compute step: timestamps at the start of an empty pass before the dispatch
  // and at the end of one after it (the portable API records its own pass)
  const f = flock('compute', count);
  const q = device.createQuerySet({ type: 'timestamp', count: 2 });
  const gpu: number[] = [];
  // 20 warm-ups (the GPU clocks up after the CPU-path phases), then 30 measured steps
  for (let i = 0; i < 50; i++) {
    const enc = device.createCommandEncoder();
    enc.beginComputePass({ timestampWrites: { querySet: q, beginningOfPassWriteIndex: 0 } }).end();
    f.step(enc);
    enc.beginComputePass({ timestampWrites: { querySet: q, endOfPassWriteIndex: 1 } }).end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    const t = await q.readTimestamps();
    if (i >= 20) gpu.push(((t[1] as number) - (t[0] as number)) / 1e6);
  }
  q.destroy();
  f.destroy();
  const row: Record<string, unknown> = { count, computeGpuMs: median(gpu) };
  if (count <= cpuMax) {
    const c = flock('cpu', count);
    const cpu: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const enc = device.createCommandEncoder();
      c.step(enc);
      device.queue.submit([enc.finish()]);
      cpu.push(performance.now() - t0);
    }
    c.destroy();
    row.cpuMsPerStep = median(cpu);
    // agreement on this GPU: both paths from the same start, after 1, 10 and 100 steps
    const g = flock('compute', count);
    const h = flock('cpu', count);
    const agreement: Record<string, { max: number; far: number }> = {};
    let done = 0;
    for (const n of [1, 10, 100]) {
      const enc = device.createCommandEncoder();
      for (; done < n; done++) {
        g.step(enc);
        h.step(enc);
      }
      device.queue.submit([enc.finish()]);
      const a = await g.read();
      const b = await h.read();
      let max = 0;
      let far = 0;
      let same = 0;
      for (let i = 0; i < a.length; i++) {
        const d = Math.abs(a[i]! - b[i]!);
        max = Math.max(max, d);
        if (d > 1e-2) far++;
        if (a[i] === b[i]) same++;
      }
      agreement[`after${n}`] = { max, far, identical: same / a.length } as {
        max: number;
        far: number;
      };
    }
    g.destroy();
    h.destroy();
    row.agreement = agreement;
  }
  rows.push(row);
  console.log(JSON.stringify(row));
}

await Deno.mkdir(outDir, { recursive: true });
const meta = { adapter, deno: Deno.version.deno, date: new Date().toISOString() };
await Deno.writeTextFile(`${outDir}/portable-deno.json`, JSON.stringify({ meta, rows }, null, 2));
const fmt = (v: unknown, d = 2): string => (typeof v === 'number' ? v.toFixed(d) : '—');
const md = [
  `# The portable flock on ${adapter} (Deno ${meta.deno}, ${meta.date})`,
  '',
  '| boids | compute: GPU ms per step (timestamps) | CPU path (JS translation): ms per step | CPU / compute | after 1 step: max diff | after 10 | after 100: max diff, values > 1e-2 |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const a = r.agreement as Record<string, { max: number; far: number }> | undefined;
    return `| ${r.count} | ${fmt(r.computeGpuMs, 3)} | ${fmt(r.cpuMsPerStep, 1)} | ${r.cpuMsPerStep ? `${((r.cpuMsPerStep as number) / (r.computeGpuMs as number)).toFixed(0)}×` : '—'} | ${a ? a.after1!.max.toExponential(1) : '—'} | ${a ? a.after10!.max.toExponential(1) : '—'} | ${a ? `${a.after100!.max.toExponential(1)}, ${a.after100!.far}` : '—'} |`;
  }),
].join('\n');
await Deno.writeTextFile(`${outDir}/portable-deno.md`, `${md}\n`);
console.log(md);
