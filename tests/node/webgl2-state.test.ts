// The WebGL2 backend's shadow state, checked on a recording fake of the GL context.
import { describe, expect, it } from 'vitest';
import { BufferUsage, CommandBuffer, TextureUsage, WebGL2Device } from '../../src/all.js';
import { createFakeGL } from './fake-gl.js';

const VS =
  '#version 300 es\nlayout(location=0) in vec2 p;\nlayout(std140) uniform Params { vec4 v; };\nvoid main() { gl_Position = vec4(p, 0.0, 1.0) * v; }\n';
const FS =
  '#version 300 es\nprecision highp float;\nuniform sampler2D tex;\nout vec4 o;\nvoid main() { o = texture(tex, vec2(0.5)); }\n';

function setup() {
  const fake = createFakeGL();
  const device = new WebGL2Device(fake.gl, null, {});
  const vs = device.createShaderModule({ code: VS, stage: 'vertex' });
  const fs = device.createShaderModule({ code: FS, stage: 'fragment' });
  const pipeline = device.createRenderPipeline({
    vertex: {
      module: vs,
      buffers: [
        { arrayStride: 8, attributes: [{ format: 'float32x2', offset: 0, shaderLocation: 0 }] },
      ],
    },
    fragment: {
      module: fs,
      targets: [
        {
          format: 'rgba8unorm',
          blend: {
            color: { srcFactor: 'one', dstFactor: 'one' },
            alpha: { srcFactor: 'one', dstFactor: 'one' },
          },
        },
      ],
    },
    primitive: { cullMode: 'back' },
    bindings: [
      { binding: 0, type: 'uniform', name: 'Params' },
      { binding: 1, type: 'texture', name: 'tex', samplerBinding: 2 },
      { binding: 2, type: 'sampler', name: 'samp' },
    ],
  });
  const rt = device.createTexture({
    size: { width: 64, height: 64 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  const tex = device.createTexture({
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.TEXTURE_BINDING,
  });
  const vb = device.createBuffer({ size: 64, usage: BufferUsage.VERTEX });
  const ubo = device.createBuffer({ size: 16, usage: BufferUsage.UNIFORM });
  const sampler = device.createSampler({ magFilter: 'linear' });
  const frame = (draws: number): void => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt, loadOp: 'load' }] });
    for (let i = 0; i < draws; i++) {
      pass.setPipeline(pipeline);
      pass.setVertexBuffer(0, vb);
      pass.setUniformBuffer(0, ubo);
      pass.setTexture(1, tex);
      pass.setSampler(2, sampler);
      pass.draw(3);
    }
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  return { fake, device, frame, pipeline };
}

const STATE_CALLS = new Set([
  'useProgram',
  'bindVertexArray',
  'enable',
  'disable',
  'blendFuncSeparate',
  'blendEquationSeparate',
  'colorMask',
  'cullFace',
  'frontFace',
  'bindBufferRange',
  'bindTexture',
  'bindSampler',
  'activeTexture',
  'uniform1f',
  'bindFramebuffer',
  'viewport',
  'depthMask',
]);

describe('WebGL2 shadow state cache', () => {
  it('a repeated identical draw issues no redundant GL call, only the draw', () => {
    const { fake, frame } = setup();
    frame(1);
    const first = fake.calls.length;
    fake.calls.length = 0;
    frame(2);
    const secondFrame = fake.calls.filter((c) => STATE_CALLS.has(c));
    // the second frame sets nothing but the per-pass depth range/viewport already cached
    expect(secondFrame).toEqual([]);
    // (one instance: drawArrays, the plain call)
    expect(fake.calls.filter((c) => c === 'drawArrays')).toHaveLength(2);
    expect(first).toBeGreaterThan(0);
  });

  it('state set by a host between frames is overridden after resetState()', () => {
    const { fake, device, frame } = setup();
    frame(1);
    // the host touches the context directly
    fake.gl.useProgram(null);
    fake.gl.disable(fake.gl.BLEND);
    fake.gl.bindVertexArray(null);
    fake.calls.length = 0;
    device.resetState();
    frame(1);
    for (const call of [
      'useProgram',
      'enable',
      'blendFuncSeparate',
      'bindVertexArray',
      'bindTexture',
      'bindSampler',
      'bindBufferRange',
      'bindFramebuffer',
    ]) {
      expect(fake.calls, call).toContain(call);
    }
  });

  it('beginFrame() resets the cache too', async () => {
    const { fake, device, frame } = setup();
    frame(1);
    await device.queue.onSubmittedWorkDone();
    fake.calls.length = 0;
    await device.beginFrame();
    frame(1);
    expect(fake.calls).toContain('useProgram');
  });
});

describe('WebGL2 float textures', () => {
  it('a float32 texture sampled linearly without OES_texture_float_linear is a typed error, not black', () => {
    const fake = createFakeGL(); // no OES_texture_float_linear: float32Filterable is false
    const device = new WebGL2Device(fake.gl, null, {});
    expect(device.caps.features.float32Filterable).toBe(false);
    const vs = device.createShaderModule({
      code: '#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n',
      stage: 'vertex',
    });
    const fs = device.createShaderModule({ code: FS, stage: 'fragment' });
    const pipeline = device.createRenderPipeline({
      label: 'sample',
      vertex: { module: vs },
      fragment: { module: fs, targets: [{ format: 'rgba8unorm' }] },
      bindings: [
        { binding: 1, type: 'texture', name: 'tex', samplerBinding: 2 },
        { binding: 2, type: 'sampler', name: 'tex' },
      ],
    });
    const rt = device.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const state = device.createTexture({
      label: 'state',
      size: { width: 4, height: 4 },
      format: 'rgba32float',
      usage: TextureUsage.TEXTURE_BINDING,
    });
    const draw = (filter: 'linear' | 'nearest'): void => {
      const pass = device
        .createCommandEncoder()
        .beginRenderPass({ colorAttachments: [{ texture: rt }] });
      pass.setPipeline(pipeline);
      pass.setTexture(1, state);
      pass.setSampler(2, device.createSampler({ magFilter: filter, minFilter: filter }));
      pass.draw(3);
    };
    expect(() => draw('linear')).toThrow(
      /caps.features.float32Filterable is false on the webgl2 backend; rgba32float texture "state" at slot 1 \("tex"\) of pipeline "sample" is sampled with a linear sampler/,
    );
    expect(() => draw('nearest')).not.toThrow();
  });
});

describe('commands outside a pass (regression: replay dropped them silently)', () => {
  it('a draw found outside a pass is an error at replay, not a no-op', () => {
    const { device, pipeline } = setup();
    // what a caller could push through the encoder's old public record(): a draw with no pass
    const stray = new CommandBuffer('stray', [
      { type: 'setRenderPipeline', pipeline },
      { type: 'draw', vertexCount: 3, instanceCount: 1, firstVertex: 0, firstInstance: 0 },
    ]);
    expect(() => device.queue.submit([stray])).toThrow(/setRenderPipeline replayed outside a pass/);
  });
});

describe("a pass's draws with their own uniform slices", () => {
  it("replay as the hand-written frame's calls: a bindBufferRange and a drawArrays a draw, the program and vertex array only where the pipeline changes", () => {
    const fake = createFakeGL();
    const device = new WebGL2Device(fake.gl, null, {});
    const vs = device.createShaderModule({
      code: '#version 300 es\nlayout(std140) uniform Draw { vec4 offset; };\nvoid main() { gl_Position = offset; }\n',
      stage: 'vertex',
    });
    const pipelines = ['0.5', '1.0'].map((tint) =>
      device.createRenderPipeline({
        vertex: { module: vs },
        fragment: {
          module: device.createShaderModule({
            code: `#version 300 es\nprecision highp float;\nlayout(std140) uniform Draw { vec4 offset; };\nout vec4 o;\nvoid main() { o = offset * ${tint}; }\n`,
            stage: 'fragment',
          }),
          targets: [{ format: 'rgba8unorm' }],
        },
        bindings: [{ binding: 0, type: 'uniform', name: 'Draw' }],
      }),
    );
    const target = device.createTexture({
      size: { width: 8, height: 8 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const slot = Math.max(256, device.caps.limits.minUniformBufferOffsetAlignment);
    const slices = device.createBuffer({ size: slot * 300, usage: BufferUsage.UNIFORM });
    const frame = (): void => {
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: target, loadOp: 'load' }] });
      for (let i = 0; i < 300; i++) {
        if (i % 100 === 0) pass.setPipeline(pipelines[(i / 100) & 1] as (typeof pipelines)[0]);
        pass.setUniformBuffer(0, slices, slot * i, 32);
        pass.draw(3);
      }
      pass.end();
      device.queue.submit([enc.finish()]);
    };
    frame();
    fake.calls.length = 0;
    frame();
    // the second frame: its first draws use the program the first frame ended with (cached)
    const draws = fake.calls.slice(fake.calls.indexOf('bindBufferRange'));
    const change = ['useProgram', 'bindVertexArray'];
    const run = Array.from({ length: 100 }, () => ['bindBufferRange', 'drawArrays']).flat();
    const want = [...run, ...change, ...run, ...change, ...run];
    expect(draws.filter((c) => c !== 'flush')).toEqual(want);
  });
});
