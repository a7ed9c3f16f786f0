// Mesh particles (src/particles/modules/geometry.ts, mesh-draw.ts): a particle drawn as a box is
// the box's projection — each visible face exactly as bright as its normal says under the light,
// covering the pixels its projected corners enclose (computed here from the camera's matrices);
// half the size covers a quarter; billboard 'velocity' lays a tall box along its velocity and
// `stretch` lengthens it; both raster modes, sorted or not, and every path give the same pixels.
import { mat4, vec4 } from 'wgpu-matrix';
import {
  TextureUsage,
  createParticleSystem,
  orbitCamera,
  type Camera,
  type ParticleOptionsInput,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { fromHalfs } from '../../../src/compute/index.js';
import {
  CAMERA,
  IMAGE,
  ONE_STILL_PARTICLE,
  box,
  drawFloatImage,
  largestDifference,
  pathsOf,
  stepped,
} from '../page/particle-helpers.js';

const AMBIENT = 0.1;
/** A camera above, right of and in front of the particle (at (0, −2, 0)): three faces in view. */
const VIEW: Camera = orbitCamera({
  aspect: 1,
  distance: 10,
  yaw: 0.6,
  pitch: 0.5,
  target: [0, -2, 0],
});
/** Where the light travels: towards −x, −y and −z, so the +x, +y and +z faces are lit, unequally. */
const TRAVEL = [-0.3, -0.8, -0.52];
const TOWARDS = (() => {
  const l = Math.hypot(...TRAVEL);
  return TRAVEL.map((c) => -c / l) as [number, number, number];
})();

/** The pixel a world point lands on (x right, y down), through `camera`. */
function pixelOf(camera: Camera, p: readonly number[]): [number, number] {
  const vp = mat4.multiply(camera.projection as Float32Array, camera.view as Float32Array);
  const c = vec4.transformMat4([p[0]!, p[1]!, p[2]!, 1], vp);
  return [((c[0]! / c[3]! + 1) / 2) * IMAGE, ((1 - c[1]! / c[3]!) / 2) * IMAGE];
}

/** The area and perimeter, in pixels, of a face's projection (its corners in order). */
function projected(camera: Camera, corners: number[][]): { area: number; perimeter: number } {
  const px = corners.map((p) => pixelOf(camera, p));
  let area = 0;
  let perimeter = 0;
  for (let i = 0; i < px.length; i++) {
    const [x0, y0] = px[i]!;
    const [x1, y1] = px[(i + 1) % px.length]!;
    area += x0 * y1 - x1 * y0;
    perimeter += Math.hypot(x1 - x0, y1 - y0);
  }
  return { area: Math.abs(area) / 2, perimeter };
}

/** The +x, +y and +z faces of a cube of half-size h at `c`, corners in order. */
function facesOf(c: readonly number[], h: number): number[][][] {
  return [0, 1, 2].map((axis) => {
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    return [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ].map(([a, b]) => {
      const p = [...c];
      p[axis]! += h;
      p[u]! += a! * h;
      p[v]! += b! * h;
      return p;
    });
  });
}

/** Covered pixels (alpha > 0.5) of a float image, by their red channel. */
function covered(img: Float32Array): { x: number; y: number; r: number; g: number; b: number }[] {
  const out = [];
  for (let y = 0; y < IMAGE; y++)
    for (let x = 0; x < IMAGE; x++) {
      const i = 4 * (y * IMAGE + x);
      if ((img[i + 3] as number) > 0.5)
        out.push({ x, y, r: img[i]!, g: img[i + 1]!, b: img[i + 2]! });
    }
  return out;
}

const cube = (size: number, extra: ParticleOptionsInput = {}): ParticleOptionsInput => ({
  ...ONE_STILL_PARTICLE,
  geometry: { positions: box(0.5, 0.5, 0.5) },
  light: {
    direction: TRAVEL as [number, number, number],
    color: [1, 1, 1],
    ambient: [AMBIENT, AMBIENT, AMBIENT],
  },
  size,
  blending: 'alpha',
  ...extra,
});

export const cases = defineCases({
  'geometry: a cube particle is its projection, each face lit by its normal, on every path, raster mode and order':
    {
      async run({ device }) {
        let first: Float32Array | null = null;
        for (const size of [2, 1])
          for (const path of pathsOf(device))
            for (const drawMode of ['instanced', 'pulled'] as const)
              for (const sort of size === 2 ? [false, true] : [false]) {
                const how = `size ${size}, ${path}, ${drawMode}${sort ? ', sorted' : ''}`;
                const ps = await stepped(device, { ...cube(size), path, drawMode, sort }, 1);
                const img = await drawFloatImage(device, ps, VIEW);
                ps.destroy();
                const px = covered(img);
                // the three faces in view: +x, +y, +z, each lit by its normal's component
                const faces = facesOf([0, -2, 0], size / 2);
                for (let axis = 0; axis < 3; axis++) {
                  const want = AMBIENT + Math.max(TOWARDS[axis]!, 0);
                  const mine = px.filter((p) => Math.abs(p.r - want) < 4e-3);
                  const { area, perimeter } = projected(VIEW, faces[axis]!);
                  assert(
                    Math.abs(mine.length - area) < 0.5 * perimeter + 4,
                    `${how}: face ${'xyz'[axis]} (light ${want.toFixed(3)}) covers ${mine.length} pixels; its projection is ${area.toFixed(1)} (perimeter ${perimeter.toFixed(1)})`,
                  );
                }
                const lights = [0, 1, 2].map((a) => AMBIENT + Math.max(TOWARDS[a]!, 0));
                const stray = px.filter(
                  (p) =>
                    !lights.some((l) => Math.abs(p.r - l) < 4e-3) || Math.abs(p.r - p.g) > 2e-3,
                );
                assert(
                  stray.length === 0,
                  `${how}: every covered pixel is one face's light (${stray.length} are not, e.g. ${JSON.stringify(stray[0])})`,
                );
                if (size === 2) {
                  if (!first) first = img;
                  else {
                    const worst = largestDifference(img, first);
                    assert(worst < 2e-3, `${how}: the image is the first path's (worst ${worst})`);
                  }
                }
              }
      },
    },
  "geometry: billboard 'velocity' lays a tall box along its velocity, and stretch lengthens it with speed":
    {
      async run({ device }) {
        // born at the first step, then 30 units/s² along +x for one: a velocity of 0.5 along +x
        const moving = (extra: ParticleOptionsInput): ParticleOptionsInput => ({
          ...ONE_STILL_PARTICLE,
          geometry: { positions: box(0.05, 0.5, 0.05) },
          gravity: [30, 0, 0],
          size: 2,
          ...extra,
        });
        const front = orbitCamera({ aspect: 1, distance: 10, pitch: 0, target: [0, -2, 0] });
        const extent = (img: Float32Array): { w: number; h: number } => {
          const px = covered(img);
          const xs = px.map((p) => p.x);
          const ys = px.map((p) => p.y);
          return {
            w: Math.max(...xs) - Math.min(...xs) + 1,
            h: Math.max(...ys) - Math.min(...ys) + 1,
          };
        };
        // one world unit at 10 units away, in pixels
        const unit = pixelOf(front, [1, -2, 0])[0] - pixelOf(front, [0, -2, 0])[0];
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const how = `${path}, ${drawMode}`;
            const shapes: Record<string, { w: number; h: number }> = {};
            for (const [name, extra] of [
              ['camera', { billboard: 'camera' }],
              ['velocity', { billboard: 'velocity' }],
              ['stretched', { billboard: 'velocity', stretch: 2 }],
            ] as const) {
              const ps = await stepped(device, { ...moving(extra), path, drawMode }, 2);
              shapes[name] = extent(await drawFloatImage(device, ps, front));
              ps.destroy();
            }
            const { camera, velocity, stretched } = shapes as Record<
              string,
              { w: number; h: number }
            >;
            // a box 0.2 × 2 units: upright unturned, lying along +x when turned along the velocity
            assert(
              Math.abs(camera!.h - 2 * unit) < 3 && camera!.w < 0.4 * unit + 3,
              `${how}: unturned, the box stands ${camera!.w}×${camera!.h} px (2 units = ${(2 * unit).toFixed(1)} px)`,
            );
            assert(
              Math.abs(velocity!.w - 2 * unit) < 3 && velocity!.h < 0.4 * unit + 3,
              `${how}: along its velocity (+x) the box lies ${velocity!.w}×${velocity!.h} px`,
            );
            // stretch 2 at speed 0.5: twice as long
            assert(
              Math.abs(stretched!.w - 4 * unit) < 3 && stretched!.h < 0.4 * unit + 3,
              `${how}: stretched (1 + 2 · 0.5) the box lies ${stretched!.w}×${stretched!.h} px`,
            );
          }
      },
    },
  'geometry: sort draws half-transparent meshes back to front (the nearer over the farther), unsorted in slot order':
    {
      async run({ device }) {
        // two cubes: A born first (slot 0), blue by then, pushed further towards the camera and
        // to the right than B (slot 1, born 0.25 s later, still red); both 60% opaque
        const options: ParticleOptionsInput = {
          ...ONE_STILL_PARTICLE,
          count: 2,
          bursts: [
            { time: 0, count: 1 },
            { time: 0.25, count: 1 },
          ],
          gravity: [12, 0, 8],
          geometry: { positions: box(0.5, 0.5, 0.5) },
          size: 2,
          blending: 'alpha',
          colors: [
            [1, 0, 0, 0.6],
            [1, 0, 0, 0.6],
            [0, 0, 1, 0.6],
            [0, 0, 1, 0.6],
          ],
          colorStops: [0, 0.3, 0.4, 1],
        };
        const over = (top: number[], under: number[]): number[] => [
          top[0]! + under[0]! * (1 - top[3]!),
          top[1]! + under[1]! * (1 - top[3]!),
          top[2]! + under[2]! * (1 - top[3]!),
          top[3]! + under[3]! * (1 - top[3]!),
        ];
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const)
            for (const sort of [true, false]) {
              const how = `${path}, ${drawMode}, ${sort ? 'sorted' : 'unsorted'}`;
              const ps = await stepped(device, { ...options, path, drawMode, sort }, 30);
              const img = await drawFloatImage(device, ps);
              ps.destroy();
              const px = (i: number): number[] => Array.from(img.subarray(4 * i, 4 * i + 4));
              const only = (p: number[], c: 0 | 2): boolean =>
                p[3]! > 0.5 && p[c]! > 0.3 && p[2 - c]! < 1e-3;
              const all = Array.from({ length: IMAGE * IMAGE }, (_, i) => px(i));
              const red = all.find((p) => only(p, 0));
              const blue = all.find((p) => only(p, 2));
              const both = all.filter((p) => p[0]! > 1e-3 && p[2]! > 1e-3);
              assert(
                red !== undefined && blue !== undefined && both.length > 20,
                `${how}: each cube alone somewhere and ${both.length} pixels of both`,
              );
              // the nearer (blue, A) over the farther when sorted; slot 1 (red, B) last otherwise
              const want = sort ? over(blue!, red!) : over(red!, blue!);
              const worst = Math.max(
                ...both.map((p) => Math.max(...p.map((c, k) => Math.abs(c - want[k]!)))),
              );
              assert(
                worst < 4e-3,
                `${how}: where they overlap the colour is ${sort ? 'blue over red' : 'red over blue'} ${want.map((c) => c.toFixed(3)).join(', ')} (worst off by ${worst.toFixed(4)})`,
              );
            }
      },
    },
  'geometry: into a pass with depth, alpha-blended meshes write it (the nearer hides the farther drawn after it); additive ones never do':
    {
      async run({ device }) {
        const options: ParticleOptionsInput = {
          ...ONE_STILL_PARTICLE,
          count: 2,
          bursts: [
            { time: 0, count: 1 },
            { time: 0.25, count: 1 },
          ],
          // A moves 2 units towards the camera, B 0.5: one wholly in front of the other, overlapping on screen
          gravity: [4, 0, 16],
          geometry: { positions: box(0.5, 0.5, 0.5) },
          size: 1,
          colors: [
            [1, 0, 0, 0.6],
            [1, 0, 0, 0.6],
            [0, 0, 1, 0.6],
            [0, 0, 1, 0.6],
          ],
          colorStops: [0, 0.3, 0.4, 1],
        };
        /** The two cubes drawn in slot order (A, the nearer, first) into colour + depth. */
        const drawWithDepth = async (
          ps: Awaited<ReturnType<typeof stepped>>,
        ): Promise<Float32Array> => {
          const size = { width: IMAGE, height: IMAGE };
          const color = device.createTexture({
            label: 'mesh depth test colour',
            size,
            format: 'rgba16float',
            usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
          });
          const depth = device.createTexture({
            label: 'mesh depth test depth',
            size,
            format: 'depth24plus',
            usage: TextureUsage.RENDER_ATTACHMENT,
          });
          const enc = device.createCommandEncoder();
          const pass = enc.beginRenderPass({
            colorAttachments: [{ texture: color, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
            depthStencilAttachment: { texture: depth, depthLoadOp: 'clear', depthClearValue: 1 },
          });
          ps.draw(pass, CAMERA);
          pass.end();
          device.queue.submit([enc.finish()]);
          const img = fromHalfs((await color.read()) as Uint16Array);
          color.destroy();
          depth.destroy();
          return img;
        };
        for (const path of pathsOf(device))
          for (const blending of ['alpha', 'additive'] as const) {
            const how = `${path}, ${blending}`;
            const ps = await stepped(
              device,
              { ...options, path, blending, drawMode: 'instanced' },
              30,
            );
            const img = await drawWithDepth(ps);
            ps.destroy();
            const all = Array.from({ length: IMAGE * IMAGE }, (_, i) =>
              Array.from(img.subarray(4 * i, 4 * i + 4)),
            );
            const blue = all.find((p) => p[3]! > 0.3 && p[2]! > 0.3 && p[0]! < 1e-3);
            const red = all.find((p) => p[3]! > 0.3 && p[0]! > 0.3 && p[2]! < 1e-3);
            // where both cubes are: A's pixels (blue alone) or both (red and blue)
            const both = all.filter((p) => p[0]! > 1e-3 && p[2]! > 1e-3);
            assert(blue !== undefined && red !== undefined, `${how}: each cube alone somewhere`);
            if (blending === 'alpha') {
              // B (red, farther, drawn after A) fails the depth test where A is in front of it
              assert(both.length === 0, `${how}: ${both.length} pixels mix the two cubes`);
            } else {
              assert(
                both.length > 20,
                `${how}: additive cubes add where they overlap (${both.length})`,
              );
              const sum = blue!.map((c, k) => c + red![k]!);
              const worst = Math.max(
                ...both.map((p) => Math.max(...p.map((c, k) => Math.abs(c - sum[k]!)))),
              );
              assert(worst < 4e-3, `${how}: the overlap is the sum (worst ${worst.toFixed(4)})`);
            }
          }
      },
    },
  "geometry: drawMode 'auto' measures the mesh draw's two raster modes and draws the same cube": {
    async run({ device }) {
      const fixed = await stepped(device, { ...cube(2), drawMode: 'instanced' }, 1);
      const want = await drawFloatImage(device, fixed, VIEW);
      fixed.destroy();
      const ps = await stepped(device, { ...cube(2), drawMode: 'auto' }, 1);
      await drawFloatImage(device, ps, VIEW);
      const mode = await ps.drawModeDecided;
      assert(
        (mode === 'instanced' || mode === 'pulled') && /measured/.test(ps.drawModeReason),
        `auto chose ${mode}: ${ps.drawModeReason}`,
      );
      const img = await drawFloatImage(device, ps, VIEW);
      ps.destroy();
      const worst = largestDifference(img, want);
      assert(worst < 2e-3, `auto (${mode}) draws the instanced image (worst ${worst})`);
    },
  },
  'geometry: options a quad has and a mesh has not are refused by name, and so is the splat': {
    async run({ device }) {
      for (const [extra, pattern] of [
        [
          { drawMode: 'splat', blending: 'additive', light: null },
          /drawMode = splat needs no geometry/,
        ],
        [{ look: { code: 'fn look(p: ParticleFragment) -> vec4f { return p.color; }' } }, /look/],
      ] as const) {
        let error: unknown;
        try {
          (
            await createParticleSystem(device, { ...cube(1), ...(extra as ParticleOptionsInput) })
          ).destroy();
        } catch (e) {
          error = e;
        }
        assert(pattern.test(String(error)), String(error));
      }
    },
  },
});
