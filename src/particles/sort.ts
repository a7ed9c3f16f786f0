/**
 * Back-to-front order for alpha-blended particles (`sort: true`), made every frame in
 * `ps.prepareDraw` from the camera it is given:
 *
 * 1. **Keys:** entry i = (view depth of slot i, slot, last), `last` set for dead slots and for the
 *    padding up to a power of two so they sort after the living (shaders/particles/sort-keys*);
 * 2. **Bitonic sort** of the entries, ascending by (last, depth, slot) — farthest first, as view depth
 *    is negative in front of the camera: log2(n)·(log2(n)+1)/2 compare-exchange steps. On the
 *    compute path a thread owns a pair and the steps at short distances run in workgroup memory
 *    (shaders/particles/sort-bitonic.wgsl: 78 dispatches for 2^20 entries, in one pass, from a
 *    uniform buffer of their (j, k) written once). On the fragment path (WebGL2, or WebGPU without
 *    compute) it is the classic fragment-pass bitonic sort over a float texture: each step one
 *    gather kernel (every entry reads its partner i ^ j and keeps the smaller or the larger) run
 *    by an ElementwiseRunner;
 * 3. the draw reads `slot = entries[i]` instead of `i` (draw.ts, `sorted`).
 *
 * The CPU path sorts its own arrays in JavaScript (the same keys, the same order) and uploads the
 * entries. The slot is stored in two 11-bit halves, exact in a half-float texture too; ties in
 * depth are broken by slot, so the order is one total order on every path.
 */
import { ValidationError } from '../rhi/core/errors.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { Device } from '../rhi/core/device.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import { ElementwiseRunner, type ElementwiseMode } from '../compute/elementwise.js';
import { UniformRing } from '../compute/uniform-ring.js';
import sortKeysWgsl from '../../shaders/particles/sort-keys.wgsl?raw';
import sortKeysTextureWgsl from '../../shaders/particles/sort-keys-texture.wgsl?raw';
import sortKeysGlsl from '../../shaders/particles/sort-keys.frag.glsl?raw';
import bitonicWgsl from '../../shaders/particles/sort-bitonic.wgsl?raw';
import sortLivingWgsl from '../../shaders/particles/sort-living.wgsl?raw';
import type { LivingList } from './living.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import { BufferUsage } from '../rhi/core/flags.js';
import { readBuffer } from '../compute/paths/state.js';
import { isSoftwareAdapter } from './draw-mode.js';

import {
  BLOCK,
  HALF,
  KEYS_BYTES,
  STEP_STRIDE,
  SORT_KERNEL,
  computeSortSteps,
  type ComputeSort,
} from './sort-steps.js';
export { computeSortSteps } from './sort-steps.js';

/** Where the particles' state is: the particle runner, whose buffers or textures the keys read. */
export interface SortSource {
  readonly runner: ElementwiseRunner;
  readonly count: number;
}

/** The compute sort of the living only: keys from the list, the steps' workgroups, the plan. */
interface LivingSort {
  keys: ComputePipeline;
  args: ComputePipeline;
  /** Per step of the plan: (its stage k, 0). */
  plan: Buffer;
  /** Per step: the workgroups of its dispatchIndirect. */
  stepArgs: Buffer;
}

/** The smallest power of two ≥ n. */
const powerOfTwo = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/** Depth sort of one particle system's slots; `order` is what the draw reads. */
export class DepthSort {
  readonly #device: Device;
  /** The fragment path's entries and sort steps; the CPU path's entries (uploaded). */
  readonly #runner: ElementwiseRunner | null;
  /** The compute path's. */
  readonly #compute: ComputeSort | null;
  readonly #count: number;
  /** Entries: `count` rounded up to a power of two. */
  readonly total: number;
  readonly #ring: UniformRing;
  readonly #scratch = new ArrayBuffer(KEYS_BYTES);
  readonly #scratchF32 = new Float32Array(this.#scratch);
  readonly #scratchU32 = new Uint32Array(this.#scratch);
  readonly #modules: ShaderModule[] = [];
  #fragment: RenderPipeline | null = null;
  /** Stops the restore listener (the compute path's step uniforms are written again). */
  #stopRestore: () => void = () => {};
  /** The compute sort of the living only (options.compact), made at its first use. */
  #livingSort: LivingSort | null = null;
  /** The living list the last compute sort sorted (null: every slot). */
  #sortedLiving: LivingList | null = null;
  /** The CPU path's scratch: keys per slot, slots in order, entries to upload. */
  #host: { keys: Float32Array; order: Uint32Array; entries: Float32Array } | null = null;

  /**
   * `mode`: the particle runner's (compute → compute passes, pingpong → fragment passes, cpu →
   * JS). `local` (compute): the short-distance steps in workgroup memory; by default on hardware
   * adapters only (computeSortSteps).
   */
  constructor(
    device: Device,
    count: number,
    mode: ElementwiseMode,
    local = !isSoftwareAdapter(device.caps),
  ) {
    this.#device = device;
    this.#count = count;
    this.#ring = new UniformRing(device, 4, 256, 'particles sort keys');
    if (mode === 'compute') {
      this.total = Math.max(BLOCK, powerOfTwo(count));
      this.#runner = null;
      this.#compute = this.#computeSort(local);
      return;
    }
    this.total = powerOfTwo(count);
    this.#compute = null;
    this.#runner = new ElementwiseRunner(device, SORT_KERNEL, {
      count: this.total,
      mode,
      label: 'particles sort',
    });
    if (this.#runner.precision === 'f16' && this.total > HALF * HALF)
      throw new ValidationError(
        'particles-sort-count',
        `sort keeps slots in half-float textures on this device (no float32 render targets): at most ${HALF * HALF} particles, not ${count}`,
        'particle system',
        { count },
      );
  }

  #computeSort(local: boolean): ComputeSort {
    const device = this.#device;
    const plan = computeSortSteps(this.total, local);
    const steps = device.createBuffer({
      label: 'particles sort steps',
      size: STEP_STRIDE * plan.length,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    const data = new Uint32Array((STEP_STRIDE / 4) * plan.length);
    plan.forEach((s, i) => data.set([s.j, s.k, this.total, 0], (STEP_STRIDE / 4) * i));
    device.queue.writeBuffer(steps, 0, data);
    // written once: after device.restore() buffers come back zeroed, so again then
    this.#stopRestore = device.onRestored(() => device.queue.writeBuffer(steps, 0, data));
    const keysModule = device.createShaderModule({ label: 'sort-keys.wgsl', code: sortKeysWgsl });
    const bitonic = device.createShaderModule({ label: 'sort-bitonic.wgsl', code: bitonicWgsl });
    this.#modules.push(keysModule, bitonic);
    return {
      entries: device.createBuffer({
        label: 'particles sort entries',
        size: 16 * this.total,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
      }),
      steps,
      plan,
      keys: device.createComputePipeline({
        label: 'particles sort keys',
        compute: { module: keysModule, entryPoint: 'main' },
      }),
      global: device.createComputePipeline({
        label: 'particles sort global step',
        compute: { module: bitonic, entryPoint: 'globalStep' },
      }),
      local: device.createComputePipeline({
        label: 'particles sort local steps',
        compute: { module: bitonic, entryPoint: 'localSteps' },
      }),
    };
  }

  /** The entries the draw reads (storage buffer or texture, as the particle state). */
  get order(): Buffer | Texture {
    if (this.#compute) return this.#compute.entries;
    const r = this.#runner as ElementwiseRunner;
    return (r.buffers.entry ?? r.textures.entry) as Buffer | Texture;
  }

  /** Texel width of the entries' texture (element i at (i % width, i / width)); 0 in a buffer. */
  get width(): number {
    return this.#runner?.size.width ?? 0;
  }

  /**
   * Records the keys of `source`'s current state seen from `view` (column-major 4×4) and the sort,
   * then the barrier the draw needs. The CPU path sorts now, in JavaScript.
   */
  record(
    encoder: CommandEncoder,
    view: ArrayLike<number>,
    source: SortSource,
    /** The living list of this state (options.compact): the compute sort sorts those only. */
    living: LivingList | null = null,
  ): void {
    // view depth = third row of the view matrix · (p, 1)
    const viewZ = [view[2], view[6], view[10], view[14]] as number[];
    if (this.#compute) {
      if (living) this.#sortLivingOnCompute(encoder, viewZ, source, this.#compute, living);
      else this.#sortOnCompute(encoder, viewZ, source, this.#compute);
      this.#sortedLiving = living;
      return;
    }
    const runner = this.#runner as ElementwiseRunner;
    if (runner.mode === 'cpu') this.#sortOnHost(viewZ, source, runner);
    else {
      this.#keysByFragment(encoder, viewZ, source, runner);
      for (let k = 2; k <= this.total; k *= 2)
        for (let j = k / 2; j >= 1; j /= 2) runner.step(encoder, { j, k });
    }
    runner.barrierForDraw(encoder);
  }

  /** Keys, then every step of the network: dispatches of one compute pass. */
  #sortOnCompute(
    encoder: CommandEncoder,
    viewZ: number[],
    source: SortSource,
    c: ComputeSort,
  ): void {
    const offset = this.#uniforms(viewZ, 0);
    const positions = source.runner.buffers.position as Buffer;
    const velocities = source.runner.buffers.velocity as Buffer;
    encoder.barrier({
      from: 'compute-write',
      to: 'compute-read',
      resources: [positions, velocities],
    });
    const pass = encoder.beginComputePass({ label: 'particles sort' });
    pass.setPipeline(c.keys);
    pass.setUniformBuffer(0, this.#ring.buffer, offset, KEYS_BYTES);
    pass.setStorageBuffer(1, positions, { access: 'read' });
    pass.setStorageBuffer(2, velocities, { access: 'read' });
    pass.setStorageBuffer(3, c.entries, { access: 'read-write' });
    pass.dispatchThreads(this.total, 64);
    // (dispatches of one pass see each other's storage writes)
    c.plan.forEach((step, i) => {
      pass.setPipeline(step.kind === 'local' ? c.local : c.global);
      pass.setUniformBuffer(0, c.steps, STEP_STRIDE * i, 16);
      pass.setStorageBuffer(1, c.entries, { access: 'read-write' });
      pass.dispatchThreads(this.total / 2, 256);
    });
    pass.end();
    encoder.barrier({ from: 'compute-write', to: 'vertex-read', resources: [c.entries] });
  }

  /**
   * The living only: their keys from the list, then per step of the plan the workgroups that the
   * living need (none for a stage past them), then the steps dispatched indirectly.
   */
  #sortLivingOnCompute(
    encoder: CommandEncoder,
    viewZ: number[],
    source: SortSource,
    c: ComputeSort,
    living: LivingList,
  ): void {
    const s = (this.#livingSort ??= this.#makeLivingSort(c));
    const offset = this.#uniforms(viewZ, 0);
    const positions = source.runner.buffers.position as Buffer;
    encoder.barrier({ from: 'compute-write', to: 'compute-read', resources: [positions] });
    const keys = encoder.beginComputePass({ label: 'particles sort keys (living)' });
    keys.setPipeline(s.keys);
    keys.setUniformBuffer(0, this.#ring.buffer, offset, KEYS_BYTES);
    keys.setStorageBuffer(1, positions, { access: 'read' });
    keys.setStorageBuffer(3, c.entries, { access: 'read-write' });
    keys.setStorageBuffer(4, living.living, { access: 'read' });
    keys.setStorageBuffer(5, living.total, { access: 'read' });
    keys.dispatchThreads(this.total, 64);
    keys.setPipeline(s.args);
    keys.setUniformBuffer(0, this.#ring.buffer, offset, KEYS_BYTES);
    keys.setStorageBuffer(5, living.total, { access: 'read' });
    keys.setStorageBuffer(6, s.plan, { access: 'read' });
    keys.setStorageBuffer(7, s.stepArgs, { access: 'read-write' });
    keys.dispatch(1);
    keys.end();
    encoder.barrier({ from: 'compute-write', to: 'indirect-read', resources: [s.stepArgs] });
    const pass = encoder.beginComputePass({ label: 'particles sort (living)' });
    c.plan.forEach((step, i) => {
      pass.setPipeline(step.kind === 'local' ? c.local : c.global);
      pass.setUniformBuffer(0, c.steps, STEP_STRIDE * i, 16);
      pass.setStorageBuffer(1, c.entries, { access: 'read-write' });
      pass.dispatchIndirect(s.stepArgs, 12 * i);
    });
    pass.end();
    encoder.barrier({ from: 'compute-write', to: 'vertex-read', resources: [c.entries] });
  }

  #makeLivingSort(c: ComputeSort): LivingSort {
    const device = this.#device;
    const module = device.createShaderModule({
      label: 'sort-living.wgsl',
      code: sortKeysWgsl + sortLivingWgsl,
    });
    this.#modules.push(module);
    const plan = device.createBuffer({
      label: 'particles sort plan (living)',
      size: 8 * c.plan.length,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
    const data = new Uint32Array(c.plan.flatMap((step) => [step.k, 0]));
    device.queue.writeBuffer(plan, 0, data);
    const stopRestore = this.#stopRestore;
    this.#stopRestore = (() => {
      const stop = device.onRestored(() => device.queue.writeBuffer(plan, 0, data));
      return () => {
        stop();
        stopRestore();
      };
    })();
    return {
      keys: device.createComputePipeline({
        label: 'particles sort keys (living)',
        compute: { module, entryPoint: 'livingKeys' },
      }),
      args: device.createComputePipeline({
        label: 'particles sort steps (living)',
        compute: { module, entryPoint: 'sortArgs' },
      }),
      plan,
      stepArgs: device.createBuffer({
        label: 'particles sort step args (living)',
        size: 12 * c.plan.length,
        usage: BufferUsage.STORAGE | BufferUsage.INDIRECT,
      }),
    };
  }

  /** The slots in draw order after the last `record` (for tests and tools). */
  async read(): Promise<Uint32Array> {
    const living = this.#sortedLiving;
    if (this.#compute && living) {
      // the living in draw order, then the dead (no entry holds them) in slot order
      const n = await living.readCount();
      const entries = await readBuffer(this.#compute.entries);
      const slots = new Uint32Array(this.#count);
      const listed = new Uint8Array(this.#count);
      for (let i = 0; i < n; i++) {
        const slot = (entries[4 * i + 1] as number) + HALF * (entries[4 * i + 2] as number);
        slots[i] = slot;
        listed[slot] = 1;
      }
      let at = n;
      for (let slot = 0; slot < this.#count; slot++) if (!listed[slot]) slots[at++] = slot;
      return slots;
    }
    const entries = this.#compute
      ? await readBuffer(this.#compute.entries)
      : ((await (this.#runner as ElementwiseRunner).read()).entry as Float32Array);
    const slots = new Uint32Array(this.#count);
    for (let i = 0; i < this.#count; i++)
      slots[i] = (entries[4 * i + 1] as number) + HALF * (entries[4 * i + 2] as number);
    return slots;
  }

  #uniforms(viewZ: number[], particleWidth: number): number {
    const u = this.#scratchU32;
    this.#scratchF32.set(viewZ);
    u[4] = this.#count;
    u[5] = this.total;
    u[6] = particleWidth;
    u[7] = this.width;
    const offset = this.#ring.take();
    this.#device.queue.writeBuffer(this.#ring.buffer, offset, this.#scratch);
    return offset;
  }

  /** The fragment path's keys: one fullscreen pass into the runner's current entries. */
  #keysByFragment(
    encoder: CommandEncoder,
    viewZ: number[],
    source: SortSource,
    runner: ElementwiseRunner,
  ): void {
    const state = source.runner;
    const offset = this.#uniforms(viewZ, state.size.width);
    const positions = state.textures.position as Texture;
    const velocities = state.textures.velocity as Texture;
    const target = runner.textures.entry as Texture;
    encoder.barrier({
      from: 'render-write',
      to: 'fragment-read',
      resources: [positions, velocities],
    });
    this.#fragment ??= this.#fragmentPipeline(target);
    const pass = encoder.beginRenderPass({
      label: 'particles sort keys',
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
    });
    pass.setPipeline(this.#fragment);
    pass.setUniformBuffer(0, this.#ring.buffer, offset, KEYS_BYTES);
    pass.setTexture(1, positions);
    pass.setTexture(2, velocities);
    pass.draw(3);
    pass.end();
  }

  #fragmentPipeline(target: Texture): RenderPipeline {
    const device = this.#device;
    const targets = [{ format: target.format }];
    if (device.caps.shaderLanguage === 'glsl') {
      const vs = device.createShaderModule({
        label: 'particles sort keys.vert',
        code: SORT_KERNEL.glslVertex,
        stage: 'vertex',
      });
      const fs = device.createShaderModule({
        label: 'sort-keys.frag.glsl',
        code: `#version 300 es\n${sortKeysGlsl}`,
        stage: 'fragment',
      });
      this.#modules.push(vs, fs);
      return device.createRenderPipeline({
        label: 'particles sort keys',
        vertex: { module: vs },
        fragment: { module: fs, targets },
        bindings: [
          { binding: 0, type: 'uniform', name: 'SortKeys' },
          { binding: 1, type: 'texture', name: 'positionState' },
          { binding: 2, type: 'texture', name: 'velocityState' },
        ],
      });
    }
    const module = device.createShaderModule({
      label: 'sort-keys-texture.wgsl',
      code: sortKeysTextureWgsl,
    });
    this.#modules.push(module);
    return device.createRenderPipeline({
      label: 'particles sort keys',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets },
      bindings: [1, 2].map((binding) => ({
        binding,
        type: 'texture' as const,
        sampleType: 'unfilterable-float' as const,
      })),
    });
  }

  /** The CPU path: the same keys and order in JavaScript, uploaded as the entries. */
  #sortOnHost(viewZ: number[], source: SortSource, runner: ElementwiseRunner): void {
    const host = source.runner.host;
    if (!host) throw new Error('particles sort: the CPU path has no host state');
    const p = host.position as Float32Array;
    const v = host.velocity as Float32Array;
    const n = this.#count;
    const h = (this.#host ??= {
      keys: new Float32Array(n),
      order: new Uint32Array(n),
      entries: new Float32Array(4 * this.total),
    });
    const [zx, zy, zz, zw] = viewZ as [number, number, number, number];
    const keys = h.keys;
    for (let i = 0; i < n; i++) {
      const x = p[4 * i] as number;
      const y = p[4 * i + 1] as number;
      const z = p[4 * i + 2] as number;
      // the dead after the living: their key is +Infinity here (no half-float texture holds it)
      keys[i] = (v[4 * i + 3] as number) <= 0 ? Infinity : zx * x + zy * y + zz * z + zw;
      h.order[i] = i;
    }
    h.order.sort((a, b) => {
      const ka = keys[a] as number;
      const kb = keys[b] as number;
      return ka < kb ? -1 : ka > kb ? 1 : a - b;
    });
    const e = h.entries;
    for (let i = 0; i < this.total; i++) {
      const slot = i < n ? (h.order[i] as number) : i;
      const key = i < n ? (keys[slot] as number) : Infinity;
      e[4 * i] = Number.isFinite(key) ? key : 0;
      e[4 * i + 1] = slot % HALF;
      e[4 * i + 2] = Math.floor(slot / HALF);
      e[4 * i + 3] = Number.isFinite(key) ? 0 : 1;
    }
    runner.write('entry', e);
  }

  destroy(): void {
    this.#stopRestore();
    this.#runner?.destroy();
    this.#ring.destroy();
    if (this.#compute) {
      const c = this.#compute;
      c.entries.destroy();
      c.steps.destroy();
      c.keys.destroy();
      c.global.destroy();
      c.local.destroy();
    }
    const l = this.#livingSort;
    if (l) {
      l.keys.destroy();
      l.args.destroy();
      l.plan.destroy();
      l.stepArgs.destroy();
    }
    this.#fragment?.destroy();
    for (const m of this.#modules) m.destroy();
  }
}
