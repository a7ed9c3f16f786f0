// The GPU's clock, seen through WebGPU. A GPU left to its own governor runs its cores at whatever
// clock its recent load asked for: an H100 under Deno sat at its idle 345 MHz through benchmark
// frames that kept it 13–50% busy, and at its top 1,980 MHz for a few seconds after a device was
// made or under a sustained load (nvidia-smi beside it: bench/results/deno-h100-clocks/). The same
// kernel timed in the two states differs by up to 2.5×, so a benchmark that waits between frames
// brings the clock up before it times (`warm`) and says the state it timed in (`check`).
//
// The probe is one workgroup running a chain of 65,536 dependent multiply-adds: its time follows
// the cores' clock and nothing else (no memory traffic, and a chain's latency does not depend on
// how full the GPU is), so its time against the fastest it has run on this device is the clock's
// share of its top (1 at the top; 345 / 1,980 = 0.17 on an idle H100). The load that raises the
// clock is the same chain on up to a quarter of a million threads. Ignis's own compute pass runs both,
// on a WebGPU device with timestamp queries.
//
// No value imports (this file is loaded by the scene kit and by the Deno benchmarks, which bring
// the library in their own ways): the buffer usage flags come in with the device.
import type { Buffer, ComputePipeline, Device, QuerySet } from 'ignis-rhi';

const WGSL = /* wgsl */ `
struct Params { scale: f32, iterations: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> sink: array<f32>;

@compute @workgroup_size(256)
fn spin(@builtin(global_invocation_id) gid: vec3u) {
  var x = f32(gid.x) * 1e-7;
  for (var i = 0u; i < params.iterations; i++) { x = fma(x, params.scale, 1e-3); }
  sink[gid.x] = x;
}`;

/** Workgroups of 256 threads in a load dispatch at most (the probe is one workgroup). */
const LOAD_GROUPS = 1024;
/** The chain's length (a thread's dependent multiply-adds): ~0.13 ms at an H100's top clock. */
const ITERATIONS = 65_536;
/** Shares of the top at or above this count as the top (the probe's own spread is ~1%). */
export const TOP_SHARE = 0.97;

/** Ignis's buffer usage flags the probe needs (`BufferUsage` of the library the caller loaded). */
export interface ProbeUsage {
  readonly UNIFORM: number;
  readonly STORAGE: number;
  readonly COPY_DST: number;
}

/**
 * Whether a device's clock can and should be guarded: WebGPU with timestamp queries, on an adapter
 * that is not a software rasteriser (whose "clock" is the CPU's, and on which one probe takes
 * seconds). A string says why not.
 */
export function clockGuardFits(device: Device): true | string {
  if (device.caps.backend !== 'webgpu') return `${device.caps.backend} has no compute`;
  if (!device.caps.features.timestampQuery) return 'no timestamp queries';
  const a = device.caps.adapter;
  if (
    a.isFallbackAdapter ||
    /swiftshader|llvmpipe|lavapipe|softpipe|software/i.test(
      `${a.vendor} ${a.architecture} ${a.description}`,
    )
  )
    return 'a software adapter';
  return true;
}

/**
 * The probe a `--clocks` mode asks for on `device`, or why there is none: `off` (or no mode) none;
 * `auto` where `clockGuardFits`; `on` on a software adapter too (slowly: it loads the CPU), and
 * never where the device cannot run it (no compute, no timestamps). `note`: why not guarded.
 */
export function clockGuard(
  mode: 'on' | 'off' | 'auto' | undefined,
  device: Device,
  usage: ProbeUsage,
): { probe: ClockProbe | null; note?: string } {
  if (mode === undefined || mode === 'off') return { probe: null, note: '--clocks off' };
  const fits = clockGuardFits(device);
  if (fits === true || (mode === 'on' && fits === 'a software adapter'))
    return { probe: new ClockProbe(device, usage) };
  return { probe: null, note: fits };
}

export class ClockProbe {
  readonly #device: Device;
  readonly #pipeline: ComputePipeline;
  readonly #params: Buffer;
  readonly #sink: Buffer;
  readonly #queries: QuerySet;
  #fastest = Infinity;
  /** Whether `warm()` has run its full course once (the fastest probe is then the top's). */
  #warmed = false;

  /** `iterations`: the chain's length (tests shorten it; the default suits a real GPU). */
  constructor(device: Device, usage: ProbeUsage, { iterations = ITERATIONS } = {}) {
    this.#device = device;
    const module = device.createShaderModule({ label: 'clock probe', code: WGSL });
    this.#pipeline = device.createComputePipeline({
      label: 'clock probe',
      compute: { module, entryPoint: 'spin' },
    });
    this.#params = device.createBuffer({
      label: 'clock probe: params',
      size: 16,
      usage: usage.UNIFORM | usage.COPY_DST,
    });
    const data = new ArrayBuffer(16);
    // (from the uniform, so the compiler cannot fold the chain)
    new Float32Array(data, 0, 1)[0] = 0.999;
    new Uint32Array(data, 4, 1)[0] = iterations;
    device.queue.writeBuffer(this.#params, 0, data);
    this.#sink = device.createBuffer({
      label: 'clock probe: sink',
      size: LOAD_GROUPS * 256 * 4,
      usage: usage.STORAGE,
    });
    this.#queries = device.createQuerySet({ label: 'clock probe', type: 'timestamp', count: 2 });
  }

  /** GPU ms of one probe now. */
  async time(): Promise<number> {
    const enc = this.#device.createCommandEncoder({ label: 'clock probe' });
    const pass = enc.beginComputePass({
      label: 'clock probe',
      timestampWrites: {
        querySet: this.#queries,
        beginningOfPassWriteIndex: 0,
        endOfPassWriteIndex: 1,
      },
    });
    pass.setPipeline(this.#pipeline);
    pass.setUniformBuffer(0, this.#params);
    pass.setStorageBuffer(1, this.#sink);
    pass.dispatch(1);
    pass.end();
    this.#device.queue.submit([enc.finish()]);
    const t = await this.#queries.readTimestamps();
    const ms = ((t[1] as number) - (t[0] as number)) / 1e6;
    if (!(ms > 0))
      throw new Error(`clock probe: the GPU wrote no usable timestamps (${t[0]}, ${t[1]})`);
    if (ms < this.#fastest) this.#fastest = ms;
    return ms;
  }

  /**
   * The clock now as a share of the top (1 at the top): the fastest probe on this device so far
   * divided by this one. Only as good as the top seen: `warm()` first.
   */
  async check(): Promise<number> {
    const ms = await this.time();
    return this.#fastest / ms;
  }

  /**
   * Keeps the GPU busy until its clock is at the top: submissions of the load, ~200 ms each (a
   * governor raises the clock only under a load that leaves it few idle gaps), for at least
   * `minMs` the first time — an idle clock's probes agree with each other as well as the top's do
   * — and then until three probes in a row are within 3% of the fastest, or `limitMs` has passed.
   * The load is sized by how long the last submission took with its probe: its dispatches grow
   * four times wider up to 1,024 workgroups (the width of a large GPU) while a submission takes
   * under 50 ms, then more of them fill the 200 ms — so a software adapter, a thousand times
   * slower, is loaded for as long as a real GPU. Later calls return at once when the first probe
   * is at the top already. Returns the last probe's share of the top.
   */
  async warm(limitMs = 10_000, minMs = 3000): Promise<number> {
    const start = performance.now();
    let share = await this.check();
    if (this.#warmed && share >= TOP_SHARE) return share;
    let settled = 0;
    let groups = 1;
    let dispatches = 1;
    while (performance.now() - start < limitMs) {
      const t0 = performance.now();
      const enc = this.#device.createCommandEncoder({ label: 'clock load' });
      const pass = enc.beginComputePass({ label: 'clock load' });
      pass.setPipeline(this.#pipeline);
      pass.setUniformBuffer(0, this.#params);
      pass.setStorageBuffer(1, this.#sink);
      for (let i = 0; i < dispatches; i++) pass.dispatch(groups);
      pass.end();
      this.#device.queue.submit([enc.finish()]);
      share = await this.check();
      const took = performance.now() - t0;
      if (took < 50 && groups < LOAD_GROUPS) groups = Math.min(LOAD_GROUPS, groups * 4);
      else
        dispatches = Math.max(
          1,
          Math.min(4096, Math.round((dispatches * 200) / Math.max(took, 1))),
        );
      const loaded = this.#warmed || performance.now() - start >= minMs;
      settled = loaded && share >= TOP_SHARE ? settled + 1 : 0;
      if (settled >= 3) break;
    }
    this.#warmed = true;
    return share;
  }

  destroy(): void {
    this.#params.destroy();
    this.#sink.destroy();
    this.#queries.destroy();
  }
}
