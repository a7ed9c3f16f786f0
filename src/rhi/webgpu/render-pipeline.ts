import { RenderPipeline } from '../core/render-pipeline.js';
import type { BindingLayoutEntry, RenderPipelineDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { PipelineLayout } from './bind-groups.js';
import type { WebGPUShaderModule } from './shader-module.js';

export class WebGPURenderPipeline extends RenderPipeline {
  readonly gpu: GPURenderPipeline;
  /** The WebGPU layout of its slots, one bind group layout per group. */
  readonly layout: PipelineLayout;

  constructor(
    device: WebGPUDevice,
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ) {
    super(device, desc, bindings);
    this.layout = device.bindGroups.layoutFor(bindings, 'render');
    const vertexModule = desc.vertex.module as WebGPUShaderModule;
    const fragment = desc.fragment;
    this.gpu = device.scoped(
      'createRenderPipeline',
      desc.label,
      () =>
        device.gpu.createRenderPipeline({
          label: desc.label,
          layout: this.layout.gpu,
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
      fragment ? [desc.vertex.module, fragment.module] : [desc.vertex.module],
    );
  }

  protected destroyImpl(): void {}
}
