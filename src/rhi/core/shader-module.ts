import { Resource } from './resource.js';
import { reflectWgslBindings, type WgslBinding } from './reflect.js';
import type { ShaderModuleDescriptor, ShaderStage } from './descriptors.js';
import type { ShaderLanguage } from './caps.js';
import type { Device } from './device.js';

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
}
