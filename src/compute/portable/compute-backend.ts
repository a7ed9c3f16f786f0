/** The compute path of a portable kernel: the WGSL as written, dispatched over the grid. */
import { LimitExceededError } from '../../rhi/core/errors.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Sampler } from '../../rhi/core/sampler.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { ComputePipeline } from '../../rhi/core/compute-pipeline.js';
import type { ShaderModule } from '../../rhi/core/shader-module.js';
import type { Backend } from './backend.js';
import { workgroupsFor } from './grid.js';
import type { BufferBinding } from './portability.js';
import type { PortableCompute } from './portable-compute.js';

export class ComputeBackend implements Backend {
  readonly #module: ShaderModule;
  readonly #pipeline: ComputePipeline;
  readonly #storage: readonly BufferBinding[];
  constructor(readonly pc: PortableCompute) {
    const d = pc.device;
    this.#storage = pc.bindings.filter((b) => b.space === 'storage');
    this.#module = d.createShaderModule({ label: pc.label, code: pc.code });
    this.#pipeline = d.createComputePipeline({
      label: pc.label,
      compute: {
        module: this.#module,
        entryPoint: pc.entryPoint,
        ...(Object.keys(pc.constants).length ? { constants: pc.constants } : {}),
      },
    });
  }

  dispatch(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
    samplers: Record<string, Sampler>,
  ): void {
    // checked before anything is recorded: a throw leaves the encoder as it was
    const groups = workgroupsFor(this.pc.grid, this.pc.workgroupSize);
    const max = this.pc.device.caps.limits.maxComputeWorkgroupsPerDimension;
    groups.forEach((n, i) => {
      if (n > max)
        throw new LimitExceededError(
          'maxComputeWorkgroupsPerDimension',
          n,
          max,
          `Workgroups of one dispatch in ${'xyz'[i]}`,
          this.pc.label,
        );
    });
    // the pass's own barriers (explicit barrier mode): whatever wrote the storage buffers last, a
    // dispatch (the other half of a ping-pong) or a copy, finished before this one reads them
    const storage = this.#storage.map((b) => buffers[b.name] as Buffer);
    for (const from of ['compute-write', 'copy-write'] as const)
      encoder.barrier({ from, to: 'compute-read', resources: storage });
    const pass = encoder.beginComputePass({ label: this.pc.label });
    pass.setPipeline(this.#pipeline);
    for (const b of this.pc.bindings) {
      if (b.space === 'texture') pass.setTexture(b.binding, textures[b.name] as Texture);
      else if (b.space === 'storage-texture')
        pass.setStorageTexture(b.binding, textures[b.name] as Texture);
      else if (b.space === 'sampler') pass.setSampler(b.binding, samplers[b.name] as Sampler);
      else if (b.space === 'uniform') pass.setUniformBuffer(b.binding, buffers[b.name] as Buffer);
      else pass.setStorageBuffer(b.binding, buffers[b.name] as Buffer);
    }
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    pass.end();
  }

  destroy(): void {
    this.#pipeline.destroy();
    this.#module.destroy();
  }
}
