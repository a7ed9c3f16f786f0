// The particle system as an ignis-check / ignis-bench scene: each rung takes its own path
// (compute, ping-pong at f32 or f16, CPU), so the check compares the fallbacks' images and states.
// `npm run bench`'s particle suite is ignis-bench over this scene (bench/runner.mjs).
// ?params: count, seed, draw (instanced, pulled, splat, auto), path (auto, compute, pingpong, cpu:
// the rung's best by default), preroll (update-only steps of 0.1 s before the first frame, to reach
// the fountain's steady state), sort (1: alpha blending, sorted back to front every frame; 0:
// alpha unsorted; absent: the default additive look), trail (N: ribbons of the last N positions),
// alive (a fraction: emission at alive × count per second, every life 1 s, so that share of the
// slots is alive in the steady state; absent: continuous, all alive), compact (0 or 1: draws of
// the living only, options.compact; absent: 'auto'), extra (the modules suite's one module more:
// mesh — born on a 2,048-triangle mesh; field — a 16³ curl-noise force field; colliders — a ball,
// a box and a floor as SDFs; depth — collisions with a scene depth buffer, here cleared: the read
// without contacts; absent: none), geometry (mesh particles, lit: shard — a 4-triangle tetrahedron;
// cube — 12 triangles; absent: quads), light (0: mesh particles unlit; absent: lit).
import type { Device } from 'ignis-rhi';
import { TextureUsage } from 'ignis-rhi';
import {
  createParticleSystem,
  orbitCamera,
  particleModules,
  type DrawMode,
  type ParticleOptions,
  type ParticleOptionsInput,
} from 'ignis-rhi/particles';
import type { Scene, SceneParams } from 'ignis-rhi/testing';

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const camera = orbitCamera({ aspect: canvas.width / canvas.height });
  const extra = String(params['extra'] ?? 'none');
  const depth =
    extra === 'depth'
      ? device.createTexture({
          label: 'scene depth (cleared)',
          size: { width: canvas.width, height: canvas.height },
          format: 'depth24plus',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
        })
      : null;
  if (depth) {
    const encoder = device.createCommandEncoder({ label: 'clear the scene depth' });
    encoder
      .beginRenderPass({
        colorAttachments: [],
        depthStencilAttachment: { texture: depth, depthLoadOp: 'clear', depthClearValue: 1 },
      })
      .end();
    device.queue.submit([encoder.finish()]);
  }
  const base: ParticleOptionsInput = {
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
    ...(extra === 'mesh' ? { mesh: gridMesh(32) } : {}),
    ...(params['geometry'] !== undefined && params['geometry'] !== 'none'
      ? {
          geometry: SHAPES[String(params['geometry'])] ?? unknownShape(String(params['geometry'])),
          light:
            params['light'] !== undefined && Number(params['light']) === 0
              ? null
              : { direction: [1, -1.5, -0.6] as [number, number, number] },
        }
      : {}),
    ...(depth ? { collision: { depth, camera } } : {}),
  };
  const ps = await createParticleSystem(
    device,
    extra === 'field' || extra === 'colliders'
      ? { ...base, modules: [...particleModules(base), EXTRA_MODULES[extra]] }
      : base,
  );
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
    destroy: () => {
      ps.destroy();
      depth?.destroy();
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
}

/** The modules suite's list-only modules: a curl-noise force field, and SDF colliders. */
const EXTRA_MODULES = {
  field: {
    module: 'field' as const,
    min: [-8, -10, -8] as [number, number, number],
    max: [8, 6, 8] as [number, number, number],
    size: [16, 16, 16] as [number, number, number],
    curl: { frequency: 0.3, seed: 1 },
    strength: 4,
  },
  colliders: {
    module: 'colliders' as const,
    shapes: [
      { shape: 'sphere' as const, center: [0, -1, 0] as [number, number, number], radius: 1.5 },
      {
        shape: 'box' as const,
        center: [2.5, -3, 0] as [number, number, number],
        size: [1.5, 1.5, 1.5] as [number, number, number],
      },
      {
        shape: 'plane' as const,
        point: [0, -6, 0] as [number, number, number],
        normal: [0, 1, 0] as [number, number, number],
      },
    ],
  },
};

/** A flat n × n grid of quads (2n² triangles) over [−3, 3]² at y = 0: the mesh suite's mesh. */
function gridMesh(n: number): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) positions.push(-3 + (6 * i) / n, 0, -3 + (6 * j) / n);
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  return { positions, indices };
}

/** Mesh particles' meshes (param geometry), counter-clockwise seen from outside. */
const SHAPES: Record<string, { positions: number[]; indices: number[] }> = {
  shard: {
    positions: [0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5, -0.5],
    indices: [0, 1, 3, 0, 2, 1, 0, 3, 2, 1, 2, 3],
  },
  cube: {
    positions: [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [
      i & 1 ? 0.5 : -0.5,
      i & 2 ? 0.5 : -0.5,
      i & 4 ? 0.5 : -0.5,
    ]),
    // faces as quads of corner bits (−z, +z, −y, +y, −x, +x), two triangles each
    indices: [
      [0, 2, 3, 1],
      [4, 5, 7, 6],
      [0, 1, 5, 4],
      [2, 6, 7, 3],
      [0, 4, 6, 2],
      [1, 3, 7, 5],
    ].flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]),
  },
};

function unknownShape(name: string): never {
  throw new Error(`unknown geometry ${name}: shard, cube or none`);
}
