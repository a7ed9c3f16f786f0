import { ComputePipeline } from '../core/compute-pipeline.js';
import { UnsupportedFeatureError } from '../core/errors.js';
import type { BindingLayoutEntry, ComputePipelineDescriptor } from '../core/descriptors.js';
import type { WebGL2Device } from './device.js';

/**
 * WebGL2 has no compute. Core rejects `createComputePipeline` on this backend with an
 * `UnsupportedFeatureError` naming `caps.features.compute` and the fallback (the ping-pong runner
 * in src/compute), so this class is never constructed; it exists to keep the file list the same.
 */
export class WebGL2ComputePipeline extends ComputePipeline {
  constructor(
    device: WebGL2Device,
    desc: ComputePipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ) {
    super(device, desc, bindings);
    throw new UnsupportedFeatureError(
      'compute',
      'webgl2',
      'use the ping-pong runner of src/compute',
      desc.label,
    );
  }
  protected destroyImpl(): void {}
}
