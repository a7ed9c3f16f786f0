import { ValidationError } from '../errors.js';
import type { Limits } from '../caps.js';
import { show } from '../show.js';

/** `surface.resize(width, height)`: integers in [0, maxTextureDimension2D]. */
export function validateSurfaceSize(width: unknown, height: unknown, limits: Limits): void {
  const max = limits.maxTextureDimension2D;
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
      throw new ValidationError(
        'surface-size',
        `surface.resize: ${name} must be an integer from 0 to maxTextureDimension2D (${max}), got ${show(value)}`,
        undefined,
        { [name]: value, max },
      );
  }
}

/** `surface.getCurrentTexture()`: the canvas has pixels (a texture's extent is at least 1×1). */
export function validateSurfaceDrawable(width: number, height: number): void {
  if (width < 1 || height < 1)
    throw new ValidationError(
      'surface-empty',
      `surface.getCurrentTexture: the canvas is ${width}×${height}, and a texture needs at least 1×1 (resize the surface before drawing into it)`,
      undefined,
      { width, height },
    );
}
