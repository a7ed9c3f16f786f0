import { depthCasters } from '../page/depth-casters.js';
import { BufferUsage, TextureUsage, ValidationError, type Sampler } from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assertArrayEqual, assertEqual, assertThrows, assertClose } from '../page/assert.js';

const UNFILTERABLE_WGSL = /* wgsl */ `
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(vec2f(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0), 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f { return textureSample(tex, samp, p.xy / 4.0); }
`;
const UNFILTERABLE_VS = `#version 300 es
void main() { gl_Position = vec4(float(gl_VertexID & 1) * 4.0 - 1.0, float(gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }
`;
const UNFILTERABLE_FS = `#version 300 es
precision highp float;
uniform highp sampler2D tex;
out vec4 color;
void main() { color = texture(tex, gl_FragCoord.xy / 4.0); }
`;

export const cases = defineCases({
  // (the sampler is highp: GLSL ES's default for a fragment shader's sampler2D is lowp, which
  // WebKitGTK honours — 33/63 sampled as 0.5234 — where ANGLE and Firefox sample at full precision)
  // Regression: WebGPU sampler slots were always declared 'filtering', so the advice for float32
  // textures ("declare the slot 'unfilterable-float' and use a nearest sampler") ended in a
  // pipeline error. The sampler's slot is now derived as 'non-filtering'.
  'an rgba32float texture declared unfilterable is sampled through a nearest sampler; a linear one is a typed error':
    {
      async run({ device }) {
        const glsl = device.caps.shaderLanguage === 'glsl';
        const pipeline = glsl
          ? device.createRenderPipeline({
              label: 'unfilterable',
              vertex: {
                module: device.createShaderModule({ code: UNFILTERABLE_VS, stage: 'vertex' }),
              },
              fragment: {
                module: device.createShaderModule({ code: UNFILTERABLE_FS, stage: 'fragment' }),
                targets: [{ format: 'rgba8unorm' }],
              },
              bindings: [
                {
                  binding: 0,
                  type: 'texture',
                  name: 'tex',
                  samplerBinding: 1,
                  sampleType: 'unfilterable-float',
                },
                { binding: 1, type: 'sampler', name: 'samp' },
              ],
            })
          : (() => {
              const module = device.createShaderModule({
                label: 'unfilterable.wgsl',
                code: UNFILTERABLE_WGSL,
              });
              return device.createRenderPipeline({
                label: 'unfilterable',
                vertex: { module, entryPoint: 'vs' },
                fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
                bindings: [{ binding: 0, type: 'texture', sampleType: 'unfilterable-float' }],
              });
            })();
        assertEqual(
          pipeline.bindings.find((b) => b.binding === 1)?.samplerType,
          'non-filtering',
          'derived sampler type',
        );
        const source = device.createTexture({
          label: 'floats',
          size: { width: 4, height: 4 },
          format: 'rgba32float',
          usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
        });
        const texels = new Float32Array(64).map((_, i) => ((i * 37) % 64) / 63);
        device.queue.writeTexture(
          { texture: source },
          texels,
          { bytesPerRow: 64 },
          { width: 4, height: 4 },
        );
        const target = device.createTexture({
          label: 'out',
          size: { width: 4, height: 4 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const draw = (sampler: ReturnType<typeof device.createSampler>): void => {
          const enc = device.createCommandEncoder();
          const pass = enc.beginRenderPass({
            colorAttachments: [{ texture: target, loadOp: 'clear' }],
          });
          pass.setPipeline(pipeline);
          pass.setTexture(0, source);
          pass.setSampler(1, sampler);
          pass.draw(3);
          pass.end();
          device.queue.submit([enc.finish()]);
        };
        draw(device.createSampler({ label: 'nearest' }));
        const out = (await target.read()) as Uint8Array;
        assertArrayEqual(
          out,
          Array.from(texels, (v) => Math.round(v * 255)),
          'each pixel is its texel (nearest, exact centres)',
        );
        await assertThrows(
          () =>
            draw(
              device.createSampler({ label: 'linear', magFilter: 'linear', minFilter: 'linear' }),
            ),
          ValidationError,
          /Sampler "linear" filters linearly \(magFilter, minFilter\) but slot 1.*non-filtering/,
          'a linear sampler on the non-filtering slot',
        );
      },
    },

  'texture upload and readback with row padding are byte-exact': {
    async run({ device }) {
      const w = 13;
      const h = 7; // 13 texels × 4 bytes = 52-byte rows, uploaded 64 bytes apart
      const t = device.createTexture({
        label: 'padded',
        size: { width: w, height: h },
        format: 'rgba8unorm',
        usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.TEXTURE_BINDING,
      });
      const tight = new Uint8Array(w * h * 4).map((_, i) => (i * 13 + 5) & 0xff);
      const padded = new Uint8Array(64 * h);
      for (let y = 0; y < h; y++) padded.set(tight.subarray(y * w * 4, (y + 1) * w * 4), y * 64);
      device.queue.writeTexture(
        { texture: t },
        padded,
        { bytesPerRow: 64 },
        { width: w, height: h },
      );
      assertArrayEqual((await t.read()) as Uint8Array, tight, 'whole texture');
      const region = (await t.read({
        origin: { x: 2, y: 3 },
        size: { width: 4, height: 2 },
      })) as Uint8Array;
      const expected = new Uint8Array(4 * 2 * 4);
      for (let y = 0; y < 2; y++)
        expected.set(tight.subarray(((3 + y) * w + 2) * 4, ((3 + y) * w + 6) * 4), y * 16);
      assertArrayEqual(region, expected, 'region');
    },
  },
  'copyTextureToBuffer pads rows to 256 bytes and copyBufferToTexture reads them back': {
    async run({ device }) {
      const w = 10;
      const h = 4;
      const src = device.createTexture({
        label: 'src',
        size: { width: w, height: h },
        format: 'rgba8unorm',
        usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT,
      });
      const dst = device.createTexture({
        label: 'dst',
        size: { width: w, height: h },
        format: 'rgba8unorm',
        usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC,
      });
      const tight = new Uint8Array(w * h * 4).map((_, i) => (i * 7 + 1) & 0xff);
      device.queue.writeTexture(
        { texture: src },
        tight,
        { bytesPerRow: w * 4 },
        { width: w, height: h },
      );
      const staging = device.createBuffer({
        label: 'staging',
        size: 256 * h,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      const enc = device.createCommandEncoder();
      enc.copyTextureToBuffer(
        { texture: src },
        { buffer: staging, bytesPerRow: 256 },
        { width: w, height: h },
      );
      enc.copyBufferToTexture(
        { buffer: staging, bytesPerRow: 256 },
        { texture: dst },
        { width: w, height: h },
      );
      device.queue.submit([enc.finish()]);
      const rows = new Uint8Array(await staging.read());
      for (let y = 0; y < h; y++)
        assertArrayEqual(
          rows.subarray(y * 256, y * 256 + w * 4),
          tight.subarray(y * w * 4, (y + 1) * w * 4),
          `padded row ${y}`,
        );
      assertArrayEqual((await dst.read()) as Uint8Array, tight, 'round trip through the buffer');
      await assertThrows(
        () =>
          device
            .createCommandEncoder()
            .copyTextureToBuffer(
              { texture: src },
              { buffer: staging, bytesPerRow: 40 },
              { width: w, height: h },
            ),
        ValidationError,
        /bytesPerRow 40 must be a multiple of 256/,
        'unaligned bytesPerRow',
      );
    },
  },
  'float textures round-trip exactly (rgba32float, r32float, rg32float)': {
    needs: ['floatRenderTargets'],
    async run({ device }) {
      for (const [format, n] of [
        ['rgba32float', 4],
        ['r32float', 1],
        ['rg32float', 2],
      ] as const) {
        const t = device.createTexture({
          label: format,
          size: { width: 5, height: 3 },
          format,
          usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT,
        });
        const data = new Float32Array(5 * 3 * n).map((_, i) => i * 0.37 - 2.5);
        device.queue.writeTexture(
          { texture: t },
          data,
          { bytesPerRow: 5 * 4 * n },
          { width: 5, height: 3 },
        );
        const back = (await t.read()) as Float32Array;
        assertEqual(back.constructor.name, 'Float32Array', `${format} read type`);
        assertArrayEqual(back, data, format);
      }
    },
  },
  'half-float texture reads back as raw halfs': {
    needs: ['halfFloatRenderTargets'],
    async run({ device }) {
      const t = device.createTexture({
        label: 'half',
        size: { width: 2, height: 1 },
        format: 'rgba16float',
        usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT,
      });
      const halfs = new Uint16Array([
        0x3c00, 0x4000, 0xc000, 0x3800, 0x0000, 0x3555, 0x7bff, 0xbc00,
      ]); // 1 2 -2 .5 0 ~.333 65504 -1
      device.queue.writeTexture(
        { texture: t },
        halfs,
        { bytesPerRow: 16 },
        { width: 2, height: 1 },
      );
      assertArrayEqual((await t.read()) as Uint16Array, halfs, 'halfs');
    },
  },
  'r32float and bgra8unorm go through texture↔buffer copies and readback exactly': {
    needs: ['floatRenderTargets'],
    async run({ device }) {
      const usage = TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT;
      const r = device.createTexture({
        label: 'r32f',
        size: { width: 3, height: 2 },
        format: 'r32float',
        usage,
      });
      const values = new Float32Array([1.5, -2, 3.25, 1e-3, 65504, -0.125]);
      device.queue.writeTexture(
        { texture: r },
        values,
        { bytesPerRow: 12 },
        { width: 3, height: 2 },
      );
      const staging = device.createBuffer({
        label: 'staging',
        size: 512,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      const enc = device.createCommandEncoder();
      enc.copyTextureToBuffer(
        { texture: r },
        { buffer: staging, bytesPerRow: 256 },
        { width: 3, height: 2 },
      );
      device.queue.submit([enc.finish()]);
      const rows = new Float32Array(await staging.read());
      assertArrayEqual(
        Array.from(rows.subarray(0, 3)),
        Array.from(values.subarray(0, 3)),
        'row 0 via the buffer',
      );
      assertArrayEqual(
        Array.from(rows.subarray(64, 67)),
        Array.from(values.subarray(3, 6)),
        'row 1 via the buffer',
      );
      assertArrayEqual((await r.read()) as Float32Array, values, 'read()');
      // the same texels from a view that starts at an odd byte of its buffer
      const odd = new Uint8Array(values.byteLength + 1);
      odd.set(new Uint8Array(values.buffer), 1);
      device.queue.writeTexture(
        { texture: r },
        odd.subarray(1),
        { bytesPerRow: 12 },
        { width: 3, height: 2 },
      );
      assertArrayEqual((await r.read()) as Float32Array, values, 'upload from a misaligned view');
      const b = device.createTexture({
        label: 'bgra',
        size: { width: 2, height: 1 },
        format: 'bgra8unorm',
        usage,
      });
      const bgra = new Uint8Array([10, 20, 30, 40, 50, 60, 70, 80]);
      device.queue.writeTexture({ texture: b }, bgra, { bytesPerRow: 8 }, { width: 2, height: 1 });
      assertArrayEqual(
        (await b.read()) as Uint8Array,
        bgra,
        'bgra8unorm round trip keeps BGRA order',
      );
    },
  },
  '1x1 and mipmapped textures: each level is addressable': {
    async run({ device }) {
      const one = device.createTexture({
        label: '1x1',
        size: { width: 1, height: 1 },
        format: 'rgba8unorm',
        usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT,
      });
      device.queue.writeTexture(
        { texture: one },
        new Uint8Array([1, 2, 3, 4]),
        { bytesPerRow: 4 },
        { width: 1, height: 1 },
      );
      assertArrayEqual((await one.read()) as Uint8Array, [1, 2, 3, 4], '1x1');
      const mips = device.createTexture({
        label: 'mips',
        size: { width: 8, height: 4 },
        format: 'rgba8unorm',
        mipLevelCount: 4,
        usage: TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT,
      });
      for (let level = 0; level < 4; level++) {
        const w = Math.max(1, 8 >> level);
        const h = Math.max(1, 4 >> level);
        device.queue.writeTexture(
          { texture: mips, mipLevel: level },
          new Uint8Array(w * h * 4).fill(level * 50 + 10),
          { bytesPerRow: w * 4 },
          { width: w, height: h },
        );
      }
      for (let level = 0; level < 4; level++) {
        const back = (await mips.read({ mipLevel: level })) as Uint8Array;
        assertEqual(
          back.length,
          Math.max(1, 8 >> level) * Math.max(1, 4 >> level) * 4,
          `level ${level} size`,
        );
        assertClose(back[0] as number, level * 50 + 10, 0, `level ${level} value`);
      }
      await assertThrows(
        () =>
          device.createTexture({
            label: 'too-many',
            size: { width: 8, height: 4 },
            format: 'rgba8unorm',
            mipLevelCount: 5,
            usage: TextureUsage.COPY_DST,
          }),
        ValidationError,
        /mipLevelCount 5 must be between 1 and 4/,
        'mip chain',
      );
    },
  },
  'copyTextureToTexture copies a region': {
    async run({ device }) {
      const usage = TextureUsage.COPY_DST | TextureUsage.COPY_SRC | TextureUsage.RENDER_ATTACHMENT;
      const a = device.createTexture({
        label: 'a',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage,
      });
      const b = device.createTexture({
        label: 'b',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage,
      });
      const data = new Uint8Array(64).map((_, i) => i + 1);
      device.queue.writeTexture({ texture: a }, data, { bytesPerRow: 16 }, { width: 4, height: 4 });
      device.queue.writeTexture(
        { texture: b },
        new Uint8Array(64),
        { bytesPerRow: 16 },
        { width: 4, height: 4 },
      );
      const enc = device.createCommandEncoder();
      enc.copyTextureToTexture(
        { texture: a, origin: { x: 1, y: 1 } },
        { texture: b, origin: { x: 0, y: 2 } },
        { width: 2, height: 2 },
      );
      device.queue.submit([enc.finish()]);
      const out = (await b.read()) as Uint8Array;
      const texel = (img: Uint8Array, x: number, y: number): number[] =>
        Array.from(img.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 4));
      assertArrayEqual(texel(out, 0, 2), texel(data, 1, 1), 'texel (0,2)');
      assertArrayEqual(texel(out, 1, 3), texel(data, 2, 2), 'texel (1,3)');
      assertArrayEqual(texel(out, 3, 0), [0, 0, 0, 0], 'outside the copy');
    },
  },
  'what WebGPU accepts and Ignis once refused: writeTexture data starting between texels, a row copied without bytesPerRow, empty copies that copy nothing':
    {
      async run({ device }) {
        const usage = TextureUsage.COPY_SRC | TextureUsage.COPY_DST;
        const t = device.createTexture({
          label: 'rgba32float',
          size: { width: 4, height: 2 },
          format: 'rgba32float',
          usage,
        });
        device.queue.writeTexture(
          { texture: t },
          new Float32Array(32),
          { bytesPerRow: 64 },
          { width: 4, height: 2 },
        );
        // a texel whose floats start 2 bytes into the data (a Float32Array view could not)
        const floats = new Float32Array([1.5, -2, 3.25, 4]);
        const bytes = new Uint8Array(2 + 16);
        bytes.set(new Uint8Array(floats.buffer), 2);
        device.queue.writeTexture(
          { texture: t, origin: { x: 2, y: 1 } },
          bytes,
          { offset: 2 },
          { width: 1, height: 1 },
        );
        // a row through a buffer without bytesPerRow, both ways; empty copies on the way
        const buffer = device.createBuffer({
          size: 256,
          usage: BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        });
        const back = device.createTexture({
          label: 'back',
          size: { width: 4, height: 2 },
          format: 'rgba32float',
          usage,
        });
        const enc = device.createCommandEncoder();
        enc.copyTextureToBuffer(
          { texture: t, origin: { x: 0, y: 1 } },
          { buffer },
          { width: 4, height: 1 },
        );
        enc.copyBufferToTexture({ buffer }, { texture: back }, { width: 4, height: 1 });
        enc.copyTextureToTexture({ texture: t }, { texture: back }, { width: 0, height: 2 });
        enc.copyBufferToTexture(
          { buffer, bytesPerRow: 256 },
          { texture: back },
          { width: 4, height: 0 },
        );
        device.queue.submit([enc.finish()]);
        device.queue.writeTexture(
          { texture: back },
          new Uint8Array(0),
          {},
          { width: 0, height: 0 },
        );
        const texels = (await back.read()) as Float32Array;
        assertArrayEqual(
          Array.from(texels.subarray(8, 12)),
          Array.from(floats),
          'the texel written from 2 bytes in, copied out and back as one row',
        );
        assertArrayEqual(
          Array.from(texels.subarray(16, 32)),
          new Array(16).fill(0),
          'the second row untouched (the empty copies copied nothing)',
        );
      },
    },
  'a comparison sampler compares a reference with a depth texture (textureSampleCompare, sampler2DShadow); a sampler of the other kind in the slot is a typed error':
    {
      async run({ device }) {
        const SIZE = 8;
        // depth: 1 cleared, then the left half covered by a quad at clip z 0.25 (a depth of 0.25
        // on both backends: Ignis's clip space is WebGPU's): below 0.75
        const depth = depthCasters(device, SIZE, { right: 0, z: 0.25 });
        const glsl = device.caps.shaderLanguage === 'glsl';
        const FS_WGSL = `@group(0) @binding(0) var depthMap: texture_depth_2d;
@group(0) @binding(1) var shadow: sampler_comparison;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  return vec4f(textureSampleCompare(depthMap, shadow, p.xy / ${SIZE}.0, 0.75), 0.0, 0.0, 1.0);
}`;
        const shade = glsl
          ? device.createRenderPipeline({
              label: 'compare',
              vertex: {
                module: device.createShaderModule({
                  code: '#version 300 es\nvoid main() { gl_Position = vec4(float(gl_VertexID & 1) * 4.0 - 1.0, float(gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }',
                  stage: 'vertex',
                }),
              },
              fragment: {
                module: device.createShaderModule({
                  code: `#version 300 es\nprecision highp float;\nuniform highp sampler2DShadow depthMap;\nout vec4 o;\nvoid main() { o = vec4(texture(depthMap, vec3(gl_FragCoord.xy / ${SIZE}.0, 0.75)), 0.0, 0.0, 1.0); }`,
                  stage: 'fragment',
                }),
                targets: [{ format: 'rgba8unorm' }],
              },
              bindings: [
                {
                  binding: 0,
                  type: 'texture',
                  name: 'depthMap',
                  sampleType: 'depth',
                  samplerBinding: 1,
                },
                { binding: 1, type: 'sampler', name: 'depthMap', samplerType: 'comparison' },
              ],
            })
          : (() => {
              const module = device.createShaderModule({ code: FS_WGSL });
              return device.createRenderPipeline({
                label: 'compare',
                vertex: { module },
                fragment: { module, targets: [{ format: 'rgba8unorm' }] },
              });
            })();
        const target = device.createTexture({
          size: { width: SIZE, height: SIZE },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const compareWith = async (sampler: Sampler): Promise<Uint8Array> => {
          const e = device.createCommandEncoder();
          const p = e.beginRenderPass({
            colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 1, 1] }],
          });
          p.setPipeline(shade);
          p.setTexture(0, depth);
          p.setSampler(1, sampler);
          p.draw(3);
          p.end();
          device.queue.submit([e.finish()]);
          return (await target.read()) as Uint8Array;
        };
        const red = (img: Uint8Array, x: number, y: number): number =>
          img[4 * (y * SIZE + x)] as number;
        for (const [compare, left, right] of [
          ['less', 0, 255],
          ['greater', 255, 0],
          ['always', 255, 255],
        ] as const) {
          const img = await compareWith(device.createSampler({ compare }));
          for (const y of [1, 6])
            for (const [x, expected] of [
              [1, left],
              [6, right],
            ] as const)
              assertEqual(
                red(img, x, y),
                expected,
                `compare '${compare}' at (${x}, ${y}): 0.75 ${compare} the depth there`,
              );
        }
        // a plain sampler in the comparison slot, a comparison sampler in a plain one
        await assertThrows(
          () => compareWith(device.createSampler({ label: 'plain' })),
          ValidationError,
          /comparison sampler .*but sampler "plain" has no compare function/,
          'plain sampler in a comparison slot',
        );
      },
    },
});
