// The smallest Ignis program: one device (WebGPU, or WebGL2 with ?backend=webgl2 or where WebGPU
// is missing), one pipeline in the device's shader language, one triangle on the canvas.
import { createDevice, BufferUsage, type BackendRequest } from '../../src/index.js';
import wgsl from './triangle.wgsl?raw';
import vertGlsl from './triangle.vert.glsl?raw';
import fragGlsl from './triangle.frag.glsl?raw';
import { element, fitCanvas } from '../shared/ui.js';

const params = new URLSearchParams(location.search);
const canvas = element<HTMLCanvasElement>('canvas');
fitCanvas(canvas);

const device = await createDevice({
  backend: (params.get('backend') ?? 'auto') as BackendRequest,
  canvas,
});
const surface = device.surface!;
const glsl = device.caps.shaderLanguage === 'glsl';
const layout = [
  {
    arrayStride: 24,
    attributes: [
      { format: 'float32x2' as const, offset: 0, shaderLocation: 0 },
      { format: 'float32x4' as const, offset: 8, shaderLocation: 1 },
    ],
  },
];
const pipeline = glsl
  ? device.createRenderPipeline({
      label: 'triangle',
      vertex: {
        module: device.createShaderModule({ code: vertGlsl, stage: 'vertex' }),
        buffers: layout,
      },
      fragment: {
        module: device.createShaderModule({ code: fragGlsl, stage: 'fragment' }),
        targets: [{ format: surface.format }],
      },
    })
  : (() => {
      const module = device.createShaderModule({ label: 'triangle.wgsl', code: wgsl });
      return device.createRenderPipeline({
        label: 'triangle',
        vertex: { module, entryPoint: 'vs', buffers: layout },
        fragment: { module, entryPoint: 'fs', targets: [{ format: surface.format }] },
      });
    })();

const vertices = device.createBuffer({
  label: 'vertices',
  size: 3 * 24,
  usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
});
// prettier-ignore
device.queue.writeBuffer(vertices, 0, new Float32Array([
   0.0,  0.8,   1.0, 0.3, 0.1, 1,
  -0.8, -0.7,   0.1, 0.8, 0.3, 1,
   0.8, -0.7,   0.2, 0.3, 1.0, 1,
]));

async function frame(): Promise<void> {
  await device.beginFrame();
  const encoder = device.createCommandEncoder({ label: 'frame' });
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0.05, 0.05, 0.08, 1] },
    ],
  });
  pass.setPipeline(pipeline);
  pass.setVertexBuffer(0, vertices);
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
}

await frame();
const info = {
  backend: device.caps.backend,
  fallbackReason: device.fallbackReason,
  adapter: device.caps.adapter,
  features: device.caps.features,
  limits: device.caps.limits,
};
element('info').textContent =
  `${device.caps.backend} — ${device.caps.adapter.description || device.caps.adapter.architecture}`;
(window as unknown as { __result: unknown }).__result = info;
