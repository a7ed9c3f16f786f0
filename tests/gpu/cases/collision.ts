// Screen-space collisions with the scene's depth (options.collision) on every path of each
// backend: a wall drawn into a depth texture across the view 2 units behind the camera's target,
// one particle pushed away from the camera towards it — with a collision it never goes behind the
// wall, without one it does; the GPU paths agree with the reference (which reads the same wall as
// an array, as the CPU path does). The option errors: tests/node/particles.test.ts.
import {
  TextureUsage,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
  type Texture,
} from '../../../src/all.js';
import { resolveOptions } from '../../../src/particles/index.js';
import { createState, stepState } from '../../../src/testing.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { CAMERA, IMAGE, ONE_STILL_PARTICLE, pathsOf, stepped } from '../page/particle-helpers.js';
import { drawDepth } from '../page/scenes.js';
import { mat4, vec4 } from 'wgpu-matrix';

/** The wall's view distance (the particle starts at the camera's target, 10 units away). */
const WALL = 12;
const STEPS = 90;

/** The wall's depth: P[3][2] / d − P[2][2]. */
const wallDepth = (): number =>
  (CAMERA.projection[14] as number) / WALL - (CAMERA.projection[10] as number);

/** The floor's height: particles fall onto it from the camera's target, 2 units above. */
const FLOOR = -4;

/** P · V of CAMERA. */
const viewProjection = (): Float32Array =>
  mat4.multiply(CAMERA.projection as Float32Array, CAMERA.view as Float32Array);

/** The floor y = FLOOR from −6 to 6 in x and z, as clip-space (already divided) vertices. */
function floorVertices(): number[] {
  const vp = viewProjection();
  // prettier-ignore
  const corners = [[-6, -6], [6, -6], [6, 6], [-6, -6], [6, 6], [-6, 6]];
  return corners.flatMap(([x, z]) => {
    const c = vec4.transformMat4([x as number, FLOOR, z as number, 1], vp);
    return [c[0]! / c[3]!, c[1]! / c[3]!, c[2]! / c[3]!, 0, 0, 0, 1];
  });
}

/** The floor's depth at every texel, from the ray through each texel centre (the CPU path's array). */
function floorArray(): { data: Float32Array; width: number; height: number } {
  const vp = viewProjection();
  const inverse = mat4.inverse(vp);
  const data = new Float32Array(IMAGE * IMAGE).fill(1);
  for (let y = 0; y < IMAGE; y++)
    for (let x = 0; x < IMAGE; x++) {
      const ndc = [((x + 0.5) / IMAGE) * 2 - 1, 1 - ((y + 0.5) / IMAGE) * 2];
      const near = vec4.transformMat4([ndc[0]!, ndc[1]!, 0, 1], inverse);
      const far = vec4.transformMat4([ndc[0]!, ndc[1]!, 1, 1], inverse);
      const a = [0, 1, 2].map((i) => near[i]! / near[3]!);
      const b = [0, 1, 2].map((i) => far[i]! / far[3]!);
      const t = (FLOOR - a[1]!) / (b[1]! - a[1]!);
      if (t <= 0 || t >= 1) continue;
      const hit = [0, 1, 2].map((i) => a[i]! + t * (b[i]! - a[i]!));
      if (Math.abs(hit[0]!) > 6 || Math.abs(hit[2]!) > 6) continue;
      const c = vec4.transformMat4([hit[0]!, hit[1]!, hit[2]!, 1], vp);
      data[y * IMAGE + x] = c[2]! / c[3]!;
    }
  return { data, width: IMAGE, height: IMAGE };
}

/** A depth texture holding the wall, drawn as a clip-space quad. */
function wallTexture(device: Device, vertices = wallVertices()): Texture {
  const size = { width: IMAGE, height: IMAGE };
  const depth = device.createTexture({
    label: 'scene depth (a wall)',
    size,
    format: 'depth24plus',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
  });
  const color = device.createTexture({
    size,
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  drawDepth(device, depth, color, vertices);
  color.destroy();
  return depth;
}

/** The wall across the whole view at WALL, as clip-space vertices. */
function wallVertices(): number[] {
  const z = wallDepth();
  // prettier-ignore
  return [[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]].flatMap(([x, y]) => [x as number, y as number, z, 0, 0, 0, 1]);
}

/** The same wall as the CPU path reads it. */
const wallArray = (): { data: Float32Array; width: number; height: number } => ({
  data: new Float32Array(IMAGE * IMAGE).fill(wallDepth()),
  width: IMAGE,
  height: IMAGE,
});

/** One particle at the camera's target, accelerated straight away from the camera. */
function pushed(): ParticleOptionsInput {
  const v = CAMERA.view;
  const away = [-(v[2] as number), -(v[6] as number), -(v[10] as number)];
  return {
    ...ONE_STILL_PARTICLE,
    lifeMin: 100,
    lifeMax: 100,
    gravity: away.map((c) => 6 * c) as [number, number, number],
  };
}

/** Particle 0's distance from the camera along its view direction. */
function viewDistance(p: Float32Array): number {
  const v = CAMERA.view as ArrayLike<number>;
  return -(v[2]! * p[0]! + v[6]! * p[1]! + v[10]! * p[2]! + v[14]!);
}

/** Particle 0's view distance after each of `steps` steps. */
async function distances(ps: ParticleSystem, steps: number): Promise<number[]> {
  const out: number[] = [];
  for (let s = 0; s < steps; s++) {
    ps.step(1 / 60);
    out.push(viewDistance((await ps.read()).position));
  }
  return out;
}

export const cases = defineCases({
  'collision: a particle pushed into a wall of the scene depth stays in front of it on every path, like the reference':
    {
      async run({ device }) {
        const depth = wallTexture(device);
        // the reference, reading the wall as an array
        const o = resolveOptions({
          ...pushed(),
          collision: { depth: wallArray(), camera: CAMERA },
        });
        const state = createState(o);
        const want: number[] = [];
        for (let n = 1; n <= STEPS; n++) {
          // the burst at time 0 emits slot 0 at step 1
          stepState(o, n, 1 / 60, state, { start: 0, count: n === 1 ? 1 : 0 });
          want.push(viewDistance(state.position));
        }
        const deepest = Math.max(...want);
        assert(deepest < WALL + 0.05, `reference: the particle reached ${deepest.toFixed(3)}`);
        assert(
          want[STEPS - 1]! > 11,
          `reference: the particle rests near the wall (${want[STEPS - 1]})`,
        );
        for (const path of pathsOf(device)) {
          const collision = { depth: path === 'cpu' ? wallArray() : depth, camera: CAMERA };
          const ps = await stepped(device, { ...pushed(), path, collision }, 0);
          const got = await distances(ps, STEPS);
          ps.destroy();
          const worst = Math.max(...got.map((d, i) => Math.abs(d - want[i]!)));
          console.log(
            `${device.caps.backend} ${path}: deepest ${Math.max(...got).toFixed(3)} (wall ${WALL}), last ${got[STEPS - 1]!.toFixed(3)}, worst difference from the reference ${worst.toExponential(1)}`,
          );
          assert(Math.max(...got) < WALL + 0.05, `${path}: went behind the wall`);
          assert(worst < 0.05, `${path}: ${worst} from the reference`);
        }
        // without the collision it goes through
        const free = await stepped(device, pushed(), STEPS, 1 / 60);
        const through = viewDistance((await free.read()).position);
        assert(through > WALL + 0.5, `without collision it passes the wall (${through})`);
        free.destroy();
        depth.destroy();
      },
    },

  'collision: particles dropped onto a floor seen at an angle bounce up off it (the normal from the depth), on every path':
    {
      async run({ device }) {
        const depth = wallTexture(device, floorVertices());
        const dropped: ParticleOptionsInput = {
          ...ONE_STILL_PARTICLE,
          lifeMin: 100,
          lifeMax: 100,
          gravity: [0, -9.8, 0],
          drag: 0,
          emitter: { shape: 'cone', position: [0, -2, 0], radius: 0, angle: 0 },
          speedMin: 0,
          speedMax: 0,
        };
        for (const path of pathsOf(device)) {
          const collision = {
            depth: path === 'cpu' ? floorArray() : depth,
            camera: CAMERA,
            restitution: 0.5,
          };
          // events: 'collision' records each bounce off the depth (where, and the velocity after
          // it); WebGPU's fragment path may lack the bytes a texel for the records (it says so)
          const ps = await stepped(
            device,
            { ...dropped, path, collision, events: 'collision' },
            0,
          ).catch((e: Error) => {
            if (path !== 'pingpong' || !/maxColorAttachmentBytesPerSample/.test(e.message)) throw e;
            return stepped(device, { ...dropped, path, collision }, 0);
          });
          const recording = ps.options.events === 'collision';
          let lowest = Infinity;
          let rising = 0;
          let bounces = 0;
          let vy = 0;
          for (let s = 0; s < 60; s++) {
            ps.step(1 / 60);
            const state = await ps.read();
            lowest = Math.min(lowest, state.position[1]!);
            if (state.velocity[1]! > 0.5) rising++;
            // the step that turned the fall into a rise is a bounce: its event is where the
            // particle is (one readback of the records at that step only: Firefox's are slow)
            if (recording && vy <= 0 && state.velocity[1]! > 0) {
              const e = await ps.events({ positions: true });
              assert(
                e.count === 1 && Math.abs(e.positions![1]! - state.position[1]!) < 1e-6,
                `${path} step ${s + 1}: the bounce is an event where the particle is (${e.count} events at ${e.positions}, y ${state.position[1]})`,
              );
              bounces++;
            }
            vy = state.velocity[1]!;
          }
          ps.destroy();
          if (recording) assert(bounces >= 1, `${path}: the bounce was an event (${bounces})`);
          console.log(
            `${device.caps.backend} ${path}: lowest y ${lowest.toFixed(3)} (floor ${FLOOR}), ${rising} of 60 steps rising after a bounce`,
          );
          assert(lowest > FLOOR - 0.2, `${path}: fell through the floor to ${lowest}`);
          assert(rising > 3, `${path}: never bounced up (${rising} steps rising)`);
        }
        depth.destroy();
      },
    },
});
