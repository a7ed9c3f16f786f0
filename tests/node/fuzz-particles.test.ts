// Property-based check of the particle options (issue: "particle options" beside the RHI's
// descriptors in tests/node/fuzz.test.ts): invalid options generated from the documented rules
// (docs/particles.md's table), each must be a ParticleOptionError naming the option — never a
// generic error, never accepted. Fixed seed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParticleOptionError, type ParticleOptionsInput } from '../../src/all.js';
import { resolveOptions } from '../../src/particles/resolve.js';

const SEED = 20261130;
const RUNS = 1500;

/** Not a finite number: NaN, infinities, strings, null, objects. */
const notFinite = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    null,
    '1',
    {},
    [],
  ),
  fc.string({ maxLength: 4 }),
);
const badEnum = (valid: readonly string[]): fc.Arbitrary<unknown> =>
  fc
    .oneof(
      fc.constantFrom('toString', '__proto__', '', 'NONE', 3, null),
      fc.string({ maxLength: 8 }),
    )
    .filter((s) => !valid.includes(s as string));
/** An array of the wrong length, or of the right length with a bad entry. */
const badVector = (n: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc
      .array(fc.double({ noNaN: true, min: -10, max: 10 }), { maxLength: 6 })
      .filter((a) => a.length !== n),
    fc.tuple(fc.integer({ min: 0, max: n - 1 }), notFinite).map(([i, v]) => {
      const a: unknown[] = Array(n).fill(0);
      a[i] = v;
      return a;
    }),
    notFinite,
  );

interface Case {
  option: string;
  input: ParticleOptionsInput;
}
const k = (option: string, input: unknown): Case => ({
  option,
  input: input as ParticleOptionsInput,
});

const cases: fc.Arbitrary<Case> = fc.oneof(
  fc
    .oneof(
      fc.integer({ min: -1000, max: 0 }),
      fc.double({ min: 0.01, max: 100, noNaN: true }).filter((x) => !Number.isInteger(x)),
      notFinite,
    )
    .map((count) => k('count', { count })),
  fc
    .oneof(fc.integer({ min: -100, max: -1 }), fc.constant(2 ** 32), notFinite)
    .map((seed) => k('seed', { seed })),
  badEnum(['auto', 'compute', 'pingpong', 'cpu']).map((path) => k('path', { path })),
  badEnum(['auto', 'instanced', 'pulled', 'splat']).map((drawMode) => k('drawMode', { drawMode })),
  badEnum(['additive', 'alpha']).map((blending) => k('blending', { blending })),
  fc
    .oneof(fc.constantFrom(0, 1, 'true', null), fc.double({ noNaN: true }))
    .map((sort) => k('sort', { blending: 'alpha', sort })),
  fc.constant(k('sort', { sort: true })), // additive blending: the order changes nothing
  badEnum(['blend', 'keep']).map((targetAlpha) => k('targetAlpha', { targetAlpha })),
  fc.oneof(fc.double({ max: 0, noNaN: true }), notFinite).map((thickness) =>
    k('collision.thickness', {
      collision: {
        depth: { data: new Float32Array(1), width: 1, height: 1 },
        camera: { view: new Float32Array(16), projection: new Float32Array(16) },
        thickness,
      },
    }),
  ),
  badEnum(['reseed', 'last-read']).map((onRestore) => k('onRestore', { onRestore })),
  badEnum(['box', 'point', 'sphere', 'cone']).map((shape) =>
    k('emitter.shape', { emitter: { shape } }),
  ),
  badVector(3).map((position) => k('emitter.position', { emitter: { position } })),
  fc
    .oneof(fc.double({ min: -100, max: -0.001, noNaN: true }), notFinite)
    .map((radius) => k('emitter.radius', { emitter: { radius } })),
  fc
    .constantFrom('spread', 'speedMin', 'speedMax', 'drag', 'floorY', 'size')
    .chain((key) => notFinite.map((v) => k(key, { [key]: v }))),
  fc.double({ min: -10, max: 0, noNaN: true }).map((lifeMin) => k('lifeMin', { lifeMin })),
  fc
    .double({ min: 1, max: 10, noNaN: true })
    .map((d) => k('lifeMin', { lifeMin: 2 + d, lifeMax: 2 })),
  fc
    .double({ min: 1, max: 10, noNaN: true })
    .map((d) => k('speedMin', { speedMin: 5 + d, speedMax: 5 })),
  fc.double({ min: -10, max: -0.001, noNaN: true }).map((drag) => k('drag', { drag })),
  fc.double({ min: -10, max: 0, noNaN: true }).map((size) => k('size', { size })),
  badVector(3).map((gravity) => k('gravity', { gravity })),
  badVector(2).map((sizeOverLife) => k('sizeOverLife', { sizeOverLife })),
  badVector(4).map((colorStops) => k('colorStops', { colorStops })),
  fc.constant(k('colorStops', { colorStops: [0, 0.6, 0.4, 1] })),
  fc.integer({ min: 0, max: 3 }).chain((i) =>
    badVector(4).map((bad) => {
      const colors: unknown[] = [
        [1, 1, 1, 1],
        [1, 1, 1, 1],
        [1, 1, 1, 1],
        [1, 1, 1, 1],
      ];
      colors[i] = bad;
      return k(`colors[${i}]`, { colors });
    }),
  ),
  fc.integer({ min: 9, max: 20 }).map((n) =>
    k('attractors', {
      attractors: Array.from({ length: n }, () => ({ position: [0, 0, 0], strength: 1 })),
    }),
  ),
  badVector(3).map((position) =>
    k('attractors[0].position', { attractors: [{ position, strength: 1 }] }),
  ),
  notFinite.map((strength) =>
    k('attractors[0].strength', { attractors: [{ position: [0, 0, 0], strength }] }),
  ),
  notFinite.map((strength) => k('turbulence.strength', { turbulence: { strength } })),
  fc.constantFrom(3, 'x', [], { uniforms: {} }).map((behavior) => k('behavior', { behavior })),
  fc.constantFrom(null, 3, 'x', []).map((emitter) => k('emitter', { emitter })),
  fc.constantFrom(null, 3, 'x', []).map((turbulence) => k('turbulence', { turbulence })),
  fc
    .constantFrom(null, 3, 'x', [])
    .map((uniforms) => k('behavior.uniforms', { behavior: { code: '', uniforms } })),
  badEnum(['own', 'all']).map((reads) => k('behavior.reads', { behavior: { code: '', reads } })),
  fc
    .constantFrom('dt', 'time', 'count', '1x', 'a-b')
    .map((name) =>
      k(`behavior.uniforms.${name}`, { behavior: { code: '', uniforms: { [name]: 1 } } }),
    ),
  fc
    .constantFrom(NaN, [1], [1, 2, 3, 4, 5], 'x')
    .map((value) => k('behavior.uniforms.u', { behavior: { code: '', uniforms: { u: value } } })),
);

describe('particle options under a property-based fuzzer', () => {
  it(`${RUNS} invalid options: every one a ParticleOptionError naming the option`, () => {
    const outcomes = {
      typed: 0,
      generic: [] as string[],
      silent: [] as string[],
      unnamed: [] as string[],
    };
    fc.assert(
      fc.property(cases, (c) => {
        try {
          resolveOptions(c.input);
          outcomes.silent.push(`${c.option}: ${JSON.stringify(c.input)}`);
        } catch (e) {
          if (!(e instanceof ParticleOptionError))
            outcomes.generic.push(`${c.option}: ${String(e)}`);
          else if (!e.option.startsWith(c.option.split('[')[0] as string))
            outcomes.unnamed.push(`${c.option}: named ${e.option}: ${e.message}`);
          else outcomes.typed++;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(outcomes.generic.slice(0, 5)).toEqual([]);
    expect(outcomes.silent.slice(0, 5)).toEqual([]);
    expect(outcomes.unnamed.slice(0, 5)).toEqual([]);
    expect(outcomes.typed).toBe(RUNS);
  });
});

// ---- the other way: valid options are accepted ----------------------------------------------
// Options drawn from docs/particles.md's table inside its documented ranges, several at once, and
// sometimes one invalid option from the generator above mixed in. The oracle is the table: an
// object whose every option is in range must resolve (and keep what it was given); one with an
// invalid option must be a ParticleOptionError naming that option — a valid neighbour never hides
// it, and never makes it fail.

const num = (min: number, max: number) => fc.double({ min, max, noNaN: true });
const vec = (n: number, min = -10, max = 10) =>
  fc.array(num(min, max), { minLength: n, maxLength: n });
const ordered = (min: number, max: number) =>
  fc.tuple(num(min, max), num(min, max)).map(([a, b]) => (a <= b ? [a, b] : [b, a]));
const VALID_OPTIONS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  count: fc.integer({ min: 1, max: 1_000_000 }).map((count) => ({ count })),
  seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((seed) => ({ seed })),
  path: fc.constantFrom('auto', 'compute', 'pingpong', 'cpu').map((path) => ({ path })),
  drawMode: fc
    .constantFrom('auto', 'instanced', 'pulled', 'splat')
    .map((drawMode) => ({ drawMode })),
  blending: fc
    .tuple(fc.constantFrom('additive', 'alpha'), fc.boolean())
    .map(([blending, sort]) => (blending === 'alpha' ? { blending, sort } : { blending })),
  targetAlpha: fc.constantFrom('blend', 'keep').map((targetAlpha) => ({ targetAlpha })),
  onRestore: fc.constantFrom('reseed', 'last-read').map((onRestore) => ({ onRestore })),
  emitter: fc
    .record({
      shape: fc.constantFrom('box', 'point', 'sphere', 'cone'),
      position: vec(3),
      radius: num(0, 10),
    })
    .map((emitter) => ({ emitter })),
  spread: num(0, 5).map((spread) => ({ spread })),
  speed: ordered(0, 50).map(([speedMin, speedMax]) => ({ speedMin, speedMax })),
  life: ordered(0.01, 20).map(([lifeMin, lifeMax]) => ({ lifeMin, lifeMax })),
  drag: num(0, 5).map((drag) => ({ drag })),
  floorY: num(-100, 100).map((floorY) => ({ floorY })),
  size: num(0.001, 5).map((size) => ({ size })),
  gravity: vec(3).map((gravity) => ({ gravity })),
  sizeOverLife: vec(2, 0, 4).map((sizeOverLife) => ({ sizeOverLife })),
  colorStops: fc
    .array(num(0, 1), { minLength: 4, maxLength: 4 })
    .map((s) => ({ colorStops: [...s].sort((a, b) => a - b) })),
  colors: fc.array(vec(4, 0, 1), { minLength: 4, maxLength: 4 }).map((colors) => ({ colors })),
  attractors: fc
    .array(fc.record({ position: vec(3), strength: num(-50, 50) }), { maxLength: 8 })
    .map((attractors) => ({ attractors })),
  turbulence: num(0, 20).map((strength) => ({ turbulence: { strength } })),
};

interface Mixed {
  input: Record<string, unknown>;
  /** The invalid option mixed in, or null: every option valid. */
  invalid: string | null;
}
const mixed: fc.Arbitrary<Mixed> = fc
  .tuple(
    fc.subarray(Object.keys(VALID_OPTIONS), { minLength: 1, maxLength: 8 }),
    fc.option(cases, { nil: null, freq: 2 }),
  )
  .chain(([keys, bad]) =>
    fc
      .tuple(...keys.map((key) => VALID_OPTIONS[key] as fc.Arbitrary<Record<string, unknown>>))
      .map((parts): Mixed => {
        const input: Record<string, unknown> = Object.assign({}, ...parts) as Record<
          string,
          unknown
        >;
        // the table's one rule across options: the splat sums, so it needs additive blending
        const splatAlpha = input['drawMode'] === 'splat' && input['blending'] === 'alpha';
        if (!bad) return { input, invalid: splatAlpha ? 'drawMode' : null };
        // the invalid option's own keys replace the valid ones (an ordering pair too, so that
        // a valid lifeMax never turns an invalid lifeMin valid)
        for (const key of Object.keys(bad.input)) delete input[key];
        if ('lifeMin' in bad.input || 'lifeMax' in bad.input) delete input['lifeMin'];
        if ('lifeMin' in bad.input || 'lifeMax' in bad.input) delete input['lifeMax'];
        if ('speedMin' in bad.input || 'speedMax' in bad.input) delete input['speedMin'];
        if ('speedMin' in bad.input || 'speedMax' in bad.input) delete input['speedMax'];
        if ('sort' in bad.input) delete input['blending'];
        const merged = { ...input, ...(bad.input as Record<string, unknown>) };
        if (
          merged['drawMode'] === 'splat' &&
          merged['blending'] === 'alpha' &&
          bad.option !== 'drawMode'
        )
          delete merged['drawMode'];
        return { input: merged, invalid: bad.option };
      }),
  );

describe('particle options both ways (the table as oracle)', () => {
  it(`${RUNS} option objects, valid and mixed: valid ones resolve as given, each invalid one is named`, () => {
    const tally = {
      accepted: 0,
      named: 0,
      rejected: [] as string[],
      silent: [] as string[],
      wrong: [] as string[],
    };
    for (const m of fc.sample(mixed, { seed: SEED + 1, numRuns: RUNS })) {
      const shown = JSON.stringify(m.input);
      try {
        const o = resolveOptions(m.input as ParticleOptionsInput);
        if (m.invalid !== null) tally.silent.push(`${m.invalid}: ${shown}`);
        else {
          // what was given is what resolved
          for (const key of ['count', 'seed', 'drag', 'size', 'floorY', 'spread'] as const)
            if (key in m.input && (o as unknown as Record<string, unknown>)[key] !== m.input[key])
              tally.wrong.push(
                `${key}: gave ${String(m.input[key])}, resolved ${String((o as unknown as Record<string, unknown>)[key])}`,
              );
          tally.accepted++;
        }
      } catch (e) {
        if (m.invalid === null) tally.rejected.push(`${String(e)}: ${shown}`);
        else if (!(e instanceof ParticleOptionError))
          tally.rejected.push(`untyped ${String(e)}: ${shown}`);
        else if (!e.option.startsWith(m.invalid.split('[')[0] as string))
          tally.wrong.push(`${m.invalid}: named ${e.option}: ${e.message}`);
        else tally.named++;
      }
    }
    console.log(
      `particle options both ways: ${tally.accepted} valid accepted, ${tally.named} invalid named`,
    );
    expect(tally.rejected.slice(0, 5)).toEqual([]);
    expect(tally.silent.slice(0, 5)).toEqual([]);
    expect(tally.wrong.slice(0, 5)).toEqual([]);
    expect(tally.accepted).toBeGreaterThan(RUNS / 4);
    expect(tally.named).toBeGreaterThan(RUNS / 4);
  });
});
