// Scenes drawn straight into the canvas surface, for page screenshots compared across backends:
// the cases where a canvas used to be special on WebGL2 (depth, MSAA resolve, MRT).
import { TextureUsage, type Device, type Texture } from '../../../src/all.js';
import { createScenePipeline, vertexBuffer } from './scenes.js';

// a triangle whose edges avoid pixel centres, with a different colour per vertex (orientation shows)
const TRI = [-0.9, 0.95, 1, 0.2, 0.1, 1, 0.93, 0.81, 0.1, 1, 0.3, 1, -0.7, -0.88, 0.2, 0.3, 1, 1];

export type CanvasSceneName = 'depth' | 'msaa' | 'mrt';

/** Draws `name` into `device.surface`; returns the second MRT attachment's texels where there is one. */
export async function drawCanvasScene(
  device: Device,
  name: CanvasSceneName,
): Promise<number[] | null> {
  const surface = device.surface!;
  const size = { width: surface.width, height: surface.height };
  const enc = device.createCommandEncoder({ label: `canvas ${name}` });
  let extra: Texture | null = null;
  if (name === 'depth') {
    // a near green triangle in the upper left drawn first, then a far red quad over everything:
    // with depth the green stays in front
    const pipeline = createScenePipeline(device, {
      program: 'color3d',
      depthCompare: 'less',
      formats: [surface.format],
    });
    // prettier-ignore
    const vb = vertexBuffer(device, [
      -0.9, 0.9, 0.3, 0, 1, 0, 1,   0.2, 0.9, 0.3, 0, 1, 0, 1,   -0.9, -0.2, 0.3, 0, 1, 0, 1,
      -1, -1, 0.7, 1, 0, 0, 1,   1, -1, 0.7, 1, 0, 0, 1,   1, 1, 0.7, 1, 0, 0, 1,
      -1, -1, 0.7, 1, 0, 0, 1,   1, 1, 0.7, 1, 0, 0, 1,   -1, 1, 0.7, 1, 0, 0, 1,
    ]);
    const depth = device.createTexture({
      label: 'depth',
      size,
      format: 'depth24plus',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const pass = enc.beginRenderPass({
      colorAttachments: [
        { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0.2, 1] },
      ],
      depthStencilAttachment: { texture: depth, depthLoadOp: 'clear', depthClearValue: 1 },
    });
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, vb);
    pass.draw(9);
    pass.end();
  } else if (name === 'msaa') {
    const pipeline = createScenePipeline(device, {
      program: 'color',
      sampleCount: 4,
      formats: [surface.format],
    });
    const ms = device.createTexture({
      label: 'msaa',
      size,
      format: surface.format,
      usage: TextureUsage.RENDER_ATTACHMENT,
      sampleCount: 4,
    });
    const pass = enc.beginRenderPass({
      colorAttachments: [
        {
          texture: ms,
          resolveTarget: surface.getCurrentTexture(),
          loadOp: 'clear',
          clearValue: [0, 0, 0, 1],
          storeOp: 'discard',
        },
      ],
    });
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, vertexBuffer(device, TRI));
    pass.draw(3);
    pass.end();
  } else {
    const pipeline = createScenePipeline(device, {
      program: 'mrt',
      formats: [surface.format, 'rgba8unorm'],
    });
    extra = device.createTexture({
      label: 'mrt-b',
      size,
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
    });
    const pass = enc.beginRenderPass({
      colorAttachments: [
        { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
        { texture: extra, loadOp: 'clear', clearValue: [0, 0, 0, 0] },
      ],
    });
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, vertexBuffer(device, TRI));
    pass.draw(3);
    pass.end();
  }
  device.queue.submit([enc.finish()]);
  const second = extra ? Array.from((await extra.read()) as Uint8Array) : null;
  await device.queue.onSubmittedWorkDone();
  return second;
}
