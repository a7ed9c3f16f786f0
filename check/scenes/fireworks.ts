// The firework show (demos/fireworks/show.ts) as an ignis-check scene: rockets, their stars and the
// stars' crackle — events and sub-emitters — on the rung's particle path, so the check compares
// images and states between WebGPU compute, the fragment ping-pong and the CPU. ?params: show
// (fireworks, or rain: drops that splash where they land, the floor's events).
import type { Device } from 'ignis-rhi';
import { orbitCamera } from 'ignis-rhi/particles';
import type { Scene, SceneParams } from 'ignis-rhi/testing';
import { VIEWS, fireworkShow, rainShow } from '../../demos/fireworks/show.js';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const name = params['show'] === 'rain' ? 'rain' : 'fireworks';
  const systems = await (name === 'rain' ? rainShow : fireworkShow)(device, {
    drawMode: 'instanced',
  });
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, ...VIEWS[name] });
  const surface = device.surface!;
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      // parents first: each sub-emitter reads the events its parent's step recorded
      for (const ps of systems) ps.update(encoder, dt);
      const target = surface.getCurrentTexture();
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      for (const ps of systems) ps.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      for (const ps of systems.reverse()) ps.destroy();
    },
    read: async () => {
      const states = await Promise.all(systems.map(async (ps) => (await ps.read()).position));
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
