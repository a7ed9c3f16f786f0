/**
 * Draws of the living only: after each update, the slots of the living particles in slot order
 * (a prefix-sum compaction on the GPU, shaders/particles/living.wgsl) and the arguments of the
 * draws that cover exactly them. The raster draws read particle `living[i]` and take their counts
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
import livingWgsl from '../../shaders/particles/living.wgsl?raw';

/** Slots per block of the scan (the workgroup size of living.wgsl). */
const BLOCK = 256;
/** Most workgroups along one dimension (WebGPU's default maxComputeWorkgroupsPerDimension). */
const MAX_GROUPS = 65535;

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
  readonly #blocks: Buffer;
  readonly #params: Buffer;
  readonly #module: ShaderModule;
  readonly #pipelines: Record<'countBlocks' | 'scanBlocks' | 'scatter', ComputePipeline>;
  readonly #grid: [number, number];
  readonly #stopRestore: () => void;

  constructor(device: Device, count: number) {
    this.count = count;
    const blocks = Math.ceil(count / BLOCK);
    const groupsX = Math.min(blocks, MAX_GROUPS);
    this.#grid = [groupsX, Math.ceil(blocks / groupsX)];
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
    this.#blocks = device.createBuffer({
      label: 'particles living block offsets',
      size: 4 * blocks,
      usage: BufferUsage.STORAGE,
    });
    this.#params = device.createBuffer({
      label: 'particles living params',
      size: 16,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    const params = new Uint32Array([count, blocks, groupsX, 0]);
    device.queue.writeBuffer(this.#params, 0, params);
    // after device.restore() buffers come back zeroed: the parameters again, the list stale
    this.#stopRestore = device.onRestored(() => {
      device.queue.writeBuffer(this.#params, 0, params);
      this.step = -1;
    });
    this.#module = device.createShaderModule({ label: 'living.wgsl', code: livingWgsl });
    const pipeline = (entryPoint: 'countBlocks' | 'scanBlocks' | 'scatter'): ComputePipeline =>
      device.createComputePipeline({
        label: `particles living ${entryPoint}`,
        compute: { module: this.#module, entryPoint },
      });
    this.#pipelines = {
      countBlocks: pipeline('countBlocks'),
      scanBlocks: pipeline('scanBlocks'),
      scatter: pipeline('scatter'),
    };
  }

  /** GPU bytes per particle slot: the list (4) and the blocks' offsets (4 per 256). */
  get bytesPerParticle(): number {
    return 4 + 4 / BLOCK;
  }

  /** Records the compaction of `velocities` (the state after step `step`) and the barriers after it. */
  record(encoder: CommandEncoder, velocities: Buffer, step: number): void {
    encoder.barrier({ from: 'compute-write', to: 'compute-read', resources: [velocities] });
    // the last frame's draws read the list and the arguments this pass writes again
    encoder.barrier({
      from: 'vertex-read',
      to: 'compute-write',
      resources: [this.living, this.args],
    });
    const pass = encoder.beginComputePass({ label: 'particles living list' });
    const [x, y] = this.#grid;
    pass.setPipeline(this.#pipelines.countBlocks);
    this.#bind(pass, velocities);
    pass.dispatch(x, y);
    // (dispatches of one pass see each other's storage writes)
    pass.setPipeline(this.#pipelines.scanBlocks);
    this.#bind(pass, velocities);
    pass.dispatch(1);
    pass.setPipeline(this.#pipelines.scatter);
    this.#bind(pass, velocities);
    pass.dispatch(x, y);
    pass.end();
    encoder.barrier({ from: 'compute-write', to: 'vertex-read', resources: [this.living] });
    encoder.barrier({ from: 'compute-write', to: 'indirect-read', resources: [this.args] });
    this.step = step;
  }

  #bind(pass: ReturnType<CommandEncoder['beginComputePass']>, velocities: Buffer): void {
    pass.setUniformBuffer(0, this.#params);
    pass.setStorageBuffer(1, velocities, { access: 'read' });
    pass.setStorageBuffer(2, this.#blocks, { access: 'read-write' });
    pass.setStorageBuffer(3, this.living, { access: 'read-write' });
    pass.setStorageBuffer(4, this.args, { access: 'read-write' });
    pass.setStorageBuffer(5, this.total, { access: 'read-write' });
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
    for (const b of [this.living, this.args, this.total, this.#blocks, this.#params]) b.destroy();
  }
}
