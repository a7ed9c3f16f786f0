import type { BindingLayoutEntry } from '../core/descriptors.js';

/** Ignis' flat slot layout → a WebGPU bind group layout entry. The stage mask is chosen per kind. */
export function bindGroupLayoutEntry(
  entry: BindingLayoutEntry,
  stages: 'render' | 'compute',
  dynamic = false,
): GPUBindGroupLayoutEntry {
  const all =
    stages === 'compute' ? GPUShaderStage.COMPUTE : GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT;
  const base = { binding: entry.binding };
  switch (entry.type) {
    case 'uniform':
      return { ...base, visibility: all, buffer: { type: 'uniform', hasDynamicOffset: dynamic } };
    case 'read-only-storage':
      return { ...base, visibility: all, buffer: { type: 'read-only-storage' } };
    case 'storage':
      // the vertex stage cannot write storage buffers
      return {
        ...base,
        visibility: stages === 'compute' ? all : GPUShaderStage.FRAGMENT,
        buffer: { type: 'storage' },
      };
    case 'texture':
      return { ...base, visibility: all, texture: { sampleType: entry.sampleType ?? 'float' } };
    case 'sampler':
      return { ...base, visibility: all, sampler: { type: entry.samplerType ?? 'filtering' } };
    case 'storage-texture':
      return {
        ...base,
        visibility: stages === 'compute' ? all : GPUShaderStage.FRAGMENT,
        storageTexture: {
          access: 'write-only',
          format: (entry.format ?? 'rgba8unorm') as GPUTextureFormat,
        },
      };
  }
}

export function layoutKey(
  entries: readonly BindingLayoutEntry[],
  stages: 'render' | 'compute',
): string {
  return `${stages}:${entries.map((e) => `${e.binding}${e.type}${e.sampleType ?? ''}${e.format ?? ''}${e.samplerType ?? ''}`).join(',')}`;
}
