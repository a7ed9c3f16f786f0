// Where Ignis's CPU time per frame goes, against the hand-written reference: every WebGPU binding
// call of a draw-only frame counted and timed (prototype wrappers), for Ignis and for
// raw-reference.ts, on the same state. By hand:
//   deno run -A bench/deno/cpu-probe.ts [--count 100000] [--frames 200] [--mode instanced]
declare const Deno: { args: string[]; env: { get(name: string): string | undefined } };
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { createDevice, createParticleSystem, orbitCamera, resolveOptions, TextureUsage } = lib;
const { RawReference } = (await import(
  new URL('./raw-reference.ts', import.meta.url).href
)) as typeof import('./raw-reference.js');

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? (Deno.args[i + 1] as string) : fallback;
}
const COUNT = Number(arg('count', '100000'));
const FRAMES = Number(arg('frames', '200'));
const MODE = arg('mode', 'instanced') as 'instanced' | 'pulled';

const stats = new Map<string, { calls: number; ms: number }>();
let counting = false;
const g = globalThis as unknown as Record<string, { prototype: Record<string, unknown> }>;
for (const cls of [
  'GPUDevice',
  'GPUQueue',
  'GPUCommandEncoder',
  'GPURenderPassEncoder',
  'GPUComputePassEncoder',
]) {
  const proto = g[cls]?.prototype;
  if (!proto) continue;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (!d || typeof d.value !== 'function' || name === 'constructor') continue;
    const f = d.value as (...a: unknown[]) => unknown;
    proto[name] = function (this: unknown, ...a: unknown[]) {
      if (!counting) return f.apply(this, a);
      const t0 = performance.now();
      try {
        return f.apply(this, a);
      } finally {
        const key = `${cls}.${name}`;
        const s = stats.get(key) ?? { calls: 0, ms: 0 };
        s.calls++;
        s.ms += performance.now() - t0;
        stats.set(key, s);
      }
    };
  }
}

const device = await createDevice({ backend: 'webgpu' });
const camera = orbitCamera({ aspect: 16 / 9 });
const target = device.createTexture({
  size: { width: 1280, height: 720 },
  format: 'rgba8unorm',
  usage: TextureUsage.RENDER_ATTACHMENT,
});
const ps = await createParticleSystem(device, { count: COUNT, path: 'compute', drawMode: MODE });
{
  const enc = device.createCommandEncoder();
  ps.update(enc, 1 / 60);
  device.queue.submit([enc.finish()]);
}
const state = await ps.read();
const gpu = (device as unknown as { gpu: GPUDevice }).gpu;
const view = (target as unknown as { gpu: GPUTexture }).gpu.createView();
const raw = new RawReference(gpu, 'rgba8unorm', state);
const o = resolveOptions({ count: COUNT });
const look = {
  colors: o.colors,
  stops: o.colorStops,
  sizes: [o.sizeOverLife[0], o.sizeOverLife[1], o.size] as [number, number, number],
};

const seg = new Float64Array(7);
let segFrames = 0;
function ignisFrame(): void {
  const t0 = performance.now();
  const enc = device.createCommandEncoder();
  const t1 = performance.now();
  ps.prepareDraw(enc, camera, target);
  const t2 = performance.now();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  const t3 = performance.now();
  ps.draw(pass, camera);
  const t4 = performance.now();
  pass.end();
  const cb = enc.finish();
  const t5 = performance.now();
  device.queue.submit([cb]);
  const t6 = performance.now();
  const t = [t0, t1, t2, t3, t4, t5, t6];
  for (let i = 0; i < 6; i++) seg[i]! += t[i + 1]! - t[i]!;
  segFrames++;
}
const rawFrame = (): void => raw.frame(MODE, view, camera, look);

async function measure(name: string, f: () => void): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
    await gpu.queue.onSubmittedWorkDone();
  }
  times.sort((a, b) => a - b);
  stats.clear();
  counting = true;
  let total = 0;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    f();
    total += performance.now() - t0;
    await gpu.queue.onSubmittedWorkDone();
  }
  counting = false;
  stats.delete('GPUQueue.onSubmittedWorkDone');
  const native = [...stats.values()].reduce((a, s) => a + s.ms, 0);
  console.log(
    `${name}: median ${(times[FRAMES >> 1] as number).toFixed(3)} ms per frame; counted frames ${((total / 20) * 1000).toFixed(0)} µs, of which binding calls ${((native / 20) * 1000).toFixed(0)} µs`,
  );
  for (const [k, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms))
    console.log(
      `  ${k}: ${(s.calls / 20).toFixed(1)} calls, ${((s.ms / 20) * 1000).toFixed(1)} µs`,
    );
}
const rawScoped = (): void => {
  gpu.pushErrorScope('validation');
  raw.frame(MODE, view, camera, look);
  void gpu.popErrorScope().then(() => undefined);
};
async function burst(name: string, f: () => void): Promise<void> {
  const per: number[] = [];
  for (let r = 0; r < 10; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) f();
    per.push((performance.now() - t0) / 20);
    await gpu.queue.onSubmittedWorkDone();
  }
  per.sort((a, b) => a - b);
  console.log(
    `${name}: 20 frames back to back, median ${((per[5] as number) * 1000).toFixed(0)} µs per frame`,
  );
}
for (let r = 0; r < 2; r++) {
  await burst('ignis', ignisFrame);
  await burst('raw', rawFrame);
}
for (let r = 0; r < 2; r++) {
  await measure('ignis', ignisFrame);
  await measure('raw', rawFrame);
  await measure('raw in an error scope', rawScoped);
}
console.log(
  'ignis segments µs (createCommandEncoder, prepareDraw, beginRenderPass, draw, end+finish, submit):',
  [...seg.slice(0, 6)].map((v) => ((v / segFrames) * 1000).toFixed(1)).join(', '),
);
raw.destroy();
ps.destroy();
device.destroy();
