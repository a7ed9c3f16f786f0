/** The particle system's option error and the small checks every module's validation is made of. */
import { ValidationError } from '../rhi/core/errors.js';
import { TextureUsage } from '../rhi/core/flags.js';
import { FORMAT_INFO } from '../rhi/core/formats.js';
import type { Device } from '../rhi/core/device.js';
import type { Texture } from '../rhi/core/texture.js';

/** A bad option: `option` names it (dotted path), `value` holds it. */
export class ParticleOptionError extends ValidationError {
  readonly option: string;
  readonly value: unknown;
  constructor(option: string, value: unknown, why: string) {
    super(
      'particle-option',
      `Particle option ${option} = ${formatValue(value)} ${why}`,
      'particle system',
      { option, value },
    );
    this.option = option;
    this.value = value;
  }
}

function formatValue(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  try {
    return (
      JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v)
    );
  } catch {
    return String(v);
  }
}

/** `v` must be a finite number. */
export function finite(option: string, v: unknown): void {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ParticleOptionError(option, v, 'must be a finite number');
}

/** `v` must be an array of `n` finite numbers. */
export function vector(option: string, v: unknown, n: number): void {
  if (!Array.isArray(v) || v.length !== n)
    throw new ParticleOptionError(option, v, `must be an array of ${n} numbers`);
  v.forEach((x, i) => finite(`${option}[${i}]`, x));
}

/** `v` must be an object (not null, not an array). */
export function object(option: string, v: unknown, shape: string): void {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ParticleOptionError(option, v, `must be ${shape}`);
}

/** A scene depth texture's problem, as a ParticleOptionError naming `option`. */
export function checkDepthTexture(device: Device, depth: Texture, option: string): void {
  const why =
    depth.device !== device
      ? 'belongs to another device'
      : depth.destroyed
        ? 'is destroyed'
        : (depth.usage & TextureUsage.TEXTURE_BINDING) === 0
          ? 'needs TextureUsage.TEXTURE_BINDING'
          : FORMAT_INFO[depth.format].kind !== 'depth'
            ? `has format ${depth.format}; the scene depth is a depth format (depth24plus, depth32float)`
            : depth.sampleCount !== 1
              ? 'is multisampled'
              : null;
  if (why) throw new ParticleOptionError(option, depth.label, why);
}
