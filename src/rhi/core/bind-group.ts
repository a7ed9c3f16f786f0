import { ValidationError } from './errors.js';
import { Buffer } from './buffer.js';
import {
  samplerBinding,
  storageBinding,
  storageTextureBinding,
  textureBinding,
  uniformBinding,
} from './binding-resources.js';
import { MAX_BIND_GROUPS, MAX_BINDINGS_PER_BIND_GROUP } from './slots.js';
import type { BoundResource } from './commands.js';
import type { BindingLayoutEntry, BindingType, Labeled } from './descriptors.js';
import type { Device } from './device.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';

/**
 * A layout entry in WebGPU's shape (`GPUBindGroupLayoutEntry`): one of `buffer`, `texture`,
 * `sampler`, `storageTexture`; `visibility` is accepted and not needed (Ignis derives it).
 */
export interface WebGPULayoutEntry {
  binding: number;
  visibility?: number;
  buffer?: { type?: 'uniform' | 'storage' | 'read-only-storage' };
  texture?: { sampleType?: BindingLayoutEntry['sampleType'] };
  sampler?: { type?: BindingLayoutEntry['samplerType'] };
  storageTexture?: { format?: BindingLayoutEntry['format'] };
}

/**
 * What `createBindGroupLayout` takes: the slots of one group, in Ignis's shape (`{ binding, type }`)
 * or WebGPU's (`{ binding, visibility, buffer: { type } }`, …); a slot's `group` is ignored.
 */
export interface BindGroupLayoutDescriptor extends Labeled {
  entries: Array<BindingLayoutEntry | WebGPULayoutEntry>;
}

/** A WebGPU-shaped layout entry in Ignis's shape; Ignis-shaped ones as they are. */
function ignisEntry(e: BindingLayoutEntry | WebGPULayoutEntry): BindingLayoutEntry {
  if (!e || typeof e !== 'object' || 'type' in e) return e as BindingLayoutEntry;
  const w = e;
  const base = { binding: w.binding };
  if (w.buffer) return { ...base, type: w.buffer.type ?? 'uniform' };
  if (w.texture)
    return w.texture.sampleType
      ? { ...base, type: 'texture', sampleType: w.texture.sampleType }
      : { ...base, type: 'texture' };
  if (w.sampler)
    return w.sampler.type
      ? { ...base, type: 'sampler', samplerType: w.sampler.type }
      : { ...base, type: 'sampler' };
  if (w.storageTexture)
    return w.storageTexture.format
      ? { ...base, type: 'storage-texture', format: w.storageTexture.format }
      : { ...base, type: 'storage-texture' };
  return e as BindingLayoutEntry; // no resource member: the type check below names it
}

/** A buffer range bound in a group (WebGPU's `GPUBufferBinding`); a `Buffer` alone is all of it. */
export interface BufferBinding {
  buffer: Buffer;
  offset?: number;
  size?: number;
}

/** What a bind group entry holds: a buffer (or a range of one), a texture or a sampler. */
export type BindingResource = Buffer | BufferBinding | Texture | Sampler;

/** One resource of a bind group, at `binding` of its layout. */
export interface BindGroupEntry {
  binding: number;
  resource: BindingResource;
}

/** What `createBindGroup` takes: a layout and one resource per layout entry. */
export interface BindGroupDescriptor extends Labeled {
  layout: BindGroupLayout;
  entries: BindGroupEntry[];
}

const TYPES: readonly BindingType[] = [
  'uniform',
  'storage',
  'read-only-storage',
  'texture',
  'storage-texture',
  'sampler',
];

/**
 * The slots of one bind group: binding numbers and what each takes. Made by
 * `device.createBindGroupLayout()` or read from a pipeline (`pipeline.getBindGroupLayout(i)`); a
 * group made from it fits any pipeline whose group has the same slots (compared by value: Ignis
 * makes the WebGPU layouts itself, so a group is never tied to one pipeline's `auto` layout).
 */
export class BindGroupLayout {
  readonly label: string;
  /** The slots, sorted by binding, without `group`. */
  readonly entries: readonly BindingLayoutEntry[];

  constructor(desc: BindGroupLayoutDescriptor, label = desc.label ?? 'bind group layout') {
    this.label = label;
    if (!desc || !Array.isArray(desc.entries))
      throw new ValidationError(
        'bind-group-layout',
        `createBindGroupLayout takes { entries: [...] }, got ${String(desc?.entries)}`,
        label,
      );
    const entries = desc.entries.map(ignisEntry);
    const seen = new Set<number>();
    for (const e of entries) {
      if (
        !Number.isInteger(e?.binding) ||
        e.binding < 0 ||
        e.binding >= MAX_BINDINGS_PER_BIND_GROUP
      )
        throw new ValidationError(
          'bind-group-layout',
          `Bind group layout entry binding ${String(e?.binding)} must be an integer from 0 to ${MAX_BINDINGS_PER_BIND_GROUP - 1}`,
          label,
          { binding: e?.binding },
        );
      if (seen.has(e.binding))
        throw new ValidationError(
          'bind-group-layout',
          `Bind group layout has two entries at binding ${e.binding}`,
          label,
          { binding: e.binding },
        );
      if (!TYPES.includes(e.type))
        throw new ValidationError(
          'bind-group-layout',
          `Bind group layout entry ${e.binding} has type ${String(e.type)}; one of ${TYPES.join(', ')} (or WebGPU's buffer / texture / sampler / storageTexture member)`,
          label,
          { binding: e.binding, type: e.type },
        );
      seen.add(e.binding);
    }
    this.entries = entries
      .map(({ group: _group, ...entry }) => entry)
      .sort((a, b) => a.binding - b.binding);
  }
}

/**
 * Resources for the slots of one group, checked once when made (usage, ranges, alignment, kinds)
 * and bound with `pass.setBindGroup(index, group)`. Holds no GPU object of its own: each backend
 * makes what it needs at replay (a cached `GPUBindGroup`; GL binding points).
 */
export class BindGroup {
  readonly device: Device;
  readonly label: string;
  readonly layout: BindGroupLayout;
  /** What each binding holds. */
  readonly resources: ReadonlyMap<number, BoundResource>;

  constructor(device: Device, desc: BindGroupDescriptor) {
    const label = desc?.label ?? 'bind group';
    if (!(desc?.layout instanceof BindGroupLayout))
      throw new ValidationError(
        'bind-group-layout',
        `createBindGroup needs a layout from device.createBindGroupLayout() or pipeline.getBindGroupLayout(), got ${String(desc?.layout)}`,
        label,
      );
    if (!Array.isArray(desc.entries))
      throw new ValidationError(
        'bind-group-entry',
        `createBindGroup takes entries: [{ binding, resource }, ...], got ${String(desc.entries)}`,
        label,
      );
    this.device = device;
    this.label = label;
    this.layout = desc.layout;
    const byBinding = new Map<number, BindingResource>();
    for (const e of desc.entries) {
      const slot = desc.layout.entries.find((l) => l.binding === e?.binding);
      if (!slot)
        throw new ValidationError(
          'bind-group-entry',
          `Bind group entry at binding ${String(e?.binding)} is not in layout "${desc.layout.label}" (bindings ${desc.layout.entries.map((l) => l.binding).join(', ') || 'none'})`,
          label,
          { binding: e?.binding },
        );
      if (byBinding.has(e.binding))
        throw new ValidationError(
          'bind-group-entry',
          `Bind group has two entries at binding ${e.binding}`,
          label,
          { binding: e.binding },
        );
      byBinding.set(e.binding, e.resource);
    }
    const resources = new Map<number, BoundResource>();
    for (const slot of desc.layout.entries) {
      if (!byBinding.has(slot.binding))
        throw new ValidationError(
          'bind-group-entry',
          `Bind group has no entry for binding ${slot.binding} (${slot.type}${slot.name ? ` "${slot.name}"` : ''}) of layout "${desc.layout.label}"`,
          label,
          { binding: slot.binding, type: slot.type },
        );
      resources.set(slot.binding, bound(device, label, slot, byBinding.get(slot.binding)));
    }
    this.resources = resources;
  }
}

/** A layout slot's resource, checked as the slot-binding call of its kind checks it. */
function bound(
  device: Device,
  label: string,
  slot: BindingLayoutEntry,
  resource: BindingResource | undefined,
): BoundResource {
  const op = `createBindGroup "${label}" binding ${slot.binding}`;
  const range = (): BufferBinding =>
    resource instanceof Buffer
      ? { buffer: resource }
      : resource && typeof resource === 'object' && 'buffer' in resource
        ? resource
        : { buffer: resource as unknown as Buffer };
  switch (slot.type) {
    case 'uniform': {
      const r = range();
      return uniformBinding(device, op, r.buffer, r.offset, r.size);
    }
    case 'storage':
    case 'read-only-storage': {
      const r = range();
      const access = slot.type === 'read-only-storage' ? 'read' : 'auto';
      return storageBinding(device, op, r.buffer, access, r.offset, r.size);
    }
    case 'texture':
      return textureBinding(device, op, resource as Texture);
    case 'storage-texture':
      return storageTextureBinding(device, op, resource as Texture);
    case 'sampler':
      return samplerBinding(device, op, resource as Sampler);
  }
}

/** `pipeline.getBindGroupLayout(index)`: the slots of group `index` of a pipeline's layout. */
export function groupLayout(
  bindings: readonly BindingLayoutEntry[],
  index: number,
  pipelineLabel: string,
): BindGroupLayout {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_BIND_GROUPS)
    throw new ValidationError(
      'bind-group-index',
      `getBindGroupLayout index ${String(index)} must be an integer from 0 to ${MAX_BIND_GROUPS - 1}`,
      pipelineLabel,
      { index },
    );
  return new BindGroupLayout(
    { entries: bindings.filter((b) => (b.group ?? 0) === index) },
    `${pipelineLabel} group ${index}`,
  );
}
