// Every WebGPU vertex format reaches the vertex shader with the value WebGPU's rules give it
// (normalized, integer, half and packed formats), on both backends: one full-screen triangle whose
// attribute at location 1 holds the same value at each vertex, written out by the fragment stage
// into an rgba32float target and read back. `unorm8x4-bgra` needs caps.features.vertexFormatBgra
// (WebGL2 has no swizzled attribute): a typed error there.
import {
  BufferUsage,
  UnsupportedFeatureError,
  type Device,
  type VertexFormat,
} from '../../../src/all.js';
import { floatToHalfBits } from '../../../src/rhi/core/half.js';
import { defineCases } from '../page/case.js';
import { assert, assertThrows } from '../page/assert.js';
import { target } from '../page/scenes.js';

type Kind = 'float' | 'uint' | 'sint';

/** A format: its kind in the shader, components, the bytes of one value and what they decode to. */
interface FormatCase {
  format: VertexFormat;
  kind: Kind;
  n: number;
  bytes: Uint8Array;
  expected: number[];
}

const u8 = [200, 7, 0, 255];
const s8 = [-100, 7, -1, 127];
const u16 = [60000, 7, 0, 65535];
const s16 = [-30000, 7, -1, 32767];
const f32 = [1.5, -2, 0.25, 1000];
const u32 = [123456, 7, 0, 65535];
const s32 = [-123456, 7, -1, 65535];

const bytesOf = (array: ArrayBufferView): Uint8Array =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).slice();

function family(
  base: string,
  sizes: readonly number[],
  kind: Kind,
  values: number[],
  encode: (v: number[]) => ArrayBufferView,
  decode: (v: number) => number,
): FormatCase[] {
  return sizes.map((n) => ({
    format: (n === 1 ? base : `${base}x${n}`) as VertexFormat,
    kind,
    n,
    bytes: bytesOf(encode(values.slice(0, n))),
    expected: values.slice(0, n).map(decode),
  }));
}

const same = (v: number): number => v;
const CASES: FormatCase[] = [
  ...family('uint8', [1, 2, 4], 'uint', u8, (v) => new Uint8Array(v), same),
  ...family('sint8', [1, 2, 4], 'sint', s8, (v) => new Int8Array(v), same),
  ...family(
    'unorm8',
    [1, 2, 4],
    'float',
    u8,
    (v) => new Uint8Array(v),
    (v) => v / 255,
  ),
  ...family(
    'snorm8',
    [1, 2, 4],
    'float',
    s8,
    (v) => new Int8Array(v),
    (v) => Math.max(v / 127, -1),
  ),
  ...family('uint16', [1, 2, 4], 'uint', u16, (v) => new Uint16Array(v), same),
  ...family('sint16', [1, 2, 4], 'sint', s16, (v) => new Int16Array(v), same),
  ...family(
    'unorm16',
    [1, 2, 4],
    'float',
    u16,
    (v) => new Uint16Array(v),
    (v) => v / 65535,
  ),
  ...family(
    'snorm16',
    [1, 2, 4],
    'float',
    s16,
    (v) => new Int16Array(v),
    (v) => Math.max(v / 32767, -1),
  ),
  ...family(
    'float16',
    [1, 2, 4],
    'float',
    f32,
    (v) => new Uint16Array(v.map(floatToHalfBits)),
    same,
  ),
  ...family('float32', [1, 2, 3, 4], 'float', f32, (v) => new Float32Array(v), same),
  ...family('uint32', [1, 2, 3, 4], 'uint', u32, (v) => new Uint32Array(v), same),
  ...family('sint32', [1, 2, 3, 4], 'sint', s32, (v) => new Int32Array(v), same),
  {
    format: 'unorm10-10-10-2',
    kind: 'float',
    n: 4,
    // r in the low 10 bits: r 1023, g 512, b 0, a 3
    bytes: bytesOf(new Uint32Array([1023 | (512 << 10) | (0 << 20) | (3 << 30)])),
    expected: [1, 512 / 1023, 0, 1],
  },
  {
    format: 'unorm8x4-bgra',
    kind: 'float',
    n: 4,
    bytes: new Uint8Array([10, 20, 30, 40]),
    expected: [30 / 255, 20 / 255, 10 / 255, 40 / 255],
  },
];

/** The pipeline that writes attribute 1 (`kind`, `n` components) out as (x, y, z, w), zeros after n. */
function pipelineFor(device: Device, c: FormatCase) {
  const pad = ['0.0', '0.0', '0.0'].slice(0, 4 - c.n);
  if (device.caps.shaderLanguage === 'glsl') {
    const type =
      c.n === 1
        ? { float: 'float', uint: 'uint', sint: 'int' }[c.kind]
        : `${{ float: '', uint: 'u', sint: 'i' }[c.kind]}vec${c.n}`;
    const vs = device.createShaderModule({
      label: `format ${c.format}.vert`,
      stage: 'vertex',
      code: `#version 300 es
layout(location = 0) in vec2 position;
layout(location = 1) in ${type} value;
flat out vec4 v;
void main() {
  v = vec4(${c.kind === 'float' ? 'value' : `${c.n === 1 ? 'float' : `vec${c.n}`}(value)`}${pad.map((p) => `, ${p}`).join('')});
  gl_Position = vec4(position, 0.0, 1.0);
}`,
    });
    const fs = device.createShaderModule({
      label: `format ${c.format}.frag`,
      stage: 'fragment',
      code: `#version 300 es
precision highp float;
flat in vec4 v;
out vec4 color;
void main() { color = v; }`,
    });
    return { vs, fs };
  }
  const scalar = { float: 'f32', uint: 'u32', sint: 'i32' }[c.kind];
  const type = c.n === 1 ? scalar : `vec${c.n}<${scalar}>`;
  const module = device.createShaderModule({
    label: `format ${c.format}.wgsl`,
    code: `struct Out { @builtin(position) position: vec4f, @location(0) @interpolate(flat) v: vec4f };
@vertex fn vs(@location(0) position: vec2f, @location(1) value: ${type}) -> Out {
  return Out(vec4f(position, 0.0, 1.0), vec4f(${c.n === 1 ? 'f32' : `vec${c.n}f`}(value)${pad.map((p) => `, ${p}`).join('')}));
}
@fragment fn fs(in: Out) -> @location(0) vec4f { return in.v; }`,
  });
  return { vs: module, fs: module };
}

export const cases = defineCases({
  'every WebGPU vertex format reaches the shader with WebGPU’s value (normalized, integer, half, packed); unorm8x4-bgra a typed error where caps.features.vertexFormatBgra is false':
    {
      needs: ['floatRenderTargets'],
      async run({ device }) {
        const positions = device.createBuffer({
          label: 'positions',
          size: 24,
          usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(positions, 0, new Float32Array([-1, -1, 3, -1, -1, 3]));
        const wrong: string[] = [];
        for (const c of CASES) {
          const { vs, fs } = pipelineFor(device, c);
          // one value per vertex, each at a 4-byte-aligned stride
          const stride = Math.max(4, Math.ceil(c.bytes.length / 4) * 4);
          const values = new Uint8Array(3 * stride);
          for (let v = 0; v < 3; v++) values.set(c.bytes, v * stride);
          const attributes = device.createBuffer({
            label: `values ${c.format}`,
            size: values.length,
            usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
          });
          device.queue.writeBuffer(attributes, 0, values);
          const make = () =>
            device.createRenderPipeline({
              label: `format ${c.format}`,
              vertex: {
                module: vs,
                entryPoint: 'vs',
                buffers: [
                  {
                    arrayStride: 8,
                    attributes: [{ format: 'float32x2', offset: 0, shaderLocation: 0 }],
                  },
                  {
                    arrayStride: stride,
                    attributes: [{ format: c.format, offset: 0, shaderLocation: 1 }],
                  },
                ],
              },
              fragment: { module: fs, entryPoint: 'fs', targets: [{ format: 'rgba32float' }] },
            });
          if (c.format === 'unorm8x4-bgra' && !device.caps.features.vertexFormatBgra) {
            await assertThrows(
              make,
              UnsupportedFeatureError,
              /vertexFormatBgra is false on the webgl2 backend; vertex.buffers\[1\].attributes\[0\] is unorm8x4-bgra/,
              'unorm8x4-bgra',
            );
            continue;
          }
          const pipeline = make();
          const out = target(device, 'rgba32float');
          const enc = device.createCommandEncoder();
          const pass = enc.beginRenderPass({
            colorAttachments: [{ texture: out, loadOp: 'clear', clearValue: [9, 9, 9, 9] }],
          });
          pass.setPipeline(pipeline);
          pass.setVertexBuffer(0, positions);
          pass.setVertexBuffer(1, attributes);
          pass.draw(3);
          pass.end();
          device.queue.submit([enc.finish()]);
          const got = Array.from((await out.read()) as Float32Array).slice(0, 4);
          const expected = [...c.expected, 0, 0, 0].slice(0, 4);
          const off = got.findIndex(
            (g, i) => Math.abs(g - expected[i]!) > 1e-6 * Math.max(1, Math.abs(expected[i]!)),
          );
          if (off >= 0)
            wrong.push(`${c.format}: got [${got.join(', ')}], expected [${expected.join(', ')}]`);
          out.destroy();
          attributes.destroy();
        }
        assert(wrong.length === 0, `formats decoded wrong:\n${wrong.join('\n')}`);
      },
    },
});
