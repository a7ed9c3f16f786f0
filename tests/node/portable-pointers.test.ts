// Pointer parameters in portable kernels (`ptr<function, T>`, `ptr<private, T>`): the CPU path
// against values worked out by hand, the GLSL they become (`inout` parameters: WGSL forbids the
// aliasing that would tell copy-in copy-out from a reference apart), and what stays refused. The
// browser runs POINTERS on every path against raw WebGPU (tests/gpu/cases/portable-world.ts).
import { describe, expect, it } from 'vitest';
import { cpu, expectRejected } from './portable-helpers.js';
import { analyzeKernel } from '../../src/compute/portable/analyze.js';
import { emitGlsl } from '../../src/compute/portable/glsl.js';

const kernel = (
  helpers: string,
  body: string,
) => `@group(0) @binding(0) var<storage, read_write> o: array<vec4f>;
var<private> total: f32;
${helpers}
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  ${body}
}`;

describe('pointer parameters', () => {
  it('a function writes its caller’s variables through *p, (*p).x, p.x and p[i], and passes a pointer on (CPU path)', () => {
    const code = kernel(
      `struct S { v: vec2f, n: f32 }
fn twice(x: ptr<function, f32>) { *x = *x * 2.0; }
fn grow(s: ptr<function, S>, k: f32) {
  (*s).n += k;
  s.v.x = s.n + 1.0;
  s.v[1] -= 0.5;
}
fn add(t: ptr<private, f32>, k: f32) { *t += k; }`,
      `var s = S(vec2f(0.0, 4.0), f32(id.x));
  var a = 1.5;
  twice(&a);
  total = 0.25;
  add(&total, a);
  o[id.x] = vec4f(a, total, s.v.y, s.n);`,
    );
    const whole = code.replace(
      'o[id.x] = vec4f(a, total, s.v.y, s.n);',
      'grow(&s, 3.0);\n  o[id.x] = vec4f(a, total, s.v.x + s.v.y, s.n);',
    );
    const got = new Float32Array(cpu(whole, 2, { o: new Uint32Array(8) }).o!.buffer);
    for (let i = 0; i < 2; i++) {
      const n = i + 3; // grow adds 3 to n = id.x
      expect(Array.from(got.subarray(4 * i, 4 * i + 4)), `invocation ${i}`).toEqual([
        3, // a = 1.5 doubled
        3.25, // total = 0.25 + a
        n + 1 + 3.5, // v.x = n + 1, v.y = 4 - 0.5
        n,
      ]);
    }
  });

  it('a pointer to a struct member or an array element (a computed index evaluated once, clamped) reaches that place (CPU path)', () => {
    const code = kernel(
      `struct S { v: vec2f, n: u32 }
fn bump(x: ptr<function, u32>, i: ptr<function, u32>) { *x += 10u; *i += 1u; }
fn scale(v: ptr<function, vec2f>) { *v = *v * 2.0; }`,
      `var s = S(vec2f(1.0, 2.0), id.x);
  var bins = array<u32, 3>(0u, 0u, 0u);
  var i = id.x;
  bump(&bins[i + 1u], &i); // the element chosen before the callee moves i
  bump(&s.n, &i);
  scale(&s.v);
  o[id.x] = vec4f(f32(bins[0] + bins[1] * 100u + bins[2] * 10000u), f32(s.n), s.v.x + s.v.y, f32(i));`,
    );
    const got = new Float32Array(cpu(code, 3, { o: new Uint32Array(12) }).o!.buffer);
    for (let id = 0; id < 3; id++) {
      const bins = [0, 0, 0];
      bins[Math.min(id + 1, 2)]! += 10;
      expect(Array.from(got.subarray(4 * id, 4 * id + 4)), `invocation ${id}`).toEqual([
        bins[0]! + bins[1]! * 100 + bins[2]! * 10000,
        id + 10,
        6,
        id + 2,
      ]);
    }
    expect(JSON.stringify(emitGlsl(analyzeKernel('k', code)))).toContain(
      'v_bump(v_bins[min(uint((v_i + 1u)), 2u)], v_i);',
    );
  });

  it('each becomes an inout parameter in GLSL, its argument the variable itself', () => {
    const code = kernel(
      'fn bump(x: ptr<function, u32>) { *x += 1u; }\nfn add(t: ptr<private, f32>) { *t += 1.0; }',
      'var k = id.x;\n  bump(&k);\n  add(&total);\n  o[id.x] = vec4f(f32(k), total, 0.0, 0.0);',
    );
    const glsl = JSON.stringify(emitGlsl(analyzeKernel('k', code)));
    expect(glsl).toContain('void v_bump(inout uint v_x)');
    expect(glsl).toContain('void v_add(inout float v_t)');
    expect(glsl).toContain('v_bump(v_k);');
    expect(glsl).toContain('v_add(v_total);');
  });

  it('what WGSL or the translation cannot take is refused, naming it and its line', () => {
    const f = 'fn bump(x: ptr<function, u32>) { *x += 1u; }';
    expectRejected(
      kernel(f, 'let k = 1u;\n  bump(&k);'),
      'bump',
      6,
      /pass &v of a function-scope var/,
    );
    expectRejected(
      kernel(f, 'var k = 1.0;\n  bump(&k);'),
      'bump',
      6,
      /ptr<function, u32>, got a pointer to f32/,
    );
    expectRejected(
      kernel(
        'fn two(a: ptr<function, u32>, b: ptr<function, u32>) { *a += *b; }',
        'var k = 1u;\n  two(&k, &k);',
      ),
      'two',
      6,
      /k is passed to two twice by pointer: WGSL forbids the alias/,
    );
    expectRejected(
      kernel(f, 'var v = vec2u(1u);\n  bump(&v.x);'),
      'bump',
      6,
      /WGSL takes no address of a vector component/,
    );
    expectRejected(kernel(f, 'bump(&total);'), 'bump', 5, /&v of a function-scope var/);
    expectRejected(
      kernel('fn add(t: ptr<private, f32>) { *t += 1.0; }', 'var x = 1.0;\n  add(&x);'),
      'add',
      6,
      /&v of a var<private>/,
    );
    expectRejected(
      kernel(
        'fn value(x: ptr<function, u32>) -> u32 { return x; }',
        'var k = 1u;\n  let v = value(&k);',
      ),
      'x',
      3,
      /x is a pointer: read what it points to with \*x/,
    );
    expectRejected(
      kernel('', 'var k = 1.0;\n  let y = *k;'),
      '*',
      6,
      /\* reads through a pointer parameter/,
    );
    expectRejected(
      kernel(
        '@group(0) @binding(1) var<uniform> u: vec4f;\nfn f(p: ptr<uniform, vec4f>) -> f32 { return (*p).x; }',
        'o[0].x = f(&u);',
      ),
      'ptr<uniform>',
      4,
      /a pointer into uniform memory is not portable/,
    );
  });
});
