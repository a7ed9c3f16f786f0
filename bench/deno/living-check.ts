// Checks draws of the living only (options.compact) on the machine at hand, under Deno's WebGPU:
// the list the GPU made equals the state's living slots, and the image drawn from it equals the
// image drawn from every slot, per draw mode; then times the splat's compute pass both ways.
//   deno run -A bench/deno/living-check.ts [--count 1000000] [--alive 0.01]
declare const Deno: { args: string[] };
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { createDevice, createParticleSystem, orbitCamera, TextureUsage } = lib;
type ParticleSystem = import('../../src/all.js').ParticleSystem;

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? (Deno.args[i + 1] as string) : fallback;
}
const COUNT = Number(arg('count', '1000000'));
const ALIVE = Number(arg('alive', '0.01'));
const device = await createDevice({ backend: 'webgpu' });
const camera = orbitCamera({ aspect: 1280 / 720 });
const target = device.createTexture({
  label: 'check target',
  size: { width: 1280, height: 720 },
  format: 'rgba8unorm',
  usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
});
const q = device.createQuerySet({ label: 'check', type: 'timestamp', count: 4 });

async function make(mode: 'instanced' | 'pulled' | 'splat', compact: boolean) {
  const ps = await createParticleSystem(device, {
    count: COUNT,
    path: 'compute',
    drawMode: mode,
    emitRate: ALIVE * COUNT,
    lifeMin: 1,
    lifeMax: 1,
    compact,
  });
  for (let i = 0; i < 3; i++) {
    const enc = device.createCommandEncoder();
    for (let k = 0; k < 10; k++) ps.update(enc, 0.1);
    device.queue.submit([enc.finish()]);
  }
  await device.queue.onSubmittedWorkDone();
  return ps;
}

/** GPU ms of one update: the step pass, and where the system compacts, through the list's pass. */
async function update(ps: ParticleSystem): Promise<number> {
  const enc = device.createCommandEncoder();
  ps.update(enc, 1 / 60, {
    timestampWrites: { querySet: q, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
  });
  device.queue.submit([enc.finish()]);
  const t = await q.readTimestamps();
  return ((t[1] as number) - (t[0] as number)) / 1e6;
}

/**
 * Records prepareDraw and the pass into `enc` and submits it; GPU ms of the splat pass (0 for the
 * raster modes) and of the render pass.
 */
async function drawOn(
  enc: ReturnType<typeof device.createCommandEncoder>,
  ps: ParticleSystem,
): Promise<{ splat: number; pass: number }> {
  ps.prepareDraw(enc, camera, target, {
    timestampWrites: { querySet: q, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
  });
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    timestampWrites: { querySet: q, beginningOfPassWriteIndex: 2, endOfPassWriteIndex: 3 },
  });
  ps.draw(pass, camera);
  pass.end();
  device.queue.submit([enc.finish()]);
  const t = await q.readTimestamps();
  const ms = (a: number, b: number) =>
    Number.isFinite(t[a]) ? ((t[b] as number) - (t[a] as number)) / 1e6 : 0;
  return { splat: ms(0, 1), pass: ms(2, 3) };
}

/** One frame: update then draw in one command buffer (or the update submitted alone first); GPU ms of the draw's passes. */
async function frame(ps: ParticleSystem, submitUpdateFirst: boolean): Promise<number> {
  let enc = device.createCommandEncoder();
  ps.update(enc, 1 / 60);
  if (submitUpdateFirst) {
    device.queue.submit([enc.finish()]);
    enc = device.createCommandEncoder();
  }
  const { splat, pass } = await drawOn(enc, ps);
  return splat + pass;
}

/** One frame without an update: the image and the GPU ms of the splat pass and the render pass. */
async function draw(ps: ParticleSystem): Promise<{ img: Uint8Array; splat: number; pass: number }> {
  const times = await drawOn(device.createCommandEncoder(), ps);
  return { img: (await target.read()) as Uint8Array, ...times };
}

for (const mode of ['instanced', 'pulled', 'splat'] as const) {
  const every = await make(mode, false);
  const living = await make(mode, true);
  const { velocity } = await living.read();
  const expected: number[] = [];
  for (let i = 0; i < COUNT; i++) if ((velocity[4 * i + 3] as number) > 0) expected.push(i);
  const slots = await living.livingSlots();
  let wrong = slots.length === expected.length ? 0 : -1;
  if (wrong === 0) for (let i = 0; i < slots.length; i++) if (slots[i] !== expected[i]) wrong++;
  const a = await draw(every);
  const b = await draw(living);
  let differ = 0;
  for (let i = 0; i < a.img.length; i++) if (a.img[i] !== b.img[i]) differ++;
  const times = { every: [] as number[], living: [] as number[] };
  const updates = { every: [] as number[], living: [] as number[] };
  for (let r = 0; r < 10; r++) {
    updates.every.push(await update(every));
    updates.living.push(await update(living));
  }
  for (let r = 0; r < 10; r++) {
    const x = await draw(every);
    const y = await draw(living);
    times.every.push(x.splat + x.pass);
    times.living.push(y.splat + y.pass);
  }
  // a whole frame in one command buffer (update, then the draw reading the counts just written),
  // and the same with the update submitted first: GPU ms of the draw's passes
  const framed = { every: [] as number[], living: [] as number[] };
  const split = { every: [] as number[], living: [] as number[] };
  for (let r = 0; r < 10; r++)
    for (const [key, ps] of [
      ['every', every],
      ['living', living],
    ] as const) {
      framed[key].push(await frame(ps, false));
      split[key].push(await frame(ps, true));
    }
  const med = (v: number[]) => [...v].sort((p, s) => p - s)[Math.floor(v.length / 2)]!;
  console.log(
    `${mode} ${COUNT} alive ${ALIVE}: list ${slots.length} of ${expected.length} living, ${wrong === -1 ? 'lengths differ' : `${wrong} entries wrong`}; image bytes differing ${differ}; update GPU ms every ${med(updates.every).toFixed(3)} living (with the list) ${med(updates.living).toFixed(3)}; draw GPU ms every ${med(times.every).toFixed(3)} living ${med(times.living).toFixed(3)}; in a frame every ${med(framed.every).toFixed(3)} living ${med(framed.living).toFixed(3)}; update submitted first every ${med(split.every).toFixed(3)} living ${med(split.living).toFixed(3)}`,
  );
  every.destroy();
  living.destroy();
}
q.destroy();
target.destroy();
device.destroy();
