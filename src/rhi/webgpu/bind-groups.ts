import { bindGroupLayoutEntry, layoutKey } from './conv.js';
import { ResourceCache } from '../core/resource-cache.js';
import type { BindingLayoutEntry } from '../core/descriptors.js';
import type { BoundResource } from '../core/commands.js';
import type { WebGPUBuffer } from './buffer.js';
import type { WebGPUTexture } from './texture.js';
import type { WebGPUSampler } from './sampler.js';

/**
 * Layouts deduplicated by their slots, and bind groups cached by (layout, bound resources). A bind
 * group is created only on a miss; destroying a resource evicts the groups that reference it.
 */
export class BindGroupCache {
  readonly #layouts = new Map<
    string,
    { layout: GPUBindGroupLayout | null; pipelineLayout: GPUPipelineLayout }
  >();
  readonly #groups = new ResourceCache<GPUBindGroup>();
  hits = 0;

  /** Bind groups created so far; a steady frame adds none. */
  get created(): number {
    return this.#groups.created;
  }

  constructor(private readonly device: GPUDevice) {}

  layoutFor(
    entries: readonly BindingLayoutEntry[],
    stages: 'render' | 'compute',
  ): { layout: GPUBindGroupLayout | null; pipelineLayout: GPUPipelineLayout; key: string } {
    const key = layoutKey(entries, stages);
    let found = this.#layouts.get(key);
    if (!found) {
      const layout =
        entries.length > 0
          ? this.device.createBindGroupLayout({
              label: key,
              entries: entries.map((e) => bindGroupLayoutEntry(e, stages)),
            })
          : null;
      const pipelineLayout = this.device.createPipelineLayout({
        label: key,
        bindGroupLayouts: layout ? [layout] : [],
      });
      found = { layout, pipelineLayout };
      this.#layouts.set(key, found);
    }
    return { ...found, key };
  }

  /** The bind group for `layout` with `slots` (only the layout's slots are used). */
  get(
    layoutKeyValue: string,
    layout: GPUBindGroupLayout,
    entries: readonly BindingLayoutEntry[],
    slots: ReadonlyMap<number, BoundResource>,
  ): GPUBindGroup {
    let key = layoutKeyValue;
    const ids: number[] = [];
    for (const e of entries) {
      const r = slots.get(e.binding) as BoundResource;
      const id = resourceId(r);
      ids.push(id);
      key += `|${e.binding}:${id}`;
      if (r.kind === 'uniform' || r.kind === 'storage') key += `:${r.offset}:${r.size}`;
    }
    const hit = this.#groups.get(key);
    if (hit) {
      this.hits++;
      return hit;
    }
    const group = this.device.createBindGroup({
      layout,
      entries: entries.map((e) => ({
        binding: e.binding,
        resource: gpuResource(slots.get(e.binding) as BoundResource),
      })),
    });
    return this.#groups.set(key, group, ids);
  }

  evict(resourceIdValue: number): void {
    this.#groups.evict(resourceIdValue);
  }
}

function resourceId(r: BoundResource): number {
  switch (r.kind) {
    case 'uniform':
    case 'storage':
      return r.buffer.id;
    case 'texture':
    case 'storage-texture':
      return r.texture.id;
    case 'sampler':
      return r.sampler.id;
  }
}

function gpuResource(r: BoundResource): GPUBindingResource {
  switch (r.kind) {
    case 'uniform':
    case 'storage':
      return { buffer: (r.buffer as WebGPUBuffer).gpu, offset: r.offset, size: r.size };
    case 'texture':
    case 'storage-texture':
      return (r.texture as WebGPUTexture).view;
    case 'sampler':
      return (r.sampler as WebGPUSampler).gpu;
  }
}
