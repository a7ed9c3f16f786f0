import { Resource } from './resource.js';
import type { BindingLayoutEntry, ComputePipelineDescriptor } from './descriptors.js';
import type { Device } from './device.js';

export abstract class ComputePipeline extends Resource {
  readonly kind = 'compute-pipeline' as const;
  readonly descriptor: ComputePipelineDescriptor;
  readonly bindings: readonly BindingLayoutEntry[];
  /** `@workgroup_size` of the entry point, reflected from WGSL ([1, 1, 1] when not found). */
  readonly workgroupSize: readonly [number, number, number];
  constructor(device: Device, desc: ComputePipelineDescriptor, bindings: BindingLayoutEntry[]) {
    super(device, desc.label);
    this.descriptor = desc;
    this.bindings = bindings;
    this.workgroupSize = reflectWorkgroupSize(desc.compute.module.code, desc.compute.entryPoint);
  }
}

/** Finds `@compute @workgroup_size(x, y, z) fn entry` in WGSL; numeric literals only. */
export function reflectWorkgroupSize(code: string, entryPoint?: string): [number, number, number] {
  const re = /@workgroup_size\s*\(\s*([^)]*)\)\s*(?:@\w+\s*)*fn\s+(\w+)/g;
  for (const m of code.matchAll(re)) {
    if (entryPoint && m[2] !== entryPoint) continue;
    const parts = (m[1] ?? '').split(',').map((s) => Number.parseInt(s.trim(), 10));
    return [parts[0] || 1, parts[1] || 1, parts[2] || 1];
  }
  return [1, 1, 1];
}
