// The webgpu-samples flock (demos/compute-boids) as an ignis-check scene: it needs compute, so the
// rungs without it are skipped, saying so. ?params: count.
import type { Device } from 'ignis-rhi';
import { Boids } from '../../demos/compute-boids/boids.js';
import type { Scene, SceneNeeds, SceneParams } from 'ignis-rhi/testing';

export const needs: SceneNeeds = ['compute'];

export function create(device: Device, _canvas: HTMLCanvasElement, params: SceneParams): Scene {
  const surface = device.surface!;
  const boids = new Boids(device, Number(params['count'] ?? 1024), surface.format);
  return {
    frame() {
      const encoder = device.createCommandEncoder();
      boids.step(encoder);
      const pass = encoder.beginRenderPass({
        colorAttachments: [
          { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
        ],
      });
      boids.render(pass);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy: () => boids.destroy(),
    read: () => boids.read(),
  };
}
