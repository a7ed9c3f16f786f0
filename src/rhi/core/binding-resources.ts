/**
 * What a slot holds once checked: a uniform or storage buffer range, a sampled or storage texture,
 * a sampler (`BoundResource`). bindings.ts (the slot tables of passes) and bind-group.ts (groups)
 * both check bindings through these.
 */
import { BufferUsage, TextureUsage } from './flags.js';
import { requireResource } from './validate/resource.js';
import { ValidationError } from './errors.js';
import { requireBufferUsage, validateBufferRange } from './validate/buffer.js';
import { requireTextureUsage } from './validate/texture.js';
import type { BoundResource, StorageAccess } from './commands.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';
import type { Device } from './device.js';

/** The rules of a buffer binding, per kind: usage bit, range rule, alignment and size limits. */
const BUFFER_BINDINGS = {
  uniform: {
    name: 'Uniform',
    usage: BufferUsage.UNIFORM,
    rangeRule: 'uniform-binding',
    alignRule: 'uniform-offset-alignment',
    sizeRule: 'uniform-binding-size',
    alignment: 'minUniformBufferOffsetAlignment',
    maximum: 'maxUniformBufferBindingSize',
  },
  storage: {
    name: 'Storage',
    usage: BufferUsage.STORAGE,
    rangeRule: 'storage-binding',
    alignRule: 'storage-offset-alignment',
    sizeRule: 'storage-binding-size',
    alignment: 'minStorageBufferOffsetAlignment',
    maximum: 'maxStorageBufferBindingSize',
  },
} as const;

// (made once: a binding is checked for every setUniformBuffer of every draw)
const UNIFORM_RANGE = { sizeMultiple: 1 } as const;
const STORAGE_RANGE = { sizeMultiple: 4 } as const;

/** Checks a buffer binding of `kind` (usage, range, offset alignment, size limit); returns its size. */
function bufferBinding(
  kind: keyof typeof BUFFER_BINDINGS,
  device: Device,
  op: string,
  buffer: Buffer,
  offset: number,
  size: number | undefined,
): number {
  const rules = BUFFER_BINDINGS[kind];
  requireResource(buffer, 'buffer', op, device);
  requireBufferUsage(buffer.usage, rules.usage, op, buffer.label);
  // (only a size left out means the rest of the buffer: null is a wrong value, not a default)
  const s = size === undefined ? buffer.size - offset : size;
  // (a uniform range has no size alignment in WebGPU; a storage range is a multiple of 4)
  validateBufferRange(
    rules.rangeRule,
    buffer.size,
    offset,
    s,
    buffer.label,
    kind === 'uniform' ? UNIFORM_RANGE : STORAGE_RANGE,
  );
  const limits = device.caps.limits;
  if (offset % limits[rules.alignment] !== 0)
    throw new ValidationError(
      rules.alignRule,
      `${rules.name} binding offset ${offset} must be a multiple of limits.${rules.alignment} (${limits[rules.alignment]})`,
      buffer.label,
      { offset },
    );
  if (s > limits[rules.maximum])
    throw new ValidationError(
      rules.sizeRule,
      `${rules.name} binding of ${s} bytes exceeds limits.${rules.maximum} (${limits[rules.maximum]})`,
      buffer.label,
      { size: s },
    );
  return s;
}

/** Checks a uniform buffer binding (usage, range, offset alignment, size limit): what the slot holds. */
export function uniformBinding(
  device: Device,
  op: string,
  buffer: Buffer,
  offset = 0,
  size?: number,
): BoundResource {
  const s = bufferBinding('uniform', device, op, buffer, offset, size);
  return { kind: 'uniform', buffer, offset, size: s };
}

/** Checks a storage buffer binding (usage, range, offset alignment, size limit). */
export function storageBinding(
  device: Device,
  op: string,
  buffer: Buffer,
  access: StorageAccess,
  offset = 0,
  size?: number,
): BoundResource {
  const s = bufferBinding('storage', device, op, buffer, offset, size);
  return { kind: 'storage', buffer, offset, size: s, access };
}

/** Checks a sampled texture binding (TEXTURE_BINDING usage). */
export function textureBinding(device: Device, op: string, texture: Texture): BoundResource {
  requireResource(texture, 'texture', op, device);
  requireTextureUsage(texture.usage, TextureUsage.TEXTURE_BINDING, op, texture.label);
  return { kind: 'texture', texture };
}

/** Checks a storage texture binding (STORAGE_BINDING usage). */
export function storageTextureBinding(device: Device, op: string, texture: Texture): BoundResource {
  requireResource(texture, 'texture', op, device);
  requireTextureUsage(texture.usage, TextureUsage.STORAGE_BINDING, op, texture.label);
  return { kind: 'storage-texture', texture };
}

/** Checks a sampler binding. */
export function samplerBinding(device: Device, op: string, sampler: Sampler): BoundResource {
  requireResource(sampler, 'sampler', op, device);
  return { kind: 'sampler', sampler };
}
