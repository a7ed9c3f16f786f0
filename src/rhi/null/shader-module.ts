import { ShaderModule } from '../core/shader-module.js';

export class NullShaderModule extends ShaderModule {
  protected destroyImpl(): void {}
}
