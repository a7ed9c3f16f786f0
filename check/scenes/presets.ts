// The particles demo's presets as an ignis-check scene (demos/particles/presets.ts): fireworks
// (emission over time: a trickle, a shell burst, a crackle of repeated bursts, a looping cycle),
// sparks (velocity-aligned streaks), fire (a flipbook of flame sprites, turning) and smoke (alpha
// puffs sorted back to front every frame), each on the
// rung's particle path, so the check compares images and states between WebGPU compute, the
// fragment ping-pong and the CPU. ?params: preset (fireworks), count, seed, sort (0: smoke
// unsorted, for the docs' side-by-side picture); for the benchmark's presets suite also path (the
// rung's), draw (instanced; `auto` decides before the first measured frame) and preroll
// (update-only steps of 0.1 s first).
import type { Device } from 'ignis-rhi';
import {
  createParticleSystem,
  orbitCamera,
  type DrawMode,
  type ParticleOptions,
} from 'ignis-rhi/particles';
import {
  DEBRIS_VIEW,
  debris,
  fire,
  fireworks,
  flameSheet,
  puffTexture,
  puffNormalTexture,
  shapes,
  smoke,
  sparks,
  swirl,
} from '../../demos/particles/presets.js';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const count = Number(params['count'] ?? 3000);
  const seed = Number(params['seed'] ?? 1);
  const preset = String(params['preset'] ?? 'fireworks');
  const sheet =
    preset === 'fire' ? flameSheet(device) : preset === 'smoke' ? puffTexture(device) : null;
  const options =
    preset === 'fireworks'
      ? fireworks(count, seed)
      : preset === 'sparks'
        ? sparks(count, seed)
        : preset === 'swirl'
          ? swirl(count, seed)
          : preset === 'shapes'
            ? shapes(count, seed)
            : preset === 'debris'
              ? debris(count, seed)
              : preset === 'fire' && sheet
                ? fire(count, sheet, seed)
                : preset === 'smoke' && sheet
                  ? smoke(count, sheet, puffNormalTexture(device), seed)
                  : null;
  if (!options)
    throw new Error(
      `unknown preset ${preset}: fireworks, sparks, swirl, shapes, debris, fire or smoke`,
    );
  const ps = await createParticleSystem(device, {
    ...options,
    drawMode: (params['draw'] ?? 'instanced') as DrawMode,
    ...(params['path'] !== undefined ? { path: params['path'] as ParticleOptions['path'] } : {}),
    ...(params['sort'] !== undefined ? { sort: Number(params['sort']) === 1 } : {}),
  });
  // the fireworks close up; sparks and fire as the demo frames them
  const camera = orbitCamera({
    aspect: canvas.width / canvas.height,
    ...(preset === 'fireworks' ? { distance: 12, target: [0, -3.5, 0] as const } : {}),
    ...(preset === 'debris' ? DEBRIS_VIEW : {}),
  });
  const surface = device.surface!;
  for (let i = 0, steps = Number(params['preroll'] ?? 0); i < steps; i += 10) {
    const encoder = device.createCommandEncoder({ label: 'particles preroll' });
    for (let k = i; k < Math.min(steps, i + 10); k++) ps.update(encoder, 0.1);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
  const scene: Scene = {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      ps.update(encoder, dt);
      const target = surface.getCurrentTexture();
      // smoke sorts its puffs here (a no-op for the others' instanced draws)
      ps.prepareDraw(encoder, camera, target);
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      ps.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      ps.destroy();
      sheet?.destroy();
    },
    read: async () => (await ps.read()).position,
    info: async () => ({
      path: ps.path,
      pathReason: ps.reason,
      drawn: ps.drawMode,
      drawModeReason: ps.drawModeReason,
      alive: (await ps.stats()).alive,
    }),
  };
  if (params['draw'] === 'auto') {
    // 'auto' measures the modes at its first draw: decide before the kit's frames (and timings)
    scene.frame(1 / 60);
    await ps.drawModeDecided;
  }
  return scene;
}
