// Every validation rule of core, with its message: run on the null backend, no GPU involved.
import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  TextureUsage,
  NullDevice,
  ValidationError,
  LimitExceededError,
  UsageError,
  DestroyedResourceError,
  DeviceLostError,
  EncoderStateError,
  UnsupportedFeatureError,
  RhiError,
} from '../../src/all.js';
import { validateShaderModuleDescriptor } from '../../src/rhi/core/validate/shader-module.js';

const device = new NullDevice({ limits: { maxBufferSize: 1024, maxTextureDimension2D: 256 } });

function thrown(fn: () => unknown): RhiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RhiError);
    return e as RhiError;
  }
  throw new Error('did not throw');
}

describe('buffer descriptors', () => {
  it('sizes WebGPU accepts are accepted: 0, and any size not mapped at creation', () => {
    for (const size of [0, 1, 6, 1023])
      expect(device.createBuffer({ size, usage: BufferUsage.VERTEX }).size).toBe(size);
    // reading back what is not a whole number of words is a typed error at the read
    const odd = device.createBuffer({ size: 6, usage: BufferUsage.COPY_SRC });
    expect(() => odd.read()).toThrow(/read size 6 must be a non-negative multiple of 4/);
  });
  it.each([
    [-4, 'Buffer size -4 must be an integer ≥ 0 (bytes)', false],
    [4.5, 'Buffer size 4.5 must be an integer ≥ 0 (bytes)', false],
    [6, 'Buffer size 6 must be a multiple of 4 when mappedAtCreation is true', true],
  ])('size %s is rejected', (size, message, mappedAtCreation) => {
    const e = thrown(() =>
      device.createBuffer({ label: 'b', size, usage: BufferUsage.VERTEX, mappedAtCreation }),
    );
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe(`[b] ${message}`);
    expect(e.label).toBe('b');
    expect(e.details.size).toBe(size);
  });

  it('size beyond maxBufferSize names the limit, the request and the maximum', () => {
    const e = thrown(() =>
      device.createBuffer({ size: 2048, usage: BufferUsage.VERTEX }),
    ) as LimitExceededError;
    expect(e).toBeInstanceOf(LimitExceededError);
    expect(e.message).toBe('Buffer size 2048 exceeds limits.maxBufferSize (1024)');
    expect([e.limit, e.requested, e.maximum]).toEqual(['maxBufferSize', 2048, 1024]);
  });

  it('usage 0 and unknown bits are rejected', () => {
    expect(thrown(() => device.createBuffer({ size: 4, usage: 0 })).message).toMatch(
      /Buffer usage 0 must be a non-zero set/,
    );
    expect(thrown(() => device.createBuffer({ size: 4, usage: 0x800 })).message).toMatch(
      /bits outside BufferUsage/,
    );
  });

  it('MAP_READ only with COPY_DST, MAP_WRITE only with COPY_SRC', () => {
    const a = thrown(() =>
      device.createBuffer({ size: 4, usage: BufferUsage.MAP_READ | BufferUsage.VERTEX }),
    ) as UsageError;
    expect(a).toBeInstanceOf(UsageError);
    expect(a.message).toBe(
      'Buffer usage MAP_READ|VERTEX: MAP_READ may only be combined with COPY_DST',
    );
    const b = thrown(() =>
      device.createBuffer({ size: 4, usage: BufferUsage.MAP_WRITE | BufferUsage.COPY_DST }),
    ) as UsageError;
    expect(b.message).toBe(
      'Buffer usage MAP_WRITE|COPY_DST: MAP_WRITE may only be combined with COPY_SRC',
    );
    expect(() =>
      device.createBuffer({ size: 4, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST }),
    ).not.toThrow();
  });
});

describe('texture descriptors', () => {
  const base = { label: 't', format: 'rgba8unorm' as const, usage: TextureUsage.TEXTURE_BINDING };
  it('zero size is rejected, 1x1 is fine', () => {
    expect(
      thrown(() => device.createTexture({ ...base, size: { width: 0, height: 4 } })).message,
    ).toBe('[t] Texture width 0 must be a positive integer');
    expect(device.createTexture({ ...base, size: { width: 1, height: 1 } }).byteSize).toBe(4);
  });
  it('size beyond maxTextureDimension2D', () => {
    const e = thrown(() => device.createTexture({ ...base, size: { width: 4, height: 512 } }));
    expect(e.message).toBe('[t] Texture height 512 exceeds limits.maxTextureDimension2D (256)');
  });
  it('mip count within the full chain', () => {
    expect(
      thrown(() =>
        device.createTexture({ ...base, size: { width: 16, height: 4 }, mipLevelCount: 6 }),
      ).message,
    ).toBe('[t] Texture mipLevelCount 6 must be between 1 and 5 (the full chain of 16x4)');
    expect(
      device.createTexture({ ...base, size: { width: 16, height: 4 }, mipLevelCount: 5 })
        .mipLevelCount,
    ).toBe(5);
  });
  it('sample count 1 or 4', () => {
    expect(
      thrown(() => device.createTexture({ ...base, size: { width: 4, height: 4 }, sampleCount: 2 }))
        .message,
    ).toBe('[t] Texture sampleCount 2 must be 1 or 4');
  });
  it('unknown format', () => {
    expect(
      thrown(() =>
        device.createTexture({ ...base, format: 'rgb565' as never, size: { width: 4, height: 4 } }),
      ).message,
    ).toMatch(/format rgb565 is not one of/);
  });
  it('float render targets need caps.features.floatRenderTargets', () => {
    const noFloat = new NullDevice({ features: { floatRenderTargets: false } });
    const e = thrown(() =>
      noFloat.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba32float',
        usage: TextureUsage.RENDER_ATTACHMENT,
      }),
    );
    expect(e).toBeInstanceOf(UnsupportedFeatureError);
    expect(e.message).toMatch(/caps\.features\.floatRenderTargets is false on the null backend/);
  });
});

describe('copies and writes', () => {
  const buf = device.createBuffer({
    label: 'buf',
    size: 512,
    usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
  });
  const tex = device.createTexture({
    label: 'tex',
    size: { width: 8, height: 2 },
    format: 'rgba8unorm',
    usage: TextureUsage.COPY_SRC | TextureUsage.COPY_DST,
  });
  const tex2 = device.createTexture({
    label: 'tex2',
    size: { width: 8, height: 2 },
    format: 'rgba8unorm',
    usage: TextureUsage.COPY_SRC | TextureUsage.COPY_DST,
  });
  it('bytesPerRow must be a multiple of 256 in buffer↔texture copies', () => {
    const enc = device.createCommandEncoder();
    expect(
      thrown(() =>
        enc.copyTextureToBuffer(
          { texture: tex },
          { buffer: buf, bytesPerRow: 32 },
          { width: 8, height: 2 },
        ),
      ).message,
    ).toBe('[buf] bytesPerRow 32 must be a multiple of 256');
    expect(
      thrown(() =>
        enc.copyBufferToTexture(
          { buffer: buf, bytesPerRow: 100 },
          { texture: tex },
          { width: 8, height: 2 },
        ),
      ).message,
    ).toMatch(/bytesPerRow 100/);
  });
  it('what WebGPU accepts: an empty extent copies nothing, one row needs no bytesPerRow, writeTexture data may start between texels', async () => {
    const enc = device.createCommandEncoder();
    enc.copyTextureToBuffer(
      { texture: tex },
      { buffer: buf, bytesPerRow: 256 },
      { width: 0, height: 2 },
    );
    enc.copyBufferToTexture({ buffer: buf }, { texture: tex }, { width: 8, height: 1 });
    enc.copyTextureToTexture({ texture: tex }, { texture: tex2 }, { width: 3, height: 0 });
    expect(
      thrown(() =>
        enc.copyBufferToTexture({ buffer: buf }, { texture: tex }, { width: 8, height: 2 }),
      ).message,
    ).toBe('[buf] bytesPerRow is needed for a copy of 2 rows');
    device.queue.submit([enc.finish()]);
    device.queue.writeTexture({ texture: tex }, new Uint8Array(0), {}, { width: 0, height: 0 });
    // three bytes in: the texel 9, 8, 7, 6 lands at (1, 1)
    const data = new Uint8Array([0, 0, 0, 9, 8, 7, 6]);
    device.queue.writeTexture(
      { texture: tex, origin: { x: 1, y: 1 } },
      data,
      { offset: 3 },
      { width: 1, height: 1 },
    );
    const texels = new Uint8Array((await tex.read()) as Uint8Array);
    expect(Array.from(texels.subarray(4 * (8 + 1), 4 * (8 + 2)))).toEqual([9, 8, 7, 6]);
  });
  it('a copy past the buffer end or the texture edge', () => {
    const enc = device.createCommandEncoder();
    expect(
      thrown(() =>
        enc.copyTextureToBuffer(
          { texture: tex },
          { buffer: buf, bytesPerRow: 256, offset: 256 },
          { width: 8, height: 2 },
        ),
      ).message,
    ).toBe('[buf] Copy needs 544 bytes but the buffer has 512');
    expect(
      thrown(() =>
        enc.copyTextureToBuffer(
          { texture: tex, origin: { x: 4 } },
          { buffer: buf, bytesPerRow: 256 },
          { width: 8, height: 1 },
        ),
      ).message,
    ).toBe('[tex] Copy of 8x1 at (4, 0) overruns mip 0 of size 8x2');
  });
  it('writeBuffer offset and size multiples of 4 and in range', () => {
    expect(thrown(() => device.queue.writeBuffer(buf, 2, new Uint8Array(4))).message).toBe(
      '[buf] writeBuffer offset 2 must be a non-negative multiple of 4',
    );
    expect(thrown(() => device.queue.writeBuffer(buf, 0, new Uint8Array(6))).message).toBe(
      '[buf] writeBuffer data size 6 must be a multiple of 4',
    );
    expect(thrown(() => device.queue.writeBuffer(buf, 508, new Uint8Array(8))).message).toBe(
      '[buf] writeBuffer of 8 bytes at offset 508 overruns the buffer of 512 bytes',
    );
  });
  it('usage flags gate every use', () => {
    const vertexOnly = device.createBuffer({ label: 'v', size: 16, usage: BufferUsage.VERTEX });
    const e = thrown(() =>
      device.queue.writeBuffer(vertexOnly, 0, new Uint8Array(4)),
    ) as UsageError;
    expect(e.message).toBe(
      "[v] writeBuffer needs BufferUsage.COPY_DST, but the buffer's usage is VERTEX",
    );
    expect([e.required, e.actual]).toEqual(['COPY_DST', 'VERTEX']);
    const enc = device.createCommandEncoder();
    expect(thrown(() => enc.copyBufferToBuffer(vertexOnly, 0, buf, 0, 16)).message).toMatch(
      /copyBufferToBuffer source needs BufferUsage.COPY_SRC/,
    );
  });
  it('a resource used after destroy()', () => {
    const b = device.createBuffer({ label: 'dead', size: 16, usage: BufferUsage.COPY_DST });
    b.destroy();
    const e = thrown(() => device.queue.writeBuffer(b, 0, new Uint8Array(4)));
    expect(e).toBeInstanceOf(DestroyedResourceError);
    expect(e.message).toBe('[dead] buffer used in writeBuffer after destroy()');
  });
});

describe('encoder state machine', () => {
  const rt = device.createTexture({
    label: 'rt',
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  it('a pass begun while another is open, finish() with a pass open, double submit', () => {
    const enc = device.createCommandEncoder({ label: 'e' });
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
    expect(thrown(() => enc.beginComputePass()).message).toBe(
      '[e] beginComputePass while a pass is open; call pass.end() first',
    );
    expect(thrown(() => enc.finish())).toBeInstanceOf(EncoderStateError);
    pass.end();
    const cb = enc.finish();
    expect(thrown(() => enc.finish()).message).toBe('[e] finish() called twice');
    device.queue.submit([cb]);
    expect(thrown(() => device.queue.submit([cb])).message).toBe(
      '[e] Command buffer submitted twice',
    );
  });
  it('an attachment without RENDER_ATTACHMENT usage', () => {
    const sampled = device.createTexture({
      label: 's',
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.TEXTURE_BINDING,
    });
    expect(
      thrown(() =>
        device.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: sampled }] }),
      ).message,
    ).toBe(
      "[s] color attachment 0 of a render pass needs TextureUsage.RENDER_ATTACHMENT, but the texture's usage is TEXTURE_BINDING",
    );
  });
  it('debug groups must balance', () => {
    const enc = device.createCommandEncoder();
    expect(thrown(() => enc.popDebugGroup()).message).toMatch(
      /popDebugGroup\(\) without a matching pushDebugGroup/,
    );
    enc.pushDebugGroup('g');
    expect(thrown(() => enc.finish()).message).toMatch(/1 debug group\(s\) still pushed/);
  });
});

describe('accounting', () => {
  it('device.stats() counts live resources and bytes per kind and returns to baseline', () => {
    const d = new NullDevice();
    const before = d.stats();
    expect(before.total).toEqual({ count: 0, bytes: 0 });
    const b = d.createBuffer({ size: 256, usage: BufferUsage.VERTEX });
    const t = d.createTexture({
      size: { width: 8, height: 8 },
      format: 'rgba32float',
      usage: TextureUsage.TEXTURE_BINDING,
      mipLevelCount: 2,
    });
    const s = d.createSampler();
    const st = d.stats();
    expect(st.buffer).toEqual({ count: 1, bytes: 256 });
    expect(st.texture).toEqual({ count: 1, bytes: (64 + 16) * 16 });
    expect(st.sampler.count).toBe(1);
    expect(st.total.count).toBe(3);
    b.destroy();
    t.destroy();
    s.destroy();
    expect(d.stats().total).toEqual({ count: 0, bytes: 0 });
  });
  it('ids are unique and labels reach the resource', () => {
    const d = new NullDevice();
    const a = d.createBuffer({ label: 'first', size: 4, usage: BufferUsage.VERTEX });
    const b = d.createBuffer({ size: 4, usage: BufferUsage.VERTEX });
    expect(a.id).not.toBe(b.id);
    expect(a.label).toBe('first');
    expect(b.label).toBe('');
  });
});

describe('feature restrictions', () => {
  it('turn features off, never on, and name unknown ones', () => {
    const d = new NullDevice({ restrict: { compute: false, floatRenderTargets: false } });
    expect(d.caps.features.compute).toBe(false);
    expect(d.caps.features.indirect).toBe(false);
    expect(d.caps.features.floatRenderTargets).toBe(false);
    expect(d.caps.features.storageBuffers).toBe(true);
    expect(() => new NullDevice({ restrict: { compute: true as never } })).toThrow(
      /restrict: compute must be false; a restriction can only turn a feature off/,
    );
    expect(() => new NullDevice({ restrict: { warp: false } as never })).toThrow(
      /restrict: unknown feature warp/,
    );
  });
});

describe('draw validation', () => {
  const d = new NullDevice();
  const module = d.createShaderModule({
    code: '@vertex fn vs(@location(0) p: vec2f, @location(1) o: vec2f) -> @builtin(position) vec4f { return vec4f(p + o, 0.0, 1.0); } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
  });
  const pipeline = d.createRenderPipeline({
    label: 'instanced',
    vertex: {
      module,
      entryPoint: 'vs',
      buffers: [
        { arrayStride: 8, attributes: [{ format: 'float32x2', offset: 0, shaderLocation: 0 }] },
        {
          arrayStride: 8,
          stepMode: 'instance',
          attributes: [{ format: 'float32x2', offset: 0, shaderLocation: 1 }],
        },
      ],
    },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  });
  const rt = d.createTexture({
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  const vertices = d.createBuffer({ label: 'vertices', size: 24, usage: BufferUsage.VERTEX }); // 3 vertices
  const instances = d.createBuffer({ label: 'instances', size: 32, usage: BufferUsage.VERTEX }); // 4 instances
  const pass = (): ReturnType<ReturnType<typeof d.createCommandEncoder>['beginRenderPass']> => {
    const p = d
      .createCommandEncoder()
      .beginRenderPass({ label: 'draws', colorAttachments: [{ texture: rt }] });
    p.setPipeline(pipeline);
    p.setVertexBuffer(0, vertices);
    p.setVertexBuffer(1, instances);
    return p;
  };
  it('a draw that repeats the last one is checked again after anything its check reads changed', () => {
    // (a draw with the last draw's arguments and nothing changed records it again unchecked)
    const short = d.createBuffer({ label: 'short', size: 16, usage: BufferUsage.VERTEX });
    const p = pass();
    p.draw(3, 4);
    p.draw(3, 4);
    p.setVertexBuffer(0, short); // 2 vertices
    expect(() => p.draw(3, 4)).toThrow(/draw reads vertex 2 of vertex buffer slot 0/);
    p.setVertexBuffer(0, vertices);
    p.draw(3, 4);
    p.setVertexBuffer(0, vertices, 8); // the same buffer further on: 2 vertices left
    expect(() => p.draw(3, 4)).toThrow(/draw reads vertex 2 of vertex buffer slot 0/);
    // another pipeline, without vertex buffers but with a uniform nothing is bound to
    const unbound = d.createShaderModule({
      code: '@group(0) @binding(0) var<uniform> u: vec4f; @vertex fn vs() -> @builtin(position) vec4f { return u; } @fragment fn fs() -> @location(0) vec4f { return u; }',
    });
    const needsUniform = d.createRenderPipeline({
      label: 'needs a uniform',
      vertex: { module: unbound, entryPoint: 'vs' },
      fragment: { module: unbound, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const q = pass();
    q.draw(3, 4);
    q.setPipeline(needsUniform);
    expect(() => q.draw(3, 4)).toThrow(/has nothing bound/);
    // a destroyed vertex buffer, a destroyed pipeline
    const gone = d.createBuffer({ label: 'gone', size: 24, usage: BufferUsage.VERTEX });
    const r = pass();
    r.setVertexBuffer(0, gone);
    r.draw(3, 4);
    gone.destroy();
    expect(() => r.draw(3, 4)).toThrow(DestroyedResourceError);
    const doomed = d.createRenderPipeline({
      label: 'doomed',
      vertex: { module: unbound, entryPoint: 'vs' },
      fragment: { module: unbound, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const uniform = d.createBuffer({ size: 16, usage: BufferUsage.UNIFORM });
    const t = pass();
    t.setPipeline(doomed);
    t.setUniformBuffer(0, uniform);
    t.draw(3);
    doomed.destroy();
    expect(() => t.draw(3)).toThrow(DestroyedResourceError);
  });
  it('a draw that repeats the last one after the device is lost is a DeviceLostError', () => {
    const lost = new NullDevice();
    const m = lost.createShaderModule({
      code: '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
    });
    const pipe = lost.createRenderPipeline({
      vertex: { module: m, entryPoint: 'vs' },
      fragment: { module: m, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const target = lost.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const p = lost
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: target }] });
    p.setPipeline(pipe);
    p.draw(3);
    lost.destroy();
    expect(() => p.draw(3)).toThrow(DeviceLostError);
  });
  it('a draw that reads past a vertex buffer is rejected, naming the slot and the sizes', () => {
    expect(() => pass().draw(3, 4)).not.toThrow();
    expect(() => pass().draw(4, 1)).toThrow(
      '[draws] draw reads vertex 3 of vertex buffer slot 0, which needs 32 bytes, but "vertices" has 24 (offset 0, stride 8)',
    );
    expect(() => pass().draw(3, 2, 0, 3)).toThrow(
      '[draws] draw reads instance 4 of vertex buffer slot 1, which needs 40 bytes, but "instances" has 32 (offset 0, stride 8)',
    );
    expect(() => pass().draw(0, 0)).not.toThrow();
  });
  it('a multisampled texture cannot be sampled', () => {
    expect(() =>
      d.createTexture({
        label: 'ms',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        sampleCount: 4,
        usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
      }),
    ).toThrow(
      /\[ms\] A multisampled texture needs RENDER_ATTACHMENT and cannot be sampled, copied or stored/,
    );
  });
});

describe('a draw per uniform slice (issue 33: what a draw skips when only the slice moved)', () => {
  const d = new NullDevice();
  const module = d.createShaderModule({
    code: `struct Draw { offset: vec4f, color: vec4f };
      @group(0) @binding(0) var<uniform> u: Draw;
      @group(0) @binding(1) var<storage, read_write> s: array<f32>;
      @vertex fn vs() -> @builtin(position) vec4f { return u.offset; }
      @fragment fn fs() -> @location(0) vec4f { s[0] = 1.0; return u.color; }`,
  });
  const pipeline = d.createRenderPipeline({
    label: 'sliced',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  });
  const rt = d.createTexture({
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  const slices = d.createBuffer({
    label: 'slices',
    size: 1024,
    usage: BufferUsage.UNIFORM | BufferUsage.STORAGE,
  });
  const storage = d.createBuffer({ label: 'out', size: 16, usage: BufferUsage.STORAGE });
  const begin = () => {
    const p = d.createCommandEncoder().beginRenderPass({
      label: 'draws',
      colorAttachments: [{ texture: rt }],
    });
    p.setPipeline(pipeline);
    p.setStorageBuffer(1, storage);
    p.setUniformBuffer(0, slices, 0, 32);
    p.draw(3);
    return p;
  };
  it('a new offset of the bound buffer is still checked: alignment, range, destroyed', () => {
    // the first slice after the full bind, and a slice in a run of them (the slot table checks
    // only the offset of a run's next slice)
    const inRun = () => {
      const p = begin();
      p.setUniformBuffer(0, slices, 512, 32);
      p.draw(3);
      return p;
    };
    for (const open of [begin, inRun]) {
      expect(() => open().setUniformBuffer(0, slices, 256, 32)).not.toThrow();
      expect(thrown(() => open().setUniformBuffer(0, slices, 100, 32)).message).toMatch(
        /Uniform binding offset 100 must be a multiple of limits.minUniformBufferOffsetAlignment \(256\)/,
      );
      expect(thrown(() => open().setUniformBuffer(0, slices, 1024 - 16, 32)).message).toMatch(
        /uniform-binding of 32 bytes at offset 1008 overruns the buffer of 1024 bytes/,
      );
      expect(thrown(() => open().setUniformBuffer(0, slices, -256, 32)).message).toMatch(
        /offset -256/,
      );
      const gone = d.createBuffer({ label: 'gone', size: 1024, usage: BufferUsage.UNIFORM });
      const p = d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: rt }] });
      p.setPipeline(pipeline);
      p.setStorageBuffer(1, storage);
      p.setUniformBuffer(0, gone, 0, 32);
      if (open === inRun) p.setUniformBuffer(0, gone, 512, 32);
      gone.destroy();
      expect(thrown(() => p.setUniformBuffer(0, gone, 256, 32))).toBeInstanceOf(
        DestroyedResourceError,
      );
    }
  });
  it('a draw after a binding that changes more than the offset is checked again', () => {
    // a smaller slice than the struct: the check skipped for the same slice size must run again
    const small = begin();
    small.setUniformBuffer(0, slices, 256, 16);
    expect(thrown(() => small.draw(3)).message).toMatch(
      /reads a 32-byte uniform struct, but 16 bytes of "slices" are bound/,
    );
    // the buffer written at slot 1 bound as the uniform too: WebGPU's usage scope forbids it
    const alias = begin();
    alias.setStorageBuffer(1, slices, { offset: 512, size: 16 });
    expect(thrown(() => alias.draw(3)).message).toMatch(/Buffer "slices" is bound at slots/);
  });
  it('commands past the first chunk of 1,024 stay in order, and a barrier inserted before a later pass lands there', () => {
    const enc = d.createCommandEncoder();
    const p = enc.beginRenderPass({ label: 'many', colorAttachments: [{ texture: rt }] });
    p.setPipeline(pipeline);
    p.setStorageBuffer(1, storage);
    for (let i = 0; i < 700; i++) {
      p.setUniformBuffer(0, slices, 256 * (i % 4), 32);
      p.draw(3, 1, i);
    }
    p.end();
    // a compute pass reading what the fragment stage wrote: an inserted barrier before it
    const reader = d.createComputePipeline({
      label: 'reader',
      compute: {
        module: d.createShaderModule({
          code: `@group(0) @binding(0) var<storage, read> s: array<f32>;
            @group(0) @binding(1) var<storage, read_write> o: array<f32>;
            @compute @workgroup_size(1) fn main() { o[0] = s[0]; }`,
        }),
      },
    });
    const c = enc.beginComputePass({ label: 'read' });
    c.setPipeline(reader);
    c.setStorageBuffer(0, storage);
    c.setStorageBuffer(1, d.createBuffer({ size: 16, usage: BufferUsage.STORAGE }));
    c.dispatch(1);
    c.end();
    const commands = enc.finish().commands;
    const firsts = commands.flatMap((x) => (x.type === 'draw' ? [x.firstVertex] : []));
    expect(firsts).toEqual(Array.from({ length: 700 }, (_, i) => i));
    const at = commands.findIndex((x) => x.type === 'barrier');
    expect(at).toBeGreaterThan(1024);
    expect(commands[at - 1]?.type).toBe('endRenderPass');
    expect(commands[at + 1]?.type).toBe('beginComputePass');
    expect(commands.at(-1)?.type).toBe('endComputePass');
  });
});

describe('texture slots', () => {
  const code =
    '@group(0) @binding(0) var t: texture_2d<f32>; @group(0) @binding(1) var d: texture_depth_2d; @group(0) @binding(2) var s: texture_storage_2d<rgba8unorm, write>; @compute @workgroup_size(1) fn main() { _ = textureLoad(t, vec2i(0), 0); _ = textureLoad(d, vec2i(0), 0); textureStore(s, vec2i(0), vec4f(0.0)); }';
  function dispatchWith(
    device: NullDevice,
    color: string,
    depthFormat: string,
    storage: string,
  ): void {
    const pipeline = device.createComputePipeline({
      label: 'p',
      compute: { module: device.createShaderModule({ code }) },
    });
    const tex = (format: string, usage: number) =>
      device.createTexture({
        label: format,
        size: { width: 4, height: 4 },
        format: format as never,
        usage,
      });
    const pass = device.createCommandEncoder().beginComputePass({ label: 'c' });
    pass.setPipeline(pipeline);
    pass.setTexture(0, tex(color, TextureUsage.TEXTURE_BINDING));
    pass.setTexture(1, tex(depthFormat, TextureUsage.TEXTURE_BINDING));
    pass.setStorageTexture(2, tex(storage, TextureUsage.STORAGE_BINDING));
    pass.dispatch(1);
  }
  it('accept what the shader declares', () => {
    expect(() =>
      dispatchWith(new NullDevice(), 'rgba8unorm', 'depth32float', 'rgba8unorm'),
    ).not.toThrow();
  });
  it('reject a colour texture in a depth slot, a depth texture in a float slot, a storage format mismatch', () => {
    const d = new NullDevice();
    expect(() => dispatchWith(d, 'rgba8unorm', 'rgba8unorm', 'rgba8unorm')).toThrow(
      /Texture "rgba8unorm" \(rgba8unorm\) cannot be bound at slot 1 \("d"\) of pipeline "p", which samples a depth texture/,
    );
    expect(() => dispatchWith(d, 'depth32float', 'depth32float', 'rgba8unorm')).toThrow(
      /cannot be bound at slot 0 \("t"\) of pipeline "p", which samples 'float' texels/,
    );
    expect(() => dispatchWith(d, 'rgba8unorm', 'depth32float', 'rgba16float')).toThrow(
      /Texture "rgba16float" is rgba16float but slot 2 \("s"\) of pipeline "p" is a rgba8unorm storage texture/,
    );
  });
  it('a float32 texture in a filterable slot needs float32Filterable', () => {
    const d = new NullDevice({ restrict: { float32Filterable: false } });
    expect(() => dispatchWith(d, 'rgba32float', 'depth32float', 'rgba8unorm')).toThrow(
      /caps.features.float32Filterable is false on the null backend; rgba32float texture "rgba32float" at slot 0 \("t"\) of pipeline "p" needs a slot declared with sampleType 'unfilterable-float'/,
    );
  });
});

describe('per-target blending (regression: WebGL2 silently used target 0 for every target)', () => {
  const wgsl =
    'struct O { @location(0) a: vec4f, @location(1) b: vec4f }; @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> O { return O(vec4f(1.0), vec4f(1.0)); }';
  const additive = {
    color: { srcFactor: 'one', dstFactor: 'one' },
    alpha: { srcFactor: 'one', dstFactor: 'one' },
  } as const;
  const pipeline = (
    d: NullDevice,
    targets: Array<{ blend?: typeof additive; writeMask?: number }>,
  ) => {
    const module = d.createShaderModule({ code: wgsl });
    return d.createRenderPipeline({
      label: 'mrt',
      vertex: { module, entryPoint: 'vs' },
      fragment: {
        module,
        entryPoint: 'fs',
        targets: targets.map((t) => ({ format: 'rgba8unorm' as const, ...t })),
      },
    });
  };
  it('differing blend states or write masks need caps.features.independentBlend', () => {
    const gl = new NullDevice({ features: { independentBlend: false } });
    expect(() => pipeline(gl, [{ blend: additive }, {}])).toThrow(UnsupportedFeatureError);
    expect(() => pipeline(gl, [{ blend: additive }, {}])).toThrow(
      /independentBlend is false.*color target 1 has a different blend state/,
    );
    expect(() => pipeline(gl, [{}, { writeMask: 0 }])).toThrow(/mask 0 vs none, mask 15/);
    // the same state spelled with and without defaults is the same state
    expect(() =>
      pipeline(gl, [
        { blend: additive },
        {
          blend: { color: { ...additive.color, operation: 'add' }, alpha: additive.alpha } as never,
        },
      ]),
    ).not.toThrow();
    expect(() => pipeline(new NullDevice(), [{ blend: additive }, {}])).not.toThrow();
  });
});

describe('device.restore()', () => {
  it('is a typed error on a device that is not lost, and after destroy()', async () => {
    const d = new NullDevice();
    await expect(d.restore()).rejects.toThrow(/not lost/);
    d.destroy();
    await expect(d.restore()).rejects.toThrow(/destroyed device stays destroyed/);
  });
});

describe('queue.submit of another device', () => {
  it('refuses a command buffer recorded on another device, naming it', () => {
    const a = new NullDevice();
    const b = new NullDevice();
    const cb = a.createCommandEncoder({ label: 'from a' }).finish();
    expect(() => b.queue.submit([cb])).toThrow(/"from a" was recorded on another device/);
    a.queue.submit([cb]);
  });
});

describe('colour bytes per sample (regression: three rgba32float targets reached the GPU and failed there)', () => {
  // a WebGPU device's default maxColorAttachmentBytesPerSample is 32; the particle state's third
  // attribute made the WebGPU ping-pong's pipeline 48 bytes a sample, refused only by the GPU
  const d = new NullDevice();
  const targets = (n: number) =>
    `struct O { ${Array.from({ length: n }, (_, i) => `@location(${i}) a${i}: vec4f`).join(', ')} }; @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> O { return O(${Array.from({ length: n }, () => 'vec4f(1.0)').join(', ')}); }`;
  const pipeline = (format: 'rgba32float' | 'rgba8unorm', n: number) => {
    const module = d.createShaderModule({ code: targets(n) });
    return d.createRenderPipeline({
      label: `${n} × ${format}`,
      vertex: { module, entryPoint: 'vs' },
      fragment: {
        module,
        entryPoint: 'fs',
        targets: Array.from({ length: n }, () => ({ format })),
      },
    });
  };
  it('a pipeline over the limit is a LimitExceededError naming it, before the GPU', () => {
    expect(d.caps.limits.maxColorAttachmentBytesPerSample).toBe(32);
    expect(() => pipeline('rgba32float', 2)).not.toThrow();
    const e = thrown(() => pipeline('rgba32float', 3));
    expect(e).toBeInstanceOf(LimitExceededError);
    expect(e.message).toMatch(
      /bytes per sample 48 exceeds limits.maxColorAttachmentBytesPerSample \(32\)/,
    );
    // rgba8unorm costs 8 bytes a sample in render target memory, not its 4-byte texel
    expect(() => pipeline('rgba8unorm', 4)).not.toThrow();
    expect(() => pipeline('rgba8unorm', 5)).toThrow(/bytes per sample 40 exceeds/);
  });
  it('a render pass over the limit is refused too, and the ping-pong path says why it cannot run', async () => {
    const tex = () =>
      d.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba32float',
        usage: TextureUsage.RENDER_ATTACHMENT,
      });
    const enc = d.createCommandEncoder();
    expect(() =>
      enc.beginRenderPass({
        colorAttachments: [tex(), tex(), tex()].map((texture) => ({ texture })),
      }),
    ).toThrow(/Color attachments \(rgba32float, rgba32float, rgba32float\) bytes per sample 48/);
    const { choosePath } = await import('../../src/compute/paths/choose.js');
    const caps = new NullDevice({ features: { compute: false } }).caps;
    expect(choosePath(caps, { path: 'auto', hasCpu: true, attributes: 2, label: 'x' }).path).toBe(
      'pingpong',
    );
    expect(() =>
      choosePath(caps, { path: 'pingpong', hasCpu: true, attributes: 3, label: 'x' }),
    ).toThrow(
      /State of 3 attributes \(one rgba32float target each\) bytes per sample 48 exceeds limits.maxColorAttachmentBytesPerSample \(32\)/,
    );
  });
});

describe('shader module descriptors', () => {
  it('an empty WGSL module is valid WebGPU (a pipeline using it finds no entry point); code that is not a string is refused naming its type', () => {
    const empty = device.createShaderModule({ code: '', label: 'empty' });
    const e = thrown(() =>
      device.createComputePipeline({ label: 'from empty', compute: { module: empty } }),
    );
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toMatch(/no @compute function/);
    const notString = thrown(() =>
      device.createShaderModule({ code: 5 as unknown as string, label: 'five' }),
    );
    expect(notString).toBeInstanceOf(ValidationError);
    expect(notString.message).toMatch(/code must be a string, got number/);
    // GLSL is another matter: a stage needs main, so an empty one is refused before GL sees it
    const glsl = { ...device.caps, backend: 'webgl2', shaderLanguage: 'glsl' } as const;
    const emptyGlsl = thrown(() =>
      validateShaderModuleDescriptor({ code: '  ', stage: 'vertex', label: 'blank' }, glsl),
    );
    expect(emptyGlsl.message).toMatch(/A GLSL shader module needs code .* it is empty/);
  });
});
