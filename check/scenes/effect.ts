// A shipped effect file (effects/*.json) as an ignis-check scene: loaded with loadEffect, its
// systems on the rung's particle path, so the check compares images and states between WebGPU
// compute, the fragment ping-pong and the CPU for the file itself. ?params: effect (fireworks,
// sparks, swirl, shapes, fire, smoke, firework-show, rain).
import type { Device } from 'ignis-rhi';
import { orbitCamera } from 'ignis-rhi/particles';
import { loadEffect } from 'ignis-rhi/effects';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

const FILES = import.meta.glob<string>('../../effects/*.json', {
  query: '?url',
  import: 'default',
  eager: true,
});

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const name = String(params['effect'] ?? 'fireworks');
  const url = Object.entries(FILES).find(([file]) => file.endsWith(`/${name}.json`))?.[1];
  if (!url)
    throw new Error(
      `no effect ${name}: the effects are ${Object.keys(FILES)
        .map((f) => f.replace(/^.*\/|\.json$/g, ''))
        .join(', ')}`,
    );
  const effect = await loadEffect(device, url, { drawMode: 'instanced' });
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, ...effect.camera });
  const surface = device.surface!;
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      effect.update(encoder, dt);
      const target = surface.getCurrentTexture();
      effect.prepareDraw(encoder, camera, target);
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      effect.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      effect.destroy();
    },
    read: async () => {
      const states = await Promise.all(
        effect.systems.map(async (ps) => (await ps.read()).position),
      );
      const all = new Float32Array(states.reduce((n, s) => n + s.length, 0));
      let at = 0;
      for (const s of states) {
        all.set(s, at);
        at += s.length;
      }
      return all;
    },
  };
}
