import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  NullDevice,
  MissingBarrierError,
  UnsupportedFeatureError,
  ValidationError,
  defineKernel,
  toWgsl,
  uniformLayout,
  packUniforms,
  splitDispatch,
  stateTextureSize,
  createElementwiseRunner,
  choosePath,
  floatToHalfBits,
  halfToFloat,
  LimitExceededError,
} from '../../src/all.js';

describe('dispatch layout', () => {
  it('rounds up and splits into 2-D past the per-dimension limit', () => {
    expect(splitDispatch(1, 64, 65535)).toEqual([1, 1, 1]);
    expect(splitDispatch(64, 64, 65535)).toEqual([1, 1, 1]);
    expect(splitDispatch(65, 64, 65535)).toEqual([2, 1, 1]);
    expect(splitDispatch(65535 * 64, 64, 65535)).toEqual([65535, 1, 1]);
    expect(splitDispatch(65535 * 64 + 1, 64, 65535)).toEqual([65535, 2, 1]);
    expect(() => splitDispatch(65535 * 65535 * 64 + 1, 64, 65535)).toThrow(LimitExceededError);
  });
  it('dispatchThreads records the split grid', () => {
    const d = new NullDevice();
    const module = d.createShaderModule({
      code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>; @compute @workgroup_size(256) fn main() { a[0] = 1u; }',
    });
    const pipeline = d.createComputePipeline({ compute: { module } });
    const a = d.createBuffer({ size: 16, usage: BufferUsage.STORAGE });
    const enc = d.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setStorageBuffer(0, a);
    expect(pass.dispatchThreads(65535 * 256 + 1)).toEqual([65535, 2, 1]); // workgroup size reflected: 256
    pass.end();
    expect(enc.trace()).toContain('dispatch 65535 2 1');
  });
});

describe('storage access is resolved where it is used (regressions)', () => {
  const READER =
    '@group(0) @binding(0) var<storage, read> a: array<u32>; @group(0) @binding(1) var<storage, read_write> out: array<u32>; @compute @workgroup_size(1) fn main() { out[0] = a[0]; }';

  it('a read-only slot bound before setPipeline is a read, not a write', () => {
    const d = new NullDevice({ barriers: 'explicit' });
    const reader = d.createComputePipeline({
      label: 'reader',
      compute: { module: d.createShaderModule({ code: READER }) },
    });
    const data = d.createBuffer({ label: 'data', size: 16, usage: BufferUsage.STORAGE });
    const enc = d.createCommandEncoder();
    for (const label of ['first', 'second']) {
      const pass = enc.beginComputePass({ label });
      pass.setStorageBuffer(0, data); // before setPipeline: the pipeline's access is not known yet
      pass.setStorageBuffer(1, d.createBuffer({ size: 16, usage: BufferUsage.STORAGE }));
      pass.setPipeline(reader);
      pass.dispatch(1);
      pass.end();
    }
    // two passes that only read `data` need no barrier between them
    expect(() => enc.finish()).not.toThrow();
    expect(enc.trace().filter((l) => l.startsWith('barrier'))).toEqual([]);
  });

  it('writable storage written by a fragment shader is a write: a later compute read needs a barrier', () => {
    const d = new NullDevice({ barriers: 'explicit' });
    const module = d.createShaderModule({
      code: '@group(0) @binding(0) var<storage, read_write> hits: array<u32>; @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> @location(0) vec4f { hits[0] = 1u; return vec4f(1.0); }',
    });
    const drawer = d.createRenderPipeline({
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const reader = d.createComputePipeline({
      label: 'reader',
      compute: { module: d.createShaderModule({ code: READER }) },
    });
    const hits = d.createBuffer({ label: 'hits', size: 16, usage: BufferUsage.STORAGE });
    const record = (declare: boolean): void => {
      const enc = d.createCommandEncoder();
      const r = enc.beginRenderPass({
        label: 'draw',
        colorAttachments: [
          {
            texture: d.createTexture({
              size: { width: 4, height: 4 },
              format: 'rgba8unorm',
              usage: 16,
            }),
          },
        ],
      });
      r.setPipeline(drawer);
      r.setStorageBuffer(0, hits);
      r.draw(3);
      r.end();
      if (declare) enc.barrier({ from: 'render-write', to: 'compute-read', resources: [hits] });
      const c = enc.beginComputePass({ label: 'count' });
      c.setPipeline(reader);
      c.setStorageBuffer(0, hits);
      c.setStorageBuffer(1, d.createBuffer({ size: 16, usage: BufferUsage.STORAGE }));
      c.dispatch(1);
      c.end();
      enc.finish();
    };
    expect(() => record(false)).toThrow(MissingBarrierError);
    expect(() => record(false)).toThrow(/hits/);
    expect(() => record(true)).not.toThrow();
  });
});

describe('barriers and hazards', () => {
  function twoPasses(barriers: 'auto' | 'explicit', declare: boolean): string[] {
    const d = new NullDevice({ barriers });
    const writer = d.createComputePipeline({
      label: 'w',
      compute: {
        module: d.createShaderModule({
          code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>; @compute @workgroup_size(1) fn main() { a[0] = 1u; }',
        }),
      },
    });
    const vs = d.createShaderModule({
      code: '@group(0) @binding(0) var<storage, read> a: array<vec4f>; @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { return a[i]; } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
    });
    const drawer = d.createRenderPipeline({
      vertex: { module: vs, entryPoint: 'vs' },
      fragment: { module: vs, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const particles = d.createBuffer({ label: 'particles', size: 64, usage: BufferUsage.STORAGE });
    const rt = d.createTexture({ size: { width: 4, height: 4 }, format: 'rgba8unorm', usage: 16 });
    const enc = d.createCommandEncoder();
    const c = enc.beginComputePass({ label: 'update' });
    c.setPipeline(writer);
    c.setStorageBuffer(0, particles);
    c.dispatch(1);
    c.end();
    if (declare) enc.barrier({ from: 'compute-write', to: 'vertex-read', resources: [particles] });
    const r = enc.beginRenderPass({ label: 'draw', colorAttachments: [{ texture: rt }] });
    r.setPipeline(drawer);
    r.setStorageBuffer(0, particles);
    r.draw(6);
    r.end();
    return enc.trace();
  }
  it('auto mode inserts compute-write → vertex-read before the draw pass', () => {
    const trace = twoPasses('auto', false);
    expect(trace).toEqual([
      'beginComputePass "update"',
      'setComputePipeline',
      'setBinding',
      'dispatch 1 1 1',
      'endComputePass',
      'barrier compute-write -> vertex-read [particles] (inserted)',
      'beginRenderPass "draw" 4x4',
      'setRenderPipeline',
      'setBinding',
      'draw 6 x1',
      'endRenderPass',
    ]);
  });
  it('explicit mode throws MissingBarrierError without the barrier and accepts it declared', () => {
    expect(() => twoPasses('explicit', false)).toThrow(MissingBarrierError);
    expect(() => twoPasses('explicit', false)).toThrow(
      'buffer "particles" was written by pass "update" (compute-write) and read by pass "draw" (vertex-read) with no barrier between them',
    );
    const trace = twoPasses('explicit', true);
    expect(trace).toContain('barrier compute-write -> vertex-read [particles] (declared)');
    expect(trace.filter((l) => l.startsWith('barrier'))).toHaveLength(1);
  });
  it('a barrier with the wrong scopes does not cover the read', () => {
    const d = new NullDevice({ barriers: 'explicit' });
    const enc = d.createCommandEncoder();
    expect(() => enc.barrier({ from: 'compute-write', to: 'sideways' as never })).toThrow(
      ValidationError,
    );
  });
});

describe('kernel language', () => {
  it('turns declarations and helper signatures into WGSL', () => {
    expect(toWgsl('vec3f v = a + b;')).toBe('var v: vec3f = a + b;');
    expect(toWgsl('f32 hash(u32 x, f32 s) { return f32(x) * s; }')).toBe(
      'fn hash(x: u32, s: f32) -> f32 { return f32(x) * s; }',
    );
    expect(toWgsl('for (u32 i = 0u; i < 4u; i++) {}')).toBe(
      'for (var i: u32 = 0u; i < 4u; i++) {}',
    );
  });
  it('generates compute, WGSL ping-pong and GLSL ping-pong from one body', () => {
    const k = defineKernel({
      label: 'k',
      attributes: ['a', 'b'],
      uniforms: [['dt', 'f32']],
      body: 'a = a + b * params.dt;',
    });
    expect(k.wgslCompute).toMatch(
      /@group\(0\) @binding\(2\) var<storage, read_write> _ignis_b: array<vec4f>;/,
    );
    expect(k.wgslFragment).toMatch(/textureLoad\(_ignis_a, _ignis_texel, 0\)/);
    expect(k.glslFragment).toMatch(/layout\(location = 1\) out vec4 _ignis_out_b;/);
    // the GLSL and the CPU form are translated from the kernel's WGSL by the portable front end
    expect(k.glslFragment).toMatch(
      /struct S_Params \{\n {2}float m_dt;\n {2}uint m_count;\n {2}uint m_width;\n\};/,
    );
    expect(k.glslFragment).toMatch(/uniform Params \{ S_Params v_params; \};/);
    const state = { a: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]), b: new Float32Array(8).fill(2) };
    k.cpu.step(state, 2, { dt: 0.5 });
    expect(Array.from(state.a)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });
  it('rejects reserved names', () => {
    expect(() => defineKernel({ label: 'k', attributes: ['index'], body: '' })).toThrow(
      /"index" is not a usable name/,
    );
    expect(() =>
      defineKernel({ label: 'k', attributes: ['a'], uniforms: [['count', 'u32']], body: '' }),
    ).toThrow(/"count" is reserved/);
    expect(() => defineKernel({ label: 'k', attributes: ['out'], body: '' })).toThrow(
      /"out" is reserved in GLSL ES 3.00 or WGSL/,
    );
    expect(() =>
      defineKernel({ label: 'k', attributes: ['a'], uniforms: [['target', 'f32']], body: '' }),
    ).toThrow(/"target" is reserved/);
  });
  it('lays out uniforms identically for WGSL and std140', () => {
    const l = uniformLayout([
      ['gravity', 'vec3f'],
      ['dt', 'f32'],
      ['center', 'vec2f'],
      ['count', 'u32'],
    ]);
    expect(l.fields.map((f) => f.offset)).toEqual([0, 12, 16, 24]);
    expect(l.size).toBe(32);
    const bytes = packUniforms(l, { gravity: [0, -9.8, 0], dt: 0.5, count: 7 });
    expect(new Float32Array(bytes)[3]).toBe(0.5);
    expect(new Uint32Array(bytes)[6]).toBe(7);
  });
});

describe('elementwise runner mode selection', () => {
  const kernel = defineKernel({ label: 'k', attributes: ['a'], body: 'a = a + vec4f(1.0);' });
  const cpu = (i: number, s: Record<string, Float32Array>): void => {
    const a = s.a as Float32Array;
    for (let c = 0; c < 4; c++) a[4 * i + c] = (a[4 * i + c] as number) + 1;
  };
  it('takes compute where it exists, half floats without float32 targets, the CPU without either', () => {
    expect(createElementwiseRunner(new NullDevice(), kernel, { count: 10 }).mode).toBe('compute');
    const half = createElementwiseRunner(
      new NullDevice({ features: { compute: false, floatRenderTargets: false } }),
      kernel,
      { count: 10 },
    );
    expect([half.mode, half.precision]).toEqual(['pingpong', 'f16']);
    expect(half.reason).toMatch(/half-float/);
    const none = new NullDevice({
      features: {
        compute: false,
        storageBuffers: false,
        floatRenderTargets: false,
        halfFloatRenderTargets: false,
      },
    });
    // without a hand-written CPU form, the kernel's own (translated to JavaScript) runs
    expect(createElementwiseRunner(none, kernel, { count: 10 }).mode).toBe('cpu');
    expect(createElementwiseRunner(none, kernel, { count: 10, cpu }).mode).toBe('cpu');
  });
  it('the CPU path runs and uploads to a texture the draw can read', async () => {
    const d = new NullDevice({
      features: {
        compute: false,
        storageBuffers: false,
        floatRenderTargets: false,
        halfFloatRenderTargets: false,
      },
    });
    const r = createElementwiseRunner(d, kernel, { count: 3, cpu });
    r.write('a', new Float32Array(12));
    r.step(d.createCommandEncoder());
    r.step(d.createCommandEncoder());
    expect(Array.from((await r.read()).a as Float32Array)).toEqual(new Array(12).fill(2));
    const texels = (await (
      r.textures.a as NonNullable<typeof r.textures.a>
    ).read()) as Float32Array;
    expect(Array.from(texels.slice(0, 12))).toEqual(new Array(12).fill(2));
    expect(
      await r.reduce({ two: 'a.x == 2.0' }, { two: (i, s) => (s.a as Float32Array)[4 * i] === 2 }),
    ).toEqual({ two: 3 });
  });
  it('bad counts and too many attributes for ping-pong are typed errors', () => {
    expect(() => createElementwiseRunner(new NullDevice(), kernel, { count: 0 })).toThrow(
      ValidationError,
    );
    const many = defineKernel({ label: 'many', attributes: ['a', 'b', 'c'], body: '' });
    expect(() =>
      createElementwiseRunner(
        new NullDevice({ features: { compute: false }, limits: { maxColorAttachments: 2 } }),
        many,
        { count: 4 },
      ),
    ).toThrow(
      /Attribute count \(one color attachment each\) 3 exceeds limits.maxColorAttachments \(2\)/,
    );
  });
});

describe('uniform slots between submits', () => {
  it('more steps than slots before one submit grow the ring (it used to be a typed error at 257), and the outgrown buffers go after the submit', () => {
    const d = new NullDevice();
    const kernel = defineKernel({ label: 'k', attributes: ['a'], body: 'a = a + vec4f(1.0);' });
    const r = createElementwiseRunner(d, kernel, { count: 4 });
    const before = d.stats().buffer.count;
    let enc = d.createCommandEncoder();
    for (let i = 0; i < 300; i++) r.step(enc);
    // 16 slots, then buffers of 32, 64, 128 and 256 (16 + 32 + 64 + 128 + 256 ≥ 300): the four
    // outgrown ones wait for the submit that still binds them
    expect(d.stats().buffer.count).toBe(before + 4);
    const offsets = enc.commands.flatMap((c) =>
      c.type === 'setBinding' && c.resource.kind === 'uniform'
        ? [`${c.resource.buffer.id}:${c.resource.offset}`]
        : [],
    );
    expect(new Set(offsets).size).toBe(300); // every step its own slot
    d.queue.submit([enc.finish()]);
    enc = d.createCommandEncoder();
    r.step(enc);
    expect(d.stats().buffer.count).toBe(before);
  });
});

describe('state textures and halfs', () => {
  it('sizes state textures within the limit', () => {
    expect(stateTextureSize(10000, 8192)).toEqual({ width: 128, height: 79 });
    expect(stateTextureSize(1_000_000, 8192)).toEqual({ width: 1024, height: 977 });
    expect(stateTextureSize(1, 8192)).toEqual({ width: 1, height: 1 });
    expect(() => stateTextureSize(5000, 64)).toThrow(/exceeds limits.maxTextureDimension2D/);
  });
  it('half conversion round-trips representable values', () => {
    for (const v of [0, 1, -2, 0.5, 65504, 1 / 1024, 0.333251953125])
      expect(halfToFloat(floatToHalfBits(v))).toBe(v);
  });
});

describe('choosePath: one pure choice of execution path, with its reason', () => {
  const caps = (features: Record<string, boolean> = {}) => new NullDevice({ features }).caps;
  const ask = (
    features: Record<string, boolean>,
    path: 'auto' | 'compute' | 'pingpong' | 'cpu' = 'auto',
    hasCpu = true,
  ) => choosePath(caps(features), { path, hasCpu, attributes: 2, label: 'test' });
  it('auto walks the ladder compute → ping-pong (f32, then f16) → cpu', () => {
    expect(ask({})).toEqual({ path: 'compute', precision: 'f32', reason: 'caps.features.compute' });
    expect(ask({ compute: false })).toEqual({
      path: 'pingpong',
      precision: 'f32',
      reason: 'no compute; float render targets',
    });
    expect(ask({ compute: false, floatRenderTargets: false })).toMatchObject({
      path: 'pingpong',
      precision: 'f16',
      reason: expect.stringMatching(/half-float/),
    });
    expect(
      ask({ compute: false, floatRenderTargets: false, halfFloatRenderTargets: false }),
    ).toEqual({
      path: 'cpu',
      precision: 'f32',
      reason: 'no compute and no float render targets',
    });
  });
  it('a requested path says so, and one the device cannot run is a typed error naming the feature', () => {
    expect(ask({}, 'pingpong').reason).toBe("path 'pingpong' requested");
    expect(ask({}, 'cpu').reason).toBe("path 'cpu' requested");
    expect(() => ask({ compute: false }, 'compute')).toThrow(UnsupportedFeatureError);
    expect(() => ask({ compute: false }, 'compute')).toThrow(
      /caps.features.compute is false on the null backend/,
    );
    expect(() =>
      ask({ floatRenderTargets: false, halfFloatRenderTargets: false }, 'pingpong'),
    ).toThrow(/floatRenderTargets is false/);
    expect(() =>
      ask(
        { compute: false, floatRenderTargets: false, halfFloatRenderTargets: false },
        'auto',
        false,
      ),
    ).toThrow(/pass a CPU form/);
  });
  it('ping-pong needs a colour attachment per attribute', () => {
    const c = caps({ compute: false });
    expect(() =>
      choosePath(c, { path: 'auto', hasCpu: false, attributes: c.limits.maxColorAttachments + 1 }),
    ).toThrow(/maxColorAttachments/);
  });
});
