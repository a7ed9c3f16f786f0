import { Sampler } from '../core/sampler.js';

export class NullSampler extends Sampler {
  protected destroyImpl(): void {}
}
