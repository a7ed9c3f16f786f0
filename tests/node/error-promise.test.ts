// Issue 34's examples, one per class, on the null backend: each invalid call is a typed RhiError
// (or ParticleOptionError) naming the value — never an untyped TypeError from inside Ignis, never
// accepted silently.
import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  NullDevice,
  ParticleOptionError,
  RhiError,
  TextureUsage,
  createParticleSystem,
  orbitCamera,
} from '../../src/all.js';

const wgsl = `@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`;

/** `fn` throws a typed error whose message matches `message`. */
async function typed(fn: () => unknown, message: RegExp): Promise<void> {
  let error: unknown = null;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  expect(error, 'throws').not.toBeNull();
  expect(
    error instanceof RhiError || error instanceof ParticleOptionError,
    `a typed error, not ${String(error)}`,
  ).toBe(true);
  expect((error as Error).message).toMatch(message);
}

describe('the error promise: issue 34’s examples', () => {
  it('untyped before: a foreign module, a BigInt, bindings that are not a list, a BigInt read size, a null attractor', async () => {
    const d = new NullDevice();
    const module = d.createShaderModule({ code: wgsl });
    await typed(
      () =>
        d.createRenderPipeline({
          vertex: { module: {} as never, entryPoint: 'vs' },
          fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
        }),
      /vertex\.module/,
    );
    await typed(
      () =>
        d.createRenderPipeline({
          vertex: { module, entryPoint: 'vs' },
          fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
          primitive: { topology: 4n as never },
        }),
      /primitive\.topology 4n/,
    );
    await typed(
      () =>
        d.createComputePipeline({
          compute: {
            module: d.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' }),
          },
          bindings: 0 as never,
        }),
      /bindings/,
    );
    const b = d.createBuffer({ size: 16, usage: BufferUsage.COPY_SRC });
    await typed(() => b.read(4n as never), /4n/);
    await typed(
      () => createParticleSystem(d, { count: 8, attractors: [null as never] }),
      /attractors\[0\]/,
    );
  });

  it('silent before: a copy within one buffer, a sampler’s maxAnisotropy (compare: supported now, below), a null height, a bogus dimension, a null origin, a bogus binding type, a buffer of another device', async () => {
    const d = new NullDevice();
    const a = d.createBuffer({
      label: 'a',
      size: 64,
      usage: BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    await typed(() => d.createCommandEncoder().copyBufferToBuffer(a, 0, a, 32, 16), /same buffer/);
    await typed(
      () => d.createSampler({ maxAnisotropy: 0 }),
      /maxAnisotropy 0 must be a number ≥ 1/,
    );
    await typed(
      () => d.createSampler({ maxAnisotropy: 4 }),
      /maxAnisotropy 4 needs magFilter, minFilter and mipmapFilter 'linear'/,
    );
    await typed(
      () =>
        d.createTexture({
          size: { width: 1024, height: null as never },
          format: 'rgba8unorm',
          usage: TextureUsage.TEXTURE_BINDING,
        }),
      /height/,
    );
    await typed(
      () =>
        d.createTexture({
          size: { width: 4, height: 4 },
          format: 'rgba8unorm',
          usage: TextureUsage.TEXTURE_BINDING,
          dimension: 'bogus' as never,
        }),
      /dimension/,
    );
    const t = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.COPY_DST,
    });
    await typed(
      () =>
        d.queue.writeTexture(
          { texture: t, origin: { x: null as never } },
          new Uint8Array(64),
          { bytesPerRow: 16 },
          { width: 4, height: 4 },
        ),
      /origin/,
    );
    await typed(
      () =>
        d.createComputePipeline({
          compute: {
            module: d.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' }),
          },
          bindings: [{ binding: 0, type: 'bogus' as never }],
        }),
      /bindings\[0\]\.type/,
    );
    const other = new NullDevice();
    const foreign = other.createBuffer({ label: 'foreign', size: 16, usage: BufferUsage.COPY_DST });
    await typed(() => d.queue.writeBuffer(foreign, 0, new Uint8Array(16)), /another device/);
    const mapped = d.createBuffer({
      label: 'mapped',
      size: 16,
      usage: BufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(mapped, 0, a, 0, 16);
    const commands = enc.finish();
    await typed(() => d.queue.submit([commands]), /buffer "mapped", which is still mapped/);
  });

  it('a particle draw with a camera of NaNs is a typed error naming the entry', async () => {
    const d = new NullDevice();
    const ps = await createParticleSystem(d, { count: 8, drawMode: 'pulled' });
    const camera = orbitCamera({ aspect: 1 });
    const bad = { view: camera.view, projection: Array(16).fill(Number.NaN) };
    const rt = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const pass = d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: rt }] });
    await typed(() => ps.draw(pass, bad as never), /camera\.projection\[0\] is NaN/);
  });
});

describe('the vertex state against the shader’s inputs (found by tests/node/fuzz-oracle.test.ts)', () => {
  const code = `struct In { @location(0) position: vec2f, @location(2) @interpolate(flat) id: u32, };
@vertex fn vs(input: In, @location(1) offset: vec4<i32>, @builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(input.position, f32(offset.x) + f32(input.id), 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`;
  const pipeline = (d: NullDevice, formats: string[]) => {
    const module = d.createShaderModule({ code });
    return d.createRenderPipeline({
      label: 'p',
      vertex: {
        module,
        buffers: [
          {
            arrayStride: 16,
            attributes: formats.map((format, shaderLocation) => ({
              format: format as 'float32x2',
              offset: 0,
              shaderLocation,
            })),
          },
        ],
      },
      fragment: { module, targets: [{ format: 'rgba8unorm' }] },
    });
  };

  it('accepts every input fed by an attribute of its type (parameters and a struct)', () => {
    const d = new NullDevice();
    expect(pipeline(d, ['unorm16x2', 'sint8x4', 'uint32']).kind).toBe('render-pipeline');
    expect(pipeline(d, ['float32x2', 'sint32x2', 'uint8']).kind).toBe('render-pipeline');
  });

  it('an input without an attribute is a typed error naming its location', async () => {
    const d = new NullDevice();
    await typed(
      () => pipeline(d, ['float32x2', 'sint32']),
      /reads @location\(2\) id: u32, and no attribute of vertex\.buffers has shaderLocation 2/,
    );
  });

  it('an attribute of another type is a typed error naming the attribute and the input', async () => {
    const d = new NullDevice();
    await typed(
      () => pipeline(d, ['float32x2', 'snorm8x4', 'uint32']),
      /vertex\.buffers\[0\]\.attributes\[1\] \(snorm8x4\) feeds @location\(1\) offset: vec4<i32>: the format gives a float/,
    );
    await typed(
      () => pipeline(d, ['uint32x2', 'sint8x4', 'uint32']),
      /attributes\[0\] \(uint32x2\) feeds @location\(0\) position: vec2f/,
    );
  });
});

describe('comparison samplers (refused before; WebGPU has them)', () => {
  const code = (
    sampler: string,
    call: string,
  ) => `@group(0) @binding(0) var depthMap: texture_depth_2d;
@group(0) @binding(1) var s: ${sampler};
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(${call}); }`;
  const draw = (d: NullDevice, wgsl: string, compare?: 'less') => {
    const module = d.createShaderModule({ code: wgsl });
    const pipeline = d.createRenderPipeline({
      label: 'p',
      vertex: { module },
      fragment: { module, targets: [{ format: 'rgba8unorm' }] },
    });
    const depth = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'depth32float',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    });
    const target = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const pass = d
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: target }] });
    pass.setPipeline(pipeline);
    pass.setTexture(0, depth);
    pass.setSampler(
      1,
      d.createSampler({ label: compare ? 'shadow' : 'plain', ...(compare ? { compare } : {}) }),
    );
    pass.draw(3);
  };

  it('a sampler with compare in a sampler_comparison slot draws', () => {
    const d = new NullDevice();
    expect(d.createSampler({ compare: 'less-equal' }).descriptor.compare).toBe('less-equal');
    draw(
      d,
      code('sampler_comparison', 'textureSampleCompare(depthMap, s, vec2f(0.5), 0.5)'),
      'less',
    );
  });

  it('each in the other’s slot is a typed error naming the sampler and the slot', async () => {
    const d = new NullDevice();
    await typed(
      () => draw(d, code('sampler', 'textureSample(depthMap, s, vec2f(0.5))'), 'less'),
      /Sampler "shadow" compares \(compare 'less'\), but slot 1 .*of pipeline "p" is a plain sampler/,
    );
    await typed(
      () =>
        draw(d, code('sampler_comparison', 'textureSampleCompare(depthMap, s, vec2f(0.5), 0.5)')),
      /slot 1 .*of pipeline "p" is a comparison sampler .*but sampler "plain" has no compare function/i,
    );
    await typed(
      () => d.createSampler({ compare: 'lesser' as never }),
      /compare "lesser" is not one of never, less/,
    );
  });
});
