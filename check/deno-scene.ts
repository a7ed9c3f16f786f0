// One rung of ignis-bench under Deno (`--runtime deno`), for headless GPU servers where no browser
// reaches the GPU. Deno's WebGPU has no canvas, so the scene gets a stand-in whose 'webgpu'
// context renders into a texture of the canvas's size (nothing is presented). The scene kit starts
// it with an import map that points `ignis-rhi…` at the built library:
//   deno run -A --sloppy-imports --import-map <map> check/deno-scene.ts '<RungQuery JSON with width, height>'
// and reads the outcome from the last line of its output, after OUTCOME_MARK.
import { runRung, type RungQuery } from './run-scene.js';

declare const Deno: { args: string[]; exit(code: number): never };

const OUTCOME_MARK = '@@ignis-outcome ';

/** A canvas stand-in whose WebGPU context hands out one texture of its size. */
function offscreenCanvas(width: number, height: number): HTMLCanvasElement {
  let config: GPUCanvasConfiguration | null = null;
  let texture: GPUTexture | null = null;
  const canvas = {
    width,
    height,
    getContext: (kind: string) => (kind === 'webgpu' ? context : null),
  };
  const context = {
    canvas,
    configure(c: GPUCanvasConfiguration) {
      config = c;
      texture?.destroy();
      texture = null;
    },
    unconfigure() {
      config = null;
    },
    getCurrentTexture(): GPUTexture {
      if (!config) throw new Error('the offscreen canvas context is not configured');
      if (!texture || texture.width !== canvas.width || texture.height !== canvas.height) {
        texture?.destroy();
        texture = config.device.createTexture({
          label: 'offscreen canvas',
          size: [canvas.width, canvas.height],
          format: config.format,
          usage: config.usage ?? GPUTextureUsage.RENDER_ATTACHMENT,
        });
      }
      return texture;
    },
  };
  return canvas as unknown as HTMLCanvasElement;
}

const q = JSON.parse(Deno.args[0] ?? '{}') as RungQuery & { width: number; height: number };
const outcome = q.rung.startsWith('webgpu')
  ? await runRung(q, offscreenCanvas(q.width, q.height))
  : { skipped: `Deno has WebGPU only: rung ${q.rung} runs in the browser (--runtime browser)` };
console.log(`${OUTCOME_MARK}${JSON.stringify(outcome)}`);
Deno.exit(0);
