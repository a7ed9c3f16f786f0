// The cross-backend pixel-equality scenes: each renders 64×64 RGBA8 on any backend.
import {
  BufferUsage,
  TextureUsage,
  type Device,
  type AddressMode,
  type FilterMode,
  type BlendState,
} from '../../../src/all.js';
import { SIZE, createScenePipeline, pixel, renderScene, target, vertexBuffer } from './scenes.js';

export interface Scene {
  name: string;
  /** Pixels allowed to differ by more than 1/255 (MSAA edges), stated per scene. */
  edgePixels?: number;
  render(device: Device): Promise<Uint8Array[]>;
}

// a triangle whose edges avoid pixel centres, so rasterisation tie-break rules cannot differ
const TRI = [-0.9, 0.95, 1, 0.2, 0.1, 1, 0.93, 0.81, 0.1, 1, 0.3, 1, -0.7, -0.88, 0.2, 0.3, 1, 1];
const QUAD_VERTS = [
  -0.53, -0.47, 1, 0, 0, 1, 0.51, -0.49, 0, 1, 0, 1, 0.49, 0.52, 0, 0, 1, 1, -0.5, 0.48, 1, 1, 1, 1,
];
const FULL = [-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1];

async function triangle(
  device: Device,
  blend?: BlendState,
  clear: [number, number, number, number] = [0, 0, 0, 1],
  verts = TRI,
): Promise<Uint8Array> {
  const pipeline = createScenePipeline(device, { program: 'color', blend });
  const vb = vertexBuffer(device, verts);
  return renderScene(device, clear, (pass) => {
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, vb);
    pass.draw(verts.length / 6);
  });
}

function checker(device: Device): ReturnType<Device['createTexture']> {
  const t = device.createTexture({
    label: 'checker',
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  const data = new Uint8Array(4 * 4 * 4);
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      const i = (y * 4 + x) * 4;
      data.set([x * 80, y * 80, (x + y) % 2 ? 255 : 0, 255], i);
    }
  // rows 32 bytes apart (16 used): writeTexture honours bytesPerRow
  const padded = new Uint8Array(32 * 4);
  for (let y = 0; y < 4; y++) padded.set(data.subarray(y * 16, y * 16 + 16), y * 32);
  device.queue.writeTexture({ texture: t }, padded, { bytesPerRow: 32 }, { width: 4, height: 4 });
  return t;
}

async function textured(
  device: Device,
  filter: FilterMode,
  address: AddressMode,
): Promise<Uint8Array> {
  const pipeline = createScenePipeline(device, { program: 'textured' });
  const vb = vertexBuffer(device, FULL);
  const tex = checker(device);
  const sampler = device.createSampler({
    magFilter: filter,
    minFilter: filter,
    addressModeU: address,
    addressModeV: address,
  });
  const params = device.createBuffer({
    label: 'params',
    size: 16,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(params, 0, new Float32Array([2.1, 2.1, -0.55, -0.55]));
  return renderScene(device, [0, 0, 0, 1], (pass) => {
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, vb);
    pass.setTexture(0, tex);
    pass.setSampler(1, sampler);
    pass.setUniformBuffer(2, params);
    pass.draw(6);
  });
}

export const SCENES: Scene[] = [
  { name: 'clear', render: async (d) => [await renderScene(d, [0.25, 0.5, 0.75, 1], () => {})] },
  { name: 'triangle', render: async (d) => [await triangle(d)] },
  {
    name: 'indexed quad',
    async render(device) {
      const pipeline = createScenePipeline(device, { program: 'color' });
      const vb = vertexBuffer(device, QUAD_VERTS);
      const ib = device.createBuffer({
        label: 'indices',
        size: 12,
        usage: BufferUsage.INDEX | BufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(ib, 0, new Uint16Array([0, 1, 2, 0, 2, 3]));
      return [
        await renderScene(device, [0, 0, 0, 1], (pass) => {
          pass.setPipeline(pipeline);
          pass.setVertexBuffer(0, vb);
          pass.setIndexBuffer(ib, 'uint16');
          pass.drawIndexed(6);
        }),
      ];
    },
  },
  ...(['nearest', 'linear'] as const).flatMap((filter) =>
    (['clamp-to-edge', 'repeat', 'mirror-repeat'] as const).map((address) => ({
      name: `textured quad ${filter} ${address}`,
      render: async (d: Device) => [await textured(d, filter, address)],
    })),
  ),
  {
    name: 'additive blending',
    render: async (d) => {
      const add: BlendState = {
        color: { srcFactor: 'one', dstFactor: 'one' },
        alpha: { srcFactor: 'one', dstFactor: 'one' },
      };
      const two = [
        ...TRI.map((v, i) => (i % 6 < 2 ? v : v * 0.5)),
        ...TRI.map((v, i) => (i % 6 === 0 ? -v : i % 6 < 2 ? v : v * 0.5)),
      ];
      return [await triangle(d, add, [0.1, 0.1, 0.1, 1], two)];
    },
  },
  {
    name: 'premultiplied-alpha blending',
    render: async (d) => {
      const over: BlendState = {
        color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
        alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
      };
      const half = TRI.map((v, i) => (i % 6 < 2 ? v : i % 6 === 5 ? 0.5 : v * 0.5));
      return [await triangle(d, over, [0.2, 0.6, 0.2, 1], half)];
    },
  },
  {
    name: 'instanced draw with per-instance attributes',
    async render(device) {
      const pipeline = createScenePipeline(device, { program: 'instanced' });
      const shape = vertexBuffer(device, [-0.21, -0.19, 0.22, -0.2, 0.01, 0.23], 'shape');
      const instances = vertexBuffer(
        device,
        [
          -0.5, 0.5, 1, 0, 0, 1, 0.5, 0.5, 0, 1, 0, 1, -0.5, -0.5, 0, 0, 1, 1, 0.5, -0.5, 1, 1, 0,
          1,
        ],
        'instances',
      );
      const all = await renderScene(device, [0, 0, 0, 1], (pass) => {
        pass.setPipeline(pipeline);
        pass.setVertexBuffer(0, shape);
        pass.setVertexBuffer(1, instances);
        pass.draw(3, 4);
      });
      const skipFirst = await renderScene(device, [0, 0, 0, 1], (pass) => {
        pass.setPipeline(pipeline);
        pass.setVertexBuffer(0, shape);
        pass.setVertexBuffer(1, instances);
        pass.draw(3, 3, 0, 1);
      });
      return [all, skipFirst];
    },
  },
  {
    name: 'two color attachments',
    async render(device) {
      const pipeline = createScenePipeline(device, {
        program: 'mrt',
        formats: ['rgba8unorm', 'rgba8unorm'],
      });
      const vb = vertexBuffer(device, TRI);
      const a = target(device, 'rgba8unorm', 1, 'mrt-a');
      const b = target(device, 'rgba8unorm', 1, 'mrt-b');
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: [
          { texture: a, loadOp: 'clear', clearValue: [0, 0, 0, 1] },
          { texture: b, loadOp: 'clear', clearValue: [0, 0, 0, 0] },
        ],
      });
      pass.setPipeline(pipeline);
      pass.setVertexBuffer(0, vb);
      pass.draw(3);
      pass.end();
      device.queue.submit([enc.finish()]);
      return [(await a.read()) as Uint8Array, (await b.read()) as Uint8Array];
    },
  },
  {
    name: 'MSAA resolve',
    edgePixels: 64,
    async render(device) {
      const pipeline = createScenePipeline(device, { program: 'color', sampleCount: 4 });
      const vb = vertexBuffer(device, TRI);
      const ms = target(device, 'rgba8unorm', 4, 'msaa');
      const resolved = target(device, 'rgba8unorm', 1, 'resolved');
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: [
          {
            texture: ms,
            resolveTarget: resolved,
            loadOp: 'clear',
            clearValue: [0, 0, 0, 1],
            storeOp: 'discard',
          },
        ],
      });
      pass.setPipeline(pipeline);
      pass.setVertexBuffer(0, vb);
      pass.draw(3);
      pass.end();
      device.queue.submit([enc.finish()]);
      return [(await resolved.read()) as Uint8Array];
    },
  },
  {
    name: 'depth test (less and greater) and clip-space z',
    async render(device) {
      // a far red triangle drawn first and a near green one drawn second, overlapping
      const verts = [
        -0.8, -0.7, 0.7, 1, 0, 0, 1, 0.6, -0.75, 0.7, 1, 0, 0, 1, -0.1, 0.85, 0.7, 1, 0, 0, 1, -0.6,
        0.8, 0.3, 0, 1, 0, 1, 0.85, 0.55, 0.3, 0, 1, 0, 1, 0.05, -0.9, 0.3, 0, 1, 0, 1,
        // behind the near plane of WebGPU's clip space (z < 0): clipped on every backend
        -0.95, -0.95, -0.5, 0, 0, 1, 1, 0.95, -0.95, -0.5, 0, 0, 1, 1, 0, 0.95, -0.5, 0, 0, 1, 1,
      ];
      const out: Uint8Array[] = [];
      for (const depthCompare of ['less', 'greater'] as const) {
        const pipeline = createScenePipeline(device, { program: 'color3d', depthCompare });
        const vb = vertexBuffer(device, verts);
        const color = target(device);
        const depth = device.createTexture({
          label: 'depth',
          size: { width: SIZE, height: SIZE },
          format: 'depth24plus',
          usage: TextureUsage.RENDER_ATTACHMENT,
        });
        const enc = device.createCommandEncoder();
        const pass = enc.beginRenderPass({
          colorAttachments: [{ texture: color, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          depthStencilAttachment: {
            texture: depth,
            depthLoadOp: 'clear',
            depthClearValue: depthCompare === 'less' ? 1 : 0,
          },
        });
        pass.setPipeline(pipeline);
        pass.setVertexBuffer(0, vb);
        pass.draw(9);
        pass.end();
        device.queue.submit([enc.finish()]);
        const img = (await color.read()) as Uint8Array;
        for (let p = 0; p < img.length; p += 4)
          if ((img[p + 2] as number) > 0)
            throw new Error(
              `clip-space z < 0 was drawn at pixel ${p / 4} on ${device.caps.backend}`,
            );
        out.push(img);
      }
      return out;
    },
  },
  {
    name: 'indexed draw with uint32 indices, base vertex and first index',
    async render(device) {
      const pipeline = createScenePipeline(device, { program: 'color' });
      // 4 dummy vertices, then the quad: base vertex 4 skips the dummies
      const dummy = [0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1];
      const vb = vertexBuffer(device, [...dummy, ...QUAD_VERTS]);
      const ib = device.createBuffer({
        label: 'indices32',
        size: 36,
        usage: BufferUsage.INDEX | BufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(ib, 0, new Uint32Array([9, 9, 9, 0, 1, 2, 0, 2, 3]));
      return [
        await renderScene(device, [0, 0, 0, 1], (pass) => {
          pass.setPipeline(pipeline);
          pass.setVertexBuffer(0, vb);
          pass.setIndexBuffer(ib, 'uint32');
          pass.drawIndexed(6, 1, 3, 4);
        }),
      ];
    },
  },
  {
    name: 'scissor and viewport',
    async render(device) {
      const pipeline = createScenePipeline(device, { program: 'color' });
      const vb = vertexBuffer(device, TRI);
      return [
        await renderScene(device, [0, 0, 0, 1], (pass) => {
          pass.setPipeline(pipeline);
          pass.setVertexBuffer(0, vb);
          pass.setViewport(8, 4, 40, 32);
          pass.draw(3);
          pass.setViewport(0, 0, SIZE, SIZE);
          pass.setScissorRect(30, 40, 20, 12);
          pass.draw(3);
        }),
      ];
    },
  },
];

export { pixel };
