/** Render: an image per particle (`texture`), optionally a flipbook (`spriteSheet`), tinted by the colour. */
import { ParticleOptionError, finite } from '../errors.js';
import { TextureUsage } from '../../rhi/core/flags.js';
import { FORMAT_INFO } from '../../rhi/core/formats.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Device } from '../../rhi/core/device.js';
import { defineModule } from './module.js';

export const sprite = defineModule({
  name: 'sprite',
  stage: 'render',
  summary:
    'an image per particle: texture, spriteSheet { columns, rows, frameOver, speedScale, blend }',
  keys: ['texture', 'spriteSheet'],
  present: (o) => o.texture !== null,
  resolve(o) {
    const t = o.texture as unknown;
    if (t !== null && (!t || typeof t !== 'object' || (t as { kind?: unknown }).kind !== 'texture'))
      throw new ParticleOptionError('texture', t, 'must be null or a texture of this device');
    const sheet = o.spriteSheet;
    for (const key of ['columns', 'rows'] as const)
      if (!Number.isInteger(sheet[key]) || sheet[key] < 1 || sheet[key] > 64)
        throw new ParticleOptionError(
          `spriteSheet.${key}`,
          sheet[key],
          'must be an integer from 1 to 64',
        );
    if (sheet.frameOver !== 'life' && sheet.frameOver !== 'speed')
      throw new ParticleOptionError(
        'spriteSheet.frameOver',
        sheet.frameOver,
        "must be 'life' or 'speed'",
      );
    finite('spriteSheet.speedScale', sheet.speedScale);
    if (sheet.speedScale < 0)
      throw new ParticleOptionError(
        'spriteSheet.speedScale',
        sheet.speedScale,
        'must not be negative',
      );
    if (typeof sheet.blend !== 'boolean')
      throw new ParticleOptionError('spriteSheet.blend', sheet.blend, 'must be true or false');
    if (t === null && sheet.columns * sheet.rows > 1)
      throw new ParticleOptionError(
        'spriteSheet',
        `${sheet.columns}×${sheet.rows}`,
        "needs a texture (the flipbook's frames are in it)",
      );
    return { texture: o.texture, spriteSheet: sheet };
  },
  /** The texture must be a live, filterable texture of this device that shaders may sample. */
  checkDevice(device, o) {
    checkSampledTexture(device, 'texture', o.texture);
  },
});

/** `texture` (option `option`) is null, or a live, filterable texture of `device` that shaders may sample. */
export function checkSampledTexture(device: Device, option: string, texture: Texture | null): void {
  if (texture === null) return;
  if (texture.device !== device)
    throw new ParticleOptionError(option, texture.label, 'belongs to another device');
  if (texture.destroyed) throw new ParticleOptionError(option, texture.label, 'is destroyed');
  if ((texture.usage & TextureUsage.TEXTURE_BINDING) === 0)
    throw new ParticleOptionError(option, texture.label, 'needs TextureUsage.TEXTURE_BINDING');
  const info = FORMAT_INFO[texture.format];
  if (info.kind !== 'unorm' && !(info.kind === 'float' && info.half))
    throw new ParticleOptionError(
      option,
      texture.label,
      `has format ${texture.format}, which cannot be filtered; use an 8-bit unorm or a 16-bit float format`,
    );
  if (texture.sampleCount !== 1)
    throw new ParticleOptionError(option, texture.label, 'is multisampled');
}
