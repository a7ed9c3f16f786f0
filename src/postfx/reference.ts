/**
 * The post-process chain in TypeScript (float64 arithmetic, intermediates rounded to the storage
 * format as the GPU stores them): the oracle the GPU paths are tested against. Images are RGBA
 * Float32Arrays, row-major, top row first.
 */
import { halfToFloat, floatToHalfBits } from '../compute/pack.js';
import { gaussianWeights, LUMA, srgbEncode, toneMapCpu } from './math.js';
import type { ChainSettings } from './options.js';
import { bloomLevels } from './chain.js';

/** A CPU image: width, height and RGBA float data, for the references. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** How the reference rounds an image between passes, as the GPU format would. */
export type Storage = 'rgba16float' | 'rgba8unorm' | 'float32';

/** Rounds every value as a texture of `storage` would keep it. */
export function store(img: RgbaImage, storage: Storage): RgbaImage {
  if (storage === 'float32') return img;
  const data = new Float32Array(img.data.length);
  for (let i = 0; i < data.length; i++) {
    const v = img.data[i] as number;
    data[i] =
      storage === 'rgba16float'
        ? halfToFloat(floatToHalfBits(v))
        : Math.round(Math.min(1, Math.max(0, v)) * 255) / 255;
  }
  return { ...img, data };
}

/** A CPU image filled by a function of the pixel position. */
export function makeImage(
  width: number,
  height: number,
  at: (x: number, y: number) => readonly [number, number, number, number],
): RgbaImage {
  const data = new Float32Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(at(x, y), (y * width + x) * 4);
  return { width, height, data };
}

function load(img: RgbaImage, x: number, y: number): [number, number, number, number] {
  const cx = Math.min(img.width - 1, Math.max(0, x));
  const cy = Math.min(img.height - 1, Math.max(0, y));
  const i = (cy * img.width + cx) * 4;
  const d = img.data;
  return [d[i] as number, d[i + 1] as number, d[i + 2] as number, d[i + 3] as number];
}

function map(
  width: number,
  height: number,
  f: (x: number, y: number) => readonly number[],
): RgbaImage {
  return makeImage(width, height, (x, y) => f(x, y) as [number, number, number, number]);
}

/** One axis of the separable Gaussian (clamp-to-edge), in the order the GPU sums its taps. */
export function blurAxis(img: RgbaImage, radius: number, axis: 0 | 1): RgbaImage {
  const w = gaussianWeights(radius);
  return map(img.width, img.height, (x, y) => {
    const acc = [0, 0, 0, 0];
    for (let k = -radius; k <= radius; k++) {
      const t = load(img, x + (axis === 0 ? k : 0), y + (axis === 1 ? k : 0));
      const wk = w[Math.abs(k)] as number;
      for (let c = 0; c < 4; c++) acc[c] = (acc[c] as number) + wk * (t[c] as number);
    }
    return acc;
  });
}

/** The CPU reference of the separable Gaussian blur. */
export function blurReference(
  img: RgbaImage,
  radius: number,
  storage: Storage = 'float32',
): RgbaImage {
  return store(blurAxis(store(blurAxis(img, radius, 0), storage), radius, 1), storage);
}

const TAP = [1, 3, 3, 1];
function tentDown(src: RgbaImage, width: number, height: number): RgbaImage {
  return map(width, height, (x, y) => {
    const acc = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++)
      for (let i = 0; i < 4; i++) {
        const t = load(src, 2 * x - 1 + i, 2 * y - 1 + j);
        const wij = (TAP[i] as number) * (TAP[j] as number);
        for (let c = 0; c < 4; c++) acc[c] = (acc[c] as number) + wij * (t[c] as number);
      }
    return acc.map((v) => v / 64);
  });
}

function softThreshold(c: readonly number[], threshold: number, knee: number): number[] {
  const br = Math.max(c[0] as number, c[1] as number, c[2] as number);
  const k = threshold * knee + 0.00001;
  let rq = Math.min(2 * k, Math.max(0, br - threshold + k));
  rq = (rq * rq) / (4 * k);
  const contrib = Math.max(rq, br - threshold) / Math.max(br, 0.00001);
  return [(c[0] as number) * contrib, (c[1] as number) * contrib, (c[2] as number) * contrib, 1];
}

/** Bilinear read of `src` for texel p of a `dw × dh` destination (the tent upsample). */
function upsample(src: RgbaImage, dw: number, dh: number, x: number, y: number): number[] {
  const sx = ((x + 0.5) * src.width) / dw - 0.5;
  const sy = ((y + 0.5) * src.height) / dh - 0.5;
  const x0 = Math.floor(sx);
  const y0 = Math.floor(sy);
  const tx = sx - x0;
  const ty = sy - y0;
  const a = load(src, x0, y0);
  const b = load(src, x0 + 1, y0);
  const c = load(src, x0, y0 + 1);
  const d = load(src, x0 + 1, y0 + 1);
  return [0, 1, 2, 3].map((k) => {
    const top = (a[k] as number) + ((b[k] as number) - (a[k] as number)) * tx;
    const bottom = (c[k] as number) + ((d[k] as number) - (c[k] as number)) * tx;
    return top + (bottom - top) * ty;
  });
}

/** The bloom chain: the half-size result the composite adds to the scene, and every level. */
export function bloomReference(
  scene: RgbaImage,
  settings: ChainSettings,
  storage: Storage,
): { result: RgbaImage; down: RgbaImage[]; up: RgbaImage[] } {
  const b = settings.bloom;
  if (!b) throw new Error('bloomReference needs a bloom effect');
  const levels = bloomLevels(scene.width, scene.height);
  const down: RgbaImage[] = [];
  const first = tentDown(scene, levels[0]!.width, levels[0]!.height);
  down.push(
    store(
      map(first.width, first.height, (x, y) =>
        softThreshold(load(first, x, y), b.threshold, b.knee),
      ),
      storage,
    ),
  );
  for (let i = 1; i < levels.length; i++)
    down.push(
      store(tentDown(down[i - 1] as RgbaImage, levels[i]!.width, levels[i]!.height), storage),
    );
  const up: RgbaImage[] = new Array<RgbaImage>(Math.max(0, levels.length - 1));
  for (let i = levels.length - 2; i >= 0; i--) {
    const below =
      i === levels.length - 2 ? (down[levels.length - 1] as RgbaImage) : (up[i + 1] as RgbaImage);
    const di = down[i] as RgbaImage;
    up[i] = store(
      map(di.width, di.height, (x, y) => {
        const own = load(di, x, y);
        const u = upsample(below, di.width, di.height, x, y);
        return own.map((v, k) => v + ((u[k] as number) - v) * b.radius);
      }),
      storage,
    );
  }
  return { result: up[0] ?? (down[0] as RgbaImage), down, up };
}

/** The whole chain: bloom added, exposure, tone curve, sRGB encoding, grading; values 0…1 (×255 for 8 bits). */
export function chainReference(
  scene: RgbaImage,
  settings: ChainSettings,
  storage: Storage,
): RgbaImage {
  const bloom = settings.bloom ? bloomReference(scene, settings, storage).result : null;
  const { toneMap, grade } = settings;
  return map(scene.width, scene.height, (x, y) => {
    const s = load(scene, x, y);
    const add = bloom ? upsample(bloom, scene.width, scene.height, x, y) : [0, 0, 0, 0];
    const intensity = settings.bloom?.intensity ?? 0;
    const c = [0, 1, 2].map(
      (k) => ((s[k] as number) + intensity * (add[k] as number)) * toneMap.exposure,
    ) as [number, number, number];
    const t = toneMapCpu(toneMap.operator, c).map((v) => srgbEncode(Math.min(1, Math.max(0, v))));
    let e = t.map((v) => (v - 0.5) * grade.contrast + 0.5);
    const l = e[0]! * LUMA[0] + e[1]! * LUMA[1] + e[2]! * LUMA[2];
    e = e.map((v) => l + (v - l) * grade.saturation);
    const dx = (x + 0.5) / scene.width - 0.5;
    const dy = (y + 0.5) / scene.height - 0.5;
    const v = 1 - grade.vignette * 2 * (dx * dx + dy * dy);
    return [...e.map((c2) => Math.min(1, Math.max(0, c2 * v))), 1];
  });
}
