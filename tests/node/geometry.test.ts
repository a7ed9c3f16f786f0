// The geometry module's front door (mesh particles): each bad option a ParticleOptionError naming
// it; the mesh resolved to interleaved vertices — flat normals from the triangles' planes (facing
// out for counter-clockwise triangles) when none are given, the given ones made unit — and a
// resolved system's options given back resolving to the same mesh.
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/particles/resolve.js';
import { ParticleOptionError } from '../../src/particles/errors.js';
import type { ParticleOptionsInput } from '../../src/particles/options.js';

const triangle = [0, 0, 0, 1, 0, 0, 0, 1, 0];
const withGeometry = (geometry: unknown, extra: ParticleOptionsInput = {}): ParticleOptionsInput =>
  ({ count: 4, geometry, ...extra }) as ParticleOptionsInput;

describe('geometry (mesh particles)', () => {
  const bad: Array<[unknown, RegExp, ParticleOptionsInput?]> = [
    [5, /geometry = 5 must be null or \{ positions, normals, indices \}/],
    [{ positions: triangle, uv: [] }, /geometry\.uv = .* is not a geometry option/],
    [{ positions: [0, 0, 0, 1, 0] }, /geometry\.positions = 5 numbers must be x, y, z per vertex/],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, NaN, 0] },
      /geometry\.positions\[7\] = NaN must be a finite/,
    ],
    [{ positions: 'abc' }, /geometry\.positions = abc must be an array of numbers/],
    [{ positions: triangle, indices: [0, 1] }, /geometry\.indices = 2 indices must be three per/],
    [
      { positions: triangle, indices: [0, 1, 3] },
      /geometry\.indices\[2\] = 3 must be a vertex index from 0 to 2/,
    ],
    [
      { positions: [...triangle, 1, 1, 1] },
      /geometry\.positions = 4 vertices without indices is a triangle list/,
    ],
    [
      { positions: triangle, normals: [0, 0, 1] },
      /geometry\.normals = 3 numbers must be x, y, z per vertex, as many as the positions \(9\)/,
    ],
    [
      { positions: triangle, normals: [0, 0, 1, 0, 0, 0, 0, 0, 1] },
      /geometry\.normals\[3\] = \[0,0,0\] \(vertex 1's normal\) must be finite and not the zero vector/,
    ],
    [{ positions: [0, 0, 0, 1, 0, 0, 2, 0, 0] }, /geometry = 1 triangles has no area/],
    [
      { positions: triangle },
      /texture = .* is for quads: mesh particles/,
      { texture: { kind: 'texture' } as never },
    ],
    [
      { positions: triangle },
      /look = .* is for quads/,
      { look: { code: 'fn look(p: ParticleFragment) -> vec4f { return p.color; }' } },
    ],
    [{ positions: triangle }, /drawMode = splat needs no geometry/, { drawMode: 'splat' }],
  ];
  for (const [geometry, message, extra] of bad)
    it(`refuses ${JSON.stringify(geometry).slice(0, 60)}${extra ? ` with ${Object.keys(extra).join(', ')}` : ''}`, () => {
      let error: unknown;
      try {
        resolveOptions(withGeometry(geometry, extra));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParticleOptionError);
      expect(String(error)).toMatch(message);
    });

  it('makes each triangle flat, its normal out of the counter-clockwise side, when no normals are given', () => {
    // two triangles sharing an edge: the xy one faces +z, the xz one (0, (0, 0, 1), (1, 0, 0)) +y
    const o = resolveOptions(
      withGeometry({
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
        indices: [0, 1, 2, 0, 3, 1],
      }),
    );
    const g = o.geometry!;
    expect(g.flat).toBe(true);
    // split: six vertices, each with its triangle's normal
    expect(Array.from(g.indices)).toEqual([0, 1, 2, 3, 4, 5]);
    const normals = [0, 1, 2, 3, 4, 5].map((v) =>
      Array.from(g.vertices.subarray(6 * v + 3, 6 * v + 6)),
    );
    for (const n of normals.slice(0, 3)) expect(n).toEqual([0, 0, 1]);
    for (const n of normals.slice(3)) expect(n).toEqual([0, 1, 0]);
    expect(Array.from(g.vertices.subarray(18, 21))).toEqual([0, 0, 0]);
    expect(Array.from(g.vertices.subarray(24, 27))).toEqual([0, 0, 1]);
  });

  it('keeps given normals per vertex (made unit) and the indices as given', () => {
    const o = resolveOptions(
      withGeometry({
        positions: triangle,
        normals: [0, 0, 2, 0, 3, 0, 4, 0, 0],
        indices: [2, 1, 0],
      }),
    );
    const g = o.geometry!;
    expect(g.flat).toBe(false);
    expect(Array.from(g.indices)).toEqual([2, 1, 0]);
    expect(Array.from(g.vertices)).toEqual([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0]);
  });

  it('resolves a resolved system’s options again to the same mesh, and the same object given twice once', () => {
    const given = { positions: triangle };
    const o = resolveOptions(withGeometry(given));
    expect(resolveOptions(withGeometry(given)).geometry).toBe(o.geometry);
    const again = resolveOptions(o);
    expect(again.geometry).toBe(o.geometry);
    // a copy (another realm, a clone): the same numbers
    const copy = resolveOptions(
      withGeometry({
        vertices: o.geometry!.vertices.slice(),
        indices: o.geometry!.indices.slice(),
      }),
    );
    expect(Array.from(copy.geometry!.vertices)).toEqual(Array.from(o.geometry!.vertices));
    expect(Array.from(copy.geometry!.indices)).toEqual(Array.from(o.geometry!.indices));
  });
});
