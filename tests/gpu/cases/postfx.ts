// Post-processing on both paths against the CPU reference (src/postfx/reference.ts).
// Tolerances (docs/postfx.md): HDR intermediates are rgba16float, so GPU and reference differ by
// the f16 rounding of each stored image (about 1e-3 relative, plus summation order in f32):
// |gpu − ref| ≤ 4e-3 · max(1, |ref|). Final 8-bit output: ≤ 2/255 from the reference (the tone
// curves' pow/log2 in f32 against float64, then rounding), ≤ 1/255 between the two GPU paths.
import {
  TextureUsage,
  blur,
  bloom,
  createPostProcess,
  grade,
  toneMap,
  blurReference,
  bloomReference,
  chainReference,
  makeImage,
  store,
  fromHalfs,
  toHalfs,
  settingsOf,
  type Device,
  type Effect,
  type PostPath,
  type RgbaImage,
  type Texture,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual } from '../page/assert.js';

function pathsOf(device: Device): PostPath[] {
  const f = device.caps.features;
  return f.compute && f.storageTextures ? ['compute', 'fragment'] : ['fragment'];
}

/** Images chosen to expose mistakes: an impulse, a step edge, a gradient, a bright spot at a border. */
const W = 64;
const H = 48;
const IMAGES: Record<string, RgbaImage> = {
  impulse: makeImage(W, H, (x, y) => (x === 31 && y === 20 ? [8, 4, 2, 1] : [0, 0, 0, 1])),
  step: makeImage(W, H, (x) => (x < 29 ? [0.1, 0.2, 0.3, 1] : [2.5, 1.5, 0.5, 1])),
  gradient: makeImage(W, H, (x, y) => [x / W, y / H, (x + y) / (W + H), 1]),
  'border spot': makeImage(W, H, (x, y) =>
    x < 3 && y > 40 ? [6, 5, 4, 1] : [0.02, 0.03, 0.04, 1],
  ),
};

function upload(
  device: Device,
  img: RgbaImage,
  usage = TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
): Texture {
  const t = device.createTexture({
    label: 'input',
    size: { width: img.width, height: img.height },
    format: 'rgba16float',
    usage,
  });
  device.queue.writeTexture(
    { texture: t },
    toHalfs(img.data),
    { bytesPerRow: img.width * 8 },
    { width: img.width, height: img.height },
  );
  return t;
}

async function readHdr(t: Texture): Promise<Float32Array> {
  return fromHalfs((await t.read()) as Uint16Array);
}

function compare(gpu: Float32Array, ref: Float32Array, tolerance: number, what: string): number {
  assertEqual(gpu.length, ref.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    if (i % 4 === 3) continue;
    const d =
      Math.abs((gpu[i] as number) - (ref[i] as number)) / Math.max(1, Math.abs(ref[i] as number));
    if (!(d <= tolerance))
      throw new Error(
        `${what}: texel ${Math.floor(i / 4)} channel ${i % 4}: GPU ${gpu[i]}, reference ${ref[i]} (tolerance ${tolerance})`,
      );
    worst = Math.max(worst, d);
  }
  return worst;
}

const HDR_TOLERANCE = 4e-3;

/** Blurs `img` (uploaded as rgba16float) on `path` and reads the result back. */
async function blurOnGpu(
  device: Device,
  img: RgbaImage,
  radius: number,
  path: PostPath,
): Promise<Float32Array> {
  const b = blur(device, { radius, path });
  const src = upload(device, img);
  const dst = device.createTexture({
    label: 'blurred',
    size: { width: img.width, height: img.height },
    format: 'rgba16float',
    usage: b.dstUsage | TextureUsage.COPY_SRC,
  });
  const enc = device.createCommandEncoder();
  b.apply(enc, src, dst);
  device.queue.submit([enc.finish()]);
  const out = await readHdr(dst);
  for (const t of [src, dst]) t.destroy();
  b.destroy();
  return out;
}

async function runChain(
  device: Device,
  path: PostPath,
  scene: RgbaImage,
  effects: Effect[],
): Promise<{ out: Uint8Array; post: ReturnType<typeof createPostProcess> }> {
  const post = createPostProcess(device, {
    width: scene.width,
    height: scene.height,
    path,
    effects,
  });
  device.queue.writeTexture(
    { texture: post.target },
    toHalfs(scene.data),
    { bytesPerRow: scene.width * 8 },
    { width: scene.width, height: scene.height },
  );
  const dst = device.createTexture({
    label: 'out',
    size: { width: scene.width, height: scene.height },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const enc = device.createCommandEncoder({ label: 'post' });
  post.apply(enc, dst);
  device.queue.submit([enc.finish()]);
  return { out: (await dst.read()) as Uint8Array, post };
}

const EFFECTS: Effect[] = [
  bloom({ threshold: 1, knee: 0.5, intensity: 0.8, radius: 0.85 }),
  toneMap({ operator: 'agx', exposure: 1 }),
  grade({ contrast: 1.05, saturation: 1.1, vignette: 0.2 }),
];

export const cases = defineCases({
  'blur matches the CPU reference on an impulse, a step edge, a gradient and a border spot (every path, radius 4 and 13)':
    {
      async run({ device }) {
        const worst: string[] = [];
        for (const path of pathsOf(device))
          for (const radius of [4, 13])
            for (const [name, img] of Object.entries(IMAGES)) {
              const out = await blurOnGpu(device, img, radius, path);
              const ref = blurReference(store(img, 'rgba16float'), radius, 'rgba16float');
              const what = `${device.caps.backend}/${path} blur r${radius} of the ${name}`;
              worst.push(
                `${path} r${radius} ${name}: ${compare(out, ref.data, HDR_TOLERANCE, what).toExponential(1)}`,
              );
            }
        console.log(`blur vs reference, worst relative difference: ${worst.join('; ')}`);
      },
    },
  'a blur preserves the image sum where the border is flat (clamp-to-edge), on every path': {
    async run({ device }) {
      // energy sits away from the border, so clamping repeats only zeros
      const img = makeImage(W, H, (x, y) =>
        x > 20 && x < 40 && y > 15 && y < 30
          ? [((x * 7 + y) % 5) / 2, 1, (x % 3) / 3, 1]
          : [0, 0, 0, 1],
      );
      const sum = (d: Float32Array): number => d.reduce((a, v, i) => (i % 4 === 3 ? a : a + v), 0);
      const before = sum(store(img, 'rgba16float').data);
      for (const path of pathsOf(device)) {
        const after = sum(await blurOnGpu(device, img, 8, path));
        console.log(
          `${device.caps.backend}/${path} blur: sum ${before} → ${after} (${(((after - before) / before) * 100).toFixed(4)}%)`,
        );
        assert(
          Math.abs(after - before) / before < 1e-3,
          `${path}: the blur changed the image sum from ${before} to ${after}`,
        );
      }
    },
  },
  'the bloom chain matches the CPU reference level by level (every path, each test image)': {
    async run({ device }) {
      const settings = settingsOf(EFFECTS);
      for (const path of pathsOf(device))
        for (const [name, img] of Object.entries(IMAGES)) {
          const { post } = await runChain(device, path, img, EFFECTS);
          const ref = bloomReference(store(img, 'rgba16float'), settings, 'rgba16float');
          const { down, up } = post.levels;
          for (let i = 0; i < down.length; i++)
            compare(
              await readHdr(down[i] as Texture),
              (ref.down[i] as RgbaImage).data,
              HDR_TOLERANCE,
              `${device.caps.backend}/${path} ${name}: down ${i}`,
            );
          for (let i = 0; i < up.length; i++)
            compare(
              await readHdr(up[i] as Texture),
              (ref.up[i] as RgbaImage).data,
              HDR_TOLERANCE,
              `${device.caps.backend}/${path} ${name}: up ${i}`,
            );
          post.destroy();
        }
    },
  },
  'the composed 8-bit frame matches the reference for every tone operator (every path)': {
    async run({ device }) {
      const report: string[] = [];
      for (const path of pathsOf(device))
        for (const operator of ['none', 'reinhard', 'aces', 'agx'] as const) {
          const effects = [
            bloom(),
            toneMap({ operator, exposure: 0.8 }),
            grade({ contrast: 1.1, saturation: 0.9, vignette: 0.3 }),
          ];
          const img = IMAGES['step'] as RgbaImage;
          const { out, post } = await runChain(device, path, img, effects);
          const ref = chainReference(store(img, 'rgba16float'), settingsOf(effects), 'rgba16float');
          let worst = 0;
          for (let i = 0; i < out.length; i++) {
            if (i % 4 === 3) continue;
            const d = Math.abs((out[i] as number) - (ref.data[i] as number) * 255);
            worst = Math.max(worst, d);
          }
          report.push(`${path}/${operator} ${worst.toFixed(2)}`);
          assert(
            worst <= 2,
            `${device.caps.backend}/${path}/${operator}: 8-bit output is ${worst.toFixed(2)}/255 from the reference (allowed 2)`,
          );
          post.destroy();
        }
      console.log(`composed frame vs reference, worst /255: ${report.join(', ')}`);
    },
  },
  'bloom lights the dark side of a bright edge, and only where the scene is bright enough (every path)':
    {
      async run({ device }) {
        const img = IMAGES['step'] as RgbaImage;
        for (const path of pathsOf(device)) {
          const withBloom = await runChain(device, path, img, [
            bloom({ threshold: 1, intensity: 1 }),
            toneMap({ operator: 'none' }),
          ]);
          const without = await runChain(device, path, img, [toneMap({ operator: 'none' })]);
          const high = await runChain(device, path, img, [
            bloom({ threshold: 50, intensity: 1 }),
            toneMap({ operator: 'none' }),
          ]);
          // dark side, 3 texels from the edge at x = 29, middle row
          const at = (o: Uint8Array, x: number): number => o[(24 * W + x) * 4] as number;
          assert(
            at(withBloom.out, 26) > at(without.out, 26) + 10,
            `${path}: bloom should brighten the dark side near the edge (${at(without.out, 26)} → ${at(withBloom.out, 26)})`,
          );
          assertEqual(
            at(high.out, 26),
            at(without.out, 26),
            `${path}: a threshold above every value blooms nothing`,
          );
          for (const r of [withBloom, without, high]) r.post.destroy();
        }
      },
    },
  'compute and fragment paths give the same 8-bit output (≤ 1/255 per channel)': {
    needs: ['compute', 'storageTextures'],
    async run({ device }) {
      for (const [name, img] of Object.entries(IMAGES)) {
        const a = await runChain(device, 'compute', img, EFFECTS);
        const b = await runChain(device, 'fragment', img, EFFECTS);
        let over = 0;
        let worst = 0;
        for (let i = 0; i < a.out.length; i++) {
          const d = Math.abs((a.out[i] as number) - (b.out[i] as number));
          worst = Math.max(worst, d);
          if (d > 1) over++;
        }
        console.log(
          `${name}: compute vs fragment worst ${worst}/255, ${over} channels beyond 1/255`,
        );
        assertEqual(
          over,
          0,
          `${name}: channels differing by more than 1/255 between compute and fragment`,
        );
        a.post.destroy();
        b.post.destroy();
      }
    },
  },
  'down the ladder: without compute and half-float targets the chain runs in 8 bits, says so, and is never black':
    {
      async run({ backend, open }) {
        const device = await open(backend, {
          restrict: {
            compute: false,
            storageTextures: false,
            floatRenderTargets: false,
            halfFloatRenderTargets: false,
          },
        });
        const img = IMAGES['gradient'] as RgbaImage;
        const post = createPostProcess(device, { width: W, height: H, effects: EFFECTS });
        assertEqual(post.path, 'fragment', 'path');
        assertEqual(post.hdrFormat, 'rgba8unorm', 'HDR format');
        assert(/values above 1 clip/.test(post.reason), `reason says what is lost: ${post.reason}`);
        const rgba8 = new Uint8Array(img.data.length).map((_, i) =>
          Math.round(Math.min(1, img.data[i] as number) * 255),
        );
        device.queue.writeTexture(
          { texture: post.target },
          rgba8,
          { bytesPerRow: W * 4 },
          { width: W, height: H },
        );
        const dst = device.createTexture({
          size: { width: W, height: H },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const enc = device.createCommandEncoder();
        post.apply(enc, dst);
        device.queue.submit([enc.finish()]);
        const out = (await dst.read()) as Uint8Array;
        const ref = chainReference(store(img, 'rgba8unorm'), settingsOf(EFFECTS), 'rgba8unorm');
        let worst = 0;
        for (let i = 0; i < out.length; i++)
          if (i % 4 !== 3)
            worst = Math.max(worst, Math.abs((out[i] as number) - (ref.data[i] as number) * 255));
        assert(worst <= 2, `8-bit rung: ${worst.toFixed(2)}/255 from the reference (allowed 2)`);
        assert(
          out.some((v, i) => i % 4 !== 3 && v > 20),
          '8-bit rung: the frame is not black',
        );
      },
    },
  'the whole chain and the blur run in explicit barrier mode and give what auto mode gives': {
    async run({ backend, open }) {
      const img = IMAGES['border spot'] as RgbaImage;
      for (const path of pathsOf(await open(backend))) {
        const auto = await runChain(await open(backend), path, img, EFFECTS);
        const explicitDevice = await open(backend, { barriers: 'explicit' });
        const explicit = await runChain(explicitDevice, path, img, EFFECTS);
        for (let i = 0; i < auto.out.length; i++)
          assertEqual(explicit.out[i], auto.out[i], `${path}: byte ${i}`);
        const b = blur(explicitDevice, { radius: 6, path });
        const src = upload(explicitDevice, img);
        const dst = explicitDevice.createTexture({
          size: { width: W, height: H },
          format: 'rgba16float',
          usage: b.dstUsage,
        });
        const enc = explicitDevice.createCommandEncoder();
        b.apply(enc, src, dst);
        explicitDevice.queue.submit([enc.finish()]);
      }
    },
  },
});
