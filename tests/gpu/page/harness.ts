// Browser side of the GPU test tier: lists the cases of a module and runs one on one backend.
// The Node side (tests/gpu/harness.ts) turns each (case, backend) into a vitest test.
import { createDevice, type Device, type Features } from '../../../src/all.js';
import type { Case, CaseContext } from './case.js';
import { createScenePipeline, vertexBuffer } from './scenes.js';
import { drawCanvasScene, type CanvasSceneName } from './canvas-scenes.js';

const modules = import.meta.glob<{ cases: Record<string, Case> }>('../cases/*.ts');

async function load(module: string): Promise<Record<string, Case>> {
  const loader = modules[`../cases/${module}.ts`];
  if (!loader) throw new Error(`no case module ${module}`);
  return (await loader()).cases;
}

export interface BackendInfo {
  backend: 'webgpu' | 'webgl2';
  available: boolean;
  reason: string;
  features: Partial<Features>;
}

async function backends(): Promise<BackendInfo[]> {
  const out: BackendInfo[] = [];
  for (const backend of ['webgpu', 'webgl2'] as const) {
    try {
      const d = await createDevice({ backend });
      out.push({ backend, available: true, reason: '', features: { ...d.caps.features } });
      d.destroy();
    } catch (e) {
      out.push({
        backend,
        available: false,
        reason: e instanceof Error ? e.message : String(e),
        features: {},
      });
    }
  }
  return out;
}

function canvas(): HTMLCanvasElement {
  const old = document.getElementById('canvas') as HTMLCanvasElement;
  // a fresh canvas per case: a canvas keeps the first context type it was asked for
  const fresh = document.createElement('canvas');
  fresh.id = 'canvas';
  fresh.width = old.width;
  fresh.height = old.height;
  old.replaceWith(fresh);
  return fresh;
}

async function run(
  module: string,
  name: string,
  backend: 'webgpu' | 'webgl2' | 'cross',
): Promise<{ ok: boolean; message?: string; artifacts?: Record<string, string> }> {
  const c = (await load(module))[name];
  if (!c) return { ok: false, message: `no case ${name} in ${module}` };
  const devices: Device[] = [];
  const ctx: CaseContext = {
    backend: backend === 'cross' ? 'webgpu' : backend,
    device: undefined as unknown as Device,
    canvas: canvas(),
    async open(b, options = {}) {
      const d = await createDevice({ backend: b, ...options });
      devices.push(d);
      return d;
    },
  };
  try {
    if (backend !== 'cross') {
      ctx.device = await ctx.open(backend, c.canvas ? { canvas: ctx.canvas } : {});
    }
    await c.run(ctx);
    return { ok: true };
  } catch (e) {
    const err = e as Error & { artifacts?: Record<string, string> };
    return {
      ok: false,
      message: `${err.name}: ${err.message}\n${err.stack ?? ''}`,
      artifacts: err.artifacts,
    };
  } finally {
    for (const d of devices) if (!d.isLost) d.destroy();
  }
}

async function list(
  module: string,
): Promise<Array<{ name: string; needs: string[]; cross: boolean }>> {
  return Object.entries(await load(module)).map(([name, c]) => ({
    name,
    needs: c.needs ?? [],
    cross: c.cross ?? false,
  }));
}

/** Draws the reference frame (red triangle over blue) to the page canvas and leaves it there. */
async function drawToCanvas(
  backend: 'webgpu' | 'webgl2',
): Promise<{ backend: string; format: string; topLeft: number[]; bottomRight: number[] }> {
  const device = await createDevice({ backend, canvas: canvas() });
  const surface = device.surface as NonNullable<Device['surface']>;
  const pipeline = createScenePipeline(device, { program: 'color', formats: [surface.format] });
  const vb = vertexBuffer(device, [-1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, -1, -1, 1, 0, 0, 1]);
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 1, 1] },
    ],
  });
  pass.setPipeline(pipeline);
  pass.setVertexBuffer(0, vb);
  pass.draw(3);
  pass.end();
  device.queue.submit([enc.finish()]);
  // read the surface in the task that drew it (WebGL2 does not preserve the drawing buffer)
  const read = surface.getCurrentTexture().read();
  const texels = (await read) as Uint8Array;
  await device.queue.onSubmittedWorkDone();
  const at = (x: number, y: number): number[] => {
    const i = (y * surface.width + x) * 4;
    const p = Array.from(texels.subarray(i, i + 4));
    return surface.format === 'bgra8unorm'
      ? [p[2] as number, p[1] as number, p[0] as number, p[3] as number]
      : p;
  };
  return {
    backend: device.caps.backend,
    format: surface.format,
    topLeft: at(2, 2),
    bottomRight: at(surface.width - 3, surface.height - 3),
  };
}

/** Draws a canvas scene on a fresh canvas and leaves it there for a page screenshot. */
async function canvasScene(
  backend: 'webgpu' | 'webgl2',
  name: CanvasSceneName,
): Promise<{ backend: string; second: number[] | null }> {
  const device = await createDevice({ backend, canvas: canvas() });
  const second = await drawCanvasScene(device, name);
  return { backend: device.caps.backend, second };
}

/** What `backend: 'auto'` picks, optionally with navigator.gpu hidden first. */
async function autoBackend(hideGpu: boolean): Promise<{ backend: string; reason: string | null }> {
  if (hideGpu) Object.defineProperty(navigator, 'gpu', { value: undefined, configurable: true });
  const device = await createDevice({ backend: 'auto' });
  const out = { backend: device.caps.backend, reason: device.fallbackReason };
  device.destroy();
  return out;
}

(window as unknown as { __ignis: unknown }).__ignis = {
  list,
  run,
  backends,
  drawToCanvas,
  autoBackend,
  canvasScene,
};
(window as unknown as { __ignisReady: boolean }).__ignisReady = true;
