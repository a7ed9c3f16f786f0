import { ComputePipeline } from '../core/compute-pipeline.js';

export class NullComputePipeline extends ComputePipeline {
  protected destroyImpl(): void {}
}
