// Cross-backend pixel equality: every scene rendered on WebGPU and on WebGL2 and compared pixel by
// pixel; at most 1/255 per channel, except a stated number of MSAA edge pixels. A failure saves
// both images and their difference (test-output/equality/...).
import { defineCases, type Case } from '../page/case.js';
import { AssertionError } from '../page/assert.js';
import { SCENES } from '../page/equality-scenes.js';
import { SIZE } from '../page/scenes.js';
import type { WebGL2Device } from '../../../src/all.js';

function toPng(data: Uint8Array): string {
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(data), SIZE, SIZE), 0, 0);
  return canvas.toDataURL('image/png');
}

export function compareImages(
  a: Uint8Array,
  b: Uint8Array,
  edgePixels: number,
  what: string,
): void {
  let bad = 0;
  let worst = 0;
  let first = '';
  const diff = new Uint8Array(a.length);
  for (let p = 0; p < a.length / 4; p++) {
    let d = 0;
    for (let c = 0; c < 4; c++)
      d = Math.max(d, Math.abs((a[p * 4 + c] as number) - (b[p * 4 + c] as number)));
    diff.set([d * 8, d * 8, d * 8, 255], p * 4);
    if (d > 1) {
      if (bad === 0)
        first = `(${p % SIZE}, ${Math.floor(p / SIZE)}) webgpu ${Array.from(a.subarray(p * 4, p * 4 + 4))} webgl2 ${Array.from(b.subarray(p * 4, p * 4 + 4))}`;
      bad++;
      worst = Math.max(worst, d);
    }
  }
  if (edgePixels > 0)
    console.log(
      `${what}: ${bad} pixels differ by more than 1/255 (allowed ${edgePixels}), worst ${worst}/255`,
    );
  if (bad > edgePixels) {
    const err = new AssertionError(
      `${what}: ${bad} pixels differ by more than 1/255 (allowed ${edgePixels}); worst ${worst}/255; first at ${first}`,
    );
    err.artifacts = { 'webgpu.png': toPng(a), 'webgl2.png': toPng(b), 'diff.png': toPng(diff) };
    throw err;
  }
}

const cases: Record<string, Case> = {
  'WebGL2: state a host sets between frames is overridden after resetState()': {
    cross: true,
    async run(ctx) {
      const device = (await ctx.open('webgl2')) as WebGL2Device;
      const scene = SCENES.find(
        (s) => s.name === 'textured quad linear repeat',
      ) as (typeof SCENES)[number];
      const [before] = await scene.render(device);
      const gl = device.gl;
      // the host application touches the shared context
      gl.enable(gl.SCISSOR_TEST);
      gl.scissor(0, 0, 2, 2);
      gl.colorMask(true, false, false, true);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.ZERO, gl.ONE);
      gl.useProgram(null);
      gl.bindVertexArray(null);
      gl.viewport(0, 0, 3, 3);
      gl.activeTexture(gl.TEXTURE3);
      gl.bindTexture(gl.TEXTURE_2D, null);
      device.resetState();
      const [after] = await scene.render(device);
      compareImages(
        before as Uint8Array,
        after as Uint8Array,
        0,
        'the same scene before and after the host touched the context',
      );
    },
  },
};
for (const scene of SCENES) {
  cases[`${scene.name} is pixel-equal on WebGPU and WebGL2`] = {
    cross: true,
    async run(ctx) {
      const gpu = await scene.render(await ctx.open('webgpu'));
      const gl = await scene.render(await ctx.open('webgl2'));
      gpu.forEach((img, i) =>
        compareImages(img, gl[i] as Uint8Array, scene.edgePixels ?? 0, `${scene.name} image ${i}`),
      );
      // a scene that renders nothing but the clear colour would pass trivially: require content
      const distinct = new Set<number>();
      const view = new Uint32Array((gpu[0] as Uint8Array).buffer);
      for (const v of view) distinct.add(v);
      if (scene.name !== 'clear' && distinct.size < 2)
        throw new AssertionError(`${scene.name}: the image is a single colour`);
    },
  };
}

export const casesExport = defineCases(cases);
export { casesExport as cases };
