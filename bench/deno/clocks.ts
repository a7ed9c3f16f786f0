// The GPU's clock, seen from WebGPU. A data-centre GPU left to its own governor runs its cores at
// whatever clock its recent load asked for: an H100 under Deno sat at 345 MHz through frames that
// kept it 13–50% busy, and at 1,980 MHz for a few seconds after a device was made or after a
// sustained load (nvidia-smi, bench/results/deno-h100-clocks/). Timings taken in the two states
// differ by up to 2.5× for the same kernel, so the benchmark brings the clock up before it times
// (`warm`) and reports the state each row was timed in (`probe`). The probe is a chain of
// dependent multiply-adds whose time follows the cores' clock and nothing else (no memory
// traffic), so its time against the fastest it has run in this process is the clock's share of
// its top: 1.00 at the top clock, ~0.2 at the idle one.
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

/** Threads of the probe: enough to fill every core of the largest GPUs several times over. */
const THREADS = 256 * 1024;

export class ClockProbe {
  readonly #gpu: GPUDevice;
  readonly #pipeline: GPUComputePipeline;
  readonly #probeGroup: GPUBindGroup;
  readonly #loadGroup: GPUBindGroup;
  readonly #queries: GPUQuerySet;
  readonly #resolve: GPUBuffer;
  readonly #read: GPUBuffer;
  #fastest = Infinity;
  /** Whether `warm()` has run its full course once (the fastest probe is then the top's). */
  #warmed = false;

  constructor(gpu: GPUDevice) {
    this.#gpu = gpu;
    const module = gpu.createShaderModule({ label: 'clock probe', code: WGSL });
    this.#pipeline = gpu.createComputePipeline({
      label: 'clock probe',
      layout: 'auto',
      compute: { module, entryPoint: 'spin' },
    });
    const sink = gpu.createBuffer({ size: THREADS * 4, usage: GPUBufferUsage.STORAGE });
    const group = (iterations: number): GPUBindGroup => {
      const params = gpu.createBuffer({
        size: 16,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      const data = new ArrayBuffer(16);
      new Float32Array(data, 0, 1)[0] = 0.999;
      new Uint32Array(data, 4, 1)[0] = iterations;
      gpu.queue.writeBuffer(params, 0, data);
      return gpu.createBindGroup({
        layout: this.#pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: params } },
          { binding: 1, resource: { buffer: sink } },
        ],
      });
    };
    // the probe: ~0.44 ms at an H100's top clock, ~2.5 ms at its idle one; a load dispatch is
    // sixteen of it
    this.#probeGroup = group(4096);
    this.#loadGroup = group(65536);
    this.#queries = gpu.createQuerySet({ type: 'timestamp', count: 2 });
    this.#resolve = gpu.createBuffer({
      size: 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    this.#read = gpu.createBuffer({
      size: 16,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  /** GPU ms of one probe dispatch now. */
  async time(): Promise<number> {
    const enc = this.#gpu.createCommandEncoder({ label: 'clock probe' });
    const pass = enc.beginComputePass({
      timestampWrites: {
        querySet: this.#queries,
        beginningOfPassWriteIndex: 0,
        endOfPassWriteIndex: 1,
      },
    });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#probeGroup);
    pass.dispatchWorkgroups(THREADS / 256);
    pass.end();
    enc.resolveQuerySet(this.#queries, 0, 2, this.#resolve, 0);
    enc.copyBufferToBuffer(this.#resolve, 0, this.#read, 0, 16);
    this.#gpu.queue.submit([enc.finish()]);
    await this.#read.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.#read.getMappedRange().slice(0));
    this.#read.unmap();
    const ms = Number((t[1] as bigint) - (t[0] as bigint)) / 1e6;
    if (ms > 0 && ms < this.#fastest) this.#fastest = ms;
    return ms;
  }

  /**
   * The clock now as a share of the top this process has seen (1 at the top): the fastest probe
   * so far divided by this one. Only as good as the top seen: `warm()` first.
   */
  async probe(): Promise<number> {
    const ms = await this.time();
    return this.#fastest / ms;
  }

  /**
   * Keeps the GPU busy until its clock is at the top: submissions of the load kernel, ~200 ms of
   * work each at the clock of the last probe (a governor raises the clock only under a load that
   * leaves it few idle gaps), for at least `minMs` the first time — an idle clock's probes agree
   * with each other as well as the top's do — and then until three probes in a row are within 3%
   * of the fastest, or `limitMs` has passed. Later calls return at once when the first probe is
   * at the top already. Returns the last probe's share of the top.
   */
  async warm(limitMs = 10_000, minMs = 3000): Promise<number> {
    const start = performance.now();
    let ms = await this.time();
    let share = this.#fastest / ms;
    if (this.#warmed && share > 0.97) return share;
    let settled = 0;
    while (performance.now() - start < limitMs) {
      // a load dispatch is sixteen probes
      const dispatches = Math.max(1, Math.min(400, Math.round(200 / (16 * ms))));
      const enc = this.#gpu.createCommandEncoder({ label: 'clock load' });
      const pass = enc.beginComputePass();
      pass.setPipeline(this.#pipeline);
      pass.setBindGroup(0, this.#loadGroup);
      for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(THREADS / 256);
      pass.end();
      this.#gpu.queue.submit([enc.finish()]);
      ms = await this.time();
      share = this.#fastest / ms;
      const loaded = this.#warmed || performance.now() - start >= minMs;
      settled = loaded && share > 0.97 ? settled + 1 : 0;
      if (settled >= 3) break;
    }
    this.#warmed = true;
    return share;
  }

  destroy(): void {
    this.#queries.destroy();
    this.#resolve.destroy();
    this.#read.destroy();
  }
}
