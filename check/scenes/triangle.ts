// The smallest scene for ignis-check: one triangle in the device's shading language, the same on
// every rung. (A scene is any module that exports `create`: check/scene.ts.)
import { BufferUsage, type Device } from 'ignis-rhi';
import type { Scene } from 'ignis-rhi/testing';

const WGSL = /* wgsl */ `
@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.55, 0.1, 1.0); }`;
const VS = `#version 300 es
in vec2 p;
void main() { gl_Position = vec4(p, 0.0, 1.0); }`;
const FS = `#version 300 es
precision highp float;
out vec4 color;
void main() { color = vec4(1.0, 0.55, 0.1, 1.0); }`;

export function create(device: Device): Scene {
  const surface = device.surface!;
  const buffers = [
    {
      arrayStride: 8,
      attributes: [{ format: 'float32x2' as const, offset: 0, shaderLocation: 0 }],
    },
  ];
  const targets = [{ format: surface.format }];
  const pipeline =
    device.caps.shaderLanguage === 'wgsl'
      ? (() => {
          const module = device.createShaderModule({ code: WGSL });
          return device.createRenderPipeline({
            vertex: { module, entryPoint: 'vs', buffers },
            fragment: { module, entryPoint: 'fs', targets },
          });
        })()
      : device.createRenderPipeline({
          vertex: { module: device.createShaderModule({ code: VS, stage: 'vertex' }), buffers },
          fragment: {
            module: device.createShaderModule({ code: FS, stage: 'fragment' }),
            targets,
          },
        });
  const vertices = device.createBuffer({
    size: 24,
    usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(vertices, 0, new Float32Array([0, 0.8, -0.8, -0.7, 0.8, -0.7]));
  return {
    frame() {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginRenderPass({
        colorAttachments: [
          {
            texture: surface.getCurrentTexture(),
            loadOp: 'clear',
            clearValue: [0.05, 0.05, 0.1, 1],
          },
        ],
      });
      pass.setPipeline(pipeline);
      pass.setVertexBuffer(0, vertices);
      pass.draw(3);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      vertices.destroy();
      pipeline.destroy();
    },
  };
}
