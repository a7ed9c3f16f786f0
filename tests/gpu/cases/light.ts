// Lit particles (src/particles/modules/light.ts): a white particle lit from the right is its
// ambient on its left half and brightens towards its right edge, as a sphere's lambert term says;
// the lit side stays towards the light however the particle is turned; both raster modes and
// every path give the same pixels.
import { createParticleSystem, type ParticleOptionsInput } from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import {
  IMAGE,
  ONE_STILL_PARTICLE,
  drawFloatImage,
  pathsOf,
  stepped,
} from '../page/particle-helpers.js';

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
                  let worst = 0;
                  for (let i = 0; i < img.length; i++)
                    worst = Math.max(worst, Math.abs((img[i] as number) - (first[i] as number)));
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
});
