// Textured particles on every path and raster mode of each backend: a flipbook's frames over life
// (and cross-faded), frames by speed, rotation at birth and spin — each read back as the colour at
// a known point of one particle. The option errors: tests/node/particles.test.ts.
import {
  TextureUsage,
  type Device,
  type ParticleOptionsInput,
  type Texture,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import {
  IMAGE,
  ONE_STILL_PARTICLE,
  drawImage,
  pathsOf,
  stepped,
} from '../page/particle-helpers.js';

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const WHITE: Rgb = [255, 255, 255];

/** A texture of `cells` (rows of columns), each cell `size`² texels of one colour. */
function sheet(device: Device, cells: Rgb[][], size = 8): Texture {
  const rows = cells.length;
  const columns = cells[0]!.length;
  const width = columns * size;
  const height = rows * size;
  const data = new Uint8Array(4 * width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = cells[Math.floor(y / size)]![Math.floor(x / size)]!;
      data.set([...c, 255], 4 * (y * width + x));
    }
  const texture = device.createTexture({
    label: 'sprite sheet',
    size: { width, height },
    format: 'rgba8unorm',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture }, data, { bytesPerRow: 4 * width }, { width, height });
  return texture;
}

const ONE = ONE_STILL_PARTICLE;

/** The colour at (x, y) of the image of `options` after `steps` steps of `dt`. */
async function colourAt(
  device: Device,
  options: ParticleOptionsInput,
  steps: number,
  dt: number,
  points: Array<[number, number]>,
): Promise<Rgb[]> {
  const ps = await stepped(device, options, steps, dt);
  const img = await drawImage(device, ps);
  ps.destroy();
  return points.map(([x, y]) => {
    const i = 4 * (y * IMAGE + x);
    return [img[i]!, img[i + 1]!, img[i + 2]!];
  });
}

function near(got: Rgb, want: Rgb, what: string, tolerance = 24): void {
  assert(
    got.every((v, c) => Math.abs(v - want[c]!) <= tolerance),
    `${what}: got rgb(${got.join(', ')}), want rgb(${want.join(', ')})`,
  );
}

const CENTRE: [number, number] = [IMAGE / 2, IMAGE / 2];

export const cases = defineCases({
  'a 2×2 flipbook plays over life, frame by frame and cross-faded (every path, both raster modes)':
    {
      async run({ device }) {
        const texture = sheet(device, [
          [RED, GREEN],
          [BLUE, WHITE],
        ]);
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const options = {
              ...ONE,
              path,
              drawMode,
              texture,
              spriteSheet: { columns: 2, rows: 2 },
            };
            // born at step 1 (age 0), a tenth of a second a step: ages 0.1, 0.3, 0.6, 0.9 of a 1 s life
            for (const [steps, want] of [
              [2, RED],
              [4, GREEN],
              [7, BLUE],
              [10, WHITE],
            ] as const) {
              const [got] = await colourAt(device, options, steps, 0.1, [CENTRE]);
              near(got!, want, `${path}/${drawMode}: age ${((steps - 1) / 10).toFixed(1)}`);
            }
            // cross-faded: at age 0.375, 1.5 frames in: halfway from green to blue
            const [mixed] = await colourAt(
              device,
              { ...options, spriteSheet: { columns: 2, rows: 2, blend: true } },
              4,
              0.125,
              [CENTRE],
            );
            near(mixed!, [0, 128, 128], `${path}/${drawMode}: cross-fade`, 30);
          }
        texture.destroy();
      },
    },

  'frames by speed: a faster particle shows a later frame': {
    async run({ device }) {
      const texture = sheet(device, [[RED, GREEN, BLUE, WHITE]]);
      for (const path of pathsOf(device)) {
        // a particle moving towards the camera stays at the centre of the image
        const moving = (speed: number): ParticleOptionsInput => ({
          ...ONE,
          path,
          texture,
          spriteSheet: { columns: 4, rows: 1, frameOver: 'speed', speedScale: 1 },
          emitter: { shape: 'cone', position: [0, -2, 0], radius: 0, angle: 0 },
          speedMin: speed,
          speedMax: speed,
          gravity: [0, 0, 0],
        });
        // speed 0.5 → frame 0, 2.5 → frame 2 (the cone points up: the particle rises a little)
        const [slow] = await colourAt(device, moving(0.5), 2, 0.01, [CENTRE]);
        const [fast] = await colourAt(device, moving(2.5), 2, 0.01, [CENTRE]);
        near(slow!, RED, `${path}: speed 0.5`);
        near(fast!, BLUE, `${path}: speed 2.5`);
      }
      texture.destroy();
    },
  },

  'rotation at birth and spin turn the sprite (every path)': {
    async run({ device }) {
      // one frame: its left half red, its right half green
      const texture = sheet(device, [[RED, GREEN]]);
      const d = 8; // pixels from the centre: inside the quad (16 px half-size)
      const probes: Array<[number, number]> = [
        [IMAGE / 2 - d, IMAGE / 2],
        [IMAGE / 2 + d, IMAGE / 2],
        [IMAGE / 2, IMAGE / 2 - d],
        [IMAGE / 2, IMAGE / 2 + d],
      ];
      for (const path of pathsOf(device)) {
        const base = { ...ONE, path, texture };
        const [left, right] = await colourAt(device, base, 2, 0.1, probes);
        near(left!, RED, `${path}: unturned, left`);
        near(right!, GREEN, `${path}: unturned, right`);
        // a quarter turn at birth: the right half (green) on top, the left (red) below
        const quarter = await colourAt(
          device,
          { ...base, rotation: [Math.PI / 2, Math.PI / 2] },
          2,
          0.1,
          probes,
        );
        near(quarter[2]!, GREEN, `${path}: rotation π/2, top`);
        near(quarter[3]!, RED, `${path}: rotation π/2, bottom`);
        // spin π rad/s for 0.5 s: the same quarter turn
        const spun = await colourAt(
          device,
          { ...base, angularVelocity: [Math.PI, Math.PI] },
          6,
          0.1,
          probes,
        );
        near(spun[2]!, GREEN, `${path}: spin after 0.5 s, top`);
        near(spun[3]!, RED, `${path}: spin after 0.5 s, bottom`);
      }
      texture.destroy();
    },
  },

  'a custom look in WGSL colours the whole quad from uv, age and life (every path, both raster modes; translated on WebGL2)':
    {
      async run({ device }) {
        // red on the left half, blue on the right, green the fraction of life lived; a square
        const look = {
          code: `fn look(p: ParticleFragment) -> vec4f {
  let right = p.uv.x > 0.0;
  return vec4f(select(1.0, 0.0, right), p.age / p.life, select(0.0, 1.0, right), 1.0);
}`,
        };
        const d = 10; // pixels from the centre: well inside the 32-pixel quad
        const probes: Array<[number, number]> = [
          [IMAGE / 2 - d, IMAGE / 2],
          [IMAGE / 2 + d, IMAGE / 2],
          // a corner of the square, outside the disc the default look would draw
          [IMAGE / 2 + 14, IMAGE / 2 + 14],
        ];
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const what = `${path}/${drawMode}`;
            // born at step 1: after 6 steps of 0.1 s it is 0.5 s into its 1 s life
            const [left, right, corner] = await colourAt(
              device,
              { ...ONE, path, drawMode, look },
              6,
              0.1,
              probes,
            );
            near(left!, [255, 128, 0], `${what}: left half`);
            near(right!, [0, 128, 255], `${what}: right half`);
            near(corner!, [0, 128, 255], `${what}: the quad's corner (a square, not the disc)`);
          }
      },
    },
});
