import { bindGroupLayoutEntry, layoutKey } from './conv.js';
import { ResourceCache } from '../core/resource-cache.js';
import { slotOf } from '../core/slots.js';
import type { BindingLayoutEntry } from '../core/descriptors.js';
import type { BoundResource } from '../core/commands.js';
import type { WebGPUBuffer } from './buffer.js';
import type { WebGPUTexture } from './texture.js';
import type { WebGPUSampler } from './sampler.js';

/** One group of a pipeline's layout: its index, WebGPU layout, cache key and slots. */
export interface GroupLayout {
  /** A number for this layout (its place in the bind-group cache's index by numbers). */
  readonly id: number;
  readonly index: number;
  readonly layout: GPUBindGroupLayout;
  readonly key: string;
  readonly entries: readonly BindingLayoutEntry[];
}

/** A pipeline's WebGPU layout: its groups up to the last one it uses, and the pipeline layout. */
export interface PipelineLayout {
  readonly key: string;
  readonly groups: readonly GroupLayout[];
  readonly gpu: GPUPipelineLayout;
}

/**
 * Layouts deduplicated by their slots, and bind groups cached by (layout, bound resources). A bind
 * group is created only on a miss; destroying a resource evicts the groups that reference it.
 */
export class BindGroupCache {
  readonly #layouts = new Map<string, GPUBindGroupLayout>();
  readonly #pipelineLayouts = new Map<string, PipelineLayout>();
  readonly #groups = new ResourceCache<GPUBindGroup>();
  /** A number per group layout key. */
  readonly #layoutIds = new Map<string, number>();

  #groupIds(key: string): number {
    let id = this.#layoutIds.get(key);
    if (id === undefined) this.#layoutIds.set(key, (id = this.#layoutIds.size));
    return id;
  }
  hits = 0;

  /** Bind groups created so far; a steady frame adds none. */
  get created(): number {
    return this.#groups.created;
  }

  constructor(private readonly device: GPUDevice) {}

  /** Entries held now: bind groups, bind group layouts, pipeline layouts (`device.cacheStats()`). */
  get sizes(): Record<string, number> {
    return {
      bindGroups: this.#groups.size,
      bindGroupLayouts: this.#layouts.size,
      pipelineLayouts: this.#pipelineLayouts.size,
    };
  }

  /**
   * The WebGPU layouts of a pipeline's slots: one bind group layout per group its shaders use
   * (empty ones fill the gaps), and the pipeline layout of them all. Both are shared by every
   * pipeline with the same slots.
   */
  layoutFor(entries: readonly BindingLayoutEntry[], stages: 'render' | 'compute'): PipelineLayout {
    const key = `${stages}|${entries.map((e) => `${e.group ?? 0}/`).join('')}${layoutKey(entries, stages)}`;
    const found = this.#pipelineLayouts.get(key);
    if (found) return found;
    const count = Math.max(0, ...entries.map((e) => (e.group ?? 0) + 1));
    const groups: GroupLayout[] = [];
    for (let index = 0; index < count; index++) {
      const mine = entries.filter((e) => (e.group ?? 0) === index);
      const groupKey = layoutKey(mine, stages);
      let layout = this.#layouts.get(groupKey);
      if (!layout) {
        layout = this.device.createBindGroupLayout({
          label: groupKey,
          entries: mine.map((e) => bindGroupLayoutEntry(e, stages)),
        });
        this.#layouts.set(groupKey, layout);
      }
      groups.push({ id: this.#groupIds(groupKey), index, layout, key: groupKey, entries: mine });
    }
    const layout: PipelineLayout = {
      key,
      groups, // an unused group below a used one still needs a (empty) bind group set
      gpu: this.device.createPipelineLayout({
        label: key,
        bindGroupLayouts: groups.map((g) => g.layout),
      }),
    };
    this.#pipelineLayouts.set(key, layout);
    return layout;
  }

  /** The bind group of `group` with what `slots` hold (only the group's slots are used). */
  get(group: GroupLayout, slots: ReadonlyMap<number, BoundResource>): GPUBindGroup {
    const hit = this.#walk(group, slots, false).found();
    if (hit) {
      this.hits++;
      return hit;
    }
    const found = this.#find(group, slots);
    this.#walk(group, slots, true).keep(found);
    return found;
  }

  /** Walks the cache's index by numbers: the layout, then each entry's resource (and range). */
  #walk(
    group: GroupLayout,
    slots: ReadonlyMap<number, BoundResource>,
    make: boolean,
  ): ResourceCache<GPUBindGroup> {
    const cache = this.#groups.walk(make).step(group.id);
    for (const e of group.entries) {
      const r = slots.get(slotOf(e)) as BoundResource;
      cache.step(resourceId(r));
      if (r.kind === 'uniform' || r.kind === 'storage') cache.step(r.offset).step(r.size);
    }
    return cache;
  }

  /** The cached group under its string key, created on a miss. */
  #find(group: GroupLayout, slots: ReadonlyMap<number, BoundResource>): GPUBindGroup {
    let key = group.key;
    const ids: number[] = [];
    const layout = group.layout;
    const entries = group.entries;
    for (const e of entries) {
      const r = slots.get(slotOf(e)) as BoundResource;
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
    const made = this.device.createBindGroup({
      layout,
      entries: entries.map((e) => ({
        binding: e.binding,
        resource: gpuResource(slots.get(slotOf(e)) as BoundResource),
      })),
    });
    return this.#groups.set(key, made, ids);
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
