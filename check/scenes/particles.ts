// The particle system as an ignis-check scene: each rung takes its own path (compute, ping-pong at
// f32 or f16, CPU), so the check compares the fallbacks' images and states. ?params: count, seed,
// draw (a draw mode: instanced, pulled, splat, auto).
import type { Device } from 'ignis-rhi';
import { createParticleSystem, orbitCamera, type DrawMode } from 'ignis-rhi/particles';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const ps = await createParticleSystem(device, {
    count: Number(params['count'] ?? 4096),
    seed: Number(params['seed'] ?? 1),
    // instanced by default: the mode every rung has, so the rungs' images compare
    drawMode: (params['draw'] ?? 'instanced') as DrawMode,
  });
  const camera = orbitCamera({ aspect: canvas.width / canvas.height });
  const surface = device.surface!;
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      ps.update(encoder, dt);
      const target = surface.getCurrentTexture();
      // the splat draw mode accumulates here, before the pass (a no-op for the raster modes)
      ps.prepareDraw(encoder, camera, target);
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
