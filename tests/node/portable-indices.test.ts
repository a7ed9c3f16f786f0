// Indices past the end in portable kernels: a computed one is clamped to the last element on the
// fallbacks, as WebGPU's robust access does (GLSL leaves it undefined; JavaScript would read
// `undefined` and fail later); a literal one is refused, as WebGPU's compiler refuses it. The
// browser runs INDICES on every path against raw WebGPU (tests/gpu/cases/portable-world.ts).
import { describe, expect, it } from 'vitest';
import { cpu, device, expectRejected, storage, uniform } from './portable-helpers.js';
import { createPortableCompute } from '../../src/compute/portable/index.js';

describe('indices past the end', () => {
  it('a computed index reads and writes the last element of a local array, vector, matrix column and uniform array (CPU path)', () => {
    const code = `struct Params { weights: array<vec4f, 3>, shift: i32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> o: array<vec4f>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  var a = array<f32, 3>(1.0, 2.0, 4.0);
  let k = id.x + 2u;      // 2, 3, 4: the last element and past it
  let j = params.shift;   // -1: a large u32
  a[k] += 8.0;
  var v = vec2f(0.5, 0.25);
  v[j] = 3.0;
  let m = mat2x2f(1.0, 2.0, 3.0, 4.0);
  o[id.x] = vec4f(a[2], v.y, m[k][j], params.weights[k].x + params.weights[j].w);
}`;
    const params = new Float32Array(16);
    params.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    new Int32Array(params.buffer)[12] = -1;
    const d = device();
    const o = storage(d, new Float32Array(12), 'o');
    createPortableCompute(d, {
      code,
      count: 3,
      path: 'cpu',
      buffers: { params: uniform(d, params), o },
    }).dispatch(d.createCommandEncoder());
    const got = new Float32Array(o.hostShadow?.bytes.buffer as ArrayBuffer);
    for (let i = 0; i < 3; i++)
      // a[2] = 4 + 8; v[last] = 3; m[1][1] = 4; weights[2].x + weights[2].w = 9 + 12
      expect(Array.from(got.subarray(4 * i, 4 * i + 4)), `invocation ${i}`).toEqual([12, 3, 4, 21]);
  });

  it('a literal index past the end is refused, naming it, as WebGPU refuses it', () => {
    const kernel = (line: string) => `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() {
  ${line}
}`;
    expectRejected(
      kernel('var a = array<f32, 3>(); a[3] = 1.0;'),
      '[]',
      3,
      /index 3 is out of bounds of array<f32, 3>/,
    );
    expectRejected(
      kernel('let v = vec2f(); o[0] = v[2];'),
      '[]',
      3,
      /index 2 is out of bounds of vec2<f32>/,
    );
    expect(
      cpu(
        `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() { var a = array<f32, 3>(1.0, 2.0, 4.0); o[0] = a[2]; }`,
        1,
        { o: new Uint32Array(4) },
      ).o![0],
    ).toBe(0x40800000);
  });
});
