// Sorted alpha blending (options.sort): the order prepareDraw makes is checked against a CPU sort
// of the read-back state on every path of each backend (and the half-float fragment path), the
// sorted image is the same on every path and raster mode and across backends, and it differs from
// the unsorted one. The option errors: tests/node/particles.test.ts.
import {
  createDevice,
  TextureUsage,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
  type WebGPUDevice,
} from '../../../src/all.js';
import { defineKernel } from '../../../src/compute/define-kernel.js';
import { ElementwiseRunner } from '../../../src/compute/elementwise.js';
import { DepthSort } from '../../../src/particles/sort.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual } from '../page/assert.js';
import {
  CAMERA,
  coverage,
  drawImage,
  imageDiff,
  pathsOf,
  stepped,
} from '../page/particle-helpers.js';

/** Overlapping translucent particles of changing colour, some slots dead (emission). */
const SMOKY: ParticleOptionsInput = {
  count: 3000, // sorted as 4096 entries: padding too
  emitRate: 2500,
  lifeMin: 0.8,
  lifeMax: 1.2,
  size: 0.5,
  spread: 1.5,
  blending: 'alpha',
  sort: true,
  colors: [
    [1, 0.2, 0.1, 0.8],
    [0.2, 1, 0.2, 0.8],
    [0.1, 0.3, 1, 0.8],
    [1, 1, 1, 0],
  ],
};

/** View depth of every slot seen from CAMERA (f64), and whether it is alive. */
async function depths(ps: ParticleSystem): Promise<{ z: Float64Array; alive: boolean[] }> {
  const { position, velocity } = await ps.read();
  const v = CAMERA.view;
  const n = ps.count;
  const z = new Float64Array(n);
  const alive: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const [x, y, w] = [position[4 * i]!, position[4 * i + 1]!, position[4 * i + 2]!];
    z[i] = v[2]! * x + v[6]! * y + v[10]! * w + v[14]!;
    alive.push(velocity[4 * i + 3]! > 0);
  }
  return { z, alive };
}

/** Asserts `order` is every slot once, the living back to front (ascending view depth), the dead last. */
async function checkOrder(ps: ParticleSystem, what: string, relative: number): Promise<void> {
  const order = await ps.sortOrder();
  const { z, alive } = await depths(ps);
  const n = ps.count;
  assertEqual(order.length, n, `${what}: entries`);
  const seen = new Uint8Array(n);
  for (const s of order) {
    assert(s < n && seen[s] === 0, `${what}: slot ${s} twice or out of range`);
    seen[s] = 1;
  }
  const living = alive.filter(Boolean).length;
  assert(living > n / 10 && living < n, `${what}: ${living} alive (some dead slots to sort last)`);
  for (let i = 0; i < n; i++)
    assertEqual(alive[order[i]!], i < living, `${what}: entry ${i} (slot ${order[i]}) alive`);
  let inversions = 0;
  let worst = 0;
  for (let i = 1; i < living; i++) {
    const a = z[order[i - 1]!]!;
    const b = z[order[i]!]!;
    // a later entry nearer the camera (greater view depth) by more than rounding is out of order
    if (a - b > relative * Math.abs(a)) {
      inversions++;
      worst = Math.max(worst, a - b);
    }
  }
  console.log(
    `${what}: ${living} alive of ${n}, sorted over ${z[order[0]!]!.toFixed(2)}…${z[order[living - 1]!]!.toFixed(2)}, ${inversions} inversions (worst ${worst.toExponential(1)})`,
  );
  assertEqual(inversions, 0, `${what}: entries out of back-to-front order`);
}

/** The image of SMOKY on `path` with `drawMode` and `sort`, after 40 steps. */
async function image(
  device: Device,
  options: ParticleOptionsInput,
): Promise<{ img: Uint8Array; ps: ParticleSystem }> {
  const ps = await stepped(device, { ...SMOKY, ...options }, 40);
  return { img: await drawImage(device, ps), ps };
}

export const cases = defineCases({
  'the compute sort with and without workgroup memory: the order of a JS sort, ties by slot': {
    needs: ['compute'],
    async run({ device }) {
      // depths with many ties (40 distinct values) and a third of the slots dead, sorted as
      // 2^14 entries: many stages at long distances and the local tail of each
      const n = 10_000;
      const state = defineKernel({
        label: 'state',
        attributes: ['position', 'velocity'],
        body: '',
      });
      const runner = new ElementwiseRunner(device, state, { count: n, mode: 'compute' });
      const p = new Float32Array(4 * n);
      const v = new Float32Array(4 * n);
      for (let i = 0; i < n; i++) {
        p[4 * i + 2] = -((i * 7919) % 40) / 4;
        v[4 * i + 3] = i % 3 === 0 ? -1 : 1;
      }
      runner.write('position', p);
      runner.write('velocity', v);
      const want = Array.from({ length: n }, (_, i) => i).sort(
        (a, b) =>
          Number(v[4 * a + 3]! <= 0) - Number(v[4 * b + 3]! <= 0) ||
          p[4 * a + 2]! - p[4 * b + 2]! ||
          a - b,
      );
      const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      for (const local of [true, false]) {
        const sort = new DepthSort(device, n, 'compute', local);
        const enc = device.createCommandEncoder();
        sort.record(enc, identity, { runner, count: n });
        device.queue.submit([enc.finish()]);
        const got = Array.from(await sort.read());
        const first = got.findIndex((s, i) => s !== want[i]);
        assertEqual(first, -1, `local ${local}: first entry out of order`);
        sort.destroy();
      }
      runner.destroy();
    },
  },

  'sort: back to front by view depth on every path, the dead last (against a CPU sort of the state)':
    {
      async run({ device }) {
        for (const path of pathsOf(device))
          // 3000 slots: 4096 entries, several stages at long distances; 37: padded to a power of
          // two (on the compute path to one workgroup's block of 512)
          for (const size of [{ count: 3000 }, { count: 37, emitRate: 30 }]) {
            const { ps } = await image(device, { path, ...size });
            await checkOrder(ps, `${device.caps.backend} ${path} ${size.count}`, 1e-5);
            ps.destroy();
          }
      },
    },

  'sort on the half-float fragment path (no float32 render targets): the same order, within half precision':
    {
      async run({ backend }) {
        const device = await createDevice({
          backend,
          restrict: { compute: false, floatRenderTargets: false },
        });
        const { ps } = await image(device, {});
        assertEqual(ps.precision, 'f16', 'precision');
        // view depths stored as halfs (11 significant bits): equal keys keep slot order
        await checkOrder(ps, `${backend} pingpong f16`, 2e-3);
        ps.destroy();
        device.destroy();
      },
    },

  'sorted alpha: the same image on every path and raster mode; unsorted differs': {
    async run({ device }) {
      const base = await image(device, { path: 'cpu', drawMode: 'instanced' });
      const lit = coverage(base.img).lit;
      assert(lit > 1000, `${lit} pixels lit`);
      for (const path of pathsOf(device))
        for (const drawMode of ['instanced', 'pulled'] as const) {
          const { img, ps } = await image(device, { path, drawMode });
          const d = imageDiff(img, base.img, 3);
          console.log(
            `${device.caps.backend} ${path}/${drawMode} sorted vs cpu/instanced: ${d.differ} of ${lit} lit pixels differ by more than 3/255 (worst ${d.worst})`,
          );
          assert(d.differ <= lit * 0.01, `${path}/${drawMode}: ${d.differ} pixels differ`);
          ps.destroy();
        }
      // the order matters for this look: the unsorted draw (slot order) is another image
      const unsorted = await image(device, { path: 'cpu', drawMode: 'instanced', sort: false });
      const d = imageDiff(unsorted.img, base.img, 3);
      console.log(`unsorted vs sorted: ${d.differ} pixels differ by more than 3/255`);
      assert(d.differ > lit * 0.05, `unsorted differs from sorted in only ${d.differ} pixels`);
      unsorted.ps.destroy();
      base.ps.destroy();
    },
  },

  'sorted alpha: WebGPU compute and WebGL2 fragment sorts give the same image': {
    cross: true,
    async run(ctx) {
      const gpu = await ctx.open('webgpu');
      const gl = await ctx.open('webgl2');
      const a = await image(gpu, { path: 'compute' });
      const b = await image(gl, { path: 'pingpong' });
      const lit = coverage(a.img).lit;
      const d = imageDiff(a.img, b.img, 3);
      console.log(
        `WebGPU compute vs WebGL2 ping-pong, sorted: ${d.differ} of ${lit} lit pixels differ by more than 3/255, worst ${d.worst}`,
      );
      assert(lit > 1000, 'particles visible');
      assert(d.differ <= lit * 0.01, `${d.differ} pixels differ`);
      a.ps.destroy();
      b.ps.destroy();
    },
  },

  'after a device loss and restore the compute sort still sorts (its step uniforms written again)':
    {
      needs: ['compute'],
      async run({ backend }) {
        const canvas = document.createElement('canvas');
        // no host shadows: buffers come back zeroed, as in an application
        const device = await createDevice({ backend, canvas });
        device.onError(() => {}); // the loss is reported here
        const { ps } = await image(device, { path: 'compute' });
        (device as WebGPUDevice).gpu.destroy();
        await device.lost;
        await device.restore();
        for (let i = 0; i < 40; i++) ps.step(1 / 60);
        await drawImage(device, ps);
        await checkOrder(ps, `${backend} compute after restore`, 1e-5);
        ps.destroy();
        device.destroy();
      },
    },

  'a sorted draw without this step’s prepareDraw is an error naming it': {
    async run({ device }) {
      const ps = await stepped(device, { ...SMOKY, count: 64 }, 2);
      const target = device.createTexture({
        size: { width: 8, height: 8 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
      });
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: target }] });
      let code = '';
      try {
        ps.draw(pass, CAMERA);
      } catch (e) {
        code = (e as { rule?: string }).rule ?? String(e);
      }
      pass.end();
      enc.finish();
      assertEqual(code, 'particles-sort-unprepared', 'error code');
      target.destroy();
      ps.destroy();
    },
  },
});
