// Bind groups beside slot binding, on both backends: a pipeline reading @group(0) (filled slot by
// slot, or by a bind group), @group(1) (a uniform per material, switched between draws) and
// @group(2) (a texture and its sampler); the pixels say which resources each draw saw.
import {
  BufferUsage,
  TextureUsage,
  type Device,
  type RenderPipeline,
  ValidationError,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertThrows } from '../page/assert.js';
import { pixel, renderScene, SIZE } from '../page/scenes.js';

const WGSL = /* wgsl */ `
struct Color { value: vec4f };
@group(0) @binding(0) var<uniform> tint: Color;
@group(1) @binding(0) var<uniform> material: Color;
@group(2) @binding(0) var tex: texture_2d<f32>;
@group(2) @binding(1) var samp: sampler;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
  return vec4f(p[i], 0.0, 1.0);
}

@fragment fn fs() -> @location(0) vec4f {
  return tint.value * material.value + textureSampleLevel(tex, samp, vec2f(0.5), 0.0);
}
`;

const GLSL_VS = `#version 300 es
void main() {
  gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0);
}`;

const GLSL_FS = `#version 300 es
precision highp float;
uniform Tint { vec4 tint; };
uniform Material { vec4 material; };
uniform highp sampler2D tex;
out vec4 color;
void main() { color = tint * material + texture(tex, vec2(0.5)); }`;

function pipelineOf(device: Device): RenderPipeline {
  const targets = [{ format: 'rgba8unorm' as const }];
  if (device.caps.shaderLanguage === 'wgsl') {
    const module = device.createShaderModule({ label: 'groups.wgsl', code: WGSL });
    return device.createRenderPipeline({
      label: 'groups',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets },
    });
  }
  return device.createRenderPipeline({
    label: 'groups',
    vertex: { module: device.createShaderModule({ code: GLSL_VS, stage: 'vertex' }) },
    fragment: {
      module: device.createShaderModule({ code: GLSL_FS, stage: 'fragment' }),
      targets,
    },
    // GLSL has no @group: the layout says which group each block and sampler belongs to
    bindings: [
      { binding: 0, type: 'uniform', name: 'Tint' },
      { group: 1, binding: 0, type: 'uniform', name: 'Material' },
      { group: 2, binding: 0, type: 'texture', name: 'tex', samplerBinding: 1 },
      { group: 2, binding: 1, type: 'sampler', name: 'samp' },
    ],
  });
}

function colorBuffer(device: Device, rgba: number[], label: string) {
  const b = device.createBuffer({
    label,
    size: 16,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(b, 0, new Float32Array(rgba));
  return b;
}

const near = (a: readonly number[], b: readonly number[]): boolean =>
  a.every((v, i) => Math.abs(v - (b[i] as number)) <= 1);

export const cases = defineCases({
  'bind groups: @group(1) switched between draws, @group(2) texture + sampler, @group(0) by slot or by group':
    {
      async run({ device }) {
        const pipeline = pipelineOf(device);
        const tint = colorBuffer(device, [1, 0.5, 1, 1], 'tint');
        const half = colorBuffer(device, [0.5, 0.5, 0.5, 1], 'half tint');
        const red = colorBuffer(device, [0.5, 0.5, 0, 1], 'material red');
        const blue = colorBuffer(device, [0, 0.25, 0.5, 1], 'material blue');
        const tex = device.createTexture({
          label: 'texel',
          size: { width: 1, height: 1 },
          format: 'rgba8unorm',
          usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
        });
        device.queue.writeTexture(
          { texture: tex },
          new Uint8Array([0, 0, 64, 0]),
          { bytesPerRow: 4 },
          {
            width: 1,
            height: 1,
          },
        );
        const sampler = device.createSampler({ label: 'nearest' });
        const material = (buffer: typeof red) =>
          device.createBindGroup({
            label: buffer.label,
            layout: pipeline.getBindGroupLayout(1),
            entries: [{ binding: 0, resource: buffer }],
          });
        // a layout made by hand, equal to the pipeline's group 2: its groups fit the pipeline
        const textureLayout = device.createBindGroupLayout({
          label: 'texture + sampler',
          entries: pipeline.getBindGroupLayout(2).entries.map((e) => ({ ...e })),
        });
        const textured = device.createBindGroup({
          label: 'textured',
          layout: textureLayout,
          entries: [
            { binding: 0, resource: tex },
            { binding: 1, resource: sampler },
          ],
        });
        const group0 = device.createBindGroup({
          label: 'group 0 by group',
          layout: pipeline.getBindGroupLayout(0),
          entries: [{ binding: 0, resource: { buffer: half, offset: 0, size: 16 } }],
        });
        const data = await renderScene(device, [0, 0, 0, 1], (pass) => {
          pass.setPipeline(pipeline);
          pass.setUniformBuffer(0, tint);
          pass.setBindGroup(2, textured);
          pass.setBindGroup(1, material(red));
          pass.setViewport(0, 0, SIZE / 2, SIZE);
          pass.draw(3);
          pass.setBindGroup(1, material(blue));
          pass.setBindGroup(0, group0);
          pass.setViewport(SIZE / 2, 0, SIZE / 2, SIZE);
          pass.draw(3);
        });
        // left: tint × red + texel = (0.5, 0.25, 0.25); right: half × blue + texel = (0, 0.125, 0.5)
        const left = pixel(data, 8, 32);
        const right = pixel(data, 56, 32);
        assert(
          near(left, [128, 64, 64, 255]),
          `left half drew with group 1 = red: ${left.join(',')}`,
        );
        assert(
          near(right, [0, 32, 128, 255]),
          `right half drew with group 1 = blue and group 0 from a bind group: ${right.join(',')}`,
        );
        // a draw with group 2 unset is a typed error naming the slot and the call that fills it
        const enc = device.createCommandEncoder();
        const t = device.createTexture({
          size: { width: 4, height: 4 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT,
        });
        const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
        pass.setPipeline(pipeline);
        pass.setUniformBuffer(0, tint);
        pass.setBindGroup(1, material(red));
        await assertThrows(
          () => pass.draw(3),
          ValidationError,
          /Slot @group\(2\) @binding\(0\) \(texture "tex"\) of pipeline "groups" has nothing bound \(setBindGroup\(2, …\)\)/,
          'group 2 unset',
        );
      },
    },
});
