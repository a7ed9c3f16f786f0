/** Which path and which HDR format a post-process chain takes on a device, and why. */
import { UnsupportedFeatureError } from '../rhi/core/errors.js';
import { choosePath } from '../compute/paths/choose.js';
import type { Caps } from '../rhi/core/caps.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import { PostFxOptionError } from './options.js';
import type { PostPath } from './passes.js';

/** The HDR format asked for (`auto` takes rgba16float where it renders, else rgba8unorm). */
export type HdrFormatRequest = 'auto' | 'rgba16float' | 'rgba8unorm';

/** The path and HDR format a chain took, and why. */
export interface PostChoice {
  path: PostPath;
  format: TextureFormat;
  reason: string;
}

/**
 * The compute path where the device has compute and storage textures (`choosePath` decides compute
 * against ping-pong, which here is the fragment path); rgba16float where it can be rendered to (and
 * written as storage), else rgba8unorm, which clips HDR values at 1 — said in `reason`, never silent.
 */
export function choosePostPath(
  caps: Caps,
  path: 'auto' | PostPath,
  hdrFormat: HdrFormatRequest,
): PostChoice {
  if (path !== 'auto' && path !== 'compute' && path !== 'fragment')
    throw new PostFxOptionError('path', path, "must be 'auto', 'compute' or 'fragment'");
  if (hdrFormat !== 'auto' && hdrFormat !== 'rgba16float' && hdrFormat !== 'rgba8unorm') {
    throw new PostFxOptionError(
      'hdrFormat',
      hdrFormat,
      "must be 'auto', 'rgba16float' or 'rgba8unorm'",
    );
  }
  const f = caps.features;
  let chosen: PostPath;
  let why: string;
  try {
    const c = choosePath(caps, {
      path: path === 'fragment' ? 'pingpong' : path,
      hasCpu: false,
      attributes: 1,
      label: 'post-process',
    });
    chosen = c.path === 'compute' ? 'compute' : 'fragment';
    why =
      c.path === 'compute'
        ? 'compute'
        : path === 'fragment'
          ? "path 'fragment' requested"
          : 'no compute: fragment passes';
  } catch (e) {
    if (path === 'compute')
      throw new PostFxOptionError('path', path, `cannot run here: ${(e as Error).message}`);
    // no float render targets at all: the fragment path still runs, in 8 bits
    chosen = 'fragment';
    why = path === 'fragment' ? "path 'fragment' requested" : 'no compute: fragment passes';
  }
  if (chosen === 'compute' && !f.storageTextures) {
    if (path === 'compute')
      throw new UnsupportedFeatureError(
        'storageTextures',
        caps.backend,
        "use path 'fragment' or 'auto'",
        'post-process',
      );
    chosen = 'fragment';
    why = 'no storage textures: fragment passes';
  }
  const halfOk = f.halfFloatRenderTargets;
  if (hdrFormat === 'rgba16float' && !halfOk) {
    throw new PostFxOptionError(
      'hdrFormat',
      hdrFormat,
      `cannot be rendered to here (caps.features.halfFloatRenderTargets is false on ${caps.backend}); use 'auto' or 'rgba8unorm'`,
    );
  }
  const format: TextureFormat =
    hdrFormat === 'rgba8unorm' || !halfOk ? 'rgba8unorm' : 'rgba16float';
  const formatWhy =
    format === 'rgba16float'
      ? 'rgba16float'
      : hdrFormat === 'rgba8unorm'
        ? 'rgba8unorm requested (values above 1 clip)'
        : 'rgba8unorm: no half-float render targets, so values above 1 clip and bloom sees only what is below the clip';
  return { path: chosen, format, reason: `${why}; ${formatWhy}` };
}
