/**
 * Draws of the living only: after each update, the slots of the living particles in slot order
 * and the arguments of the draws that cover exactly them, by a prefix-sum compaction on the GPU
 * (shaders/particles/living.wgsl: four dispatches, threads looping over chunks of 64 slots, one
 * workgroup scan — software rasterisers run barriers slowly). The raster draws read particle `living[i]` and take their counts
 * from `args` with `drawIndirect`; the splat dispatches one thread per living particle with
 * `dispatchIndirect`. So a system of 1M slots with 10k alive draws 10k, and the CPU never waits
 * for the count: it stays on the GPU (`read()` fetches it through the readback pool, for tools).
 *
 * WebGPU only, with the state in storage buffers (the compute path, and the CPU path there):
 * WebGL2 has neither compute nor indirect draws, and culls the dead in the vertex stage. The
 * order is the slots', so a draw of the living list gives the pixels of a draw of every slot.
 */
import { BufferUsage } from '../rhi/core/flags.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Device } from '../rhi/core/device.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import livingWgsl from '../../shaders/particles/living.wgsl?raw';

/** Slots per chunk, and chunks per group, of the scan (living.wgsl). */
const CHUNK = 64;
/** Most workgroups along one dimension (WebGPU's default maxComputeWorkgroupsPerDimension). */
const MAX_GROUPS = 65535;

type Entry = 'countChunks' | 'scanChunks' | 'scanGroups' | 'scatter';

/** Byte offsets in `args` of the instanced draw, the pulled draw and the splat's dispatch. */
export const LIVING_ARGS = { instanced: 0, pulled: 16, splat: 32 } as const;

/** Whether `device` can draw the living list of a state kept in `state`. */
export function canCompact(device: Device, state: 'buffers' | 'textures'): boolean {
  return device.caps.features.compute && device.caps.features.indirect && state === 'buffers';
}

export class LivingList {
  readonly count: number;
  /** `living[i]`: the slot of the i-th living particle (u32, slot order). */
  readonly living: Buffer;
  /** The indirect arguments (LIVING_ARGS): counts the GPU wrote. */
  readonly args: Buffer;
  /** The number of living particles (u32 at byte 0). */
  readonly total: Buffer;
  /** The step the list was made after; -1 while the state it would describe is newer (a seed). */
  step = -1;
  readonly #chunkOffsets: Buffer;
  readonly #groupOffsets: Buffer;
  readonly #params: Buffer;
  readonly #module: ShaderModule;
  readonly #pipelines: Record<Entry, ComputePipeline>;
  /** The pass's four dispatches in order, made once (a frame allocates nothing for them). */
  readonly #dispatches: ReadonlyArray<{ pipeline: ComputePipeline; x: number; y: number }>;
  readonly #stopRestore: () => void;

  constructor(device: Device, count: number) {
    this.count = count;
    const chunks = Math.ceil(count / CHUNK);
    const groups = Math.ceil(chunks / CHUNK);
    const workgroups = Math.ceil(chunks / 64);
    const groupsX = Math.min(workgroups, MAX_GROUPS);
    // the 2-D grid of workgroups over the chunks
    const grid = { x: groupsX, y: Math.ceil(workgroups / groupsX) };
    this.living = device.createBuffer({
      label: 'particles living list',
      size: 4 * count,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
    });
    this.args = device.createBuffer({
      label: 'particles living args',
      size: 48,
      usage: BufferUsage.STORAGE | BufferUsage.INDIRECT,
    });
    this.total = device.createBuffer({
      label: 'particles living count',
      size: 16,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
    });
    this.#chunkOffsets = device.createBuffer({
      label: 'particles living chunk offsets',
      size: 4 * chunks,
      usage: BufferUsage.STORAGE,
    });
    this.#groupOffsets = device.createBuffer({
      label: 'particles living group offsets',
      size: 4 * groups,
      usage: BufferUsage.STORAGE,
    });
    this.#params = device.createBuffer({
      label: 'particles living params',
      size: 16,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    const params = new Uint32Array([count, chunks, groups, groupsX]);
    device.queue.writeBuffer(this.#params, 0, params);
    // after device.restore() buffers come back zeroed: the parameters again, the list stale
    this.#stopRestore = device.onRestored(() => {
      device.queue.writeBuffer(this.#params, 0, params);
      this.step = -1;
    });
    this.#module = device.createShaderModule({ label: 'living.wgsl', code: livingWgsl });
    const pipeline = (entryPoint: Entry): ComputePipeline =>
      device.createComputePipeline({
        label: `particles living ${entryPoint}`,
        compute: { module: this.#module, entryPoint },
      });
    this.#pipelines = {
      countChunks: pipeline('countChunks'),
      scanChunks: pipeline('scanChunks'),
      scanGroups: pipeline('scanGroups'),
      scatter: pipeline('scatter'),
    };
    const p = this.#pipelines;
    this.#dispatches = [
      { pipeline: p.countChunks, ...grid },
      { pipeline: p.scanChunks, x: Math.ceil(groups / 64), y: 1 },
      { pipeline: p.scanGroups, x: 1, y: 1 },
      { pipeline: p.scatter, ...grid },
    ];
  }

  /** GPU bytes per particle slot: the list (4) and the chunks' and groups' offsets (4 per 64, per 4096). */
  get bytesPerParticle(): number {
    return 4 + 4 / CHUNK + 4 / (CHUNK * CHUNK);
  }

  /** Records the compaction of `velocities` (the state after step `step`) and the barriers after it. */
  record(
    encoder: CommandEncoder,
    velocities: Buffer,
    step: number,
    timestampWrites?: PassTimestampWrites,
  ): void {
    encoder.barrier({ from: 'compute-write', to: 'compute-read', resources: [velocities] });
    // the last frame's draws read the list and the arguments this pass writes again
    encoder.barrier({
      from: 'vertex-read',
      to: 'compute-write',
      resources: [this.living, this.args],
    });
    const pass = encoder.beginComputePass({ label: 'particles living list', timestampWrites });
    // (dispatches of one pass see each other's storage writes)
    for (const d of this.#dispatches) {
      pass.setPipeline(d.pipeline);
      this.#bind(pass, velocities);
      pass.dispatch(d.x, d.y);
    }
    pass.end();
    encoder.barrier({ from: 'compute-write', to: 'vertex-read', resources: [this.living] });
    encoder.barrier({ from: 'compute-write', to: 'indirect-read', resources: [this.args] });
    this.step = step;
  }

  #bind(pass: ReturnType<CommandEncoder['beginComputePass']>, velocities: Buffer): void {
    pass.setUniformBuffer(0, this.#params);
    pass.setStorageBuffer(1, velocities, { access: 'read' });
    pass.setStorageBuffer(2, this.#chunkOffsets, { access: 'read-write' });
    pass.setStorageBuffer(3, this.#groupOffsets, { access: 'read-write' });
    pass.setStorageBuffer(4, this.living, { access: 'read-write' });
    pass.setStorageBuffer(5, this.args, { access: 'read-write' });
    pass.setStorageBuffer(6, this.total, { access: 'read-write' });
  }

  /** The number of living particles after the last `record` (4 bytes through the readback pool). */
  async readCount(): Promise<number> {
    return new Uint32Array(await this.total.read(0, 4))[0] as number;
  }

  /** The living slots after the last `record`, in order (for tests and tools). */
  async read(): Promise<Uint32Array> {
    const n = await this.readCount();
    return n === 0 ? new Uint32Array(0) : new Uint32Array(await this.living.read(0, 4 * n));
  }

  destroy(): void {
    this.#stopRestore();
    for (const p of Object.values(this.#pipelines)) p.destroy();
    this.#module.destroy();
    for (const b of [
      this.living,
      this.args,
      this.total,
      this.#chunkOffsets,
      this.#groupOffsets,
      this.#params,
    ])
      b.destroy();
  }
}
