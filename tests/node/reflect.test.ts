import { describe, expect, it } from 'vitest';
import {
  reflectWgslBindings,
  layoutFromReflection,
  reflectWorkgroupSize,
  NullDevice,
  LimitExceededError,
  ValidationError,
} from '../../src/all.js';
import { deriveSamplerTypes } from '../../src/rhi/core/reflect.js';

const BOIDS_STYLE = `
struct SimParams { deltaT : f32 }
@binding(0) @group(0) var<uniform> params : SimParams;
@binding(1) @group(0) var<storage, read> particlesA : Particles;
// @group(0) @binding(9) var<storage, read_write> commented : Particles;
@binding(2) @group(0) var<storage, read_write> particlesB : Particles;
@group(0) @binding(3) var tex: texture_2d<f32>;
@group(0) @binding(4) var samp: sampler;
@group(0) @binding(5) var depth: texture_depth_2d;
@compute @workgroup_size(64) fn main() {}
`;

describe('WGSL reflection', () => {
  it('finds every group-0 binding whatever the attribute order, skipping comments', () => {
    const layout = layoutFromReflection(reflectWgslBindings(BOIDS_STYLE));
    expect(layout.map((e) => [e.binding, e.type, e.name])).toEqual([
      [0, 'uniform', 'params'],
      [1, 'read-only-storage', 'particlesA'],
      [2, 'storage', 'particlesB'],
      [3, 'texture', 'tex'],
      [4, 'sampler', 'samp'],
      [5, 'texture', 'depth'],
    ]);
    expect(layout[5]?.sampleType).toBe('depth');
  });
  it('reflects @workgroup_size per entry point', () => {
    expect(reflectWorkgroupSize(BOIDS_STYLE)).toEqual([64, 1, 1]);
    expect(
      reflectWorkgroupSize(
        '@compute @workgroup_size(8, 4) fn a() {} @compute @workgroup_size(256) fn b() {}',
        'b',
      ),
    ).toEqual([256, 1, 1]);
  });
  it('bindings of every group are reflected into the layout; @group(4) is over the limit', () => {
    const d = new NullDevice();
    const module = d.createShaderModule({
      code: '@group(0) @binding(0) var<uniform> a: vec4f; @group(1) @binding(0) var<uniform> u: vec4f; @group(3) @binding(2) var<storage, read> s: array<f32>; @compute @workgroup_size(1) fn main() { _ = a; _ = u; _ = s[0]; }',
    });
    const pipeline = d.createComputePipeline({ label: 'groups', compute: { module } });
    expect(pipeline.bindings.map((b) => [b.group ?? 0, b.binding, b.type])).toEqual([
      [0, 0, 'uniform'],
      [1, 0, 'uniform'],
      [3, 2, 'read-only-storage'],
    ]);
    expect(pipeline.getBindGroupLayout(3).entries.map((e) => [e.binding, e.type])).toEqual([
      [2, 'read-only-storage'],
    ]);
    expect(pipeline.getBindGroupLayout(2).entries).toEqual([]);
    const far = d.createShaderModule({
      code: '@group(4) @binding(0) var<uniform> u: vec4f; @compute @workgroup_size(1) fn main() { _ = u; }',
    });
    expect(() => d.createComputePipeline({ label: 'g4', compute: { module: far } })).toThrow(
      LimitExceededError,
    );
    expect(() => d.createComputePipeline({ label: 'g4', compute: { module: far } })).toThrow(
      /"u" in @group\(4\)/,
    );
  });
});

describe('sampler types', () => {
  it('a sampler that samples an unfilterable-float texture is non-filtering; others filter; comparison is reflected', () => {
    const code = /* wgsl */ `
      @group(0) @binding(0) var data: texture_2d<f32>;
      @group(0) @binding(1) var nearest: sampler;
      @group(0) @binding(2) var image: texture_2d<f32>;
      @group(0) @binding(3) var smooth: sampler;
      @group(0) @binding(4) var shadow: sampler_comparison;
      fn f(uv: vec2f) -> vec4f { return textureSample(data, nearest, uv) + textureSampleLevel(image, smooth, uv, 0.0); }`;
    const reflected = layoutFromReflection(reflectWgslBindings(code)).map((e) =>
      e.binding === 0 ? { ...e, sampleType: 'unfilterable-float' as const } : e,
    );
    const types = deriveSamplerTypes(reflected, [code])
      .filter((e) => e.type === 'sampler')
      .map((e) => [e.name, e.samplerType]);
    expect(types).toEqual([
      ['nearest', 'non-filtering'],
      ['smooth', 'filtering'],
      ['shadow', 'comparison'],
    ]);
  });
  it('in GLSL layouts the texture names its sampler with samplerBinding', () => {
    const out = deriveSamplerTypes(
      [
        {
          binding: 0,
          type: 'texture',
          name: 'state',
          samplerBinding: 1,
          sampleType: 'unfilterable-float',
        },
        { binding: 1, type: 'sampler', name: 's' },
        { binding: 2, type: 'sampler', name: 't', samplerType: 'filtering' },
      ],
      [],
    );
    expect(out.map((e) => e.samplerType)).toEqual([undefined, 'non-filtering', 'filtering']);
  });
});

describe('@workgroup_size with constants (regression: a const or override reflected as 1)', () => {
  it('evaluates const and override declarations and simple arithmetic of them', () => {
    const code = `
      const WG = 64u;
      const TILE: u32 = 8;
      override BLOCK: u32 = TILE * 2u;
      @compute @workgroup_size(WG) fn a() {}
      @compute @workgroup_size(TILE, TILE / 2) fn b() {}
      @compute @workgroup_size(BLOCK, 1, (2 + 1)) fn c() {}`;
    expect(reflectWorkgroupSize(code, 'a')).toEqual([64, 1, 1]);
    expect(reflectWorkgroupSize(code, 'b')).toEqual([8, 4, 1]);
    expect(reflectWorkgroupSize(code, 'c')).toEqual([16, 1, 3]);
  });
  it('dispatchThreads launches count / 64 workgroups for a const size of 64', () => {
    const d = new NullDevice();
    const pipeline = d.createComputePipeline({
      label: 'wg',
      compute: {
        module: d.createShaderModule({
          code: 'const WG = 64u; @group(0) @binding(0) var<storage, read_write> a: array<u32>; @compute @workgroup_size(WG) fn main() { a[0] = 1u; }',
        }),
      },
    });
    expect(pipeline.workgroupSize).toEqual([64, 1, 1]);
    const pass = d.createCommandEncoder().beginComputePass();
    pass.setPipeline(pipeline);
    pass.setStorageBuffer(0, d.createBuffer({ size: 16, usage: 128 }));
    expect(pass.dispatchThreads(6400)).toEqual([100, 1, 1]);
  });
  it('a size it cannot evaluate is a typed error naming the expression, never a guess', () => {
    expect(() =>
      reflectWorkgroupSize('override N: u32; @compute @workgroup_size(N) fn main() {}'),
    ).toThrow(ValidationError);
    expect(() =>
      reflectWorkgroupSize('override N: u32; @compute @workgroup_size(N) fn main() {}'),
    ).toThrow(/@workgroup_size\(N\).*"N" has no value/);
    expect(() => reflectWorkgroupSize('@compute @workgroup_size(min(4, 8)) fn main() {}')).toThrow(
      /cannot evaluate "min\(4, 8\)"/,
    );
  });
});
