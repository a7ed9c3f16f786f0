/**
 * The compute path: state in one STORAGE | VERTEX buffer per attribute, one dispatch per step
 * (WGSL compute generated from the kernel), reductions by a compute pass with atomics.
 */
import { BufferUsage } from '../../rhi/core/flags.js';
import { LimitExceededError } from '../../rhi/core/errors.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { ComputePipeline } from '../../rhi/core/compute-pipeline.js';
import type { ShaderModule } from '../../rhi/core/shader-module.js';
import type { PassTimestampWrites } from '../../rhi/core/descriptors.js';
import { wgslReduceCompute, type Predicates } from '../reduce.js';
import { createStateBuffers, readBuffer } from './state.js';
import type { Texture } from '../../rhi/core/texture.js';
import { sceneDepthBinding, sourceBinding } from '../kernel.js';
import { compiledAll } from './path.js';
import type { ExecutionPath, PathContext, StateArrays, StepInputs, StepParams } from './path.js';

export class ComputePath implements ExecutionPath {
  readonly name = 'compute' as const;
  readonly precision = 'f32' as const;
  readonly hostBytesPerElement = 0;
  readonly gpuBytesPerElement: number;
  readonly buffers: Readonly<Record<string, Buffer>>;
  readonly textures = {};
  readonly #ctx: PathContext;
  /** Gather kernels: the state before each step, copied for `ignisElement(j)` to read. */
  readonly #previous: Readonly<Record<string, Buffer>>;
  readonly #module: ShaderModule;
  readonly #pipeline: ComputePipeline;
  readonly #reducers = new Map<
    string,
    { module: ShaderModule; pipeline: ComputePipeline; counts: Buffer }
  >();

  constructor(ctx: PathContext) {
    this.#ctx = ctx;
    const { device, kernel, count, label } = ctx;
    const limits = device.caps.limits;
    const bytes = 16 * count;
    if (bytes > limits.maxStorageBufferBindingSize) {
      throw new LimitExceededError(
        'maxStorageBufferBindingSize',
        bytes,
        limits.maxStorageBufferBindingSize,
        'State buffer bytes',
        label,
      );
    }
    if (bytes > limits.maxBufferSize)
      throw new LimitExceededError(
        'maxBufferSize',
        bytes,
        limits.maxBufferSize,
        'State buffer bytes',
        label,
      );
    const gather = kernel.descriptor.gather === true;
    // one storage buffer per attribute (two for a gather: the state before the step too) and per
    // source column: more than the device binds would fail in the GPU's validation, unseen
    const storage =
      (gather ? 2 : 1) * kernel.descriptor.attributes.length +
      (kernel.descriptor.source?.length ?? 0);
    if (storage > limits.maxStorageBuffersPerShaderStage)
      throw new LimitExceededError(
        'maxStorageBuffersPerShaderStage',
        storage,
        limits.maxStorageBuffersPerShaderStage,
        `Storage buffers of the step (attributes ${kernel.descriptor.attributes.join(', ')}${gather ? ', each twice (a gather)' : ''}${kernel.descriptor.source?.length ? `; source ${kernel.descriptor.source.join(', ')}` : ''}):`,
        label,
      );
    this.gpuBytesPerElement = (gather ? 32 : 16) * kernel.descriptor.attributes.length;
    this.buffers = createStateBuffers(ctx);
    this.#previous = gather
      ? Object.fromEntries(
          kernel.descriptor.attributes.map((a) => [
            a,
            device.createBuffer({
              label: `${label}.${a} (previous)`,
              size: 16 * count,
              usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
            }),
          ]),
        )
      : {};
    this.#module = device.createShaderModule({
      label: `${label}.compute.wgsl`,
      code: kernel.wgslCompute,
    });
    this.#pipeline = device.createComputePipeline({
      label: `${label} step`,
      compute: { module: this.#module, entryPoint: 'main' },
    });
  }

  #bindState(
    pass: ReturnType<CommandEncoder['beginComputePass']>,
    access: 'read' | 'read-write',
  ): void {
    this.#ctx.kernel.descriptor.attributes.forEach((a, i) =>
      pass.setStorageBuffer(i + 1, this.buffers[a] as Buffer, { access }),
    );
  }

  write(name: string, data: Float32Array): void {
    this.#ctx.device.queue.writeBuffer(this.buffers[name] as Buffer, 0, data);
  }

  step(
    encoder: CommandEncoder,
    params: StepParams,
    timestampWrites?: PassTimestampWrites,
    inputs?: StepInputs,
  ): void {
    const { kernel, count, label, uniforms } = this.#ctx;
    const offset = uniforms.write(params);
    // each step reads what the previous one wrote (a no-op barrier where none did)
    encoder.barrier({
      from: 'compute-write',
      to: 'compute-read',
      resources: Object.values(this.buffers),
    });
    const attributes = kernel.descriptor.attributes;
    const source = kernel.descriptor.source ?? [];
    if (source.length > 0)
      // the source runner's last step (earlier in this encoder) is what this one reads
      encoder.barrier({
        from: 'compute-write',
        to: 'compute-read',
        resources: source.map((a) => inputs?.source?.buffers[a] as Buffer),
      });
    const previous = Object.values(this.#previous);
    if (previous.length) {
      // a gather kernel reads any element as it was before the step: copy the state first
      encoder.barrier({
        from: 'compute-write',
        to: 'copy-read',
        resources: Object.values(this.buffers),
      });
      for (const a of attributes)
        encoder.copyBufferToBuffer(
          this.buffers[a] as Buffer,
          0,
          this.#previous[a] as Buffer,
          0,
          16 * count,
        );
      encoder.barrier({ from: 'copy-write', to: 'compute-read', resources: previous });
    }
    const pass = encoder.beginComputePass({ label: `${label} step`, timestampWrites });
    pass.setPipeline(this.#pipeline);
    pass.setUniformBuffer(0, uniforms.buffer, offset, uniforms.size);
    this.#bindState(pass, 'read-write');
    attributes.forEach((a, i) => {
      const p = this.#previous[a];
      if (p) pass.setStorageBuffer(attributes.length + 1 + i, p, { access: 'read' });
    });
    if (kernel.descriptor.sceneDepth)
      pass.setTexture(sceneDepthBinding(attributes.length), inputs?.sceneDepth as Texture);
    kernel.descriptor.source?.forEach((a, i) =>
      pass.setStorageBuffer(
        sourceBinding(attributes.length, i),
        inputs?.source?.buffers[a] as Buffer,
        { access: 'read' },
      ),
    );
    pass.dispatchThreads(count, kernel.workgroupSize);
    pass.end();
  }

  barrierForDraw(encoder: CommandEncoder): void {
    encoder.barrier({
      from: 'compute-write',
      to: 'vertex-read',
      resources: Object.values(this.buffers),
    });
  }

  async read(): Promise<StateArrays> {
    const out: StateArrays = {};
    for (const a of this.#ctx.kernel.descriptor.attributes)
      out[a] = await readBuffer(this.buffers[a] as Buffer);
    return out;
  }

  async reduce(predicates: Predicates): Promise<Record<string, number>> {
    const { device, kernel, count, label, uniforms } = this.#ctx;
    const key = JSON.stringify(predicates);
    let r = this.#reducers.get(key);
    if (!r) {
      const module = device.createShaderModule({
        label: `${label}.reduce.wgsl`,
        code: wgslReduceCompute(kernel, predicates),
      });
      r = {
        module,
        pipeline: device.createComputePipeline({
          label: `${label} reduce`,
          compute: { module, entryPoint: 'main' },
        }),
        counts: device.createBuffer({
          label: `${label} counts`,
          size: 16,
          usage: BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
        }),
      };
      this.#reducers.set(key, r);
    }
    device.queue.writeBuffer(r.counts, 0, new Uint32Array(4));
    const encoder = device.createCommandEncoder({ label: `${label} reduce` });
    const offset = uniforms.write({});
    const pass = encoder.beginComputePass({ label: `${label} reduce` });
    pass.setPipeline(r.pipeline);
    pass.setUniformBuffer(0, uniforms.buffer, offset, uniforms.size);
    this.#bindState(pass, 'read');
    pass.setStorageBuffer(kernel.descriptor.attributes.length + 1, r.counts, {
      access: 'read-write',
    });
    pass.dispatchThreads(count, kernel.workgroupSize);
    pass.end();
    device.queue.submit([encoder.finish()]);
    const counts = new Uint32Array(await r.counts.read());
    return Object.fromEntries(Object.keys(predicates).map((n, i) => [n, counts[i] as number]));
  }

  compiled(): Promise<void> {
    return compiledAll([this.#module]);
  }

  destroy(): void {
    for (const b of [...Object.values(this.buffers), ...Object.values(this.#previous)]) b.destroy();
    for (const r of this.#reducers.values()) {
      r.pipeline.destroy();
      r.module.destroy();
      r.counts.destroy();
    }
    this.#pipeline.destroy();
    this.#module.destroy();
  }
}
