// The particle fountain through the post-process chain (bloom, AgX, grading) as an ignis-check
// scene: each rung takes its own particle path and post path (compute or fragment passes, f16 or
// 8-bit HDR targets), so the check compares the whole frame of every fallback. ?params: count.
import type { Device } from 'ignis-rhi';
import { createParticleSystem, orbitCamera } from 'ignis-rhi/particles';
import { bloom, createPostProcess, grade, toneMap } from 'ignis-rhi/postfx';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const ps = await createParticleSystem(device, {
    count: Number(params['count'] ?? 4096),
    drawMode: 'instanced',
  });
  const post = createPostProcess(device, {
    width: canvas.width,
    height: canvas.height,
    effects: [bloom(), toneMap({ operator: 'agx' }), grade()],
  });
  const camera = orbitCamera({ aspect: canvas.width / canvas.height });
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      ps.update(encoder, dt);
      ps.prepareDraw(encoder, camera, post.target);
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: post.target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      ps.draw(pass, camera);
      pass.end();
      post.apply(encoder, device.surface!.getCurrentTexture());
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      post.destroy();
      ps.destroy();
    },
  };
}
