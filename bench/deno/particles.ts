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
  env: { get(name: string): string | undefined };
  version: { deno: string };
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
// the built library: $IGNIS_DIST (the runner builds into a folder of its own) or the project's dist/
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { createDevice, createParticleSystem, orbitCamera, resolveOptions, TextureUsage } = lib;
const { RawReference, RawPassTimer, compareImages, ignisSpriteTexture } = (await import(
  new URL('./raw-reference.ts', import.meta.url).href
)) as typeof import('./raw-reference.js');
const { RawSplat } = (await import(
  new URL('./raw-splat.ts', import.meta.url).href
)) as typeof import('./raw-splat.js');
const { clockGuard } = (await import(
  new URL('../../check/clock-probe.ts', import.meta.url).href
)) as typeof import('../../check/clock-probe.js');
type ParticleSystem = import('../../src/all.js').ParticleSystem;
type QuerySet = import('../../src/all.js').QuerySet;

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
const REFERENCE_COUNTS = numbers(arg('reference-counts', '100000,1000000'));
/** The reference rows' looks: the soft disc, and a sprite (an image per particle) beside it. */
const REFERENCE_LOOKS = arg('reference-looks', 'disc,sprite').split(',') as Array<
  'disc' | 'sprite'
>;
for (const look of REFERENCE_LOOKS)
  if (look !== 'disc' && look !== 'sprite')
    throw new Error(`--reference-looks: ${String(look)} is not disc or sprite`);
/** Counts at which Ignis's splat is measured against the hand-written splats (raw-splat.ts). */
const SPLAT_COUNTS = numbers(arg('splat-counts', '1000000'));
const ROUNDS = Number(arg('rounds', '3'));
/** Trail lengths to measure (the trails table: the frame without trails and with each). */
const TRAILS = numbers(arg('trails', ''));
const TRAIL_COUNTS = numbers(arg('trail-counts', '100000,1000000'));
/** Shares of the slots alive to measure (the living table: every slot drawn against the living only). */
const LIVING = numbers(arg('living', ''));
const LIVING_COUNTS = numbers(arg('living-counts', '1000000'));
const DT = 1 / 60;
/**
 * The clock guard (check/clock-probe.ts): `on` brings the GPU's clock to its top before each
 * round's timed frames and probes it after a system's (the rows' clock column); `auto` (the
 * default) is on where the probe fits: WebGPU with timestamps on a hardware adapter (not a
 * software one, whose "clock" is the CPU's and whose probe takes seconds).
 */
const CLOCKS = arg('clocks', 'auto');
if (!['on', 'off', 'auto'].includes(CLOCKS)) throw new Error(`--clocks ${CLOCKS}: on, off or auto`);

const device = await createDevice({ backend: 'webgpu' });
const timing = device.caps.features.timestampQuery;
const a = device.caps.adapter;
const adapter = `${a.vendor} ${a.architecture} ${a.description}`.trim() || 'adapter not named';
const guard = clockGuard(CLOCKS as 'on' | 'off' | 'auto', device, lib.BufferUsage);
const clocks = guard.probe;
console.log(
  `adapter: ${adapter}; timestamps: ${timing ? 'yes' : 'no'}; clock guard: ${clocks ? 'on' : `off (${guard.note})`}`,
);
const camera = orbitCamera({ aspect: WIDTH / HEIGHT });
const target = device.createTexture({
  label: 'bench target',
  size: { width: WIDTH, height: HEIGHT },
  format: 'rgba8unorm',
  // (read once per reference row: the two draws' images compared)
  usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
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
  /** The clock after the row's timed frames, a share of its top (check/clock-probe.ts); null: off. */
  clock: number | null;
}

type Mode = 'instanced' | 'pulled' | 'splat' | 'auto';

/**
 * Every mode at one count and size, interleaved: all systems are made and warmed first, then
 * ROUNDS rounds each give every mode FRAMES / ROUNDS measured frames in turn, so a change of GPU
 * clocks or load lands on every mode alike.
 */
async function measureModes(
  count: number,
  modes: readonly Mode[],
  size: number,
  trail = 0,
  /**
   * Variants of the options, each with its scenario suffix (the living table: every slot and the
   * living only), measured interleaved with the modes so a change of GPU state lands on all alike.
   */
  variants: ReadonlyArray<{ options: Record<string, unknown>; tag: string }> = [
    { options: {}, tag: '' },
  ],
): Promise<Row[]> {
  const cells = variants.flatMap((variant) => modes.map((mode) => ({ mode, variant })));
  const systems: ParticleSystem[] = [];
  for (const { mode, variant } of cells) {
    const ps = await createParticleSystem(device, {
      count,
      path: 'compute',
      drawMode: mode,
      size,
      ...(trail > 0 ? { trail: { length: trail } } : {}),
      ...variant.options,
    });
    await preroll(ps);
    frame(ps, null); // the first draw: auto starts measuring here
    await device.queue.onSubmittedWorkDone();
    await ps.drawModeDecided;
    for (let i = 0; i < 3; i++) frame(ps, null);
    await device.queue.onSubmittedWorkDone();
    systems.push(ps);
  }
  const q = timing ? device.createQuerySet({ label: 'bench', type: 'timestamp', count: 6 }) : null;
  const per = cells.map(() => ({
    e2e: [] as number[],
    cpu: [] as number[],
    update: [] as number[],
    draw: [] as number[],
    steady: [] as number[],
    clock: [] as number[],
  }));
  const perRound = Math.max(1, Math.round(FRAMES / ROUNDS));
  for (let round = 0; round < ROUNDS; round++)
    for (const [m, ps] of systems.entries()) {
      const out = per[m]!;
      await clocks?.warm();
      for (let i = 0; i < perRound; i++) {
        const t0 = performance.now();
        frame(ps, q);
        out.cpu.push(performance.now() - t0);
        await device.queue.onSubmittedWorkDone();
        out.e2e.push(performance.now() - t0);
        if (q) {
          const t = await q.readTimestamps();
          out.update.push(((t[1] as number) - (t[0] as number)) / 1e6);
          // the splat's compute pass belongs to the draw
          const splat = ((t[5] as number) - (t[4] as number)) / 1e6;
          out.draw.push(
            ((t[3] as number) - (t[2] as number)) / 1e6 + (Number.isFinite(splat) ? splat : 0),
          );
        }
      }
      if (clocks) out.clock.push(await clocks.check());
      // steady state: a loop that waits only in beginFrame() (2 frames in flight), as an app does
      const s0 = performance.now();
      for (let i = 0; i < perRound; i++) {
        await device.beginFrame();
        frame(ps, null);
      }
      await device.queue.onSubmittedWorkDone();
      out.steady.push((performance.now() - s0) / perRound);
    }
  q?.destroy();
  const rows = systems.map((ps, m): Row => {
    const out = per[m]!;
    const { mode, variant } = cells[m]!;
    const gpuUpdate = median(out.update);
    const gpuDraw = median(out.draw);
    return {
      kind: 'particles',
      scenario: `particles/compute@webgpu-deno/${mode}/${count}/size${size}${trail > 0 ? `/trail${trail}` : ''}${variant.tag}`,
      path: 'compute',
      backend: 'webgpu',
      drawMode: mode,
      chosen: ps.drawMode,
      reason: ps.drawModeReason,
      count,
      size,
      e2eMs: { median: round(median(out.e2e)) },
      steadyMs: round(median(out.steady)),
      cpuMs: round(median(out.cpu)),
      gpuMs: q ? { update: round(gpuUpdate), draw: round(gpuDraw) } : null,
      // an update reads and writes 32 bytes per particle
      updateGBs: round((count * 64) / (gpuUpdate / 1e3) / 1e9, 1),
      drawNsPerParticle: round((gpuDraw * 1e6) / count, 3),
      clock: clocks ? round(median(out.clock), 2) : null,
    };
  });
  for (const r of rows)
    console.log(
      `${r.scenario}: e2e ${r.e2eMs.median} ms, steady ${r.steadyMs} ms, CPU ${r.cpuMs} ms, GPU update ${r.gpuMs?.update} draw ${r.gpuMs?.draw} ms${r.clock === null ? '' : `, clock ${r.clock}`}${r.drawMode === 'auto' ? ` → ${r.chosen}: ${r.reason}` : ''}`,
    );
  for (const ps of systems) ps.destroy();
  return rows;
}

/**
 * The draw alone, Ignis against the hand-written WebGPU reference (raw-reference.ts) of the same
 * look, on the same state, interleaved: GPU time of the pass and CPU time of recording and
 * submitting it (Ignis: prepareDraw, pass, draw, submit; the reference: writeBuffer, pass, draw,
 * submit). `sprite`: both draw SPRITE's image per particle (Ignis's `options.texture`). After the
 * timed frames, one frame of each is read back and compared.
 */
async function versusReference(count: number, look: 'disc' | 'sprite'): Promise<ReferenceRow[]> {
  const sprite = look === 'sprite' ? ignisSpriteTexture(device, TextureUsage) : null;
  // two systems stepped alike hold the same state (the update is deterministic); the reference
  // draws a copy of it
  const systems = {
    instanced: await createParticleSystem(device, {
      count,
      path: 'compute',
      drawMode: 'instanced',
      texture: sprite,
    }),
    pulled: await createParticleSystem(device, {
      count,
      path: 'compute',
      drawMode: 'pulled',
      texture: sprite,
    }),
  };
  await preroll(systems.instanced);
  await preroll(systems.pulled);
  const state = await systems.instanced.read();
  const gpu = (device as unknown as { gpu: GPUDevice }).gpu;
  const view = (target as unknown as { gpu: GPUTexture }).gpu.createView();
  const raw = new RawReference(gpu, 'rgba8unorm', state, look);
  const o = resolveOptions({ count });
  const colors = {
    colors: o.colors,
    stops: o.colorStops,
    sizes: [o.sizeOverLife[0], o.sizeOverLife[1], o.size] as [number, number, number],
  };
  const q = timing
    ? device.createQuerySet({ label: 'bench raw', type: 'timestamp', count: 2 })
    : null;
  const rawTimer = q ? new RawPassTimer(gpu) : null;
  const rows: ReferenceRow[] = [];
  for (const mode of ['instanced', 'pulled'] as const) {
    const ignis = systems[mode];
    const samples = {
      ignisCpu: [] as number[],
      rawCpu: [] as number[],
      ignisGpu: [] as number[],
      rawGpu: [] as number[],
    };
    const perRound = Math.max(1, Math.round(FRAMES / ROUNDS));
    for (let r = 0; r < ROUNDS + 1; r++) {
      await clocks?.warm();
      for (let i = 0; i < perRound; i++) {
        let t0 = performance.now();
        const enc = device.createCommandEncoder({ label: 'bench draw only' });
        ignis.prepareDraw(enc, camera, target);
        const pass = enc.beginRenderPass({
          colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          timestampWrites: q
            ? { querySet: q, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 }
            : undefined,
        });
        ignis.draw(pass, camera);
        pass.end();
        device.queue.submit([enc.finish()]);
        const ignisCpu = performance.now() - t0;
        await device.queue.onSubmittedWorkDone();
        const ignisGpu = q
          ? await q.readTimestamps().then((t) => ((t[1] as number) - (t[0] as number)) / 1e6)
          : NaN;
        t0 = performance.now();
        raw.frame(mode, view, camera, colors, rawTimer?.writes);
        const rawCpu = performance.now() - t0;
        let rawGpu = NaN;
        if (rawTimer) rawGpu = await rawTimer.read();
        else await gpu.queue.onSubmittedWorkDone();
        if (r === 0) continue; // warm-up round
        samples.ignisCpu.push(ignisCpu);
        samples.rawCpu.push(rawCpu);
        samples.ignisGpu.push(ignisGpu);
        samples.rawGpu.push(rawGpu);
      }
    }
    // one frame of each, read back: the two draws must show the same picture
    const drawIgnis = (): void => {
      const enc = device.createCommandEncoder({ label: 'bench draw only' });
      ignis.prepareDraw(enc, camera, target);
      const pass = enc.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      ignis.draw(pass, camera);
      pass.end();
      device.queue.submit([enc.finish()]);
    };
    drawIgnis();
    const ignisImage = new Uint8Array(await target.read());
    raw.frame(mode, view, camera, colors);
    const image = compareImages(ignisImage, new Uint8Array(await target.read()));
    const row: ReferenceRow = {
      count,
      mode,
      look,
      image,
      ignisGpuMs: round(median(samples.ignisGpu)),
      rawGpuMs: round(median(samples.rawGpu)),
      ignisCpuMs: round(median(samples.ignisCpu)),
      rawCpuMs: round(median(samples.rawCpu)),
    };
    console.log(
      `draw ${mode} ${look} ${count}: Ignis GPU ${row.ignisGpuMs} CPU ${row.ignisCpuMs} ms; raw GPU ${row.rawGpuMs} CPU ${row.rawCpuMs} ms; pixels differing ${image.differing} of ${image.lit} lit`,
    );
    rows.push(row);
  }
  q?.destroy();
  rawTimer?.destroy();
  raw.destroy();
  systems.instanced.destroy();
  systems.pulled.destroy();
  sprite?.destroy();
  return rows;
}

/** The splat's variants measured against Ignis's: the plainest first. */
const RAW_SPLATS = [
  { channels: 3, check: false },
  { channels: 4, check: false },
  { channels: 4, check: true },
  { channels: 4, check: true, loop: true },
] as const;
const splatName = (v: { channels: number; check: boolean; loop?: boolean }): string =>
  `raw ${v.channels}ch${v.check ? ' +check' : ''}${v.loop ? ' +loop' : ''}`;

interface SplatRow {
  count: number;
  /** GPU ms of the splat's compute pass and its resolve pass, Ignis's and each raw variant's. */
  ignis: { splat: number | null; resolve: number | null };
  /** Pixels Ignis's image lights (the check above compares against them). */
  litPixels: number;
  /** Ignis with `targetAlpha: 'keep'` (three channels), and its pixels off Ignis's image. */
  ignisKept: { splat: number | null; resolve: number | null; pixelsOff: number };
  raw: Array<{
    variant: string;
    splat: number | null;
    resolve: number | null;
    /** Pixels of its image more than 1/255 from Ignis's in some channel (the same footprint: 0). */
    pixelsOff: number;
  }>;
}

/**
 * Ignis's splat against hand-written splats of the same footprint on the same state (raw-splat.ts),
 * interleaved frame by frame: GPU time of the compute pass and of the resolve pass of each.
 */
async function versusRawSplat(count: number): Promise<SplatRow> {
  const ps = await createParticleSystem(device, { count, path: 'compute', drawMode: 'splat' });
  await preroll(ps);
  // the same system keeping the target's alpha (three channels summed), stepped alike: the same state
  const kept = await createParticleSystem(device, {
    count,
    path: 'compute',
    drawMode: 'splat',
    targetAlpha: 'keep',
  });
  await preroll(kept);
  const state = await ps.read();
  const gpu = (device as unknown as { gpu: GPUDevice }).gpu;
  const view = (target as unknown as { gpu: GPUTexture }).gpu.createView();
  const buffer = (data: Float32Array): GPUBuffer => {
    const b = gpu.createBuffer({
      size: data.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    gpu.queue.writeBuffer(b, 0, new Float32Array(data));
    return b;
  };
  const positions = buffer(state.position);
  const velocities = buffer(state.velocity);
  const raws = RAW_SPLATS.map(
    (v) =>
      new RawSplat(
        gpu,
        'rgba8unorm',
        { width: WIDTH, height: HEIGHT },
        { positions, velocities, count },
        v,
      ),
  );
  const o = resolveOptions({ count });
  const look = {
    colors: o.colors,
    stops: o.colorStops,
    sizes: [o.sizeOverLife[0], o.sizeOverLife[1], o.size] as [number, number, number],
  };
  // the same footprint: each raw splat's image against Ignis's (rgb; the 3-channel one keeps alpha)
  const check = device.createTexture({
    label: 'bench splat check',
    size: { width: WIDTH, height: HEIGHT },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const enc0 = device.createCommandEncoder({ label: 'bench splat check' });
  ps.prepareDraw(enc0, camera, check);
  const pass0 = enc0.beginRenderPass({
    colorAttachments: [{ texture: check, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  ps.draw(pass0, camera);
  pass0.end();
  device.queue.submit([enc0.finish()]);
  const ignisImage = (await check.read()) as Uint8Array;
  let litPixels = 0;
  for (let i = 0; i < ignisImage.length; i += 4)
    if (ignisImage[i]! + ignisImage[i + 1]! + ignisImage[i + 2]! > 0) litPixels++;
  const enc1 = device.createCommandEncoder({ label: 'bench splat check (alpha kept)' });
  kept.prepareDraw(enc1, camera, check);
  const pass1 = enc1.beginRenderPass({
    colorAttachments: [{ texture: check, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  kept.draw(pass1, camera);
  pass1.end();
  device.queue.submit([enc1.finish()]);
  const keptImage = (await check.read()) as Uint8Array;
  const off = (img: Uint8Array): number => {
    let n = 0;
    for (let i = 0; i < img.length; i += 4)
      for (let c = 0; c < 3; c++)
        if (Math.abs((img[i + c] as number) - (ignisImage[i + c] as number)) > 1) {
          n++;
          break;
        }
    return n;
  };
  const keptOff = off(keptImage);
  const pixelsOff: number[] = [];
  for (const rs of raws) {
    rs.frame((check as unknown as { gpu: GPUTexture }).gpu.createView(), camera, look);
    pixelsOff.push(off((await check.read()) as Uint8Array));
  }
  check.destroy();
  // bursts of frames back to back (a wait per frame lets the GPU's clocks fall), each frame's
  // passes writing timestamps of their own, read once the burst is done; contenders take turns
  const burst = Math.max(1, Math.round(FRAMES / ROUNDS));
  const q = device.createQuerySet({ label: 'bench splat', type: 'timestamp', count: 4 * burst });
  const rawQ = gpu.createQuerySet({ type: 'timestamp', count: 4 * burst });
  const resolved = gpu.createBuffer({
    size: 32 * burst,
    usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
  });
  const readback = gpu.createBuffer({
    size: 32 * burst,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const ignis = { splat: [] as number[], resolve: [] as number[] };
  const ignisKept = { splat: [] as number[], resolve: [] as number[] };
  const raw = raws.map(() => ({ splat: [] as number[], resolve: [] as number[] }));
  const collect = (t: ArrayLike<number>, into: { splat: number[]; resolve: number[] }): void => {
    for (let i = 0; i < burst; i++) {
      into.splat.push(((t[4 * i + 1] as number) - (t[4 * i] as number)) / 1e6);
      into.resolve.push(((t[4 * i + 3] as number) - (t[4 * i + 2] as number)) / 1e6);
    }
  };
  const ignisBurst = async (
    system: ParticleSystem,
    into: { splat: number[]; resolve: number[] },
    measured: boolean,
  ): Promise<void> => {
    for (let i = 0; i < burst; i++) {
      const enc = device.createCommandEncoder({ label: 'bench splat' });
      system.prepareDraw(enc, camera, target, {
        timestampWrites: {
          querySet: q,
          beginningOfPassWriteIndex: 4 * i,
          endOfPassWriteIndex: 4 * i + 1,
        },
      });
      const pass = enc.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
        timestampWrites: {
          querySet: q,
          beginningOfPassWriteIndex: 4 * i + 2,
          endOfPassWriteIndex: 4 * i + 3,
        },
      });
      system.draw(pass, camera);
      pass.end();
      device.queue.submit([enc.finish()]);
    }
    const t = await q.readTimestamps();
    if (measured) collect(t, into);
  };
  for (let r = 0; r < ROUNDS + 1; r++) {
    // the first round warms up; each starts at the top clock
    await clocks?.warm();
    await ignisBurst(ps, ignis, r > 0);
    await ignisBurst(kept, ignisKept, r > 0);
    for (const [k, rs] of raws.entries()) {
      for (let i = 0; i < burst; i++) rs.frame(view, camera, look, { querySet: rawQ, base: 4 * i });
      const e = gpu.createCommandEncoder();
      e.resolveQuerySet(rawQ, 0, 4 * burst, resolved, 0);
      e.copyBufferToBuffer(resolved, 0, readback, 0, 32 * burst);
      gpu.queue.submit([e.finish()]);
      await readback.mapAsync(GPUMapMode.READ);
      // nanoseconds since some origin: differences taken in BigInt, then as numbers
      const big = new BigUint64Array(readback.getMappedRange());
      const ts = Array.from(big, (x) => Number(x - (big[0] as bigint)));
      readback.unmap();
      if (r > 0) collect(ts, raw[k]!);
    }
  }
  const row: SplatRow = {
    count,
    ignis: { splat: round(median(ignis.splat)), resolve: round(median(ignis.resolve)) },
    litPixels,
    ignisKept: {
      splat: round(median(ignisKept.splat)),
      resolve: round(median(ignisKept.resolve)),
      pixelsOff: keptOff,
    },
    raw: raws.map((rs, k) => ({
      variant: splatName(rs.variant),
      splat: round(median(raw[k]!.splat)),
      resolve: round(median(raw[k]!.resolve)),
      pixelsOff: pixelsOff[k] as number,
    })),
  };
  console.log(
    `splat ${count}: Ignis ${row.ignis.splat} + ${row.ignis.resolve} ms (${litPixels} pixels lit); Ignis alpha kept ${row.ignisKept.splat} + ${row.ignisKept.resolve} (${keptOff} pixels off); ${row.raw.map((x) => `${x.variant} ${x.splat} + ${x.resolve} (${x.pixelsOff} pixels off)`).join('; ')}`,
  );
  q.destroy();
  rawQ.destroy();
  resolved.destroy();
  readback.destroy();
  for (const rs of raws) rs.destroy();
  positions.destroy();
  velocities.destroy();
  ps.destroy();
  kept.destroy();
  return row;
}

interface ReferenceRow {
  count: number;
  mode: 'instanced' | 'pulled';
  look: 'disc' | 'sprite';
  /** One frame of each draw read back: pixels Ignis lit, pixels differing (raw-reference.ts). */
  image: { lit: number; differing: number; tolerance: number };
  ignisGpuMs: number | null;
  rawGpuMs: number | null;
  ignisCpuMs: number | null;
  rawCpuMs: number | null;
}

const rows: Row[] = [];
for (const count of COUNTS) rows.push(...(await measureModes(count, MODES, 0.07)));
const sizeRows: Row[] = [];
for (const size of SIZES)
  sizeRows.push(...(await measureModes(SIZE_COUNT, ['instanced', 'pulled', 'splat'], size)));
const trailRows: Row[] = [];
if (TRAILS.length > 0)
  for (const count of TRAIL_COUNTS)
    for (const trail of [0, ...TRAILS])
      trailRows.push(...(await measureModes(count, ['instanced', 'pulled'], 0.07, trail)));
const livingRows: Row[] = [];
for (const count of LIVING.length > 0 ? LIVING_COUNTS : [])
  for (const share of LIVING)
    livingRows.push(
      ...(await measureModes(
        count,
        ['instanced', 'pulled', 'splat'],
        0.07,
        0,
        // one-second lives emitted at share × count per second: that share alive after the preroll
        [false, true].map((compact) => ({
          options: { emitRate: share * count, lifeMin: 1, lifeMax: 1, compact },
          tag: `/alive${share}/${compact ? 'living' : 'every-slot'}`,
        })),
      )),
    );
const referenceRows: ReferenceRow[] = [];
for (const look of REFERENCE_LOOKS)
  for (const count of REFERENCE_COUNTS) referenceRows.push(...(await versusReference(count, look)));
const splatRows: SplatRow[] = [];
if (timing) for (const count of SPLAT_COUNTS) splatRows.push(await versusRawSplat(count));
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
  // (the CPU path's step is JavaScript: the GPU's clock is not what it measures)
  if (path === 'compute') await clocks?.warm();
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
  `${FRAMES} measured frames per row, medians. GPU times from timestamp queries; the splat's compute pass counts as draw. CPU ms: Ignis's JavaScript per frame (encode + submit). e2e: submit to done, one frame at a time. Steady: a loop that waits only in beginFrame() (2 frames in flight). Clock: ${clocks ? "the GPU's clock after the row's frames as a share of its top (check/clock-probe.ts; each row's frames start at the top)" : 'not guarded (--clocks off, or a software adapter or no timestamps)'}.`,
  '',
  '| count | draw asked | drawn with | e2e ms | steady ms | CPU ms | GPU update ms | GPU draw ms | draw ns/particle | update GB/s | clock |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.count.toLocaleString('en-US')} | ${r.drawMode} | ${r.chosen} | ${fmt(r.e2eMs.median, 2)} | ${fmt(r.steadyMs, 2)} | ${fmt(r.cpuMs, 3)} | ${fmt(r.gpuMs?.update)} | ${fmt(r.gpuMs?.draw)} | ${fmt(r.drawNsPerParticle, 2)} | ${fmt(r.updateGBs, 0)} | ${fmt(r.clock, 2)} |`,
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
  ...(trailRows.length > 0
    ? [
        'Trails: the frame without trails and with a ribbon through each particle’s last N positions (GPU ms: the update is its pass alone — the copy into the trail’s ring is not in it, e2e has it —, the draw is the ribbons and the particles):',
        '',
        '| count | trail | mode | e2e ms | GPU update ms | GPU draw ms | draw / without |',
        '|---|---|---|---|---|---|---|',
        ...trailRows.map((r) => {
          const trail = r.scenario.match(/trail(\d+)$/)?.[1] ?? 'none';
          const base = trailRows.find(
            (b) =>
              b.count === r.count && b.drawMode === r.drawMode && !/trail\d+$/.test(b.scenario),
          );
          return `| ${r.count.toLocaleString('en-US')} | ${trail} | ${r.drawMode} | ${fmt(r.e2eMs.median, 2)} | ${fmt(r.gpuMs?.update)} | ${fmt(r.gpuMs?.draw)} | ${fmt((r.gpuMs?.draw ?? NaN) / (base?.gpuMs?.draw ?? NaN), 2)}× |`;
        }),
        '',
      ]
    : []),
  ...(livingRows.length > 0
    ? [
        'The living only (compact): every slot drawn, the dead culled in the vertex stage (or skipped by the splat thread), against the living listed by a GPU compaction after the update and drawn indirectly (measured interleaved; GPU ms of the update — the step, and for the living the list’s pass — and of the draw):',
        '',
        '| count | alive | mode | e2e every slot | e2e living | GPU update every → living | GPU draw every slot | GPU draw living | draw living / every |',
        '|---|---|---|---|---|---|---|---|---|',
        ...livingRows
          .filter((r) => r.scenario.endsWith('/living'))
          .map((r) => {
            const base = livingRows.find(
              (b) => b.scenario === r.scenario.replace(/living$/, 'every-slot'),
            );
            const share = r.scenario.match(/alive([\d.]+)/)?.[1] ?? '?';
            return `| ${r.count.toLocaleString('en-US')} | ${share} | ${r.drawMode} | ${fmt(base?.e2eMs.median ?? NaN, 2)} | ${fmt(r.e2eMs.median, 2)} | ${fmt(base?.gpuMs?.update ?? NaN)} → ${fmt(r.gpuMs?.update)} | ${fmt(base?.gpuMs?.draw ?? NaN)} | ${fmt(r.gpuMs?.draw)} | ${fmt((r.gpuMs?.draw ?? NaN) / (base?.gpuMs?.draw ?? NaN), 2)}× |`;
          }),
        '',
      ]
    : []),
  'The draw alone, Ignis against a hand-written WebGPU reference of the same look on the same state (bench/deno/raw-reference.ts: the soft disc, or the sprite, an image per particle tinted by the colour over life), interleaved; CPU ms is recording and submitting the frame; pixels differing: one frame of each read back, channels more than 8/255 apart:',
  '',
  '| count | look | mode | Ignis GPU ms | reference GPU ms | GPU ratio | Ignis CPU ms | reference CPU ms | CPU ratio | pixels differing / lit |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...referenceRows.map(
    (r) =>
      `| ${r.count.toLocaleString('en-US')} | ${r.look} | ${r.mode} | ${fmt(r.ignisGpuMs)} | ${fmt(r.rawGpuMs)} | ${fmt((r.ignisGpuMs ?? NaN) / (r.rawGpuMs ?? NaN), 2)}× | ${fmt(r.ignisCpuMs)} | ${fmt(r.rawCpuMs)} | ${fmt((r.ignisCpuMs ?? NaN) / (r.rawCpuMs ?? NaN), 2)}× | ${r.image.differing.toLocaleString('en-US')} / ${r.image.lit.toLocaleString('en-US')} |`,
  ),
  '',
  ...(splatRows.length > 0
    ? [
        "The splat alone, Ignis's against hand-written splats of the same footprint and coverage rule on the same state (bench/deno/raw-splat.ts: 3 channels = premultiplied rgb only, 4 = alpha summed too as Ignis, +check = an overflow test after every add as Ignis, +loop = the adds as Ignis's loop over channels that skips zeros), interleaved; GPU ms of the compute pass + the resolve pass:",
        '',
        `| count | Ignis | Ignis, targetAlpha 'keep' | ${RAW_SPLATS.map(splatName).join(' | ')} | Ignis / ${splatName(RAW_SPLATS[0])} | Ignis 'keep' / ${splatName(RAW_SPLATS[0])} |`,
        `|---|---|---|${RAW_SPLATS.map(() => '---|').join('')}---|---|`,
        ...splatRows.map((r) => {
          const sum = (x: { splat: number | null; resolve: number | null }): number =>
            (x.splat ?? NaN) + (x.resolve ?? NaN);
          const cell = (x: { splat: number | null; resolve: number | null }): string =>
            `${fmt(sum(x))} (${fmt(x.splat)} + ${fmt(x.resolve)})`;
          return `| ${r.count.toLocaleString('en-US')} | ${cell(r.ignis)} | ${cell(r.ignisKept)} | ${r.raw.map(cell).join(' | ')} | ${fmt(sum(r.ignis) / sum(r.raw[0]!), 2)}× | ${fmt(sum(r.ignisKept) / sum(r.raw[0]!), 2)}× |`;
        }),
        '',
      ]
    : []),
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
      trailRows,
      livingRows,
      referenceRows,
      splatRows,
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
