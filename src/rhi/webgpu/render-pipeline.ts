import { RenderPipeline } from '../core/render-pipeline.js';
import type { BindingLayoutEntry, RenderPipelineDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { WebGPUShaderModule } from './shader-module.js';

export class WebGPURenderPipeline extends RenderPipeline {
  readonly gpu: GPURenderPipeline;
  readonly layout: GPUBindGroupLayout | null;
  readonly layoutKey: string;

  constructor(
    device: WebGPUDevice,
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ) {
    super(device, desc, bindings);
    const { layout, pipelineLayout, key } = device.bindGroups.layoutFor(bindings, 'render');
    this.layout = layout;
    this.layoutKey = key;
    const vertexModule = desc.vertex.module as WebGPUShaderModule;
    const fragment = desc.fragment;
    this.gpu = device.scoped('createRenderPipeline', desc.label, () =>
      device.gpu.createRenderPipeline({
        label: desc.label,
        layout: pipelineLayout,
        vertex: {
          module: vertexModule.gpu,
          entryPoint: desc.vertex.entryPoint,
          buffers: (desc.vertex.buffers ?? []).map((b) => ({
            arrayStride: b.arrayStride,
            stepMode: b.stepMode ?? 'vertex',
            attributes: b.attributes,
          })),
        },
        fragment: fragment
          ? {
              module: (fragment.module as WebGPUShaderModule).gpu,
              entryPoint: fragment.entryPoint,
              targets: fragment.targets.map((t) => ({
                format: t.format,
                blend: t.blend,
                writeMask: t.writeMask ?? 0xf,
              })),
            }
          : undefined,
        primitive: {
          topology: desc.primitive?.topology ?? 'triangle-list',
          cullMode: desc.primitive?.cullMode ?? 'none',
          frontFace: desc.primitive?.frontFace ?? 'ccw',
        },
        depthStencil: desc.depthStencil
          ? {
              format: desc.depthStencil.format,
              depthWriteEnabled: desc.depthStencil.depthWriteEnabled ?? true,
              depthCompare: desc.depthStencil.depthCompare ?? 'less',
            }
          : undefined,
        multisample: { count: desc.multisample?.count ?? 1 },
      }),
    );
  }

  protected destroyImpl(): void {}
}
