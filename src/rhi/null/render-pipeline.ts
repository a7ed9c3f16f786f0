import { RenderPipeline } from '../core/render-pipeline.js';

export class NullRenderPipeline extends RenderPipeline {
  protected destroyImpl(): void {}
}
