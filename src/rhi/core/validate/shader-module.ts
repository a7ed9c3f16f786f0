import { ValidationError } from '../errors.js';
import type { Caps, ShaderLanguage } from '../caps.js';
import type { ShaderModuleDescriptor } from '../descriptors.js';

/** Shader module descriptors: non-empty code in the device's language; GLSL names its stage. Returns the language. */
export function validateShaderModuleDescriptor(
  desc: ShaderModuleDescriptor,
  caps: Caps,
): ShaderLanguage {
  if (typeof desc.code !== 'string' || desc.code.trim() === '') {
    throw new ValidationError(
      'shader-code',
      'Shader module code must be a non-empty string',
      desc.label,
    );
  }
  const language = desc.language ?? caps.shaderLanguage;
  if (language !== caps.shaderLanguage) {
    throw new ValidationError(
      'shader-language',
      `A ${language} module cannot run on the ${caps.backend} backend, which runs ${caps.shaderLanguage}`,
      desc.label,
      {
        language,
        expected: caps.shaderLanguage,
      },
    );
  }
  if (language === 'glsl' && desc.stage !== 'vertex' && desc.stage !== 'fragment') {
    throw new ValidationError(
      'shader-stage',
      `A GLSL module needs stage 'vertex' or 'fragment', got ${String(desc.stage)}`,
      desc.label,
      {
        stage: desc.stage,
      },
    );
  }
  return language;
}
