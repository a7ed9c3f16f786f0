// Bind groups in core (null device): layouts read from pipelines and made by hand, groups checked
// when made, every mistake a typed error naming the values, and resources in groups tracked for
// barriers like slot-bound ones.
import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  LimitExceededError,
  MissingBarrierError,
  NullDevice,
  TextureUsage,
  UsageError,
  ValidationError,
  type Device,
} from '../../src/all.js';

const CODE = /* wgsl */ `
@group(0) @binding(0) var<uniform> params: vec4f;
@group(1) @binding(0) var<storage, read_write> data: array<f32>;
@group(1) @binding(1) var<storage, read> other: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  data[id.x] = other[id.x] * params.x;
}`;

function setup(device: Device = new NullDevice()) {
  const module = device.createShaderModule({ code: CODE });
  const pipeline = device.createComputePipeline({ label: 'scale', compute: { module } });
  const storage = (label: string) =>
    device.createBuffer({ label, size: 256, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST });
  const params = device.createBuffer({ label: 'params', size: 16, usage: BufferUsage.UNIFORM });
  return { device, pipeline, storage, params };
}

describe('bind groups', () => {
  it('a group made from pipeline.getBindGroupLayout(1) binds @group(1); group 0 stays slot-bound', () => {
    const { device, pipeline, storage, params } = setup();
    const layout = pipeline.getBindGroupLayout(1);
    expect(layout.entries.map((e) => [e.binding, e.type])).toEqual([
      [0, 'storage'],
      [1, 'read-only-storage'],
    ]);
    const group = device.createBindGroup({
      layout,
      entries: [
        { binding: 0, resource: storage('a') },
        { binding: 1, resource: { buffer: storage('b'), offset: 0, size: 256 } },
      ],
    });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setUniformBuffer(0, params);
    pass.setBindGroup(1, group);
    pass.dispatch(1);
    pass.end();
    // one flat slot table: group g's binding b is slot g * 1000 + b
    const bound = enc.commands.flatMap((c) =>
      c.type === 'setBinding' && (c.resource.kind === 'uniform' || c.resource.kind === 'storage')
        ? [`${c.slot} ${c.resource.kind} ${c.resource.buffer.label}`]
        : [],
    );
    expect(bound).toEqual(['0 uniform params', '1000 storage a', '1001 storage b']);
  });

  it('setBindGroup replaces everything bound at its index, as in WebGPU', () => {
    const { device, pipeline, storage, params } = setup();
    const other = device.createBindGroup({
      layout: device.createBindGroupLayout({ entries: [{ binding: 5, type: 'uniform' }] }),
      entries: [{ binding: 5, resource: params }],
    });
    const pass = device.createCommandEncoder().beginComputePass();
    pass.setPipeline(pipeline);
    pass.setUniformBuffer(0, params); // slot 0 of group 0 …
    pass.setBindGroup(
      1,
      device.createBindGroup({
        layout: pipeline.getBindGroupLayout(1),
        entries: [
          { binding: 0, resource: storage('a') },
          { binding: 1, resource: storage('b') },
        ],
      }),
    );
    pass.setBindGroup(0, other); // … is gone once a group is set at index 0
    expect(() => pass.dispatch(1)).toThrow(
      /Slot 0 \(uniform "params"\) of pipeline "scale" has nothing bound/,
    );
  });

  it('a draw without a group the pipeline uses names the slot and the call', () => {
    const { device, pipeline, params } = setup();
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setUniformBuffer(0, params);
    expect(() => pass.dispatch(1)).toThrow(
      /Slot @group\(1\) @binding\(0\) \(storage "data"\) of pipeline "scale" has nothing bound \(setBindGroup\(1, …\)\)/,
    );
  });

  it('createBindGroup checks entries against the layout, one to one, before anything is bound', () => {
    const { device, pipeline, storage, params } = setup();
    const layout = pipeline.getBindGroupLayout(1);
    const make = (entries: Parameters<Device['createBindGroup']>[0]['entries']) => () =>
      device.createBindGroup({ label: 'g', layout, entries });
    expect(make([{ binding: 0, resource: storage('a') }])).toThrow(
      /Bind group has no entry for binding 1 \(read-only-storage "other"\)/,
    );
    expect(
      make([
        { binding: 0, resource: storage('a') },
        { binding: 1, resource: storage('b') },
        { binding: 5, resource: storage('c') },
      ]),
    ).toThrow(/entry at binding 5 is not in layout "scale group 1" \(bindings 0, 1\)/);
    expect(
      make([
        { binding: 0, resource: storage('a') },
        { binding: 0, resource: storage('b') },
      ]),
    ).toThrow(/two entries at binding 0/);
    // the usage and kind checks of slot binding, naming the group and binding
    expect(
      make([
        { binding: 0, resource: params },
        { binding: 1, resource: storage('b') },
      ]),
    ).toThrow(UsageError);
    const tex = device.createTexture({
      size: { width: 1, height: 1 },
      format: 'rgba8unorm',
      usage: TextureUsage.TEXTURE_BINDING,
    });
    expect(
      make([
        { binding: 0, resource: tex as never },
        { binding: 1, resource: storage('b') },
      ]),
    ).toThrow(/createBindGroup "g" binding 0 takes a Buffer, got a Texture/);
    expect(
      make([
        { binding: 0, resource: { buffer: storage('a'), offset: 4 } },
        { binding: 1, resource: storage('b') },
      ]),
    ).toThrow(
      /storage-offset-alignment|must be a multiple of limits.minStorageBufferOffsetAlignment/,
    );
    expect(() => device.createBindGroup({ layout: {} as never, entries: [] })).toThrow(
      /needs a layout from device.createBindGroupLayout\(\) or pipeline.getBindGroupLayout\(\)/,
    );
  });

  it('setBindGroup: index 0–3, a group of this device, no dynamic offsets', () => {
    const { device, pipeline, storage } = setup();
    const group = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(1),
      entries: [
        { binding: 0, resource: storage('a') },
        { binding: 1, resource: storage('b') },
      ],
    });
    const pass = device.createCommandEncoder().beginComputePass({ label: 'p' });
    expect(() => pass.setBindGroup(4, group)).toThrow(/index 4 must be an integer from 0 to 3/);
    expect(() => pass.setBindGroup(1, group, [256])).toThrow(ValidationError);
    expect(() => pass.setBindGroup(1, group, [256])).toThrow(/Ignis has none/);
    expect(() => pass.setBindGroup(1, {} as never)).toThrow(/takes a bind group/);
    const other = setup(new NullDevice());
    const foreign = other.device.createBindGroup({
      layout: other.pipeline.getBindGroupLayout(1),
      entries: [
        { binding: 0, resource: other.storage('x') },
        { binding: 1, resource: other.storage('y') },
      ],
    });
    expect(() => pass.setBindGroup(1, foreign)).toThrow(/was created on another device/);
    expect(() => pipeline.getBindGroupLayout(7)).toThrow(/index 7 must be an integer from 0 to 3/);
  });

  it("createBindGroupLayout takes WebGPU's entry shape too (visibility ignored)", () => {
    const { device, pipeline } = setup();
    const layout = device.createBindGroupLayout({
      entries: [
        { binding: 1, visibility: 4, buffer: { type: 'read-only-storage' } },
        { binding: 0, visibility: 4, buffer: { type: 'storage' } },
      ],
    });
    expect(layout.entries).toEqual(
      pipeline.getBindGroupLayout(1).entries.map(({ name: _n, ...e }) => e),
    );
    const other = device.createBindGroupLayout({
      entries: [
        { binding: 0, buffer: {} },
        { binding: 1, texture: { sampleType: 'unfilterable-float' } },
        { binding: 2, sampler: { type: 'non-filtering' } },
        { binding: 3, storageTexture: { format: 'rgba8unorm' } },
      ],
    });
    expect(other.entries.map((e) => [e.type, e.sampleType ?? e.samplerType ?? e.format])).toEqual([
      ['uniform', undefined],
      ['texture', 'unfilterable-float'],
      ['sampler', 'non-filtering'],
      ['storage-texture', 'rgba8unorm'],
    ]);
    expect(() =>
      device.createBindGroupLayout({ entries: [{ binding: 0, visibility: 1 }] }),
    ).toThrow(/or WebGPU's buffer \/ texture \/ sampler \/ storageTexture member/);
  });

  it('a group from a read-only layout cannot feed a read_write slot (layouts compared by value)', () => {
    const { device, pipeline, storage, params } = setup();
    const readOnly = device.createBindGroupLayout({
      entries: [
        { binding: 0, type: 'read-only-storage' },
        { binding: 1, type: 'read-only-storage' },
      ],
    });
    const group = device.createBindGroup({
      layout: readOnly,
      entries: [
        { binding: 0, resource: storage('a') },
        { binding: 1, resource: storage('b') },
      ],
    });
    const pass = device.createCommandEncoder().beginComputePass();
    pass.setPipeline(pipeline);
    pass.setUniformBuffer(0, params);
    pass.setBindGroup(1, group);
    expect(() => pass.dispatch(1)).toThrow(
      /Slot @group\(1\) @binding\(0\) of pipeline "scale" is read_write in the shader but was bound with access 'read'/,
    );
    expect(() =>
      device.createBindGroupLayout({ entries: [{ binding: 0, type: 'nope' as never }] }),
    ).toThrow(/type nope/);
    expect(() =>
      device.createBindGroupLayout({
        entries: [
          { binding: 1, type: 'uniform' },
          { binding: 1, type: 'sampler' },
        ],
      }),
    ).toThrow(/two entries at binding 1/);
  });

  it('writes through a group are tracked: the next pass reading the buffer needs a barrier', () => {
    const device = new NullDevice({ barriers: 'explicit' });
    const { pipeline, storage, params } = setup(device);
    const a = storage('a');
    const b = storage('b');
    const group = (out: typeof a, src: typeof a) =>
      device.createBindGroup({
        layout: pipeline.getBindGroupLayout(1),
        entries: [
          { binding: 0, resource: out },
          { binding: 1, resource: src },
        ],
      });
    const enc = device.createCommandEncoder();
    const first = enc.beginComputePass();
    first.setPipeline(pipeline);
    first.setUniformBuffer(0, params);
    first.setBindGroup(1, group(a, b)); // writes a
    first.dispatch(1);
    first.end();
    const second = enc.beginComputePass();
    second.setPipeline(pipeline);
    second.setUniformBuffer(0, params);
    second.setBindGroup(1, group(b, a)); // reads a
    expect(() => second.dispatch(1)).toThrow(MissingBarrierError);
  });

  it('@group(4) in WGSL is over the limit (maxBindGroups)', () => {
    const device = new NullDevice();
    const module = device.createShaderModule({
      code: '@group(4) @binding(0) var<uniform> u: vec4f; @compute @workgroup_size(1) fn main() { _ = u; }',
    });
    expect(() => device.createComputePipeline({ compute: { module } })).toThrow(LimitExceededError);
  });

  it('more storage buffers in a stage than maxStorageBuffersPerShaderStage is refused by name (WebGPU would refuse it out of sight)', () => {
    const device = new NullDevice();
    const shader = (n: number): string =>
      Array.from(
        { length: n },
        (_, i) => `@group(0) @binding(${i}) var<storage, read_write> b${i}: array<f32>;`,
      ).join('\n') +
      `\n@compute @workgroup_size(1) fn main() { ${Array.from({ length: n }, (_, i) => `b${i}[0] = 1.0;`).join(' ')} }`;
    const limit = device.caps.limits.maxStorageBuffersPerShaderStage;
    expect(limit).toBe(8);
    // the limit itself is fine; one more is named with the buffers
    device.createComputePipeline({
      compute: { module: device.createShaderModule({ code: shader(limit) }) },
    });
    expect(() =>
      device.createComputePipeline({
        compute: { module: device.createShaderModule({ code: shader(limit + 1) }) },
      }),
    ).toThrow(
      /Storage buffers of the compute stage \(b0, .*b8\) 9 exceeds limits\.maxStorageBuffersPerShaderStage \(8\)/,
    );
    // a binding declared but not used by the entry point does not count (layout: 'auto')
    const unused =
      shader(limit) + `\n@group(0) @binding(${limit}) var<storage, read_write> extra: array<f32>;`;
    device.createComputePipeline({
      compute: { module: device.createShaderModule({ code: unused }) },
    });
  });
});
