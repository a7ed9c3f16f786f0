// Portable compute in the browser: one WGSL source on WebGPU compute, the WebGL2 ping-pong and the
// CPU path. Integer kernels must agree bit for bit; the flock within the tolerances stated below.
import { defineCases, type CaseContext } from '../page/case.js';
import { assert } from '../page/assert.js';
import { BufferUsage, createParticleSystem, type Buffer, type Device } from '../../../src/all.js';
import { createPortableCompute } from '../../../src/compute/portable/index.js';
import type { PathName } from '../../../src/compute/index.js';
import { WgslExec, WgslParser } from 'wgsl_reflect/wgsl_reflect.module.js';
import {
  DEFAULT_RULES,
  PortableFlock,
  flockWgsl,
  initialFlock,
  rulesBytes,
} from '../../../demos/boids-portable/flock.js';
import {
  HASH,
  INFERRED,
  INFERRED_SPELLED,
  NINE_OUTPUTS,
  PCG,
  SHIFT_BEHAVIOR,
  SWIRL_BEHAVIOR,
  wrapStorageArrays,
} from '../page/portable-kernels.js';

/** The three paths: WebGPU compute, WebGL2 ping-pong, and the CPU (on WebGL2, with host copies). */
async function devices(ctx: CaseContext): Promise<Array<{ path: PathName; device: Device }>> {
  return [
    { path: 'compute', device: await ctx.open('webgpu') },
    { path: 'pingpong', device: await ctx.open('webgl2') },
    { path: 'cpu', device: await ctx.open('webgl2', { hostShadows: true }) },
  ];
}

function buffer(
  device: Device,
  data: ArrayBufferView,
  usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
): Buffer {
  const b = device.createBuffer({
    size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
    usage,
  });
  device.queue.writeBuffer(b, 0, data);
  return b;
}

/** `ours` has the bits of `expected`, which is not all zeros (`wrote` says what that proves). */
function assertSameBits(
  path: PathName,
  expected: Uint32Array,
  ours: Uint32Array,
  wrote: string,
): void {
  let differ = 0;
  for (let i = 0; i < expected.length; i++) if (expected[i] !== ours[i]) differ++;
  assert(differ === 0, `${path}: ${differ} of ${expected.length} words differ`);
  assert(
    expected.some((w) => w !== 0),
    `${path}: ${wrote}`,
  );
}

/** One step of the flock from `code` (the demo's WGSL, or a variant of it) on `path`: its words. */
async function flockStep(code: string, path: PathName, device: Device): Promise<Uint32Array> {
  const count = 200;
  const buffers = {
    rules: buffer(
      device,
      new Uint8Array(rulesBytes(DEFAULT_RULES, count)),
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    ),
    flockIn: buffer(device, initialFlock(count)),
    flockOut: buffer(device, new Float32Array(4 * count)),
  };
  const pc = createPortableCompute(device, { code, count, buffers, path });
  assert(pc.path === path, `${path}: took ${pc.path} (${pc.reason})`);
  const enc = device.createCommandEncoder();
  pc.dispatch(enc);
  device.queue.submit([enc.finish()]);
  return new Uint32Array(await buffers.flockOut.read());
}

async function runHash(path: PathName, device: Device): Promise<Uint32Array> {
  const count = 300; // more than one 256-texel row of the ping-pong textures
  const dst = new Uint32Array(6 * count).fill(0xffffffff); // NaN bits: must survive the float textures
  const buffers = {
    seed: buffer(
      device,
      new Uint32Array([0x9e3779b9, 123456, 0, 0]),
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    ),
    src: buffer(
      device,
      Uint32Array.from({ length: 12 }, (_, i) => Math.imul(i, 2654435761) >>> 0),
    ),
    dst: buffer(device, dst),
  };
  const pc = createPortableCompute(device, { code: HASH, count, buffers, path });
  assert(pc.path === path, `${path}: took ${pc.path} (${pc.reason})`);
  const o = buffer(device, new Uint32Array(count));
  const pcg = createPortableCompute(device, { code: PCG, count, buffers: { o }, path });
  const enc = device.createCommandEncoder();
  pc.dispatch(enc);
  pcg.dispatch(enc);
  device.queue.submit([enc.finish()]);
  const a = new Uint32Array(await buffers.dst.read());
  const b = new Uint32Array(await o.read());
  const out = new Uint32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

async function runFlock(
  path: PathName,
  device: Device,
  checkpoints: number[],
): Promise<Float32Array[]> {
  const flock = new PortableFlock(device, 200, path);
  assert(flock.sim.path === path, `${path}: took ${flock.sim.path} (${flock.sim.reason})`);
  const out: Float32Array[] = [];
  let steps = 0;
  for (const c of checkpoints) {
    const enc = device.createCommandEncoder();
    while (steps < c) {
      flock.step(enc);
      steps++;
    }
    device.queue.submit([enc.finish()]);
    out.push(await flock.read());
  }
  return out;
}

async function runNine(
  path: PathName,
  device: Device,
): Promise<{ words: Uint32Array; reason: string }> {
  const count = 100;
  const buffers: Record<string, Buffer> = {
    src: buffer(
      device,
      Uint32Array.from({ length: 64 }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0),
    ),
  };
  for (let k = 0; k < 9; k++) buffers[`o${k}`] = buffer(device, new Uint32Array(count));
  const pc = createPortableCompute(device, { code: NINE_OUTPUTS, count, buffers, path });
  const enc = device.createCommandEncoder();
  pc.dispatch(enc);
  device.queue.submit([enc.finish()]);
  const words = new Uint32Array(9 * count);
  for (let k = 0; k < 9; k++)
    words.set(new Uint32Array(await (buffers[`o${k}`] as Buffer).read()), k * count);
  return { words, reason: pc.reason };
}

export const cases = defineCases({
  "a behaviour that reads other particles (reads: 'all') sees the state before the step, on every path":
    {
      cross: true,
      async run(ctx) {
        for (const { path, device } of await devices(ctx)) {
          const ps = await createParticleSystem(device, {
            count: 300,
            path,
            behavior: { code: SHIFT_BEHAVIOR, reads: 'all' },
          });
          const before = await ps.read();
          ps.step(1 / 60);
          ps.step(1 / 60);
          const after = await ps.read();
          let wrong = 0;
          for (let i = 0; i < 300; i++)
            for (let c = 0; c < 3; c++)
              if (after.position[4 * i + c] !== before.position[4 * ((i + 2) % 300) + c]) wrong++;
          assert(
            wrong === 0,
            `${path}: ${wrong} of 900 coordinates are not the particle two places on's`,
          );
          ps.destroy();
        }
      },
    },
  'a particle behaviour in WGSL agrees on compute, ping-pong and the CPU': {
    cross: true,
    async run(ctx) {
      const states: Array<{ path: PathName; position: Float32Array; velocity: Float32Array }> = [];
      for (const { path, device } of await devices(ctx)) {
        const ps = await createParticleSystem(device, {
          count: 2000,
          path,
          lifeMin: 0.3,
          lifeMax: 0.6,
          behavior: { code: SWIRL_BEHAVIOR, uniforms: { swirl: 3, lift: -0.25 } },
        });
        assert(ps.path === path, `${path}: took ${ps.path} (${ps.reason})`);
        for (let s = 0; s < 40; s++) ps.step(1 / 60);
        states.push({ path, ...(await ps.read()) });
        ps.destroy();
      }
      const cpu = states[2] as (typeof states)[number];
      // it swirled (x and z moved) and respawned (some ages are young again after 40 steps of 1/60 s)
      let young = 0;
      for (let i = 0; i < 2000; i++) if ((cpu.position[4 * i + 3] as number) < 0.3) young++;
      assert(young > 500, `particles respawned (${young} of 2000 younger than 0.3 s)`);
      // as the canonical rule against its reference (tests/gpu/cases/particles.ts): float32 on every
      // path, but the GPU's cos/sin (the cone's respawn direction) and fused multiply-adds differ
      // from JavaScript's in the last bits, so 1e-3 · max(1, |value|) per component, and under 1% of
      // particles beyond it (a particle whose age crosses its life a step apart respawns elsewhere)
      for (const st of states) {
        let diverged = 0;
        for (let p = 0; p < 2000; p++)
          for (let c = 0; c < 4; c++) {
            const i = 4 * p + c;
            const close = (a: number, b: number): boolean =>
              Math.abs(a - b) <= 1e-3 * Math.max(1, Math.abs(b));
            if (
              !close(st.position[i]!, cpu.position[i]!) ||
              !close(st.velocity[i]!, cpu.velocity[i]!)
            ) {
              diverged++;
              break;
            }
          }
        assert(
          diverged < 20,
          `${st.path}: ${diverged} of 2000 particles differ from the CPU path by more than 1e-3`,
        );
      }
    },
  },
  'nine writable arrays: the ping-pong path splits into passes and agrees with the CPU': {
    cross: true,
    async run(ctx) {
      const gl = await ctx.open('webgl2');
      const max = gl.caps.limits.maxColorAttachments;
      assert(max < 9, `this test needs fewer than 9 colour attachments (the device has ${max})`);
      const pingpong = await runNine('pingpong', gl);
      assert(
        /2 passes per dispatch/.test(pingpong.reason),
        `the reason says so: ${pingpong.reason}`,
      );
      const cpu = await runNine('cpu', await ctx.open('webgl2', { hostShadows: true }));
      let differ = 0;
      for (let i = 0; i < cpu.words.length; i++) if (pingpong.words[i] !== cpu.words[i]) differ++;
      assert(differ === 0, `${differ} of ${cpu.words.length} words differ`);
      assert(
        cpu.words.every((w, i) => i % 100 === 0 || w !== 0),
        'every array was written',
      );
    },
  },
  'an integer-hash kernel gives the same bits on compute, ping-pong and the CPU': {
    cross: true,
    async run(ctx) {
      const runs = [];
      for (const { path, device } of await devices(ctx))
        runs.push({ path, words: await runHash(path, device) });
      const [cpu] = runs.slice(-1) as [{ path: PathName; words: Uint32Array }];
      let changed = 0;
      for (const w of cpu.words) if (w !== 0xffffffff && w !== 0) changed++;
      assert(
        changed > cpu.words.length / 2,
        `the kernels wrote (${changed} of ${cpu.words.length} words set)`,
      );
      for (const r of runs) {
        let differ = 0;
        let first = -1;
        for (let i = 0; i < cpu.words.length; i++)
          if (r.words[i] !== cpu.words[i]) {
            differ++;
            if (first < 0) first = i;
          }
        assert(
          differ === 0,
          `${r.path}: ${differ} words differ from the CPU path (first at ${first}: ${r.words[first]} vs ${cpu.words[first]})`,
        );
      }
    },
  },
  // Regression: `struct Particles { particles: array<Particle> }` bound as a storage buffer — how
  // most public WGSL declares its arrays — was refused ("a runtime-sized array inside a struct is
  // not portable"). The memory is the array's: every path must give the array-bound kernel's bits.
  'a flock whose storage is struct-wrapped arrays gives the bits of the array-bound flock on every path':
    {
      cross: true,
      async run(ctx) {
        const wrapped = wrapStorageArrays(flockWgsl);
        assert(/flockIn\.items\[/.test(wrapped), 'the variant indexes through the struct member');
        for (const { path, device } of await devices(ctx)) {
          const plain = await flockStep(flockWgsl, path, device);
          const ours = await flockStep(wrapped, path, device);
          assertSameBits(path, plain, ours, 'the step wrote the flock');
        }
      },
    },
  // Regression: `vec4(…)` without its element type — valid WGSL, common in public shaders — was
  // refused ("the type vec4 is not portable")
  'vector constructors without their element type give the bits of the spelled-out kernel on every path':
    {
      cross: true,
      async run(ctx) {
        const n = 300;
        const input = Float32Array.from({ length: 4 * n }, (_, i) => Math.sin(i * 1.7) * 3);
        for (const { path, device } of await devices(ctx)) {
          const run = async (code: string): Promise<Uint32Array> => {
            const buffers = {
              a: buffer(device, input),
              b: buffer(device, new Float32Array(4 * n)),
            };
            const pc = createPortableCompute(device, { code, count: n, buffers, path });
            assert(pc.path === path, `${path}: took ${pc.path} (${pc.reason})`);
            const enc = device.createCommandEncoder();
            pc.dispatch(enc);
            device.queue.submit([enc.finish()]);
            return new Uint32Array(await buffers.b.read());
          };
          const spelled = await run(INFERRED_SPELLED);
          const ours = await run(INFERRED);
          assertSameBits(path, spelled, ours, 'the kernel wrote its output');
        }
      },
    },
  'the portable flock agrees on compute, ping-pong and the CPU after 1, 10 and 100 steps': {
    cross: true,
    async run(ctx) {
      const checkpoints = [1, 10, 100];
      const runs = [];
      for (const { path, device } of await devices(ctx))
        runs.push({ path, states: await runFlock(path, device, checkpoints) });
      const cpu = runs[2] as { states: Float32Array[] };
      const start = initialFlock(200);
      // an independent oracle for the first step: wgsl_reflect's WGSL interpreter
      const oracle = new Float32Array(start.length);
      new WgslExec(
        new WgslParser().parse(flockWgsl.replace('@workgroup_size(64)', '@workgroup_size(1)')),
      ).dispatchWorkgroups('main', [200, 1, 1], {
        0: { 0: new Uint32Array(rulesBytes(DEFAULT_RULES, 200)), 1: start.slice(), 2: oracle },
      });
      for (const r of runs) {
        let max = 0;
        for (let i = 0; i < oracle.length; i++)
          max = Math.max(max, Math.abs((r.states[0] as Float32Array)[i]! - oracle[i]!));
        assert(
          max <= 1e-5,
          `${r.path} after 1 step: ${max.toExponential(2)} from the WGSL interpreter`,
        );
      }
      let moved = 0;
      for (let i = 0; i < start.length; i++)
        if (Math.abs((cpu.states[2] as Float32Array)[i]! - start[i]!) > 1e-3) moved++;
      assert(moved > start.length * 0.9, `the flock moved (${moved} of ${start.length} values)`);
      // The rule uses + − × ÷ and sqrt (length), which IEEE rounds exactly on SwiftShader and in
      // JavaScript's Math.fround: there the three paths give the same bits after 100 steps. A
      // hardware GPU may round ÷ and sqrt to within 2.5 ulp (the WGSL spec allows it), and the flock
      // is chaotic (a neighbour crossing the radius changes the sum), so: after 1 step ≤ 1e-5, after
      // 10 ≤ 1e-3, after 100 at most 5% of the values farther apart than 1e-2.
      for (const r of runs.slice(0, 2)) {
        checkpoints.forEach((c, k) => {
          const a = r.states[k] as Float32Array;
          const b = cpu.states[k] as Float32Array;
          let max = 0;
          let far = 0;
          for (let i = 0; i < b.length; i++) {
            const d = Math.abs(a[i]! - b[i]!);
            max = Math.max(max, d);
            if (d > 1e-2) far++;
          }
          const what = `${r.path} after ${c} steps: max difference ${max.toExponential(2)}, ${far} of ${b.length} values off by > 1e-2`;
          if (c === 1) assert(max <= 1e-5, what);
          else if (c === 10) assert(max <= 1e-3, what);
          else assert(far <= b.length * 0.05, what);
        });
      }
    },
  },
});
