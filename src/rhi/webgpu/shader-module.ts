import { ShaderModule } from '../core/shader-module.js';
import { ShaderCompileError } from '../core/errors.js';
import type { ShaderModuleDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUShaderModule extends ShaderModule {
  readonly gpu: GPUShaderModule;
  /** Resolves with the compile error, or null, once the compiler has answered. */
  readonly compiled: Promise<ShaderCompileError | null>;

  constructor(device: WebGPUDevice, desc: ShaderModuleDescriptor) {
    super(device, desc, 'wgsl');
    // The compiler's messages come back typed, with lines, through getCompilationInfo() below; the
    // same failure as Dawn's validation error would reach the sink a second time, untyped. The
    // scope catches that copy (and only errors of this call).
    device.gpu.pushErrorScope('validation');
    this.gpu = device.gpu.createShaderModule({ label: desc.label, code: desc.code });
    void device.gpu.popErrorScope().then(
      () => undefined,
      () => undefined,
    );
    const lines = desc.code.split('\n');
    this.compiled = this.gpu.getCompilationInfo().then((info) => {
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length === 0) return null;
      const error = new ShaderCompileError(
        'wgsl',
        errors.map((m) => ({
          line: m.lineNum,
          message: m.message,
          sourceLine: lines[m.lineNum - 1] ?? '',
        })),
        desc.label,
      );
      device.reportError(error);
      return error;
    });
  }

  override compilation(): Promise<ShaderCompileError | null> {
    return this.compiled;
  }

  protected destroyImpl(): void {}
}
