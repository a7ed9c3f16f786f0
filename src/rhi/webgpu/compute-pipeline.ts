import { ComputePipeline } from '../core/compute-pipeline.js';
import type { BindingLayoutEntry, ComputePipelineDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { WebGPUShaderModule } from './shader-module.js';

export class WebGPUComputePipeline extends ComputePipeline {
  readonly gpu: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout | null;
  readonly layoutKey: string;

  constructor(
    device: WebGPUDevice,
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ) {
    super(device, desc, bindings);
    const { layout, pipelineLayout, key } = device.bindGroups.layoutFor(bindings, 'compute');
    this.layout = layout;
    this.layoutKey = key;
    this.gpu = device.scoped('createComputePipeline', desc.label, () =>
      device.gpu.createComputePipeline({
        label: desc.label,
        layout: pipelineLayout,
        compute: {
          module: (desc.compute.module as WebGPUShaderModule).gpu,
          entryPoint: desc.compute.entryPoint,
        },
      }),
    );
  }

  protected destroyImpl(): void {}
}
