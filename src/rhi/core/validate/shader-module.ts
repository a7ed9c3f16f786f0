import { ValidationError } from '../errors.js';
import type { Caps, ShaderLanguage } from '../caps.js';
import type { ShaderModuleDescriptor, ShaderStage } from '../descriptors.js';
import { show } from '../show.js';

const STAGES: readonly unknown[] = ['vertex', 'fragment', 'compute'] satisfies ShaderStage[];

/**
 * Shader module descriptors: code, a string, in the device's language; GLSL names its stage and
 * is not empty (a GLSL shader needs `main`); an empty WGSL module is valid, as in WebGPU (a
 * pipeline using it finds no entry point: pipeline-entry-point). Returns the language.
 */
export function validateShaderModuleDescriptor(
  desc: ShaderModuleDescriptor,
  caps: Caps,
): ShaderLanguage {
  if (typeof desc.code !== 'string') {
    throw new ValidationError(
      'shader-code',
      `Shader module code must be a string, got ${typeof desc.code}`,
      desc.label,
      { code: typeof desc.code },
    );
  }
  if (desc.stage !== undefined && !STAGES.includes(desc.stage))
    throw new ValidationError(
      'shader-stage',
      `Shader module stage must be one of ${STAGES.join(', ')} (or left out for WGSL), got ${show(desc.stage)}`,
      desc.label,
      { stage: desc.stage },
    );
  if (desc.language !== undefined && desc.language !== 'wgsl' && desc.language !== 'glsl')
    throw new ValidationError(
      'shader-language',
      `Shader module language must be 'wgsl' or 'glsl' (or left out: the device's), got ${show(desc.language)}`,
      desc.label,
      { language: desc.language },
    );
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
  if (language === 'glsl' && desc.code.trim() === '')
    throw new ValidationError(
      'shader-code',
      'A GLSL shader module needs code (a stage with main); it is empty',
      desc.label,
    );
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
