// The scene-effects demo as an ignis-check scene (demos/scene-effects/scene.ts): sparks and lit
// mesh shards born on a turning torus, carried by a curl-noise wind, landing on a heightfield —
// a mesh, a field and a heightfield read side by side by each system, on the rung's path. The
// state compared is both systems' positions, concatenated. ?params: sparks (2000), shards (300).
import { TextureUsage, type Device, type Texture } from 'ignis-rhi';
import type { Scene, SceneParams } from 'ignis-rhi/testing';
import { createSceneEffects } from '../../demos/scene-effects/scene.js';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const scene = await createSceneEffects(device, {
    format: device.surface!.format,
    sparks: Number(params['sparks'] ?? 2000),
    shards: Number(params['shards'] ?? 300),
  });
  const camera = scene.camera(canvas.width / canvas.height);
  const surface = device.surface!;
  let depth: Texture | undefined;
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      scene.update(encoder, dt);
      const target = surface.getCurrentTexture();
      scene.prepare(encoder, camera, target);
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
        depthStencilAttachment: {
          texture: (depth ??= device.createTexture({
            label: 'scene effects depth',
            size: { width: target.width, height: target.height },
            format: 'depth24plus',
            usage: TextureUsage.RENDER_ATTACHMENT,
          })),
          depthLoadOp: 'clear',
          depthClearValue: 1,
          depthStoreOp: 'discard',
        },
      });
      scene.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      scene.destroy();
      depth?.destroy();
    },
    read: async () => {
      const [a, b] = [await scene.sparks.read(), await scene.shards.read()];
      const both = new Float32Array(a.position.length + b.position.length);
      both.set(a.position);
      both.set(b.position, a.position.length);
      return both;
    },
    info: async () => ({
      path: scene.sparks.path,
      pathReason: scene.sparks.reason,
      drawn: `${scene.sparks.drawMode} + ${scene.shards.drawMode}`,
      drawModeReason: scene.shards.drawModeReason,
      alive: (await scene.sparks.stats()).alive + (await scene.shards.stats()).alive,
    }),
  };
}
