/** The shape of the pass a particle draw pipeline is made for (renderer.ts keeps the last one). */
import { ValidationError } from '../rhi/core/errors.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { ParticleOptions } from './options.js';
import type { CompiledLook } from './look.js';
import type { DrawPipelineKey } from './draw.js';

/** What a draw pipeline is made for, from the pass it draws in (and the options' look). */
export type PassShape = Omit<DrawPipelineKey, 'state' | 'mode' | 'living' | 'tinted'>;

/** The shape of `pass` a draw pipeline must match: exactly one colour attachment. */
export function passShape(
  pass: RenderPass,
  o: ParticleOptions,
  look: CompiledLook | null,
  last: PassShape | null,
): PassShape {
  const formats = pass.colorFormats;
  if (formats.length !== 1) {
    throw new ValidationError(
      'particles-pass',
      `particles draw into a pass with exactly one colour attachment; this pass has ${formats.length} ([${formats.join(', ')}])`,
      'particle system',
      { attachments: formats },
    );
  }
  const format = formats[0] as TextureFormat;
  const depthFormat = pass.depthStencilFormat;
  const sampleCount = pass.sampleCount;
  const textured = o.texture !== null;
  const sheet = o.spriteSheet;
  const crossFaded = textured && sheet.blend && sheet.columns * sheet.rows > 1;
  const soft = o.softParticles !== null;
  const lit = o.light !== null;
  const normalMapped = (o.light?.normalMap ?? null) !== null;
  const shadowed = (o.light?.shadow ?? null) !== null;
  // (read every draw: no closures)
  const turned =
    o.rotation[0] !== 0 ||
    o.rotation[1] !== 0 ||
    o.angularVelocity[0] !== 0 ||
    o.angularVelocity[1] !== 0;
  const alongVelocity = o.billboard === 'velocity';
  // the last shape again when nothing changed: a draw every frame makes no object for it
  if (
    last &&
    last.format === format &&
    last.depthFormat === depthFormat &&
    last.sampleCount === sampleCount &&
    last.blending === o.blending &&
    last.keepAlpha === (o.targetAlpha === 'keep') &&
    last.textured === textured &&
    last.crossFaded === crossFaded &&
    last.soft === soft &&
    last.lit === lit &&
    last.normalMapped === normalMapped &&
    last.shadowed === shadowed &&
    last.look === look &&
    last.sorted === o.sort &&
    last.turned === turned &&
    last.alongVelocity === alongVelocity
  )
    return last;
  return {
    format,
    depthFormat,
    sampleCount,
    blending: o.blending,
    keepAlpha: o.targetAlpha === 'keep',
    textured,
    crossFaded,
    soft,
    lit,
    normalMapped,
    shadowed,
    look: look,
    sorted: o.sort,
    turned,
    alongVelocity,
  };
}
