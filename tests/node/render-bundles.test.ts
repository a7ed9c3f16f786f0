import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  DestroyedResourceError,
  EncoderStateError,
  MissingBarrierError,
  NullDevice,
  RenderBundle,
  TextureUsage,
  ValidationError,
  type Command,
} from '../../src/all.js';
import { compileBundle, isSliceRun } from '../../src/rhi/webgl2/bundles.js';

const UNIFORM_WGSL = `@group(0) @binding(0) var<uniform> u: vec4f;
@vertex fn vs() -> @builtin(position) vec4f { return u; }
@fragment fn fs() -> @location(0) vec4f { return u; }`;

/** A device, a 4×4 rgba8unorm target, a pipeline reading a uniform at slot 0, and a buffer of slices. */
function setup(options: ConstructorParameters<typeof NullDevice>[0] = {}) {
  const d = new NullDevice(options);
  const rt = d.createTexture({
    label: 'rt',
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
  });
  const module = d.createShaderModule({ code: UNIFORM_WGSL });
  const pipeline = d.createRenderPipeline({
    label: 'uniform pipeline',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  });
  const slices = d.createBuffer({ label: 'slices', size: 256 * 4, usage: BufferUsage.UNIFORM });
  return { d, rt, pipeline, slices };
}

/** A bundle of four draws, each with its own slice of `slices`. */
function fourDraws({ d, pipeline, slices }: ReturnType<typeof setup>): RenderBundle {
  const b = d.createRenderBundleEncoder({ label: 'four', colorFormats: ['rgba8unorm'] });
  b.setPipeline(pipeline);
  for (let i = 0; i < 4; i++) {
    b.setUniformBuffer(0, slices, 256 * i, 16);
    b.draw(3);
  }
  return b.finish();
}

describe('render bundles', () => {
  it('are recorded once and executed by the passes of later encoders, each slice at its offset', () => {
    const s = setup();
    const bundle = fourDraws(s);
    expect(bundle.commands.map((c) => c.type)).toEqual([
      'setRenderPipeline',
      ...Array.from({ length: 4 }, () => ['setBinding', 'draw']).flat(),
    ]);
    const offsets = bundle.commands.flatMap((c) =>
      c.type === 'setBinding' && c.resource.kind === 'uniform' ? [c.resource.offset] : [],
    );
    expect(offsets).toEqual([0, 256, 512, 768]);
    for (let frame = 0; frame < 2; frame++) {
      const enc = s.d.createCommandEncoder();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: s.rt }] });
      pass.executeBundles([bundle, bundle]);
      pass.end();
      expect(enc.trace()).toEqual([
        'beginRenderPass "render pass 0" 4x4',
        'executeBundles "four" (9 commands), "four" (9 commands)',
        'endRenderPass',
      ]);
      s.d.queue.submit([enc.finish()]);
    }
    const submitted = s.d.queue.submissions.flat() as Command[];
    expect(submitted.filter((c) => c.type === 'executeBundles')).toHaveLength(2);
  });

  it('leave the pass with no pipeline or bindings, as WebGPU does', () => {
    const s = setup();
    const bundle = fourDraws(s);
    const pass = s.d
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: s.rt }] });
    pass.setPipeline(s.pipeline);
    pass.setUniformBuffer(0, s.slices, 0, 16);
    pass.draw(3);
    pass.executeBundles([bundle]);
    expect(() => pass.draw(3)).toThrow(/without a pipeline/);
    pass.setPipeline(s.pipeline);
    // the binding went with the bundle too
    expect(() => pass.draw(3)).toThrow(ValidationError);
    pass.setUniformBuffer(0, s.slices, 256, 16);
    pass.draw(3);
  });

  it('check each draw against the formats they are made for, when it is recorded', () => {
    const s = setup();
    const b = s.d.createRenderBundleEncoder({ label: 'hdr', colorFormats: ['rgba16float'] });
    const error = (() => {
      try {
        b.setPipeline(s.pipeline);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).rule).toBe('pipeline-targets');
    expect((error as Error).message).toMatch(
      /targets \[rgba8unorm\] but the render bundle has attachments \[rgba16float\]/,
    );
    // no pipeline: a draw is refused as in a pass
    expect(() => b.draw(3)).toThrow(/without a pipeline/);
  });

  it('refuse every call after finish()', () => {
    const s = setup();
    const b = s.d.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    b.finish();
    expect(() => b.setPipeline(s.pipeline)).toThrow(EncoderStateError);
    expect(() => b.draw(3)).toThrow(/after bundleEncoder\.finish\(\)/);
    expect(() => b.finish()).toThrow(EncoderStateError);
  });

  it('are refused by a pass of other formats, naming both', () => {
    const s = setup();
    const bundle = fourDraws(s);
    const hdr = s.d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba16float',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const pass = s.d
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: hdr }] });
    try {
      pass.executeBundles([bundle]);
      expect.unreachable('a bundle of other formats was executed');
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).rule).toBe('render-bundle-formats');
      expect((e as Error).message).toMatch(/\[rgba8unorm\].*\[rgba16float\]/);
    }
  });

  it('refuse what is not a bundle of this device', () => {
    const s = setup();
    const other = setup();
    const pass = s.d
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: s.rt }] });
    expect(() => pass.executeBundles([{} as RenderBundle])).toThrow(
      /entry 0 is not a RenderBundle/,
    );
    expect(() => pass.executeBundles('bundles' as unknown as RenderBundle[])).toThrow(
      /takes an array of render bundles/,
    );
    expect(() => pass.executeBundles([fourDraws(other)])).toThrow(/recorded on another device/);
  });

  it('check their resources alive at execute and at submit', () => {
    const s = setup();
    const bundle = fourDraws(s);
    // destroyed before it is executed
    const spare = setup();
    const spareBundle = fourDraws(spare);
    spare.slices.destroy();
    const sparePass = spare.d
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: spare.rt }] });
    expect(() => sparePass.executeBundles([spareBundle])).toThrow(DestroyedResourceError);
    // destroyed between execute and submit
    const enc = s.d.createCommandEncoder();
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: s.rt }] });
    pass.executeBundles([bundle]);
    pass.end();
    const cb = enc.finish();
    s.slices.destroy();
    expect(() => s.d.queue.submit([cb])).toThrow(DestroyedResourceError);
  });

  it('may not sample an attachment of the pass that executes them', () => {
    const d = new NullDevice();
    const code = `@group(0) @binding(0) var t: texture_2d<f32>;
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }
@fragment fn fs() -> @location(0) vec4f { return textureLoad(t, vec2i(0), 0); }`;
    const module = d.createShaderModule({ code });
    const pipeline = d.createRenderPipeline({
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const make = (label: string) =>
      d.createTexture({
        label,
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
      });
    const a = make('a');
    const b = make('b');
    const enc = d.createRenderBundleEncoder({ label: 'samples a', colorFormats: ['rgba8unorm'] });
    enc.setPipeline(pipeline);
    enc.setTexture(0, a);
    enc.draw(3);
    const bundle = enc.finish();
    const intoB = d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: b }] });
    intoB.executeBundles([bundle]);
    const intoA = d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: a }] });
    expect(() => intoA.executeBundles([bundle])).toThrow(
      /Render bundle "samples a" samples texture "a", an attachment of this pass/,
    );
  });

  it("carry their reads into the pass's hazard tracking: a barrier after a compute write", () => {
    const code = `@group(0) @binding(0) var<storage, read> points: array<vec4f>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { return points[i]; }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`;
    const writeCode = `@group(0) @binding(0) var<storage, read_write> points: array<vec4f>;
@compute @workgroup_size(1) fn main() { points[0] = vec4f(1.0); }`;
    for (const barriers of ['auto', 'explicit'] as const) {
      const d = new NullDevice({ barriers });
      const rt = d.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
      });
      const points = d.createBuffer({ label: 'points', size: 48, usage: BufferUsage.STORAGE });
      const module = d.createShaderModule({ code });
      const draw = d.createRenderPipeline({
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
      });
      const write = d.createComputePipeline({
        compute: { module: d.createShaderModule({ code: writeCode }), entryPoint: 'main' },
      });
      const b = d.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
      b.setPipeline(draw);
      b.setStorageBuffer(0, points);
      b.draw(3);
      const bundle = b.finish();
      const enc = d.createCommandEncoder();
      const cp = enc.beginComputePass();
      cp.setPipeline(write);
      cp.setStorageBuffer(0, points);
      cp.dispatch(1);
      cp.end();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
      if (barriers === 'explicit') {
        expect(() => pass.executeBundles([bundle])).toThrow(MissingBarrierError);
        continue;
      }
      pass.executeBundles([bundle]);
      pass.end();
      expect(enc.trace()).toContain('barrier compute-write -> vertex-read [points] (inserted)');
    }
  });

  it('mark the host copy of a buffer their fragment stage writes stale when submitted, and not one they only read', () => {
    const d = new NullDevice({ hostShadows: true });
    const rt = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const code = `@group(0) @binding(0) var<storage, read_write> hits: array<u32>;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(f32(input[0])); }
@fragment fn fs() -> @location(0) vec4f { hits[0] = 1u; return vec4f(1.0); }`;
    const module = d.createShaderModule({ code });
    const pipeline = d.createRenderPipeline({
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const make = (label: string) =>
      d.createBuffer({ label, size: 16, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST });
    const hits = make('hits');
    const input = make('input');
    d.queue.writeBuffer(hits, 0, new Uint32Array(4));
    d.queue.writeBuffer(input, 0, new Uint32Array(4));
    const b = d.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    b.setPipeline(pipeline);
    b.setStorageBuffer(0, hits);
    b.setStorageBuffer(1, input);
    b.draw(3);
    const bundle = b.finish();
    expect([...bundle.writes.keys()]).toEqual([hits]);
    const enc = d.createCommandEncoder();
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
    pass.executeBundles([bundle]);
    pass.end();
    expect(hits.hostShadow?.stale).toBe(false);
    d.queue.submit([enc.finish()]);
    expect(hits.hostShadow?.stale).toBe(true);
    expect(input.hostShadow?.stale).toBe(false);
  });

  it('are cut for WebGL2 into commands replayed as recorded and runs of draws that only move a slice', () => {
    const s = setup();
    const slicesOf = (label: string) =>
      s.d.createBuffer({ label, size: 256 * 8, usage: BufferUsage.UNIFORM });
    const other = slicesOf('other');
    const b = s.d.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    b.setPipeline(s.pipeline);
    for (let i = 0; i < 4; i++) {
      b.setUniformBuffer(0, s.slices, 256 * i, 16);
      b.draw(3);
    }
    // another buffer, then the pipeline again: each starts over with a draw replayed in full
    b.setUniformBuffer(0, other, 0, 16);
    b.draw(3);
    b.setUniformBuffer(0, other, 256, 16);
    b.draw(6);
    b.setPipeline(s.pipeline);
    for (let i = 0; i < 3; i++) {
      b.setUniformBuffer(0, other, 256 * (7 - i), 16);
      b.draw(6);
    }
    const shape = compileBundle(b.finish()).map((seg) =>
      isSliceRun(seg)
        ? `run ${seg.slice.resource.buffer.label} [${[...seg.offsets].join(', ')}] draw ${seg.draw.vertexCount}`
        : `replay ${seg.chunks
            .flat()
            .map((c) => c.type)
            .join(' ')} @ [${seg.sliceOffsets.join(', ')}]`,
    );
    expect(shape).toEqual([
      // (a slot's first binding is a setBinding; the slices after it move it)
      'replay setRenderPipeline setBinding draw setUniformSlice draw @ [256]',
      'run slices [512, 768] draw 3',
      // a draw of other arguments breaks a run: it is replayed
      'replay setBinding draw setUniformSlice draw setRenderPipeline setUniformSlice draw @ [256, 1792]',
      'run other [1536, 1280] draw 6',
    ]);
  });

  it('say what is wrong with a descriptor', () => {
    const d = new NullDevice();
    const rule = (desc: unknown) => {
      try {
        d.createRenderBundleEncoder(desc as never);
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return [(e as ValidationError).rule, (e as Error).message];
      }
      return null;
    };
    expect(rule({})?.[1]).toMatch(/colorFormats must be an array/);
    expect(rule({ colorFormats: ['rgba9unorm'] })?.[1]).toMatch(
      /colorFormats\[0\] "rgba9unorm" is not a color texture format/,
    );
    expect(rule({ colorFormats: ['depth24plus'] })?.[0]).toBe('render-bundle-formats');
    expect(rule({ colorFormats: [], depthStencilFormat: 'rgba8unorm' })?.[1]).toMatch(
      /not a depth format/,
    );
    expect(rule({ colorFormats: [] })?.[1]).toMatch(/needs a color format or a depth format/);
    expect(rule({ colorFormats: ['rgba8unorm'], sampleCount: 2 })?.[0]).toBe(
      'render-bundle-sample-count',
    );
    expect(rule({ colorFormats: ['rgba8unorm'], sampleCount: 4 })).toBeNull();
  });
});
