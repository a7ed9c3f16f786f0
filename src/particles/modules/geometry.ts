/**
 * Render: mesh particles — each particle drawn as a small triangle mesh instead of a quad:
 * `geometry: { positions, normals, indices }` (Niagara's mesh renderer, Godot's draw-pass mesh).
 * The mesh is scaled by the particle's size over life (its coordinates × `size` × the factor:
 * a mesh from −0.5 to 0.5 is `size` wide), turned by the particle's angle (`rotation`,
 * `angularVelocity`) about an axis of its own, or with `billboard: 'velocity'` its +y turned along
 * the velocity (rolled by the angle, `stretch` lengthening it with speed), and coloured by the
 * colour over life; with `light` lit by its normals (ambient + colour · max(n · l, 0)). Without
 * normals each triangle is flat (its vertices split, the normal of the triangle's plane).
 *
 * Triangles are counter-clockwise seen from outside (glTF's rule): back faces are culled. Drawn
 * with `blending: 'alpha'` into a pass with depth, mesh particles write depth (solid debris hides
 * what is behind it); additive ones never do. The draw: src/particles/mesh-draw.ts.
 */
import { ParticleOptionError, object } from '../errors.js';
import type { ParticleGeometry } from '../options.js';
import { defineModule } from './module.js';
import { numbers, triangles } from './mesh.js';

const KEYS = ['positions', 'normals', 'indices'];

/** One resolved geometry per object given (options resolved again keep it, and its GPU copy). */
const RESOLVED = new WeakMap<object, ParticleGeometry>();

export const geometry = defineModule({
  name: 'geometry',
  stage: 'render',
  summary: 'each particle drawn as a triangle mesh: geometry { positions, normals, indices }',
  keys: ['geometry'],
  present: (o) => o.geometry !== null,
  resolve(o) {
    const g = o.geometry as unknown;
    if (g === null) return { geometry: null };
    object('geometry', g, 'null or { positions, normals, indices }');
    const cached = RESOLVED.get(g as object);
    const resolved = cached ?? resolveGeometry(g as Record<string, unknown>);
    RESOLVED.set(g as object, resolved);
    RESOLVED.set(resolved, resolved);
    // what a quad has and a mesh has not: said, not ignored
    const refused: Array<[string, unknown, boolean]> = [
      ['texture', o.texture, o.texture !== null],
      ['look', o.look, o.look !== null],
      ['softParticles', o.softParticles, o.softParticles !== null],
    ];
    for (const [key, value, set] of refused)
      if (set)
        throw new ParticleOptionError(
          key,
          value,
          'is for quads: mesh particles (geometry) are coloured by their colour over life and lit by their normals (light)',
        );
    return { geometry: resolved };
  },
});

function resolveGeometry(given: Record<string, unknown>): ParticleGeometry {
  // a resolved geometry given back (ps.options.geometry, a module list from ps.modules)
  if (given['vertices'] instanceof Float32Array && given['indices'] instanceof Uint32Array) {
    const v = given['vertices'];
    return resolveGeometry({
      positions: v.filter((_, i) => i % 6 < 3),
      normals: v.filter((_, i) => i % 6 >= 3),
      indices: given['indices'],
    });
  }
  for (const key of Object.keys(given))
    if (!KEYS.includes(key))
      throw new ParticleOptionError(
        `geometry.${key}`,
        given[key],
        `is not a geometry option (they are ${KEYS.join(', ')})`,
      );
  const checked = triangles('geometry', given);
  const positions = checked.positions;
  const vertices = positions.length / 3;
  // a triangle list without indices: vertex i is corner i
  const indices = checked.indices ?? Uint32Array.from({ length: vertices }, (_, i) => i);
  const normalsGiven = given['normals'];
  if (normalsGiven === undefined || normalsGiven === null) return flatGeometry(positions, indices);
  const normals = numbers('geometry.normals', normalsGiven);
  if (normals.length !== positions.length)
    throw new ParticleOptionError(
      'geometry.normals',
      `${normals.length} numbers`,
      `must be x, y, z per vertex, as many as the positions (${positions.length})`,
    );
  const out = new Float32Array(6 * vertices);
  for (let i = 0; i < vertices; i++) {
    const n = [0, 1, 2].map((d) => normals[3 * i + d] as number);
    const length = Math.hypot(...n);
    if (!Number.isFinite(length) || length === 0)
      throw new ParticleOptionError(
        `geometry.normals[${3 * i}]`,
        n,
        `(vertex ${i}'s normal) must be finite and not the zero vector`,
      );
    for (let d = 0; d < 3; d++) {
      out[6 * i + d] = positions[3 * i + d] as number;
      out[6 * i + 3 + d] = (n[d] as number) / length;
    }
  }
  return { vertices: out, indices, flat: false };
}

/** Each triangle flat: its own three vertices, with the normal of its plane. */
function flatGeometry(positions: ArrayLike<number>, indices: Uint32Array): ParticleGeometry {
  const corners = indices.length;
  const out = new Float32Array(6 * corners);
  let area = 0;
  for (let t = 0; t < corners / 3; t++) {
    const p = [0, 1, 2].map((j) =>
      [0, 1, 2].map((d) => positions[3 * (indices[3 * t + j] as number) + d] as number),
    ) as [number[], number[], number[]];
    const u = [0, 1, 2].map((d) => p[1][d]! - p[0][d]!);
    const w = [0, 1, 2].map((d) => p[2][d]! - p[0][d]!);
    const n = [
      u[1]! * w[2]! - u[2]! * w[1]!,
      u[2]! * w[0]! - u[0]! * w[2]!,
      u[0]! * w[1]! - u[1]! * w[0]!,
    ];
    const length = Math.hypot(...n);
    area += length;
    for (let j = 0; j < 3; j++)
      for (let d = 0; d < 3; d++) {
        out[6 * (3 * t + j) + d] = p[j]![d]!;
        // a degenerate triangle (no area: never seen) keeps a normal of zeros
        out[6 * (3 * t + j) + 3 + d] = length > 0 ? n[d]! / length : 0;
      }
  }
  if (!(area > 0))
    throw new ParticleOptionError(
      'geometry',
      `${corners / 3} triangles`,
      'has no area (every triangle is degenerate)',
    );
  return {
    vertices: out,
    indices: Uint32Array.from({ length: corners }, (_, i) => i),
    flat: true,
  };
}
