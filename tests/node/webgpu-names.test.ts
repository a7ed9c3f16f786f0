// WebGPU code ports with its own names and shapes: each is accepted where Ignis's differ, or is a
// typed error naming Ignis's equivalent.
import { describe, expect, it } from 'vitest';
import { SPEC_BUFFER_USAGE, SPEC_TEXTURE_USAGE } from './webgpu-spec.js';
import {
  BufferUsage,
  NullDevice,
  TextureUsage,
  ValidationError,
  traceCommands,
} from '../../src/all.js';

const WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { data[id.x] = id.x; }
`;
const DRAW = /* wgsl */ `
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }
`;

describe("WebGPU's names and shapes", () => {
  it('GPUBufferUsage / GPUTextureUsage values are Ignis flags', () => {
    // the WebGPU specification's values
    expect(BufferUsage).toMatchObject(SPEC_BUFFER_USAGE);
    expect(TextureUsage).toMatchObject(SPEC_TEXTURE_USAGE);
  });
  it('dispatchWorkgroups and dispatchWorkgroupsIndirect record what dispatch does', () => {
    const d = new NullDevice();
    const pipeline = d.createComputePipeline({
      layout: 'auto',
      compute: { module: d.createShaderModule({ code: WGSL }), entryPoint: 'main' },
    });
    const enc = d.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setStorageBuffer(0, d.createBuffer({ size: 256, usage: BufferUsage.STORAGE }));
    pass.dispatchWorkgroups(2, 1);
    const indirect = d.createBuffer({ size: 12, usage: BufferUsage.INDIRECT });
    pass.dispatchWorkgroupsIndirect(indirect, 0);
    pass.end();
    const ops = traceCommands(enc.finish().commands).filter((l) => l.startsWith('dispatch'));
    expect(ops).toHaveLength(2);
    expect(ops[0]).toMatch(/dispatch 2 1 1|dispatch\(2, 1, 1\)|2 1 1/);
  });
  it("attachments take WebGPU's view and { r, g, b, a } clear colours; size takes [w, h]", () => {
    const d = new NullDevice();
    const color = d.createTexture({
      size: [8, 4],
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    expect([color.width, color.height]).toEqual([8, 4]);
    const depth = d.createTexture({
      size: { width: 8, height: 4, depthOrArrayLayers: 1 },
      format: 'depth24plus',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const module = d.createShaderModule({ code: DRAW });
    const pipeline = d.createRenderPipeline({
      layout: 'auto',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
      depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'less' },
    });
    const enc = d.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [
        {
          view: color,
          loadOp: 'clear',
          storeOp: 'store',
          clearValue: { r: 0, g: 0.5, b: 1, a: 1 },
        },
      ],
      depthStencilAttachment: { view: depth, depthLoadOp: 'clear', depthClearValue: 1 },
    });
    pass.setPipeline(pipeline);
    pass.draw(3);
    pass.end();
    const begin = enc.finish().commands[0];
    expect(begin?.type === 'beginRenderPass' && begin.pass.colorAttachments[0]?.clearValue).toEqual(
      [0, 0.5, 1, 1],
    );
  });
  it('what Ignis does not take is a typed error naming what it takes', () => {
    const d = new NullDevice();
    const t = d.createTexture({
      size: [4, 4],
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const other = d.createTexture({
      size: [4, 4],
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    expect(() =>
      d.createTexture({
        size: [4, 4, 6],
        format: 'rgba8unorm',
        usage: TextureUsage.TEXTURE_BINDING,
      }),
    ).toThrow(/depthOrArrayLayers 6: Ignis textures are 2D/);
    expect(() =>
      d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: t, view: other }] }),
    ).toThrow(ValidationError);
    expect(() =>
      d.createCommandEncoder().beginRenderPass({
        colorAttachments: [{ view: {} as never }],
      }),
    ).toThrow(/takes a Texture/);
    const module = d.createShaderModule({ code: WGSL });
    expect(() =>
      d.createComputePipeline({ layout: {} as never, compute: { module, entryPoint: 'main' } }),
    ).toThrow(/layout: 'auto', or leave it out/);
  });
});

describe("layout 'auto': only what the entry points use", () => {
  it('one module with compute, vertex and fragment entry points: each pipeline binds only its own resources', () => {
    const d = new NullDevice();
    const module = d.createShaderModule({
      code: /* wgsl */ `
struct Params { scale: f32, offset: f32, pad0: f32, pad1: f32 }
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@group(0) @binding(1) var<uniform> params: Params;
fn scaled(x: f32) -> f32 { return x * params.scale; }
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { data[id.x] = f32(id.x); }
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(scaled(1.0), 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }
`,
    });
    const compute = d.createComputePipeline({ compute: { module, entryPoint: 'main' } });
    const render = d.createRenderPipeline({
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    expect(compute.bindings.map((b) => `${b.binding}:${b.type}`)).toEqual(['0:storage']);
    // the vertex stage reads params through a function it calls
    expect(render.bindings.map((b) => `${b.binding}:${b.type}`)).toEqual(['1:uniform']);
    const t = d.createTexture({
      size: [4, 4],
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const pass = d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: t }] });
    pass.setPipeline(render);
    pass.setUniformBuffer(1, d.createBuffer({ size: 16, usage: BufferUsage.UNIFORM }));
    expect(() => pass.draw(3)).not.toThrow(); // nothing at slot 0: the draw does not use it
  });
});
