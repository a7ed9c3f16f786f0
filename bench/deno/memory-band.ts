// The two speeds of large particle states under Deno's WebGPU, with no Ignis in them: plain WebGPU
// makes the buffers Ignis's splat systems make, in Ignis's order and with its sizes and usages
// (per system: a 4 KiB uniform buffer, position and velocity of 16 bytes a particle, an 8 KiB
// uniform buffer, the splat's 16-byte-a-pixel accumulation and its overflow bits), and times one
// update kernel per system that reads and writes both state buffers (64 bytes a particle, as
// Ignis's update moves) with timestamp queries, systems taking turns. It prints each system's
// update GB/s; a process is one placement of the buffers (the question it was written for).
//   deno run -A bench/deno/memory-band.ts [--count 4e6] [--systems 2] [--accum 1280x720|0]
//     [--pad <bytes>] [--frames 40] [--clear 0|1] [--idle <s>] [--warm 0|1]
// --pad rounds every state buffer up to a multiple of <bytes>; --accum 0 leaves the splat's
// buffers out (a raster system's allocations); --clear 1 clears the accumulation every frame, as
// the splat does. --idle waits that long after the buffers are made, --warm 1 then brings the
// clock to its top (check/clock-probe.ts, the one use of Ignis here, through an Ignis device
// around this script's GPUDevice); each line ends with the probe's time before and after the
// timed frames (µs: shorter, a faster clock). The two speeds were the GPU's clock, not the
// buffers: bench/results/deno-h100-clocks/.
declare const Deno: { args: string[] };
const { ClockProbe } = (await import(
  new URL('../../check/clock-probe.ts', import.meta.url).href
)) as typeof import('../../check/clock-probe.js');
// the built library, for the clock probe only (an Ignis device around this script's GPUDevice)
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? (Deno.args[i + 1] as string) : fallback;
}
const COUNT = Number(arg('count', '4e6'));
const SYSTEMS = Number(arg('systems', '2'));
const ACCUM = arg('accum', '1280x720');
const PAD = Number(arg('pad', '0'));
const FRAMES = Number(arg('frames', '40'));
const CLEAR = arg('clear', '0') === '1';
const IDLE = Number(arg('idle', '0'));
const WARM = arg('warm', '0') === '1';
if (!(IDLE >= 0)) throw new Error(`--idle ${IDLE}: seconds, 0 or more`);
for (const [name, v] of [
  ['count', COUNT],
  ['systems', SYSTEMS],
  ['frames', FRAMES],
] as const)
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} ${v}: a positive integer`);
if (!Number.isInteger(PAD) || PAD < 0) throw new Error(`--pad ${PAD}: bytes, 0 or more`);
const accumPixels =
  ACCUM === '0'
    ? 0
    : ACCUM.split('x')
        .map(Number)
        .reduce((a, b) => a * b, 1);
if (!Number.isInteger(accumPixels) || accumPixels < 0)
  throw new Error(`--accum ${ACCUM}: WIDTHxHEIGHT or 0`);

const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) throw new Error('no WebGPU adapter');
if (!adapter.features.has('timestamp-query')) throw new Error('the adapter has no timestamp-query');
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query'],
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
  },
});

const S = GPUBufferUsage;
const stateBytes = (n: number): number => {
  const bytes = n * 16;
  return PAD > 0 ? Math.ceil(bytes / PAD) * PAD : bytes;
};

const shader = device.createShaderModule({
  code: /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> position: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> velocity: array<vec4f>;
@group(0) @binding(2) var<uniform> u: vec4f; // x: dt, y: count

@compute @workgroup_size(256)
fn update(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = gid.x + gid.y * groups.x * 256u;
  if (i >= u32(u.y)) { return; }
  var v = velocity[i];
  var p = position[i];
  v = vec4f(v.xyz + vec3f(0.0, -9.8, 0.0) * u.x, v.w);
  p = vec4f(p.xyz + v.xyz * u.x, p.w + u.x);
  velocity[i] = v;
  position[i] = p;
}`,
});
const pipeline = device.createComputePipeline({
  layout: 'auto',
  compute: { module: shader, entryPoint: 'update' },
});

// the benchmark's target comes first there
device.createTexture({
  size: [1280, 720],
  format: 'rgba8unorm',
  usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
});

interface System {
  group: GPUBindGroup;
  accum: GPUBuffer | null;
}
// Ignis's order for each system (logged from bench/deno/particles.ts): uniforms, position,
// velocity, draw parameters, the splat's accumulation, its overflow bits
const systems: System[] = [];
for (let s = 0; s < SYSTEMS; s++) {
  const uniforms = device.createBuffer({ size: 4096, usage: S.UNIFORM | S.COPY_DST });
  const stateUsage = S.STORAGE | S.VERTEX | S.COPY_DST | S.COPY_SRC;
  const position = device.createBuffer({ size: stateBytes(COUNT), usage: stateUsage });
  const velocity = device.createBuffer({ size: stateBytes(COUNT), usage: stateUsage });
  device.createBuffer({ size: 8192, usage: S.UNIFORM | S.COPY_DST });
  const accum =
    accumPixels > 0
      ? device.createBuffer({ size: accumPixels * 16, usage: S.STORAGE | S.COPY_DST })
      : null;
  if (accumPixels > 0)
    device.createBuffer({ size: Math.ceil(accumPixels / 32) * 4, usage: S.STORAGE });
  // a state written from the CPU, as Ignis's emission first fills it
  const fill = new Float32Array(Math.min(COUNT, 1 << 20) * 4).fill(0.5);
  for (let at = 0; at < COUNT * 16; at += fill.byteLength) {
    const bytes = Math.min(fill.byteLength, COUNT * 16 - at);
    device.queue.writeBuffer(position, at, fill, 0, bytes / 4);
    device.queue.writeBuffer(velocity, at, fill, 0, bytes / 4);
  }
  device.queue.writeBuffer(uniforms, 0, new Float32Array([1 / 60, COUNT, 0, 0]));
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: position, size: COUNT * 16 } },
      { binding: 1, resource: { buffer: velocity, size: COUNT * 16 } },
      { binding: 2, resource: { buffer: uniforms, size: 16 } },
    ],
  });
  systems.push({ group, accum });
}

const clocks = new ClockProbe(
  await lib.createDevice({ backend: 'webgpu', gpuDevice: device }),
  lib.BufferUsage,
);
await device.queue.onSubmittedWorkDone();
if (IDLE > 0) await new Promise((done) => setTimeout(done, IDLE * 1000));
if (WARM) await clocks.warm();
const before = await clocks.time();

const groups = Math.ceil(COUNT / 256);
const gx = Math.min(groups, 65535);
const gy = Math.ceil(groups / gx);
const queries = device.createQuerySet({ type: 'timestamp', count: 2 * SYSTEMS });
const resolve = device.createBuffer({
  size: 16 * SYSTEMS,
  usage: S.QUERY_RESOLVE | S.COPY_SRC,
});
const read = device.createBuffer({ size: 16 * SYSTEMS, usage: S.MAP_READ | S.COPY_DST });
const ms: number[][] = systems.map(() => []);
for (let frame = 0; frame < FRAMES + 5; frame++) {
  const enc = device.createCommandEncoder();
  // systems take turns: the first of each frame alternates
  for (let k = 0; k < SYSTEMS; k++) {
    const s = (k + frame) % SYSTEMS;
    const system = systems[s] as System;
    if (CLEAR && system.accum) enc.clearBuffer(system.accum);
    const pass = enc.beginComputePass({
      timestampWrites: {
        querySet: queries,
        beginningOfPassWriteIndex: 2 * s,
        endOfPassWriteIndex: 2 * s + 1,
      },
    });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, system.group);
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
  }
  enc.resolveQuerySet(queries, 0, 2 * SYSTEMS, resolve, 0);
  enc.copyBufferToBuffer(resolve, 0, read, 0, 16 * SYSTEMS);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const t = new BigUint64Array(read.getMappedRange().slice(0));
  read.unmap();
  if (frame < 5) continue; // warm-up
  for (let s = 0; s < SYSTEMS; s++)
    (ms[s] as number[]).push(Number((t[2 * s + 1] as bigint) - (t[2 * s] as bigint)) / 1e6);
}
const after = await clocks.time();
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const info = adapter.info;
const line = ms.map((v, s) => {
  const m = median(v);
  return `system ${s + 1}: ${m.toFixed(4)} ms ${((COUNT * 64) / m / 1e6).toFixed(0)} GB/s`;
});
console.log(
  `${info.vendor} ${info.architecture} ${info.description}`.trim(),
  `| count ${COUNT} systems ${SYSTEMS} accum ${ACCUM} pad ${PAD} clear ${CLEAR ? 1 : 0}`,
  `idle ${IDLE} warm ${WARM ? 1 : 0} | state buffer ${stateBytes(COUNT)} B |`,
  line.join(', '),
  `| clock probe ${(before * 1e3).toFixed(1)} → ${(after * 1e3).toFixed(1)} µs`,
);
device.destroy();
