// The flock's rules (the uniform block of flock.wgsl) and its deterministic start. No imports, so
// that bench/deno/portable.ts loads it in Deno as it is.
export interface Rules {
  dt: number;
  radius: number;
  personalSpace: number;
  cohesion: number;
  alignment: number;
  separation: number;
  maxSpeed: number;
}

export const DEFAULT_RULES: Rules = {
  dt: 0.05,
  radius: 0.12,
  personalSpace: 0.03,
  cohesion: 0.02,
  alignment: 0.05,
  separation: 0.00002,
  maxSpeed: 0.25,
};

export function rulesBytes(r: Rules, count: number): ArrayBuffer {
  const bytes = new ArrayBuffer(32);
  new Float32Array(bytes).set([
    r.dt,
    r.radius,
    r.personalSpace,
    r.cohesion,
    r.alignment,
    r.separation,
    r.maxSpeed,
  ]);
  new Uint32Array(bytes)[7] = count;
  return bytes;
}

/** Deterministic start: positions in [-1, 1]², small velocities (an LCG, so every run starts alike). */
export function initialFlock(count: number, seed = 7): Float32Array {
  const data = new Float32Array(4 * count);
  let s = seed >>> 0;
  const rand = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  for (let i = 0; i < 4 * count; i += 4)
    data.set([2 * rand() - 1, 2 * rand() - 1, (rand() - 0.5) * 0.2, (rand() - 0.5) * 0.2], i);
  return data;
}
