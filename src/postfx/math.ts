/**
 * The numbers of the post-process chain, written once: Gaussian weights, the tone curves' constants
 * and the grading coefficients. The shader generators (shaders.ts) print them into WGSL and GLSL,
 * and the CPU reference (reference.ts) computes with them, so the three cannot drift apart.
 */

/** Largest blur radius in texels (the weights travel as 9 vec4 of a uniform block; the compute blur's apron). */
export const MAX_BLUR_RADIUS = 35;

/**
 * One side of a normalised Gaussian: `weights[k]` for offsets ±k, k = 0…radius, with σ = radius / 3
 * (the kernel reaches 3σ) and the whole symmetric kernel summing to 1. Radius 0 is the identity.
 */
export function gaussianWeights(radius: number): Float32Array {
  const w = new Float32Array(radius + 1);
  if (radius === 0) {
    w[0] = 1;
    return w;
  }
  const sigma = radius / 3;
  let sum = 0;
  for (let k = 0; k <= radius; k++) {
    w[k] = Math.exp(-(k * k) / (2 * sigma * sigma));
    sum += k === 0 ? (w[k] as number) : 2 * (w[k] as number);
  }
  for (let k = 0; k <= radius; k++) w[k] = (w[k] as number) / sum;
  return w;
}

/** A tone-mapping operator. */
export type ToneOperator = 'none' | 'reinhard' | 'aces' | 'agx';
/** Every tone-mapping operator, in the order the docs list them. */
export const TONE_OPERATORS: readonly ToneOperator[] = ['none', 'reinhard', 'aces', 'agx'];

/** Narkowicz's fit of the ACES filmic curve: (x(ax + b)) / (x(cx + d) + e). */
export const ACES = { a: 2.51, b: 0.03, c: 2.43, d: 0.59, e: 0.14 } as const;

/**
 * AgX (Troy Sobotka), the widely used minimal form: an inset matrix, log2 encoding between
 * `minEv` and `maxEv`, a sixth-order polynomial fit of the default contrast curve, the inverse
 * matrix and a 2.2 power back to linear display light. Matrices are given by rows.
 */
export const AGX = {
  inset: [
    [0.842479062253094, 0.0784335999999992, 0.0792237451477643],
    [0.0423282422610123, 0.878468636469772, 0.0791661274605434],
    [0.0423756549057051, 0.0784336, 0.879142973793104],
  ],
  outset: [
    [1.19687900512017, -0.0980208811401368, -0.0990297440797205],
    [-0.0528968517574562, 1.15190312990417, -0.0989611768448433],
    [-0.0529716355144438, -0.0980434501171241, 1.15107367264116],
  ],
  minEv: -12.47393,
  maxEv: 4.026069,
  /** c6 x^6 + c5 x^5 + … + c0 */
  poly: [15.5, -40.14, 31.96, -6.868, 0.4298, 0.1191, -0.00232],
} as const;

/** Rec. 709 luma, for saturation. */
export const LUMA = [0.2126, 0.7152, 0.0722] as const;

/** Uniform code of each tone operator in the shaders. */
export const TONE_CODE: Record<ToneOperator, number> = { none: 0, reinhard: 1, aces: 2, agx: 3 };

const lit = (x: number): string => {
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
};
const row = (r: readonly number[]): string => `vec3f(${r.map(lit).join(', ')})`;

/** The tone curves as kernel-language functions (shaders.ts turns them into WGSL or GLSL). */
export function toneCurveSource(): string {
  const [c6, c5, c4, c3, c2, c1, c0] = AGX.poly.map(lit);
  return `
vec3f toneAces(vec3f x) {
  vec3f n = x * (${lit(ACES.a)} * x + vec3f(${lit(ACES.b)}));
  vec3f d = x * (${lit(ACES.c)} * x + vec3f(${lit(ACES.d)})) + vec3f(${lit(ACES.e)});
  return clamp(n / d, vec3f(0.0), vec3f(1.0));
}
vec3f toneAgx(vec3f x) {
  vec3f v = max(x, vec3f(0.0000000001));
  v = vec3f(dot(${row(AGX.inset[0])}, v), dot(${row(AGX.inset[1])}, v), dot(${row(AGX.inset[2])}, v));
  v = clamp(log2(max(v, vec3f(0.0000000001))), vec3f(${lit(AGX.minEv)}), vec3f(${lit(AGX.maxEv)}));
  v = (v - vec3f(${lit(AGX.minEv)})) / ${lit(AGX.maxEv - AGX.minEv)};
  vec3f v2 = v * v;
  vec3f v4 = v2 * v2;
  v = ${c6} * v4 * v2 + ${c5} * v4 * v + ${c4} * v4 + ${c3} * v2 * v + ${c2} * v2 + ${c1} * v + vec3f(${c0});
  v = vec3f(dot(${row(AGX.outset[0])}, v), dot(${row(AGX.outset[1])}, v), dot(${row(AGX.outset[2])}, v));
  return pow(max(v, vec3f(0.0)), vec3f(2.2));
}
vec3f toneMap(vec3f c) {
  vec3f r = c;
  if (params.op == ${TONE_CODE.reinhard}u) {
    r = c / (vec3f(1.0) + c);
  } else if (params.op == ${TONE_CODE.aces}u) {
    r = toneAces(c);
  } else if (params.op == ${TONE_CODE.agx}u) {
    r = toneAgx(c);
  }
  return r;
}
`;
}

/** The tone curves in TypeScript, per channel triple: the CPU reference. */
export function toneMapCpu(
  op: ToneOperator,
  c: readonly [number, number, number],
): [number, number, number] {
  if (op === 'none') return [c[0], c[1], c[2]];
  if (op === 'reinhard') return [c[0] / (1 + c[0]), c[1] / (1 + c[1]), c[2] / (1 + c[2])];
  if (op === 'aces') {
    const f = (x: number): number =>
      Math.min(1, Math.max(0, (x * (ACES.a * x + ACES.b)) / (x * (ACES.c * x + ACES.d) + ACES.e)));
    return [f(c[0]), f(c[1]), f(c[2])];
  }
  const dot = (r: readonly number[], v: readonly number[]): number =>
    (r[0] as number) * (v[0] as number) +
    (r[1] as number) * (v[1] as number) +
    (r[2] as number) * (v[2] as number);
  let v = c.map((x) => Math.max(x, 1e-10));
  v = AGX.inset.map((r) => dot(r, v));
  v = v.map(
    (x) =>
      (Math.min(AGX.maxEv, Math.max(AGX.minEv, Math.log2(Math.max(x, 1e-10)))) - AGX.minEv) /
      (AGX.maxEv - AGX.minEv),
  );
  v = v.map((x) => AGX.poly.reduce((acc, k) => acc * x + k, 0));
  v = AGX.outset.map((r) => dot(r, v));
  return v.map((x) => Math.pow(Math.max(x, 0), 2.2)) as [number, number, number];
}

/** The sRGB transfer function (linear light → encoded), for an 8-bit unorm target. */
export function srgbEncode(x: number): number {
  return x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
}

export const SRGB_SOURCE = `
vec3f srgbEncode(vec3f c) {
  vec3f lo = 12.92 * c;
  vec3f hi = 1.055 * pow(c, vec3f(${lit(1 / 2.4)})) - vec3f(0.055);
  return vec3f(select(hi.x, lo.x, c.x <= 0.0031308), select(hi.y, lo.y, c.y <= 0.0031308), select(hi.z, lo.z, c.z <= 0.0031308));
}
`;
