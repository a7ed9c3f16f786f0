/**
 * Which execution path element-wise work takes on a device, and why: one pure function over the
 * device's capabilities, used by the element-wise runner, the particle system and post-processing.
 *
 * | path       | needs                                                           | state                                   |
 * |------------|-----------------------------------------------------------------|-----------------------------------------|
 * | `compute`  | `caps.features.compute`                                         | one STORAGE\|VERTEX buffer per attribute |
 * | `pingpong` | `floatRenderTargets` (f32) or `halfFloatRenderTargets` (f16)    | two RGBA textures per attribute         |
 * | `cpu`      | a CPU form of the work                                          | Float32Arrays, uploaded after each step |
 */
import { LimitExceededError, UnsupportedFeatureError } from '../../rhi/core/errors.js';
import type { Caps } from '../../rhi/core/caps.js';

/** An execution path: WebGPU compute, WebGL2 fragment ping-pong, or the CPU. */
export type PathName = 'compute' | 'pingpong' | 'cpu';
/** The precision state is kept in on a path (`f16` where float32 render targets are missing). */
export type Precision = 'f32' | 'f16';

/** What `choosePath` needs: the path asked for, whether a CPU form exists, the state attributes. */
export interface PathRequest {
  /** 'auto' takes the first path that fits, in the order of the table. */
  path: 'auto' | PathName;
  /** Whether a CPU form of the work exists (needed for `cpu`, and for `auto` with neither GPU path). */
  hasCpu: boolean;
  /** State attributes (vec4 each): the ping-pong path renders one colour attachment per attribute. */
  attributes: number;
  /** Who asks, for error messages. */
  label?: string;
}

/** The path `choosePath` took, its precision, and the reason in words. */
export interface PathChoice {
  path: PathName;
  /** How state is stored on the GPU: 'f16' only for ping-pong without float32 render targets. */
  precision: Precision;
  /** Why this path was taken, in words a user can act on. */
  reason: string;
}

/** Picks the path for `request` on a device with `caps`; a path that cannot run is a typed error. */
export function choosePath(caps: Caps, request: PathRequest): PathChoice {
  const f = caps.features;
  const { path, label } = request;
  const floatTargets = f.floatRenderTargets || f.halfFloatRenderTargets;
  if (path === 'compute' || (path === 'auto' && f.compute)) {
    if (!f.compute)
      throw new UnsupportedFeatureError(
        'compute',
        caps.backend,
        "use path 'pingpong' or 'auto'",
        label,
      );
    return {
      path: 'compute',
      precision: 'f32',
      reason: path === 'auto' ? 'caps.features.compute' : "path 'compute' requested",
    };
  }
  if (path === 'pingpong' || (path === 'auto' && floatTargets)) {
    if (!floatTargets)
      throw new UnsupportedFeatureError(
        'floatRenderTargets',
        caps.backend,
        "use path 'cpu' with a CPU form of the work",
        label,
      );
    if (request.attributes > caps.limits.maxColorAttachments) {
      throw new LimitExceededError(
        'maxColorAttachments',
        request.attributes,
        caps.limits.maxColorAttachments,
        'Attribute count (one color attachment each)',
        label,
      );
    }
    // one rgba32float (or rgba16float) target per attribute, within WebGPU's bytes per sample
    const bytes = request.attributes * (f.floatRenderTargets ? 16 : 8);
    if (bytes > caps.limits.maxColorAttachmentBytesPerSample)
      throw new LimitExceededError(
        'maxColorAttachmentBytesPerSample',
        bytes,
        caps.limits.maxColorAttachmentBytesPerSample,
        `State of ${request.attributes} attributes (one ${f.floatRenderTargets ? 'rgba32float' : 'rgba16float'} target each) bytes per sample`,
        label,
      );
    if (!f.floatRenderTargets)
      return {
        path: 'pingpong',
        precision: 'f16',
        reason: 'no float32 render targets: half-float state (about 3 significant digits)',
      };
    const reason =
      path === 'pingpong' ? "path 'pingpong' requested" : 'no compute; float render targets';
    return { path: 'pingpong', precision: 'f32', reason };
  }
  if (!request.hasCpu) {
    throw new UnsupportedFeatureError(
      'floatRenderTargets',
      caps.backend,
      'no compute and no float render targets: pass a CPU form of the work for the CPU path',
      label,
    );
  }
  return {
    path: 'cpu',
    precision: 'f32',
    reason: path === 'cpu' ? "path 'cpu' requested" : 'no compute and no float render targets',
  };
}
