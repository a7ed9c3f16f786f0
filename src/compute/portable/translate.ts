/**
 * The WGSL front end's work for element-wise kernels, reductions and particle looks, in one
 * module: the only code that imports the parser (wgsl_reflect) and the emitters for them. The
 * particles load it on demand (`loadFrontEnd` in ../front-end.ts) — a WebGPU device whose
 * particles run as compute with Ignis's own modules never downloads it; `defineKernel`
 * (`ignis-rhi/compute`) imports it, so a kernel is checked where it is defined.
 */
import { analyzeKernel, PortableKernelError } from './analyze.js';
import { emitGlslElementwise, emitGlslFunctions, emitGlslReduceVertex } from './glsl.js';
import { emitJsElementwise } from './js.js';
import { runtime } from './runtime.js';
import { KernelError } from '../kernel-error.js';
import type { TranslatableKernel, KernelTranslation } from '../kernel.js';
import type { CpuStep } from '../paths/path.js';

/** A kernel's GLSL fragment ping-pong and CPU step, translated from its WGSL; KernelError if it cannot be. */
export function translateKernel(k: TranslatableKernel): KernelTranslation {
  const { label, attributes } = k.descriptor;
  const gather = k.descriptor.gather === true;
  const depth = k.descriptor.sceneDepth === true;
  const source = k.descriptor.source ?? [];
  let translated;
  try {
    translated = analyzeKernel(label, k.wgslTranslated, 'ignisMain', { whole: true });
  } catch (e) {
    if (e instanceof PortableKernelError)
      throw new KernelError(
        label,
        `${e.message.replace(/^\[[^\]]*\] /, '')}, in the kernel's WGSL:\n${k.wgslTranslated.split('\n')[e.line - 1] ?? ''}`,
      );
    throw e;
  }
  const glslFragment = emitGlslElementwise(translated, attributes, gather, depth, source);
  const cpu = {
    step: new Function('$', emitJsElementwise(translated, attributes, gather, depth, source))(
      runtime,
    ) as CpuStep['step'],
  };
  return { glslFragment, cpu };
}

/** The GLSL vertex stage counting a reduction's predicates, from their WGSL (reduce.ts builds it). */
export function translateReduce(
  label: string,
  wgsl: string,
  attributes: readonly string[],
  gather: boolean,
): string {
  return emitGlslReduceVertex(
    analyzeKernel(`${label} reduce`, wgsl, 'ignisMain', { whole: true }),
    attributes,
    gather,
  );
}

/**
 * GLSL functions translated from a WGSL module whose entry point is `entry` (a particle look);
 * a PortableKernelError or KernelError where the code cannot be translated.
 */
export function translateFunctions(
  label: string,
  wgsl: string,
  entry: string,
): ReturnType<typeof emitGlslFunctions> {
  return emitGlslFunctions(analyzeKernel(label, wgsl, entry, { whole: true }));
}

export { PortableKernelError };
