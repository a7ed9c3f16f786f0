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
  /**
   * Per entry, whether it is a uniform buffer bound with a dynamic offset: its bind group holds the
   * buffer from offset 0, and each draw passes where its slice starts. A frame that draws each
   * object with its own slice of one buffer then sets one bind group with new offsets per draw,
   * not a bind group per slice (found in the cache). At most
   * `maxDynamicUniformBuffersPerPipelineLayout` of a pipeline's uniforms; the rest are static.
   */
  readonly dynamic: readonly boolean[];
  /** Indices into `entries` of the dynamic ones, by binding (the order WebGPU takes offsets in). */
  readonly dynamicOrder: readonly number[];
  /** Whether some buffer entry has a fixed offset (a new offset needs another bind group). */
  readonly staticBuffers: boolean;
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

  /** How many uniform buffers of a pipeline layout may take dynamic offsets (WebGPU's minimum: 8). */
  readonly maxDynamicUniforms: number;

  constructor(private readonly device: GPUDevice) {
    // (a device made by hand for a test may leave its limits out: WebGPU guarantees 8)
    this.maxDynamicUniforms = device.limits?.maxDynamicUniformBuffersPerPipelineLayout ?? 8;
  }

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
    let dynamicLeft = this.maxDynamicUniforms;
    for (let index = 0; index < count; index++) {
      const mine = entries.filter((e) => (e.group ?? 0) === index);
      const dynamic = mine.map((e) => e.type === 'uniform' && dynamicLeft-- > 0);
      const groupKey = `${layoutKey(mine, stages)}|${dynamic.map((d) => (d ? 'd' : '-')).join('')}`;
      let layout = this.#layouts.get(groupKey);
      if (!layout) {
        layout = this.device.createBindGroupLayout({
          label: groupKey,
          entries: mine.map((e, i) => bindGroupLayoutEntry(e, stages, dynamic[i] === true)),
        });
        this.#layouts.set(groupKey, layout);
      }
      const dynamicOrder = mine
        .map((e, i) => [e.binding, i] as const)
        .filter(([, i]) => dynamic[i])
        .sort((a, b) => a[0] - b[0])
        .map(([, i]) => i);
      const staticBuffers = mine.some(
        (e, i) => !dynamic[i] && (e.type === 'uniform' || e.type.endsWith('storage')),
      );
      groups.push({
        id: this.#groupIds(groupKey),
        index,
        layout,
        key: groupKey,
        entries: mine,
        dynamic,
        dynamicOrder,
        staticBuffers,
      });
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
    const entries = group.entries;
    for (let i = 0; i < entries.length; i++) {
      const r = slots.get(slotOf(entries[i] as BindingLayoutEntry)) as BoundResource;
      cache.step(resourceId(r));
      if (r.kind === 'uniform' || r.kind === 'storage')
        cache.step(group.dynamic[i] ? 0 : r.offset).step(r.size);
    }
    return cache;
  }

  /** The cached group under its string key, created on a miss. */
  #find(group: GroupLayout, slots: ReadonlyMap<number, BoundResource>): GPUBindGroup {
    let key = group.key;
    const ids: number[] = [];
    const layout = group.layout;
    const entries = group.entries;
    for (const [i, e] of entries.entries()) {
      const r = slots.get(slotOf(e)) as BoundResource;
      const id = resourceId(r);
      ids.push(id);
      key += `|${e.binding}:${id}`;
      if (r.kind === 'uniform' || r.kind === 'storage')
        key += `:${group.dynamic[i] ? 0 : r.offset}:${r.size}`;
    }
    const hit = this.#groups.get(key);
    if (hit) {
      this.hits++;
      return hit;
    }
    const made = this.device.createBindGroup({
      layout,
      entries: entries.map((e, i) => ({
        binding: e.binding,
        resource: gpuResource(slots.get(slotOf(e)) as BoundResource, group.dynamic[i] === true),
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

/** What a bind group holds for `r`; a dynamic entry's range starts at 0 (the draw says where). */
function gpuResource(r: BoundResource, dynamic: boolean): GPUBindingResource {
  switch (r.kind) {
    case 'uniform':
    case 'storage':
      return {
        buffer: (r.buffer as WebGPUBuffer).gpu,
        offset: dynamic ? 0 : r.offset,
        size: r.size,
      };
    case 'texture':
    case 'storage-texture':
      return (r.texture as WebGPUTexture).view;
    case 'sampler':
      return (r.sampler as WebGPUSampler).gpu;
  }
}

/**
 * Writes the dynamic offsets of `group` from what `slots` hold into `out` (by binding, as WebGPU
 * takes them); returns how many.
 */
export function dynamicOffsets(
  group: GroupLayout,
  slots: ReadonlyMap<number, BoundResource>,
  out: Uint32Array | number[],
): number {
  const order = group.dynamicOrder;
  for (let k = 0; k < order.length; k++) {
    const r = slots.get(slotOf(group.entries[order[k] as number] as BindingLayoutEntry));
    out[k] = r?.kind === 'uniform' ? r.offset : 0;
  }
  return order.length;
}
