// Matrices in portable kernels (`matCxR<f32>`): the CPU path against a plain mirror of the same
// arithmetic (the values are exact, so the mirror needs no rounding), and what stays refused. The
// browser runs MATRICES on every path against raw WebGPU (tests/gpu/cases/portable-world.ts).
import { describe, expect, it } from 'vitest';
import { device, expectRejected, storage, uniform } from './portable-helpers.js';
import { createPortableCompute } from '../../src/compute/portable/index.js';
import { MATRICES, matricesBuffers } from '../gpu/page/portable-kernels.js';

type Mat = number[][]; // columns
const mv = (m: Mat, v: number[]): number[] =>
  (m[0] as number[]).map((_, r) => m.reduce((s, column, c) => s + column[r]! * v[c]!, 0));
const mm = (a: Mat, b: Mat): Mat => b.map((column) => mv(a, column));
const transpose = (m: Mat): Mat => (m[0] as number[]).map((_, r) => m.map((c) => c[r]!));
const det = (m: Mat): number =>
  m.length === 2
    ? m[0]![0]! * m[1]![1]! - m[1]![0]! * m[0]![1]!
    : m[0]!.reduce(
        (s, x, r) =>
          s + (r % 2 ? -1 : 1) * x * det(m.slice(1).map((c) => c.filter((_, k) => k !== r))),
        0,
      );
const columns = (words: Float32Array, at: number, cols: number, stride: number, rows: number) =>
  Array.from({ length: cols }, (_, c) =>
    Array.from(words.subarray(at + c * stride, at + c * stride + rows)),
  );

describe('matrices', () => {
  it('m * v, m * m, v * m, columns read and written, transpose and determinant on the CPU path: the values of a plain mirror', () => {
    const n = 12;
    const { params, items } = matricesBuffers(n);
    const d = device();
    const out = storage(d, new Float32Array(12 * n), 'out');
    const dets = storage(d, new Float32Array(n), 'dets');
    createPortableCompute(d, {
      code: MATRICES,
      count: n,
      path: 'cpu',
      buffers: { params: uniform(d, params), items: storage(d, items, 'items'), out, dets },
    }).dispatch(d.createCommandEncoder());
    const got = new Float32Array(out.hostShadow?.bytes.buffer as ArrayBuffer);
    const gotDets = new Float32Array(dets.hostShadow?.bytes.buffer as ArrayBuffer);
    const transform = columns(params, 0, 4, 4, 4);
    const tint = columns(params, 16, 3, 4, 3); // a mat3x3f's columns are 16 bytes apart
    const turn = [
      [0, 1],
      [-1, 0],
    ];
    for (let i = 0; i < n; i++) {
      const b = 12 * i;
      const p = mv(transform, Array.from(items.subarray(b, b + 4)));
      const basis = mm(turn, columns(items, b + 4, 2, 2, 2)).map((c) => c.map((x) => x * 0.5));
      basis[1] = basis[1]!.map((x, r) => x + [0.5, -0.5][r]!);
      basis[0]![1] = basis[0]![1]! - 1;
      const v = Array.from(items.subarray(b + 8, b + 11));
      const nn = tint.map(
        (column, c) => column.reduce((s, x, r) => s + v[r]! * x, 0) + transpose(tint)[2]![c]!,
      );
      const frame = [nn, [0, 1, 0], [i % 3, 0, 1]].map((c) => c.map((x) => x * 2));
      expect(Array.from(got.subarray(b, b + 11)), `item ${i}`).toEqual([
        ...p,
        ...basis.flat(),
        ...nn,
      ]);
      expect(gotDets[i], `determinants ${i}`).toBe(det(frame) + det(basis) + det(transform));
    }
  });

  it('a constructor without its element type (mat2x2(0.0, 1.0, -1.0, 0.0)) is an f32 matrix', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> o: array<vec2f>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let turn = mat2x2(0.0, 1.0, -1.0, 0.0);
  o[id.x] = turn * vec2f(f32(id.x), 1.0);
}`;
    const d = device();
    const o = storage(d, new Float32Array(4), 'o');
    createPortableCompute(d, { code, count: 2, path: 'cpu', buffers: { o } }).dispatch(
      d.createCommandEncoder(),
    );
    const turn = [
      [0, 1],
      [-1, 0],
    ];
    expect(Array.from(new Float32Array(o.hostShadow?.bytes.buffer as ArrayBuffer))).toEqual([
      ...mv(turn, [0, 1]),
      ...mv(turn, [1, 1]),
    ]);
  });

  const head = `@group(0) @binding(0) var<storage, read_write> o: array<vec2f>;\n`;
  const refused: Array<[string, string, string, number, RegExp]> = [
    [
      'a matrix of two rows in a uniform (std140 spaces its columns 16 bytes apart, WGSL 8)',
      `${head}@group(0) @binding(1) var<uniform> u: mat2x2f;\n@compute @workgroup_size(1) fn main() { o[0] = u[0]; }`,
      'mat2x2<f32>',
      2,
      /std140/,
    ],
    [
      'm * v of the wrong size',
      `${head}@compute @workgroup_size(1) fn main() {\n  o[0] = (mat2x2f() * vec3f(1.0)).xy;\n}`,
      '*',
      3,
      /\* between mat2x2<f32> and vec3<f32>/,
    ],
    [
      'a component-wise built-in of a matrix',
      `${head}@compute @workgroup_size(1) fn main() {\n  o[0] = abs(mat2x2f())[0];\n}`,
      'abs',
      3,
      /takes no matrix/,
    ],
    [
      'the determinant of a matrix that is not square',
      `${head}@compute @workgroup_size(1) fn main() {\n  o[0] = vec2f(determinant(mat3x2f()));\n}`,
      'determinant',
      3,
      /square/,
    ],
  ];
  for (const [what, code, construct, line, message] of refused)
    it(`refuses ${what}, naming it, its line and column`, () => {
      expectRejected(code, construct, line, message);
    });
});
