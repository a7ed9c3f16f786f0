// Fireworks as an ignis-check scene: emission over time (a trickle, a shell burst, a crackle of
// repeated bursts, a looping cycle) on each rung's particle path, so the check compares the
// emitting system's images and states between WebGPU compute, the fragment ping-pong and the CPU.
// ?params: count, seed.
import type { Device } from 'ignis-rhi';
import { createParticleSystem, orbitCamera } from 'ignis-rhi/particles';
import { fireworks } from '../../demos/particles/presets.js';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const ps = await createParticleSystem(device, {
    ...fireworks(Number(params['count'] ?? 3000), Number(params['seed'] ?? 1)),
    drawMode: 'instanced',
  });
  const camera = orbitCamera({
    aspect: canvas.width / canvas.height,
    distance: 12,
    target: [0, -3.5, 0],
  });
  const surface = device.surface!;
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      ps.update(encoder, dt);
      const target = surface.getCurrentTexture();
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      ps.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy: () => ps.destroy(),
    read: async () => (await ps.read()).position,
  };
}
