import { groupLayout, type BindGroupLayout } from './bind-group.js';
import { Resource } from './resource.js';
import { VERTEX_FORMAT_BYTES } from './formats.js';
import type { BindingLayoutEntry, RenderPipelineDescriptor } from './descriptors.js';
import type { Device } from './device.js';

/** Vertex and fragment shaders, their fixed-function state and binding layout (`device.createRenderPipeline`). */
export abstract class RenderPipeline extends Resource {
  readonly kind = 'render-pipeline' as const;
  readonly descriptor: RenderPipelineDescriptor;
  /** The resolved flat slot layout (given, or reflected from WGSL). */
  readonly bindings: readonly BindingLayoutEntry[];
  readonly sampleCount: number;
  /** Per vertex buffer slot: bytes of one element that the attributes read (offset + size, max). */
  readonly vertexBufferExtents: readonly number[];
  constructor(device: Device, desc: RenderPipelineDescriptor, bindings: BindingLayoutEntry[]) {
    super(device, desc.label);
    this.descriptor = desc;
    this.bindings = bindings;
    this.sampleCount = desc.multisample?.count ?? 1;
    this.vertexBufferExtents = (desc.vertex.buffers ?? []).map((b) =>
      Math.max(0, ...b.attributes.map((a) => a.offset + VERTEX_FORMAT_BYTES[a.format])),
    );
  }

  /** The slots of group `index` of this pipeline's layout, for `device.createBindGroup`. */
  getBindGroupLayout(index: number): BindGroupLayout {
    return groupLayout(this.bindings, index, this.label);
  }
}
