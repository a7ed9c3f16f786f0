// Property-based check of the error promise: invalid inputs, generated from the WebGPU
// specification's validation rules (not from Ignis's code), each classified as
//   typed   — an RhiError whose message names the offending field or value,
//   generic — any other exception (a TypeError from inside Ignis, say),
//   silent  — accepted.
// The suite fails on any generic error or silent accept. Fixed seed, a few thousand cases.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BufferUsage,
  NullDevice,
  RhiError,
  TextureUsage,
  type Device,
  type RenderPipelineDescriptor,
  type TextureFormat,
} from '../../src/all.js';
import { wgslTypeSize } from '../../src/rhi/core/wgsl-layout.js';
import { SPEC_BLEND_FACTORS, SPEC_COMPARE_FUNCTIONS } from './webgpu-spec.js';

interface Case {
  /** The WebGPU rule the input breaks. */
  rule: string;
  /** What the message must mention (any one of them): the field, or the value. */
  mentions: string[];
  run(d: Device): unknown;
}

const SEED = 20261130;
const RUNS = 3000;

/** Strings that are not one of `valid`, including the prototype keys `value in TABLE` accepted. */
const badEnum = (valid: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.constantFrom('toString', '__proto__', 'constructor', 'hasOwnProperty', '', 'NONE'),
      fc.string({ maxLength: 12 }),
    )
    .filter((s) => !valid.includes(s));

/** Not a non-negative integer. */
const badCount = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0.5, 1.5, -0),
  fc.integer({ min: -1000, max: -1 }),
  fc.double({ min: 0.01, max: 1000, noNaN: true }).filter((x) => !Number.isInteger(x)),
);
const badCountNoZero = badCount.filter((x) => !Object.is(x, -0));

const WGSL = /* wgsl */ `
@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }
`;

function pipeline(d: Device, patch: (desc: RenderPipelineDescriptor) => void): unknown {
  const module = d.createShaderModule({ code: WGSL });
  const desc: RenderPipelineDescriptor = {
    vertex: {
      module,
      entryPoint: 'vs',
      buffers: [
        {
          arrayStride: 8,
          attributes: [{ format: 'float32x2', offset: 0, shaderLocation: 0 }],
        },
      ],
    },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  };
  patch(desc);
  return d.createRenderPipeline(desc);
}

const c = (rule: string, mentions: string[], run: (d: Device) => unknown): Case => ({
  rule,
  mentions,
  run,
});

const texture = (d: Device, usage = TextureUsage.RENDER_ATTACHMENT) =>
  d.createTexture({ size: { width: 4, height: 4 }, format: 'rgba8unorm', usage });

const cases: fc.Arbitrary<Case> = fc.oneof(
  // createRenderBundleEncoder (GPURenderBundleEncoderDescriptor, a GPURenderPassLayout): each of
  // colorFormats a color renderable format, sampleCount 1 or 4 here
  fc
    .oneof(badEnum(['rgba8unorm', 'rgba16float']), fc.constantFrom('depth24plus', 'depth32float'))
    .map((format) =>
      c('render bundle colorFormats are color renderable formats', ['colorFormats'], (d) =>
        d.createRenderBundleEncoder({ colorFormats: [format as 'rgba8unorm'] }),
      ),
    ),
  fc
    .oneof(fc.constantFrom(0, 2, 3, 8, 16), badCount)
    .map((sampleCount) =>
      c('render bundle sampleCount is 1 or 4', ['sampleCount'], (d) =>
        d.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'], sampleCount }),
      ),
    ),
  // executeBundles: each bundle's [[layout]] equals the pass's layout
  fc
    .constantFrom<TextureFormat[]>(['rgba16float'], ['rgba8unorm', 'rgba8unorm'], ['r8unorm'])
    .map((colorFormats) =>
      c("executeBundles: the bundle's layout is the pass's", ['Render bundle'], (d) => {
        const bundle = d.createRenderBundleEncoder({ colorFormats }).finish();
        const texture = d.createTexture({
          size: { width: 4, height: 4 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT,
        });
        d.createCommandEncoder()
          .beginRenderPass({ colorAttachments: [{ texture }] })
          .executeBundles([bundle]);
      }),
    ),
  // createBuffer (GPUBufferDescriptor)
  badCountNoZero.map((size) =>
    c('buffer size is a non-negative integer', ['size'], (d) =>
      d.createBuffer({ size, usage: BufferUsage.VERTEX }),
    ),
  ),
  fc
    .oneof(
      fc.constant(0),
      fc.integer({ min: 1 << 12, max: 1 << 30 }),
      fc.constant(BufferUsage.MAP_READ | BufferUsage.STORAGE),
      fc.constant(BufferUsage.MAP_WRITE | BufferUsage.VERTEX),
    )
    .map((usage) =>
      c('buffer usage: known bits, MAP_* only with COPY_*', ['usage', 'Usage', 'MAP_'], (d) =>
        d.createBuffer({ size: 16, usage }),
      ),
    ),
  // createTexture (GPUTextureDescriptor)
  badEnum(['rgba8unorm', 'rgba16float']).map((format) =>
    c('texture format is a GPUTextureFormat', ['format', 'Format'], (d) =>
      d.createTexture({
        size: { width: 4, height: 4 },
        format: format as 'rgba8unorm',
        usage: TextureUsage.TEXTURE_BINDING,
      }),
    ),
  ),
  fc.oneof(badCount, fc.constant(0), fc.integer({ min: 1 << 15, max: 1 << 20 })).map((width) =>
    c(
      'texture size within maxTextureDimension2D',
      ['width', 'Width', 'maxTextureDimension2D'],
      (d) =>
        d.createTexture({
          size: { width, height: 4 },
          format: 'rgba8unorm',
          usage: TextureUsage.TEXTURE_BINDING,
        }),
    ),
  ),
  fc.oneof(fc.constantFrom(0, 2, 3, 8, 16), badCount).map((sampleCount) =>
    c('texture sampleCount is 1 or 4', ['sampleCount', 'sample count'], (d) =>
      d.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
        sampleCount,
      }),
    ),
  ),
  fc.oneof(fc.constantFrom(0, 4, 40), badCount).map((mipLevelCount) =>
    c('mipLevelCount from 1 to the full chain', ['mipLevelCount', 'mip'], (d) =>
      d.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.TEXTURE_BINDING,
        mipLevelCount,
      }),
    ),
  ),
  fc
    .oneof(fc.constant(0), fc.integer({ min: 1 << 8, max: 1 << 20 }))
    .map((usage) =>
      c('texture usage: known bits, not empty', ['usage', 'Usage'], (d) =>
        d.createTexture({ size: { width: 4, height: 4 }, format: 'rgba8unorm', usage }),
      ),
    ),
  fc
    .constantFrom('r8unorm', 'rg8unorm', 'rgba8unorm-srgb', 'bgra8unorm', 'r16float', 'rg16float')
    .map((format) =>
      c('STORAGE_BINDING only on formats with storage support', ['STORAGE_BINDING', format], (d) =>
        d.createTexture({
          size: { width: 4, height: 4 },
          format,
          usage: TextureUsage.STORAGE_BINDING,
        }),
      ),
    ),
  fc.constantFrom('rg32float', 'rgba32float').map((format) =>
    c('sampleCount 4 only on multisample-capable formats', ['multisampled', format], (d) =>
      d.createTexture({
        size: { width: 4, height: 4 },
        format,
        usage: TextureUsage.RENDER_ATTACHMENT,
        sampleCount: 4,
      }),
    ),
  ),
  fc.constant(
    c('sampleCount 4 needs the multisample feature', ['multisample'], () =>
      new NullDevice({ features: { multisample: false } }).createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
        sampleCount: 4,
      }),
    ),
  ),
  // createSampler (GPUSamplerDescriptor)
  badEnum(['clamp-to-edge', 'repeat', 'mirror-repeat']).map((m) =>
    c('addressMode is a GPUAddressMode', ['addressModeU', 'address'], (d) =>
      d.createSampler({ addressModeU: m as 'repeat' }),
    ),
  ),
  badEnum(['nearest', 'linear']).map((f) =>
    c('filter is a GPUFilterMode', ['magFilter', 'filter'], (d) =>
      d.createSampler({ magFilter: f as 'linear' }),
    ),
  ),
  fc
    .oneof(fc.constantFrom(-1, Number.NaN), fc.double({ min: -100, max: -0.01, noNaN: true }))
    .map((lodMinClamp) =>
      c('lodMinClamp ≥ 0', ['lodMinClamp'], (d) => d.createSampler({ lodMinClamp })),
    ),
  fc
    .double({ min: 0, max: 31, noNaN: true })
    .map((lodMaxClamp) =>
      c('lodMaxClamp ≥ lodMinClamp', ['lodMaxClamp'], (d) =>
        d.createSampler({ lodMinClamp: 32, lodMaxClamp }),
      ),
    ),
  // createRenderPipeline (GPURenderPipelineDescriptor)
  badEnum(['triangle-list', 'triangle-strip', 'line-list', 'line-strip', 'point-list']).map((t) =>
    c('primitive.topology is a GPUPrimitiveTopology', ['topology'], (d) =>
      pipeline(d, (p) => (p.primitive = { topology: t as 'triangle-list' })),
    ),
  ),
  badEnum(['none', 'front', 'back']).map((m) =>
    c('primitive.cullMode is a GPUCullMode', ['cullMode'], (d) =>
      pipeline(d, (p) => (p.primitive = { cullMode: m as 'back' })),
    ),
  ),
  badEnum(['ccw', 'cw']).map((m) =>
    c('primitive.frontFace is a GPUFrontFace', ['frontFace'], (d) =>
      pipeline(d, (p) => (p.primitive = { frontFace: m as 'ccw' })),
    ),
  ),
  fc
    .constantFrom('rgba8unorm', 'rgba16float', 'r32float', 'bgra8unorm', 'toString', 'depth')
    .map((format) =>
      c('depthStencil.format is a depth-or-stencil format', ['depthStencil.format', format], (d) =>
        pipeline(d, (p) => (p.depthStencil = { format: format as 'depth24plus' })),
      ),
    ),
  badEnum(SPEC_COMPARE_FUNCTIONS).map((f) =>
    c('depthCompare is a GPUCompareFunction', ['depthCompare'], (d) =>
      pipeline(d, (p) => (p.depthStencil = { format: 'depth24plus', depthCompare: f as 'less' })),
    ),
  ),
  badEnum(SPEC_BLEND_FACTORS).map((f) =>
    c('blend factors are GPUBlendFactors', ['srcFactor'], (d) =>
      pipeline(d, (p) => {
        p.fragment!.targets[0]!.blend = {
          color: { srcFactor: f as 'one', dstFactor: 'one' },
          alpha: {},
        };
      }),
    ),
  ),
  badEnum(['add', 'subtract', 'reverse-subtract', 'min', 'max']).map((o) =>
    c('blend operations are GPUBlendOperations', ['operation'], (d) =>
      pipeline(d, (p) => {
        p.fragment!.targets[0]!.blend = { color: {}, alpha: { operation: o as 'add' } };
      }),
    ),
  ),
  fc
    .oneof(fc.integer({ min: 16, max: 1 << 16 }), fc.constantFrom(-1, 0.5, Number.NaN))
    .map((writeMask) =>
      c('writeMask is a GPUColorWrite combination (0–15)', ['writeMask'], (d) =>
        pipeline(d, (p) => (p.fragment!.targets[0]!.writeMask = writeMask)),
      ),
    ),
  badEnum(['float32', 'float32x2', 'float32x3', 'float32x4', 'uint32', 'sint32', 'unorm8x4']).map(
    (format) =>
      c('attribute format is a GPUVertexFormat', ['format'], (d) =>
        pipeline(d, (p) => (p.vertex.buffers![0]!.attributes[0]!.format = format as 'float32')),
      ),
  ),
  fc
    .integer({ min: 1, max: 64 })
    .map((k) =>
      c('attribute offset + size ≤ arrayStride', ['offset', 'arrayStride'], (d) =>
        pipeline(d, (p) => (p.vertex.buffers![0]!.attributes[0]!.offset = 4 * k)),
      ),
    ),
  fc
    .oneof(fc.integer({ min: 16, max: 1000 }), fc.constantFrom(-1, 0.5))
    .map((shaderLocation) =>
      c('shaderLocation < maxVertexAttributes', ['shaderLocation'], (d) =>
        pipeline(d, (p) => (p.vertex.buffers![0]!.attributes[0]!.shaderLocation = shaderLocation)),
      ),
    ),
  fc.constant(
    c('shaderLocations are unique', ['shaderLocation'], (d) =>
      pipeline(d, (p) => {
        p.vertex.buffers![0]!.attributes.push({ format: 'float32', offset: 4, shaderLocation: 0 });
      }),
    ),
  ),
  fc
    .oneof(
      fc.integer({ min: 513, max: 4096 }).map((k) => 4 * k),
      fc.constantFrom(3, 6, -4),
    )
    .map((arrayStride) =>
      c('arrayStride: a multiple of 4, ≤ maxVertexBufferArrayStride', ['arrayStride'], (d) =>
        pipeline(d, (p) => (p.vertex.buffers![0]!.arrayStride = arrayStride)),
      ),
    ),
  fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((s) => s !== 'vs')
    .map((entryPoint) =>
      c('vertex.entryPoint names a @vertex function', ['entryPoint'], (d) =>
        pipeline(d, (p) => (p.vertex.entryPoint = entryPoint)),
      ),
    ),
  fc
    .constantFrom(0, 2, 3, 8)
    .map((count) =>
      c('multisample.count is 1 or 4', ['multisample.count'], (d) =>
        pipeline(d, (p) => (p.multisample = { count })),
      ),
    ),
  // createComputePipeline: @workgroup_size and @binding limits
  fc
    .oneof(
      fc.constant('0'),
      fc.constant('64, 0'),
      fc.integer({ min: 257, max: 4096 }).map(String),
      fc.constant('16, 16, 2'),
    )
    .map((size) =>
      c(
        '@workgroup_size ≥ 1 per dimension, within the limits',
        ['workgroup_size', 'maxComputeWorkgroupSizeX', 'maxComputeInvocationsPerWorkgroup'],
        (d) =>
          d.createComputePipeline({
            compute: {
              module: d.createShaderModule({
                code: `@compute @workgroup_size(${size}) fn main() {}`,
              }),
            },
          }),
      ),
    ),
  fc.integer({ min: 1000, max: 100000 }).map((binding) =>
    c('@binding < maxBindingsPerBindGroup', ['maxBindingsPerBindGroup', 'binding'], (d) =>
      d.createComputePipeline({
        compute: {
          module: d.createShaderModule({
            code: `@group(0) @binding(${binding}) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() { x[0] = 1u; }`,
          }),
        },
      }),
    ),
  ),
  // GPUQueue.writeBuffer
  fc
    .oneof(fc.constantFrom(-4, 2, 6, 1.5, Number.NaN), fc.integer({ min: 64, max: 1 << 20 }))
    .map((offset) =>
      c('writeBuffer offset: a multiple of 4 inside the buffer', ['offset'], (d) =>
        d.queue.writeBuffer(
          d.createBuffer({ size: 64, usage: BufferUsage.COPY_DST }),
          offset,
          new Float32Array(4),
        ),
      ),
    ),
  fc
    .oneof(fc.integer({ min: 5, max: 100 }), fc.constantFrom(-1, 0.5))
    .map((dataOffset) =>
      c('writeBuffer dataOffset ≤ the data length (in elements)', ['dataOffset'], (d) =>
        d.queue.writeBuffer(
          d.createBuffer({ size: 64, usage: BufferUsage.COPY_DST }),
          0,
          new Float32Array(4),
          dataOffset,
        ),
      ),
    ),
  fc
    .integer({ min: 5, max: 100 })
    .map((size) =>
      c('writeBuffer dataOffset + size ≤ the data length', ['size'], (d) =>
        d.queue.writeBuffer(
          d.createBuffer({ size: 1024, usage: BufferUsage.COPY_DST }),
          0,
          new Float32Array(4),
          0,
          size,
        ),
      ),
    ),
  fc
    .constantFrom<unknown>([1, 2, 3, 4], null, 'data', 42)
    .map((data) =>
      c('writeBuffer data is an ArrayBuffer or a view', ['data'], (d) =>
        d.queue.writeBuffer(
          d.createBuffer({ size: 64, usage: BufferUsage.COPY_DST }),
          0,
          data as Float32Array,
        ),
      ),
    ),
  // GPURenderPassEncoder
  fc
    .oneof(
      fc.constantFrom(1, 3, -2, 0.5),
      fc.integer({ min: 33, max: 1000 }).map((k) => 2 * k),
    )
    .map((offset) =>
      c(
        'setIndexBuffer offset: a multiple of the index size inside the buffer',
        ['offset'],
        (d) => {
          const pass = d
            .createCommandEncoder()
            .beginRenderPass({ colorAttachments: [{ texture: texture(d) }] });
          pass.setIndexBuffer(
            d.createBuffer({ size: 64, usage: BufferUsage.INDEX }),
            'uint16',
            offset,
          );
        },
      ),
    ),
  badEnum(['uint16', 'uint32']).map((format) =>
    c('index format is a GPUIndexFormat', ['format', 'Index format'], (d) => {
      const pass = d
        .createCommandEncoder()
        .beginRenderPass({ colorAttachments: [{ texture: texture(d) }] });
      pass.setIndexBuffer(
        d.createBuffer({ size: 64, usage: BufferUsage.INDEX }),
        format as 'uint16',
      );
    }),
  ),
  fc
    .constantFrom<unknown>(undefined, null, {}, 'texture', 7)
    .map((t) =>
      c('a color attachment has a texture', ['texture', 'Texture'], (d) =>
        d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: t as never }] }),
      ),
    ),
  fc.constant(
    c('a resource from another device is rejected', ['another device'], (d) => {
      const other = new NullDevice();
      const pass = d
        .createCommandEncoder()
        .beginRenderPass({ colorAttachments: [{ texture: texture(d) }] });
      pass.setVertexBuffer(0, other.createBuffer({ size: 16, usage: BufferUsage.VERTEX }));
    }),
  ),
  fc.constant(
    c('a buffer is not a sampler', ['Sampler'], (d) => {
      const pass = d
        .createCommandEncoder()
        .beginRenderPass({ colorAttachments: [{ texture: texture(d) }] });
      pass.setSampler(0, d.createBuffer({ size: 16, usage: BufferUsage.UNIFORM }) as never);
    }),
  ),
  fc
    .constantFrom('createBuffer', 'createTexture', 'createShaderModule', 'createRenderPipeline')
    .chain((op) =>
      fc
        .constantFrom<unknown>(null, 7, 'x')
        .map((desc) =>
          c('a descriptor is a dictionary', ['descriptor'], (d) =>
            (d as unknown as Record<string, (x: unknown) => unknown>)[op]!(desc),
          ),
        ),
    ),
  fc.constant(
    c('beginRenderPass takes a descriptor', ['descriptor'], (d) =>
      d.createCommandEncoder().beginRenderPass(null as never),
    ),
  ),
);

type Outcome = 'typed' | 'generic' | 'silent';

function classify(k: Case): { outcome: Outcome; message: string } {
  const d = new NullDevice();
  try {
    k.run(d);
    return { outcome: 'silent', message: 'accepted' };
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    if (e instanceof RhiError && k.mentions.some((m) => message.includes(m)))
      return { outcome: 'typed', message };
    return { outcome: 'generic', message: `${(e as Error).name}: ${message}` };
  } finally {
    d.destroy();
  }
}

describe('the error promise under a property-based fuzzer (fast-check)', () => {
  it(`${RUNS} invalid inputs from the WebGPU rules: every one a typed error naming the value`, () => {
    const sample = fc.sample(cases, { seed: SEED, numRuns: RUNS });
    const byOutcome: Record<Outcome, Array<{ rule: string; message: string }>> = {
      typed: [],
      generic: [],
      silent: [],
    };
    const rules = new Set<string>();
    for (const k of sample) {
      const r = classify(k);
      rules.add(k.rule);
      byOutcome[r.outcome].push({ rule: k.rule, message: r.message });
    }
    console.log(
      `fuzz: ${sample.length} invalid inputs over ${rules.size} rules: ${byOutcome.typed.length} typed, ${byOutcome.generic.length} generic, ${byOutcome.silent.length} silent`,
    );
    const firstOf = (list: Array<{ rule: string; message: string }>) => {
      const seen = new Map<string, string>();
      for (const x of list) if (!seen.has(x.rule)) seen.set(x.rule, x.message);
      return [...seen].map(([rule, message]) => `${rule}: ${message}`);
    };
    expect(firstOf(byOutcome.generic)).toEqual([]);
    expect(firstOf(byOutcome.silent)).toEqual([]);
    expect(rules.size).toBeGreaterThan(30);
  });
});

describe('bindings against the usage scope', () => {
  it('one buffer bound writable and read-only in the same dispatch is a typed error naming both slots', () => {
    const d = new NullDevice();
    const module = d.createShaderModule({
      code: /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@compute @workgroup_size(1) fn main() { out[0] = src[0]; }`,
    });
    const pipeline = d.createComputePipeline({ compute: { module } });
    const b = d.createBuffer({ size: 16, usage: BufferUsage.STORAGE });
    const other = d.createBuffer({ size: 16, usage: BufferUsage.STORAGE });
    const pass = d.createCommandEncoder().beginComputePass();
    pass.setPipeline(pipeline);
    pass.setStorageBuffer(0, b);
    pass.setStorageBuffer(1, b);
    expect(() => pass.dispatch(1)).toThrow(/bound at slots 0 and 1 .*writable/);
    pass.setStorageBuffer(1, other);
    expect(() => pass.dispatch(1)).not.toThrow();
  });
});

describe('uniform bindings hold the struct the shader reads', () => {
  it('WGSL sizes follow the spec table (vec3 aligns to 16, matrices are column arrays)', () => {
    const code = /* wgsl */ `
struct A { p: vec3f, s: f32 }            // 16
struct B { m: mat4x4f, c: mat2x4f, a: array<vec4f, 4>, k: vec3f }   // 64 + 32 + 64 + 12 → 176
struct C { x: f32, a: A, y: f32 }        // 0, 16..32, 32 → 48 (align 16)
struct D { v: vec2<f32>, u: u32 }        // 12 → 16 (align 8)
`;
    expect(wgslTypeSize(code, 'A')).toBe(16);
    expect(wgslTypeSize(code, 'B')).toBe(176);
    expect(wgslTypeSize(code, 'C')).toBe(48);
    expect(wgslTypeSize(code, 'D')).toBe(16);
    expect(wgslTypeSize(code, 'mat3x3f')).toBe(48);
    expect(wgslTypeSize(code, 'array<vec3f, 3>')).toBe(48);
    expect(wgslTypeSize(code, 'texture_2d<f32>')).toBeUndefined();
  });
  it('binding fewer bytes than the struct is a typed error at the dispatch (it reached the GPU before)', () => {
    const d = new NullDevice();
    const module = d.createShaderModule({
      code: /* wgsl */ `
struct Params { scale: vec4f, offset: vec4f }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(1) fn main() { out[0] = params.scale + params.offset; }`,
    });
    const pipeline = d.createComputePipeline({ compute: { module } });
    const u = d.createBuffer({ size: 256, usage: BufferUsage.UNIFORM });
    const pass = d.createCommandEncoder().beginComputePass();
    pass.setPipeline(pipeline);
    pass.setStorageBuffer(1, d.createBuffer({ size: 16, usage: BufferUsage.STORAGE }));
    pass.setUniformBuffer(0, u, 0, 16);
    expect(() => pass.dispatch(1)).toThrow(/reads a 32-byte uniform struct, but 16 bytes/);
    pass.setUniformBuffer(0, u, 0, 32);
    expect(() => pass.dispatch(1)).not.toThrow();
  });
});
