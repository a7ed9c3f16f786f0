// The particle system as an ignis-check / ignis-bench scene: each rung takes its own path
// (compute, ping-pong at f32 or f16, CPU), so the check compares the fallbacks' images and states.
// `npm run bench`'s particle suite is ignis-bench over this scene (bench/runner.mjs).
// ?params: count, seed, draw (instanced, pulled, splat, auto), path (auto, compute, pingpong, cpu:
// the rung's best by default), preroll (update-only steps of 0.1 s before the first frame, to reach
// the fountain's steady state), sort (1: alpha blending, sorted back to front every frame; 0:
// alpha unsorted; absent: the default additive look), trail (N: ribbons of the last N positions),
// alive (a fraction: emission at alive × count per second, every life 1 s, so that share of the
// slots is alive in the steady state; absent: continuous, all alive), compact (0 or 1: draws of
// the living only, options.compact; absent: 'auto').
import type { Device } from 'ignis-rhi';
import {
  createParticleSystem,
  orbitCamera,
  type DrawMode,
  type ParticleOptions,
} from 'ignis-rhi/particles';
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
    path: (params['path'] ?? 'auto') as ParticleOptions['path'],
    ...(params['sort'] !== undefined
      ? { blending: 'alpha' as const, sort: Number(params['sort']) === 1 }
      : {}),
    // a ribbon through each particle's last `trail` positions (the trails suite)
    ...(Number(params['trail'] ?? 0) > 0 ? { trail: { length: Number(params['trail']) } } : {}),
    // a share of the slots alive (the living suite): one-second lives emitted at alive × count/s
    ...(params['alive'] !== undefined
      ? {
          emitRate: Number(params['alive']) * Number(params['count'] ?? 4096),
          lifeMin: 1,
          lifeMax: 1,
        }
      : {}),
    ...(params['compact'] !== undefined ? { compact: Number(params['compact']) === 1 } : {}),
  });
  const camera = orbitCamera({ aspect: canvas.width / canvas.height });
  const surface = device.surface!;
  for (let i = 0, steps = Number(params['preroll'] ?? 0); i < steps; i += 10) {
    const encoder = device.createCommandEncoder({ label: 'particles preroll' });
    for (let k = i; k < Math.min(steps, i + 10); k++) ps.update(encoder, 0.1);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
  const frame = (dt: number): void => {
    const encoder = device.createCommandEncoder({ label: 'particles frame' });
    ps.update(encoder, dt);
    const target = surface.getCurrentTexture();
    // the splat draw mode accumulates here, before the pass (a no-op for the raster modes)
    ps.prepareDraw(encoder, camera, target);
    const pass = encoder.beginRenderPass({
      label: 'particles draw',
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    ps.draw(pass, camera);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
  if (params['draw'] === 'auto') {
    // 'auto' measures the modes at its first draw: decide before the kit's frames (and timings)
    frame(1 / 60);
    await ps.drawModeDecided;
  }
  return {
    frame,
    destroy: () => ps.destroy(),
    read: async () => (await ps.read()).position,
    info: async () => ({
      path: ps.path,
      pathReason: ps.reason,
      drawn: ps.drawMode,
      drawModeReason: ps.drawModeReason,
      alive: (await ps.stats()).alive,
    }),
  };
}
