// Lit particles (src/particles/modules/light.ts): a white particle lit from the right is its
// ambient on its left half and brightens towards its right edge, as a sphere's lambert term says;
// the lit side stays towards the light however the particle is turned; both raster modes and
// every path give the same pixels. A sprite lit by its normal map is lit per pixel by the map's
// normal, turning with the particle; a shadow map darkens a particle to the ambient by the share of
// the nine texels around its centre that lie nearer the light, quads and meshes alike.
import {
  TextureUsage,
  createParticleSystem,
  type Device,
  type ParticleOptionsInput,
  type Texture,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import {
  IMAGE,
  ONE_STILL_PARTICLE,
  box,
  drawFloatImage,
  largestDifference,
  pathsOf,
  stepped,
} from '../page/particle-helpers.js';
import { imageTexture } from '../../../demos/particles/presets.js';
import { depthCasters } from '../page/depth-casters.js';

const AMBIENT = 0.2;

/** The probe lit by a light travelling towards −x (from the right of CAMERA's view), turned by `angle`. */
const litProbe = (angle: number, extra: ParticleOptionsInput = {}): ParticleOptionsInput => ({
  ...ONE_STILL_PARTICLE,
  light: { direction: [-1, 0, 0], color: [1, 1, 1], ambient: [AMBIENT, AMBIENT, AMBIENT] },
  rotation: [angle, angle],
  ...extra,
});

/**
 * The lighting at each covered pixel of a float image drawn additively over transparent black:
 * rgb / alpha (alpha is the disc's coverage), with the pixel's column. Pixels of little coverage
 * are left out (their ratio is noise).
 */
function lightingOf(
  img: Float32Array,
): Array<{ x: number; y: number; light: number; grey: boolean }> {
  const out = [];
  for (let y = 0; y < IMAGE; y++)
    for (let x = 0; x < IMAGE; x++) {
      const i = 4 * (y * IMAGE + x);
      const a = img[i + 3] as number;
      if (a < 0.1) continue;
      const [r, g, b] = [img[i] as number, img[i + 1] as number, img[i + 2] as number];
      out.push({ x, y, light: r / a, grey: Math.abs(r - g) < 2e-3 && Math.abs(r - b) < 2e-3 });
    }
  return out;
}

/** An rgba8unorm texture of `size`² texels, each `texel(x, y)`. */
function imageOf(
  device: Device,
  size: number,
  texel: (x: number, y: number) => [number, number, number, number],
): Texture {
  const data = new Uint8Array(4 * size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) data.set(texel(x, y), 4 * (y * size + x));
  return imageTexture(device, 'light test image', { size, data });
}

const SHADOW_SIZE = 16;

/**
 * A SHADOW_SIZE² shadow map (depth 1) whose columns left of `split` (0..16) hold casters at depth
 * 0.25, drawn as an app draws them.
 */
const shadowMap = (device: Device, split: number): Texture =>
  depthCasters(
    device,
    SHADOW_SIZE,
    split > 0 ? { right: (2 * split) / SHADOW_SIZE - 1, z: 0.25 } : null,
  );

/**
 * The light's matrix (column-major) that takes the probe's centre (0, −2, 0) to the shadow map's
 * texel column `column` (its middle), row middle, depth 0.5 (behind the casters' 0.25).
 */
function lightMatrix(column: number): number[] {
  const x = ((column + 0.5) / SHADOW_SIZE) * 2 - 1;
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 2, 0.5, 1];
}

export const cases = defineCases({
  'light: the side away from the light is the ambient, the lit side brightens towards the light, turned or not, on every path and raster mode':
    {
      async run({ device }) {
        let first: Float32Array | null = null;
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const)
            for (const angle of [0, 1.2]) {
              const how = `${path}, ${drawMode}, turned ${angle} rad`;
              const ps = await stepped(device, { ...litProbe(angle), path, drawMode }, 1);
              const img = await drawFloatImage(device, ps);
              ps.destroy();
              const px = lightingOf(img);
              assert(px.length > 100, `${how}: the particle covers ${px.length} pixels`);
              const cx = px.reduce((s, p) => s + p.x, 0) / px.length;
              // columns well left of the centre: the ambient alone (the light is behind them)
              const left = px.filter((p) => p.x < cx - 2);
              const right = px.filter((p) => p.x > cx + 2);
              const worstLeft = Math.max(...left.map((p) => Math.abs(p.light - AMBIENT)));
              assert(
                worstLeft < 0.01,
                `${how}: the side away from the light is the ambient ${AMBIENT} (worst off by ${worstLeft.toFixed(4)})`,
              );
              assert(
                right.every((p) => p.light > AMBIENT + 0.01),
                `${how}: every pixel of the lit side is brighter than the ambient`,
              );
              const brightest = Math.max(...right.map((p) => p.light));
              assert(
                brightest > AMBIENT + 0.8 && brightest <= AMBIENT + 1 + 1e-3,
                `${how}: near the edge facing the light the lighting is almost ambient + 1 (${brightest.toFixed(3)})`,
              );
              assert(
                px.every((p) => p.grey),
                `${how}: a white light keeps a white particle grey`,
              );
              // brighter further right along the middle row
              const row = right
                .filter((p) => p.y === Math.round(IMAGE / 2))
                .sort((a, b) => a.x - b.x);
              for (let k = 1; k < row.length; k++)
                assert(
                  (row[k]?.light as number) >= (row[k - 1]?.light as number) - 1e-3,
                  `${how}: the lighting grows towards the light along the middle row`,
                );
              if (angle === 0) {
                // the same pixels in both raster modes and on every path
                if (!first) first = img;
                else {
                  const worst = largestDifference(img, first);
                  assert(worst < 2e-3, `${how}: the image is the first path's (worst ${worst})`);
                }
              }
            }
      },
    },
  'light: unlit particles are untouched, and a light with the splat is refused naming drawMode': {
    async run({ device }) {
      const lit = await stepped(device, { ...litProbe(0), light: null }, 1);
      const img = await drawFloatImage(device, lit);
      lit.destroy();
      const px = lightingOf(img);
      assert(
        px.length > 100 && px.every((p) => Math.abs(p.light - 1) < 2e-3),
        'without a light a white particle is white',
      );
      let error: unknown;
      try {
        (await createParticleSystem(device, { ...litProbe(0), drawMode: 'splat' })).destroy();
      } catch (e) {
        error = e;
      }
      assert(/drawMode = splat needs no light/.test(String(error)), String(error));
    },
  },
  "light.normalMap: each pixel lit by the map's normal, turning with the particle, on every path and raster mode":
    {
      async run({ device }) {
        const SIZE = 16;
        const white = imageOf(device, SIZE, () => [255, 255, 255, 255]);
        // the image's left half faces its right (+x), its right half faces the viewer (+z)
        const normals = imageOf(device, SIZE, (x) =>
          x < SIZE / 2 ? [255, 128, 128, 255] : [128, 128, 255, 255],
        );
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const)
            for (const angle of [0, Math.PI]) {
              const how = `${path}, ${drawMode}, turned ${angle.toFixed(2)} rad`;
              const ps = await stepped(
                device,
                {
                  ...litProbe(angle),
                  texture: white,
                  light: {
                    direction: [-1, 0, 0],
                    color: [1, 1, 1],
                    ambient: [AMBIENT, AMBIENT, AMBIENT],
                    normalMap: normals,
                  },
                  path,
                  drawMode,
                },
                1,
              );
              const img = await drawFloatImage(device, ps);
              ps.destroy();
              const px = lightingOf(img);
              assert(px.length > 100, `${how}: the particle covers ${px.length} pixels`);
              const xs = px.map((p) => p.x);
              const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
              // away from the seam (the sampler blends the halves there)
              const left = px.filter((p) => p.x < cx - 2);
              const right = px.filter((p) => p.x > cx + 2);
              // unturned, the image's left half faces the light (+x): ambient + 1; its right half
              // faces the viewer: ambient (n · l = 0). Turned half a turn, the left half is on the
              // right facing away from the light: both halves the ambient.
              const [wantLeft, wantRight] =
                angle === 0 ? [AMBIENT + 1, AMBIENT] : [AMBIENT, AMBIENT];
              for (const [side, pixels, want] of [
                ['left', left, wantLeft],
                ['right', right, wantRight],
              ] as const) {
                const worst = Math.max(...pixels.map((p) => Math.abs(p.light - want)));
                assert(
                  pixels.length > 40 && worst < 0.01,
                  `${how}: the ${side} half (${pixels.length} pixels) is lit ${want.toFixed(2)} (worst off by ${worst.toFixed(4)})`,
                );
              }
            }
        white.destroy();
        normals.destroy();
      },
    },
  'light.normalMap and light.shadow are refused by name where they cannot apply': {
    async run({ device }) {
      const normals = imageOf(device, 4, () => [128, 128, 255, 255]);
      const refusal = async (options: ParticleOptionsInput): Promise<string> => {
        try {
          (await createParticleSystem(device, options)).destroy();
        } catch (e) {
          return String(e);
        }
        return 'accepted';
      };
      const light = { direction: [-1, 0, 0] as [number, number, number] };
      const noSprite = await refusal({ ...litProbe(0), light: { ...light, normalMap: normals } });
      assert(/light\.normalMap.*needs a sprite \(texture\)/.test(noSprite), noSprite);
      const depth = device.createTexture({
        label: 'not depth',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.TEXTURE_BINDING,
      });
      const colourMap = await refusal({
        ...litProbe(0),
        light: { ...light, shadow: { depth, matrix: lightMatrix(0) } },
      });
      assert(/light\.shadow\.depth.*depth format/.test(colourMap), colourMap);
      const shortMatrix = await refusal({
        ...litProbe(0),
        light: { ...light, shadow: { depth, matrix: [1, 0, 0] } },
      });
      assert(/light\.shadow\.matrix.*16 numbers/.test(shortMatrix), shortMatrix);
      depth.destroy();
      normals.destroy();
    },
  },
  'light.shadow: a particle gets the ambient by the share of the nine texels around its centre that are nearer the light, on every path and raster mode':
    {
      async run({ device }) {
        // casters over columns 0..7 at depth 0.25; the probe at depth 0.5
        const map = shadowMap(device, 8);
        const unshadowed = await stepped(device, litProbe(0), 1);
        const reference = lightingOf(await drawFloatImage(device, unshadowed));
        unshadowed.destroy();
        // the centre's column → how many of the 3×3 texels around it are lit
        const columns: Array<[number, number]> = [
          [12, 9],
          [3, 0],
          [8, 6],
          [7, 3],
        ];
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const)
            for (const [column, lit] of columns) {
              const how = `${path}, ${drawMode}, centre over column ${column}`;
              const ps = await stepped(
                device,
                {
                  ...litProbe(0),
                  light: {
                    direction: [-1, 0, 0],
                    color: [1, 1, 1],
                    ambient: [AMBIENT, AMBIENT, AMBIENT],
                    shadow: { depth: map, matrix: lightMatrix(column) },
                  },
                  path,
                  drawMode,
                },
                1,
              );
              const px = lightingOf(await drawFloatImage(device, ps));
              ps.destroy();
              assert(px.length === reference.length, `${how}: the same pixels are covered`);
              let worst = 0;
              for (let i = 0; i < px.length; i++) {
                const want = AMBIENT + (lit / 9) * (reference[i]!.light - AMBIENT);
                worst = Math.max(worst, Math.abs(px[i]!.light - want));
              }
              assert(
                worst < 4e-3,
                `${how}: lit by ${lit}/9 of the light (worst off by ${worst.toFixed(4)})`,
              );
            }
        map.destroy();
      },
    },
  'light.shadow: a mesh particle wholly in shadow is its ambient everywhere, and wholly out of it as without a map':
    {
      async run({ device }) {
        const cube = {
          ...ONE_STILL_PARTICLE,
          // a unit cube, counter-clockwise from outside: its 12 triangles
          geometry: { positions: box(0.5, 0.5, 0.5) },
          light: {
            direction: [-0.3, -0.8, -0.52] as [number, number, number],
            color: [1, 1, 1] as [number, number, number],
            ambient: [AMBIENT, AMBIENT, AMBIENT] as [number, number, number],
          },
        };
        // every vertex of the cube (half-size 1 about (0, −2, 0)) inside the map, at depths 0.4..0.6
        const INSIDE = [0.3, 0, 0, 0, 0, 0.3, 0, 0, 0, 0, 0.1, 0, 0, 0.6, 0.5, 1];
        const dark = shadowMap(device, SHADOW_SIZE);
        const clear = shadowMap(device, 0);
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const how = `${path}, ${drawMode}`;
            const draw = async (depth: Texture | null): Promise<Float32Array> => {
              const ps = await stepped(
                device,
                {
                  ...cube,
                  light: {
                    ...cube.light,
                    shadow: depth ? { depth, matrix: INSIDE } : null,
                  },
                  path,
                  drawMode,
                },
                1,
              );
              const img = await drawFloatImage(device, ps);
              ps.destroy();
              return img;
            };
            const plain = await draw(null);
            const inShadow = lightingOf(await draw(dark));
            const outOfShadow = await draw(clear);
            assert(inShadow.length > 100, `${how}: the cube covers ${inShadow.length} pixels`);
            const worst = Math.max(...inShadow.map((p) => Math.abs(p.light - AMBIENT)));
            assert(worst < 4e-3, `${how}: in shadow, every face is the ambient (worst ${worst})`);
            const diff = largestDifference(plain, outOfShadow);
            assert(
              diff === 0,
              `${how}: out of the shadow, the image without a map (worst ${diff})`,
            );
          }
        dark.destroy();
        clear.destroy();
      },
    },
  'light.shadow: a mesh particle is shadowed per pixel — a square half over the casters is dark on that half, lit on the other, with a soft edge between':
    {
      async run({ device }) {
        // a square facing the camera (+z), lit head-on; the light's matrix spreads it over the map
        // (x and y scaled by 0.45 about the centre): its left corners over the casters, its right
        // corners clear of them
        const map = shadowMap(device, 8);
        const matrix = [0.45, 0, 0, 0, 0, 0.45, 0, 0, 0, 0, 1, 0, 0, 0.9, 0.5, 1];
        let first: Float32Array | null = null;
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const how = `${path}, ${drawMode}`;
            const ps = await stepped(
              device,
              {
                ...ONE_STILL_PARTICLE,
                geometry: {
                  positions: [-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0],
                },
                light: {
                  direction: [0, 0, -1],
                  color: [1, 1, 1],
                  ambient: [AMBIENT, AMBIENT, AMBIENT],
                  shadow: { depth: map, matrix },
                },
                path,
                drawMode,
              },
              1,
            );
            const img = await drawFloatImage(device, ps);
            ps.destroy();
            const px = lightingOf(img);
            assert(px.length > 1000, `${how}: the square covers ${px.length} pixels`);
            const xs = px.map((p) => p.x);
            const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
            const at = (x: number): number[] => px.filter((p) => p.x === x).map((p) => p.light);
            const dimmest = Math.max(...at(x0).map((l) => Math.abs(l - AMBIENT)));
            const brightest = Math.max(...at(x1).map((l) => Math.abs(l - AMBIENT - 1)));
            assert(
              dimmest < 0.06 && brightest < 0.06,
              `${how}: the left edge is the ambient (off by ${dimmest.toFixed(3)}), the right edge fully lit (off by ${brightest.toFixed(3)})`,
            );
            const row = px.filter((p) => p.y === Math.round(IMAGE / 2)).sort((a, b) => a.x - b.x);
            for (let k = 1; k < row.length; k++)
              assert(
                row[k]!.light >= row[k - 1]!.light - 1e-3,
                `${how}: the light grows from the shadowed edge to the lit one along the middle row`,
              );
            // tested per pixel: the shadow's edge is the filter's three texels (of 16 across
            // ±1/0.45 world units), not a ramp from one vertex to the next
            const between = row.filter((p) => p.light > AMBIENT + 0.05 && p.light < AMBIENT + 0.95);
            assert(
              between.length < 0.25 * row.length,
              `${how}: ${between.length} of ${row.length} pixels of the middle row are in the shadow's edge`,
            );
            if (!first) first = img;
            else {
              const worst = largestDifference(img, first);
              assert(worst < 2e-3, `${how}: the image is the first path's (worst ${worst})`);
            }
          }
        map.destroy();
      },
    },
});
