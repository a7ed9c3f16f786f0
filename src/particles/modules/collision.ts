/**
 * Update: screen-space collisions with the scene's depth (`collision`): where a particle has just
 * gone behind the surface the depth holds (seen from the camera it was drawn with, within
 * `thickness`), it stays where it was and its velocity bounces off the surface. ../collision.ts
 * has the same in JavaScript (the CPU path and the reference) and the step's uniforms.
 */
import { ParticleOptionError, checkDepthTexture, finite } from '../errors.js';
import type { CollisionInput, ParticleCollision } from '../options.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { SceneDepthArray } from '../../compute/paths/path.js';
import { collide, collisionFrame, collisionUniforms, type CollisionFrame } from '../collision.js';
import { defineModule } from './module.js';

/**
 * The scene's surface normal at depth texel (x, y), in world space — from the view positions of
 * the neighbouring texels (central differences, unprojected with the projection's P00, P11, P22,
 * P32 in `cproj`), turned towards the camera, rotated by the view's axes.
 */
const SCENE_NORMAL = `
vec3f viewPointAt(i32 x, i32 y) {
    f32 d = params.cproj.w / (ignisSceneDepth(x, y) + params.cproj.z);
    f32 ndcX = (f32(x) + 0.5) / params.csize.x * 2.0 - 1.0;
    f32 ndcY = 1.0 - (f32(y) + 0.5) / params.csize.y * 2.0;
    return vec3f(ndcX * d / params.cproj.x, ndcY * d / params.cproj.y, -d);
}
vec3f sceneNormal(i32 x, i32 y) {
    i32 w = i32(params.csize.x) - 1;
    i32 h = i32(params.csize.y) - 1;
    vec3f across = viewPointAt(min(x + 1, w), y) - viewPointAt(max(x - 1, 0), y);
    vec3f up = viewPointAt(x, max(y - 1, 0)) - viewPointAt(x, min(y + 1, h));
    vec3f c = cross(across, up);
    f32 len = length(c);
    vec3f nv = select(vec3f(0.0, 0.0, 1.0), c / max(len, 1e-20), len > 1e-12);
    nv = select(nv, -nv, dot(nv, viewPointAt(x, y)) > 0.0);
    return params.cright.xyz * nv.x + params.cup.xyz * nv.y + params.cback.xyz * nv.z;
}
`;

/** The collision itself: the normal part of v reversed × restitution, the rest × (1 − friction). */
const COLLIDE = `
    vec4f clip = params.cvp0 * x.x + params.cvp1 * x.y + params.cvp2 * x.z + params.cvp3;
    f32 cw = max(clip.w, 0.0001);
    f32 u = clip.x / cw * 0.5 + 0.5;
    f32 t = 0.5 - clip.y / cw * 0.5;
    bool inside = clip.w > 0.0001 && u >= 0.0 && u < 1.0 && t >= 0.0 && t < 1.0;
    i32 px = i32(floor(clamp(u, 0.0, 1.0) * params.csize.x));
    i32 py = i32(floor(clamp(t, 0.0, 1.0) * params.csize.y));
    f32 zs = ignisSceneDepth(px, py);
    f32 surface = params.cproj.w / (zs + params.cproj.z);
    bool hitScene = inside && zs < 1.0 && clip.w > surface && clip.w < surface + params.cparams.x;
    vec3f n = sceneNormal(px, py);
    f32 vn = dot(v, n);
    vec3f bounced = (v - n * vn) * params.cparams.z - n * (vn * params.cparams.y);
    v = select(v, bounced, hitScene && vn < 0.0);
    x = select(x, position.xyz, hitScene);`;

/** `collision` with its defaults, each value checked (the depth's kind against the path: checkDevice). */
function resolveCollision(c: CollisionInput | null): ParticleCollision | null {
  if (c === null) return null;
  if (!c || typeof c !== 'object')
    throw new ParticleOptionError(
      'collision',
      c,
      'must be null or { depth, camera, restitution?, friction?, thickness? }',
    );
  const out = { restitution: 0.3, friction: 0.1, thickness: 0.5, ...c };
  const depth = out.depth as unknown;
  const isArray = !!depth && (depth as SceneDepthArray).data instanceof Float32Array;
  const isTexture = !!depth && (depth as Texture).kind === 'texture';
  if (!isArray && !isTexture)
    throw new ParticleOptionError(
      'collision.depth',
      depth,
      'must be the scene depth texture, or { data: Float32Array, width, height } on the CPU path',
    );
  if (isArray) {
    const { data, width, height } = depth as SceneDepthArray;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
      throw new ParticleOptionError(
        'collision.depth',
        `${String(width)}x${String(height)}`,
        'needs a positive integer width and height',
      );
    if (data.length !== width * height)
      throw new ParticleOptionError(
        'collision.depth.data',
        data.length,
        `must hold width × height = ${width * height} depths`,
      );
  }
  const cam = out.camera as unknown as { view?: ArrayLike<number>; projection?: ArrayLike<number> };
  if (!cam || cam.view?.length !== 16 || cam.projection?.length !== 16)
    throw new ParticleOptionError(
      'collision.camera',
      out.camera,
      'must be { view, projection }: 4×4 matrices, the camera the depth was drawn with',
    );
  for (const key of ['restitution', 'friction'] as const) {
    finite(`collision.${key}`, out[key]);
    if (out[key] < 0 || out[key] > 1)
      throw new ParticleOptionError(`collision.${key}`, out[key], 'must be from 0 to 1');
  }
  finite('collision.thickness', out.thickness);
  if (out.thickness <= 0)
    throw new ParticleOptionError('collision.thickness', out.thickness, 'must be positive');
  return out;
}

export const collision = defineModule({
  name: 'collision',
  stage: 'update',
  summary:
    'bounces off the scene depth: collision { depth, camera, restitution, friction, thickness }',
  keys: ['collision'],
  present: (o) => o.collision !== null,
  absent: { collision: null },
  resolve(o) {
    const c = resolveCollision((o.collision as CollisionInput | null | undefined) ?? null);
    if (c && o.behavior)
      throw new ParticleOptionError(
        'collision',
        '{ … }',
        'is part of the canonical rule, which a behavior replaces: collide in your behavior, or leave one out',
      );
    return { collision: c };
  },
  checkDevice(device, o, path) {
    const c = o.collision;
    if (c === null) return;
    const texture = (c.depth as Texture).kind === 'texture';
    if (path === 'cpu' && texture)
      throw new ParticleOptionError(
        'collision.depth',
        (c.depth as Texture).label,
        'is a texture, but the CPU path reads the scene depth from { data: Float32Array, width, height }',
      );
    if (path !== 'cpu' && !texture)
      throw new ParticleOptionError(
        'collision.depth',
        '{ data, width, height }',
        `is an array, but the ${path} path reads the scene depth from a depth texture`,
      );
    if (texture) checkDepthTexture(device, c.depth as Texture, 'collision.depth');
  },
  kernel: () => ({
    uniforms: [
      ['cvp0', 'vec4f'],
      ['cvp1', 'vec4f'],
      ['cvp2', 'vec4f'],
      ['cvp3', 'vec4f'],
      ['cproj', 'vec4f'],
      ['cright', 'vec4f'],
      ['cup', 'vec4f'],
      ['cback', 'vec4f'],
      ['csize', 'vec4f'],
      ['cparams', 'vec4f'],
    ],
    helpers: SCENE_NORMAL,
    collide: COLLIDE,
    sceneDepth: true,
  }),
  values: (o) => (o.collision ? collisionUniforms(o.collision) : {}),
  reference: {
    prepare: (o) => (o.collision ? collisionFrame(o.collision) : null),
    collide(_o, _own, p, prepared) {
      if (!prepared) return;
      const s = [p.x, p.y, p.z, p.vx, p.vy, p.vz];
      if (collide(prepared as CollisionFrame, p.x0, p.y0, p.z0, s)) p.collided = true;
      [p.x, p.y, p.z, p.vx, p.vy, p.vz] = s as [number, number, number, number, number, number];
    },
  },
  fastCpu: true,
});
