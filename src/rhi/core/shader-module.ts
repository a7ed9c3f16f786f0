import { Resource } from './resource.js';
import { reflectWgslBindings, type WgslBinding } from './reflect.js';
import type { ShaderModuleDescriptor, ShaderStage } from './descriptors.js';
import type { ShaderLanguage } from './caps.js';
import type { Device } from './device.js';
import type { ShaderCompileError } from './errors.js';

/** Compiled shader code and its reflected bindings (`device.createShaderModule`). */
export abstract class ShaderModule extends Resource {
  readonly kind = 'shader-module' as const;
  readonly code: string;
  readonly language: ShaderLanguage;
  readonly stage: ShaderStage | undefined;
  /** Resource declarations found in WGSL source (empty for GLSL). */
  readonly bindings: readonly WgslBinding[];

  constructor(device: Device, desc: ShaderModuleDescriptor, language: ShaderLanguage) {
    super(device, desc.label);
    this.code = desc.code;
    this.language = language;
    this.stage = desc.stage;
    this.bindings = language === 'wgsl' ? reflectWgslBindings(desc.code) : [];
  }

  /**
   * The compiler's verdict: null, or the error. Where a backend compiles asynchronously (WebGPU:
   * `getCompilationInfo`) it resolves once the compiler has answered (the error is also reported
   * to the device's error sink); where compiling is synchronous (WebGL2, null) a bad module threw
   * from `createShaderModule` and this resolves null.
   */
  compilation(): Promise<ShaderCompileError | null> {
    return Promise.resolve(null);
  }
}
