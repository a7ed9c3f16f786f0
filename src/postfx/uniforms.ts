/** Packs the `Post` uniform block of shaders.ts (one 256-byte slot per pass). */
import { gaussianWeights, TONE_CODE } from './math.js';
import { POST_UNIFORM_BYTES } from './shaders.js';
import type { ChainSettings } from './options.js';

export const SLOT_BYTES = 256;

export interface Extent {
  width: number;
  height: number;
}

export interface PassUniforms {
  src: Extent;
  dst: Extent;
  aux?: Extent;
  settings?: ChainSettings;
  blur?: { radius: number; axis: 0 | 1 };
}

/** Writes one pass's block at `byteOffset` of `into` (layout documented in shaders.ts). */
export function packPassUniforms(into: ArrayBuffer, byteOffset: number, u: PassUniforms): void {
  const i32 = new Int32Array(into, byteOffset, POST_UNIFORM_BYTES / 4);
  const f32 = new Float32Array(into, byteOffset, POST_UNIFORM_BYTES / 4);
  const u32 = new Uint32Array(into, byteOffset, POST_UNIFORM_BYTES / 4);
  i32.set(
    [
      u.src.width,
      u.src.height,
      u.dst.width,
      u.dst.height,
      u.aux?.width ?? 1,
      u.aux?.height ?? 1,
      0,
      0,
    ],
    0,
  );
  const s = u.settings;
  const b = s?.bloom;
  f32.set([b?.threshold ?? 0, b?.knee ?? 0, b?.radius ?? 0, b?.intensity ?? 0], 8);
  f32.set(
    [
      s?.toneMap.exposure ?? 1,
      s?.grade.contrast ?? 1,
      s?.grade.saturation ?? 1,
      s?.grade.vignette ?? 0,
    ],
    12,
  );
  u32[16] = TONE_CODE[s?.toneMap.operator ?? 'none'];
  i32[17] = u.blur?.radius ?? 0;
  u32[18] = u.blur?.axis ?? 0;
  u32[19] = 0;
  const w = gaussianWeights(u.blur?.radius ?? 0);
  f32.fill(0, 20, 20 + 36);
  f32.set(w, 20);
}
