/**
 * Screen-space collisions against the scene's depth (`collision`): the update projects each
 * particle with the camera the depth was drawn with, reads the depth at its pixel and, where the
 * particle has just gone behind the surface (within `thickness`), keeps it where it was and bounces
 * its velocity off the surface's normal (from the neighbouring depth texels). kernel.ts has it in
 * the kernel language (COLLIDE, SCENE_NORMAL); `collide` here is the same for the CPU path and the
 * reference, in f32 steps.
 */
import type { Texture } from '../rhi/core/texture.js';
import type { ParticleCollision } from './options.js';
export type { ParticleCollision } from './options.js';
import type { UniformValue } from '../compute/layout.js';
import type { SceneDepthArray } from '../compute/paths/path.js';

const f = Math.fround;

/** The depth's size in texels. */
const sizeOf = (d: Texture | SceneDepthArray): [number, number] => [d.width, d.height];

/** The kernel's collision uniforms for this step (kernel.ts `cvp0`…`cparams`). */
export function collisionUniforms(c: ParticleCollision): Record<string, UniformValue> {
  const v = c.camera.view;
  const p = c.camera.projection;
  const vp: number[] = [];
  // column-major P · V
  for (let col = 0; col < 4; col++)
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += (p[4 * k + row] as number) * (v[4 * col + k] as number);
      vp.push(sum);
    }
  const [w, h] = sizeOf(c.depth);
  return {
    cvp0: vp.slice(0, 4),
    cvp1: vp.slice(4, 8),
    cvp2: vp.slice(8, 12),
    cvp3: vp.slice(12, 16),
    cproj: [p[0] as number, p[5] as number, p[10] as number, p[14] as number],
    // the view's rows: the world directions of view x, y and z
    cright: [v[0] as number, v[4] as number, v[8] as number, 0],
    cup: [v[1] as number, v[5] as number, v[9] as number, 0],
    cback: [v[2] as number, v[6] as number, v[10] as number, 0],
    csize: [w, h, 0, 0],
    cparams: [c.thickness, c.restitution, 1 - c.friction, 0],
  };
}

/** A step's collision constants in f32, made once per step (`collide` reads them). */
export interface CollisionFrame {
  readonly vp: Float32Array;
  readonly proj: Float32Array;
  readonly axes: Float32Array;
  readonly size: [number, number];
  readonly thickness: number;
  readonly restitution: number;
  readonly keep: number;
  readonly depth: SceneDepthArray;
}

/** The step's constants; the depth must be an array (the CPU path's). */
export function collisionFrame(c: ParticleCollision): CollisionFrame {
  const u = collisionUniforms(c);
  const vec = (...names: string[]): Float32Array =>
    Float32Array.from(names.flatMap((n) => u[n] as number[]));
  return {
    vp: vec('cvp0', 'cvp1', 'cvp2', 'cvp3'),
    proj: vec('cproj'),
    axes: vec('cright', 'cup', 'cback'),
    size: sizeOf(c.depth),
    thickness: f(c.thickness),
    restitution: f(c.restitution),
    keep: f(1 - c.friction),
    depth: c.depth as SceneDepthArray,
  };
}

function depthAt(c: CollisionFrame, x: number, y: number): number {
  const d = c.depth;
  const cx = Math.min(Math.max(x, 0), d.width - 1);
  const cy = Math.min(Math.max(y, 0), d.height - 1);
  return d.data[cy * d.width + cx] as number;
}

function viewPointAt(c: CollisionFrame, x: number, y: number, out: number[]): void {
  const d = f(c.proj[3]! / f(depthAt(c, x, y) + c.proj[2]!));
  const ndcX = f(f(f(f(x + 0.5) / c.size[0]) * 2) - 1);
  const ndcY = f(1 - f(f(f(y + 0.5) / c.size[1]) * 2));
  out[0] = f(f(ndcX * d) / c.proj[0]!);
  out[1] = f(f(ndcY * d) / c.proj[1]!);
  out[2] = -d;
}

const A = [0, 0, 0];
const B = [0, 0, 0];
const C = [0, 0, 0];
const D = [0, 0, 0];
const N = [0, 0, 0];

/** The surface normal in world space at texel (x, y) (SCENE_NORMAL in kernel.ts), into N. */
function sceneNormal(c: CollisionFrame, x: number, y: number): void {
  const w = c.size[0] - 1;
  const h = c.size[1] - 1;
  viewPointAt(c, Math.min(x + 1, w), y, A);
  viewPointAt(c, Math.max(x - 1, 0), y, B);
  viewPointAt(c, x, Math.max(y - 1, 0), C);
  viewPointAt(c, x, Math.min(y + 1, h), D);
  const ax = f(A[0]! - B[0]!);
  const ay = f(A[1]! - B[1]!);
  const az = f(A[2]! - B[2]!);
  const ux = f(C[0]! - D[0]!);
  const uy = f(C[1]! - D[1]!);
  const uz = f(C[2]! - D[2]!);
  let nx = f(f(ay * uz) - f(az * uy));
  let ny = f(f(az * ux) - f(ax * uz));
  let nz = f(f(ax * uy) - f(ay * ux));
  const len = f(Math.sqrt(f(f(f(nx * nx) + f(ny * ny)) + f(nz * nz))));
  if (len > 1e-12) {
    nx = f(nx / len);
    ny = f(ny / len);
    nz = f(nz / len);
  } else [nx, ny, nz] = [0, 0, 1];
  viewPointAt(c, x, y, A);
  if (f(f(f(nx * A[0]!) + f(ny * A[1]!)) + f(nz * A[2]!)) > 0) [nx, ny, nz] = [-nx, -ny, -nz];
  const m = c.axes;
  for (let i = 0; i < 3; i++) N[i] = f(f(f(m[i]! * nx) + f(m[4 + i]! * ny)) + f(m[8 + i]! * nz));
}

/**
 * Collides the stepped particle `s` = [x, y, z, vx, vy, vz] (from the previous position
 * `x0, y0, z0`) with the scene's depth, in place: COLLIDE in kernel.ts. Whether it bounced.
 */
export function collide(
  c: CollisionFrame,
  x0: number,
  y0: number,
  z0: number,
  s: number[],
): boolean {
  const x = s[0]!;
  const y = s[1]!;
  const z = s[2]!;
  const vp = c.vp;
  // clip = P · V · (x, y, z, 1): rows 0, 1 and 3 are all the test needs (no allocation: the CPU
  // path runs this per particle per step)
  const row = (r: number): number =>
    f(f(f(f(vp[r]! * x) + f(vp[4 + r]! * y)) + f(vp[8 + r]! * z)) + vp[12 + r]!);
  const clipX = row(0);
  const clipY = row(1);
  const clipW = row(3);
  const cw = Math.max(clipW, f(0.0001));
  const u = f(f(f(clipX / cw) * 0.5) + 0.5);
  const t = f(0.5 - f(f(clipY / cw) * 0.5));
  const inside = clipW > f(0.0001) && u >= 0 && u < 1 && t >= 0 && t < 1;
  if (!inside) return false;
  const px = Math.floor(f(Math.min(Math.max(u, 0), 1) * c.size[0]));
  const py = Math.floor(f(Math.min(Math.max(t, 0), 1) * c.size[1]));
  const zs = depthAt(c, px, py);
  const surface = f(c.proj[3]! / f(zs + c.proj[2]!));
  if (!(zs < 1 && clipW > surface && clipW < f(surface + c.thickness))) return false;
  sceneNormal(c, px, py);
  const vn = f(f(f(s[3]! * N[0]!) + f(s[4]! * N[1]!)) + f(s[5]! * N[2]!));
  if (vn < 0) {
    const scale = f(vn * c.restitution);
    for (let i = 0; i < 3; i++)
      s[3 + i] = f(f(f(s[3 + i]! - f(N[i]! * vn)) * c.keep) - f(N[i]! * scale));
  }
  s[0] = x0;
  s[1] = y0;
  s[2] = z0;
  // a bounce (moving into the surface): what the events module's 'collision' records
  return vn < 0;
}
