// Module-scope `var<private>` in portable kernels (each invocation's own value: the state of a
// random number generator, most often), and two mistakes of the CPU translation it brought to
// light: a variable set from a module-scope vector constant shared the constant, and a local
// shadowing a module-scope constant could not read it. The browser runs PRIVATE_RNG on every
// path against raw WebGPU (tests/gpu/cases/portable-world.ts).
import { describe, expect, it } from 'vitest';
import { cpu, expectRejected } from './portable-helpers.js';
import { NullDevice, ParticleOptionError, createParticleSystem } from '../../src/all.js';
import { PRIVATE_RNG, privateRngParticles } from '../gpu/page/portable-kernels.js';

const fr = Math.fround;

describe('var<private>', () => {
  it('each invocation starts with its own values, which helpers advance: the bits of a hand-written mirror (CPU path)', () => {
    const n = 40;
    const words = privateRngParticles(n);
    const f = new Float32Array(words.buffer);
    const out = cpu(PRIVATE_RNG, n, { particles: words, draws_made: new Uint32Array(n) });
    const got = new Float32Array((out.particles as Uint32Array).buffer);
    let respawned = 0;
    for (let i = 0; i < n; i++) {
      const b = 6 * i;
      let rng = (Math.imul(i, 747796405) ^ (words[b + 5] as number)) >>> 0;
      let draws = 0;
      const jitter = [0.5, -0.25];
      const next = (): number => {
        rng = (rng ^ (rng << 13)) >>> 0;
        rng = (rng ^ (rng >>> 17)) >>> 0;
        rng = (rng ^ (rng << 5)) >>> 0;
        draws++;
        return rng;
      };
      const rand = (): number => fr((next() >>> 8) / 16777216);
      let p = [f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4]] as number[];
      if ((p[4] as number) <= 0) {
        respawned++;
        const [x, y] = [rand(), rand()];
        jitter[0] = fr(fr((jitter[0] as number) * 0.5) + rand());
        jitter[1] = fr((jitter[1] as number) + 0.125);
        p = [fr(x * 2 - 1), fr(y * 2 - 1), jitter[0], fr(1 + jitter[1]), fr(1 + rand())];
      } else {
        const [px, py, vx, vy, life] = p as [number, number, number, number, number];
        p = [fr(px + fr(vx * 0.125)), fr(py + fr(vy * 0.125)), vx, vy, fr(life - 0.375)];
      }
      const shadow = draws * 2 + 1;
      const seed = (next() ^ (shadow << 24)) >>> 0;
      expect(Array.from(got.subarray(b, b + 5)), `particle ${i}`).toEqual(p);
      expect((out.particles as Uint32Array)[b + 5], `seed ${i}`).toBe(seed);
      expect((out.draws_made as Uint32Array)[i], `draws ${i}`).toBe(draws);
    }
    expect(respawned).toBeGreaterThan(0);
    expect(respawned).toBeLessThan(n);
  });

  const head = `@group(0) @binding(0) var<storage, read_write> b: array<u32>;
@group(0) @binding(1) var<uniform> seed: vec4u;
`;
  const main = `@compute @workgroup_size(1) fn main() { b[0] = s; }`;
  const refused: Array<[string, string, string, number, RegExp]> = [
    [
      'a module-scope var without an address space',
      `${head}var s: u32;\n${main}`,
      'var',
      3,
      /needs an address space \(var<private>/,
    ],
    [
      'an initializer that is not a constant expression',
      `${head}var<private> s: u32 = seed.x;\n${main}`,
      'seed',
      3,
      /must be a constant expression \(it names seed\)/,
    ],
    [
      'a runtime-sized array',
      `${head}var<private> s: array<u32>;\n@compute @workgroup_size(1) fn main() { b[0] = s[0]; }`,
      'array',
      3,
      /runtime-sized array/,
    ],
  ];
  for (const [what, code, construct, line, message] of refused)
    it(`refuses ${what}, naming it, its line and column`, () => {
      expectRejected(code, construct, line, message);
    });

  it("a particle look with var<private> is a ParticleOptionError naming look and it, on every backend (WebGL2's stages have no place to start it)", async () => {
    const code = `var<private> tint: vec4f = vec4f(1.0);
fn look(p: ParticleFragment) -> vec4f { tint.a = 0.5; return p.color * tint; }`;
    const made = createParticleSystem(new NullDevice(), { count: 4, look: { code } });
    await expect(made).rejects.toThrow(ParticleOptionError);
    await expect(made).rejects.toThrow(/look.*var<private> tint/s);
  });
});

describe('module-scope constants on the CPU path', () => {
  // Regression: `var j = START;` held the constant itself, so `j.x += 1.0` changed START for
  // every later invocation (1.5, 2.5, 3.5 … instead of 1.5 each time)
  it('a variable set from a vector constant is a copy: changing it leaves the constant alone', () => {
    const code = `const START = vec2f(0.5, -0.25);
@group(0) @binding(0) var<storage, read_write> o: array<vec2f>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  var j = START;
  j.x += 1.0;
  o[id.x] = j;
}`;
    const out = cpu(code, 4, { o: new Uint32Array(8) });
    expect(Array.from(new Float32Array((out.o as Uint32Array).buffer))).toEqual([
      1.5, -0.25, 1.5, -0.25, 1.5, -0.25, 1.5, -0.25,
    ]);
  });

  // Regression: JavaScript saw `const v_K = v_K * 3` (its own uninitialised K) and threw
  it('a local shadowing a module-scope constant reads the constant in its initializer', () => {
    const code = `const K = 2u;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let K = K * 3u + id.x;
  o[id.x] = K;
}`;
    const out = cpu(code, 3, { o: new Uint32Array(4) });
    expect(Array.from(out.o as Uint32Array)).toEqual([6, 7, 8, 0]);
  });
});
