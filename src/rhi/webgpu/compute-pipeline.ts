import { ComputePipeline } from '../core/compute-pipeline.js';
import type { BindingLayoutEntry, ComputePipelineDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { PipelineLayout } from './bind-groups.js';
import type { WebGPUShaderModule } from './shader-module.js';

export class WebGPUComputePipeline extends ComputePipeline {
  readonly gpu: GPUComputePipeline;
  /** The WebGPU layout of its slots, one bind group layout per group. */
  readonly layout: PipelineLayout;

  constructor(
    device: WebGPUDevice,
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ) {
    super(device, desc, bindings);
    this.layout = device.bindGroups.layoutFor(bindings, 'compute');
    this.gpu = device.scoped(
      'createComputePipeline',
      desc.label,
      () =>
        device.gpu.createComputePipeline({
          label: desc.label,
          layout: this.layout.gpu,
          compute: {
            module: (desc.compute.module as WebGPUShaderModule).gpu,
            entryPoint: desc.compute.entryPoint,
            ...(desc.compute.constants
              ? {
                  constants: Object.fromEntries(
                    Object.entries(desc.compute.constants).map(([k, v]) => [k, Number(v)]),
                  ),
                }
              : {}),
          },
        }),
      [desc.compute.module],
    );
  }

  protected destroyImpl(): void {}
}
