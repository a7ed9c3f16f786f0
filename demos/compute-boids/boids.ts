// The boids simulation through Ignis: two STORAGE|VERTEX buffers ping-ponged by a compute pass,
// drawn as instances straight from the buffer the step wrote. Shared by the demo and the test. As in
// the webgpu-samples original, each direction of the ping-pong is a bind group made once from the
// pipeline's layout (`getBindGroupLayout(0)`) and set per step.
import {
  BufferUsage,
  type BindGroup,
  type Buffer,
  type CommandEncoder,
  type ComputePipeline,
  type Device,
  type RenderPass,
  type RenderPipeline,
  type TextureFormat,
} from '../../src/index.js';
import simWgsl from './sim.wgsl?raw';
import drawWgsl from './draw.wgsl?raw';

export { simWgsl, drawWgsl };

export interface BoidParams {
  deltaT: number;
  cohesionDistance: number;
  separationDistance: number;
  alignmentDistance: number;
  cohesionScale: number;
  separationScale: number;
  alignmentScale: number;
}

export const DEFAULT_PARAMS: BoidParams = {
  deltaT: 0.04,
  cohesionDistance: 0.1,
  separationDistance: 0.025,
  alignmentDistance: 0.025,
  cohesionScale: 0.02,
  separationScale: 0.05,
  alignmentScale: 0.005,
};

/** The uniform bytes of SimParams: seven f32 and the u32 count. */
export function paramBytes(p: BoidParams, count: number): ArrayBuffer {
  const bytes = new ArrayBuffer(32);
  new Float32Array(bytes).set([
    p.deltaT,
    p.cohesionDistance,
    p.separationDistance,
    p.alignmentDistance,
    p.cohesionScale,
    p.separationScale,
    p.alignmentScale,
  ]);
  new Uint32Array(bytes)[7] = count;
  return bytes;
}

/** Deterministic initial positions and velocities (a small LCG, so every run starts the same). */
export function initialBoids(count: number, seed = 1): Float32Array {
  const data = new Float32Array(4 * count);
  let s = seed >>> 0;
  const rand = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  for (let i = 0; i < count; i++)
    data.set(
      [2 * (rand() - 0.5), 2 * (rand() - 0.5), 2 * (rand() - 0.5) * 0.1, 2 * (rand() - 0.5) * 0.1],
      4 * i,
    );
  return data;
}

export class Boids {
  readonly buffers: [Buffer, Buffer];
  readonly params: Buffer;
  readonly shape: Buffer;
  readonly sim: ComputePipeline;
  readonly draw: RenderPipeline | null;
  /** `groups[i]` reads buffer i and writes the other. */
  readonly groups: [BindGroup, BindGroup];
  /** Index of the buffer holding the latest state. */
  current: 0 | 1 = 0;

  #buffer(i: 0 | 1): Buffer {
    return this.buffers[i];
  }

  constructor(
    readonly device: Device,
    readonly count: number,
    targetFormat?: TextureFormat,
  ) {
    const usage =
      BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_DST | BufferUsage.COPY_SRC;
    this.buffers = [0, 1].map((i) =>
      device.createBuffer({ label: `boids ${i}`, size: 16 * count, usage }),
    ) as [Buffer, Buffer];
    device.queue.writeBuffer(this.buffers[0], 0, initialBoids(count));
    this.params = device.createBuffer({
      label: 'boid params',
      size: 32,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    this.setParams(DEFAULT_PARAMS);
    this.shape = device.createBuffer({
      label: 'boid shape',
      size: 24,
      usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      this.shape,
      0,
      new Float32Array([-0.01, -0.02, 0.01, -0.02, 0.0, 0.02]),
    );
    this.sim = device.createComputePipeline({
      label: 'boids step',
      compute: {
        module: device.createShaderModule({ label: 'sim.wgsl', code: simWgsl }),
        entryPoint: 'main',
      },
    });
    this.groups = ([0, 1] as const).map((i) =>
      device.createBindGroup({
        label: `boids ${i} -> ${1 - i}`,
        layout: this.sim.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: this.params },
          { binding: 1, resource: this.buffers[i] },
          { binding: 2, resource: this.buffers[i === 0 ? 1 : 0] },
        ],
      }),
    ) as [BindGroup, BindGroup];
    if (targetFormat) {
      const module = device.createShaderModule({ label: 'draw.wgsl', code: drawWgsl });
      this.draw = device.createRenderPipeline({
        label: 'boids draw',
        vertex: {
          module,
          entryPoint: 'vs',
          buffers: [
            {
              arrayStride: 16,
              stepMode: 'instance',
              attributes: [
                { format: 'float32x2', offset: 0, shaderLocation: 0 },
                { format: 'float32x2', offset: 8, shaderLocation: 1 },
              ],
            },
            { arrayStride: 8, attributes: [{ format: 'float32x2', offset: 0, shaderLocation: 2 }] },
          ],
        },
        fragment: { module, entryPoint: 'fs', targets: [{ format: targetFormat }] },
      });
    } else this.draw = null;
  }

  setParams(p: BoidParams): void {
    this.device.queue.writeBuffer(this.params, 0, paramBytes(p, this.count));
  }

  /** Records one step: reads the current buffer, writes the other, swaps. */
  step(encoder: CommandEncoder): void {
    const pass = encoder.beginComputePass({ label: 'boids' });
    pass.setPipeline(this.sim);
    pass.setBindGroup(0, this.groups[this.current]);
    pass.dispatchThreads(this.count);
    pass.end();
    this.current = this.current === 0 ? 1 : 0;
  }

  /** Draws the latest state, one instance per boid, from the buffer the last step wrote. */
  render(pass: RenderPass): void {
    if (!this.draw) throw new Error('Boids was created without a target format');
    pass.setPipeline(this.draw);
    pass.setVertexBuffer(0, this.#buffer(this.current));
    pass.setVertexBuffer(1, this.shape);
    pass.draw(3, this.count);
  }

  read(): Promise<ArrayBuffer> {
    return this.#buffer(this.current).read();
  }

  /** Frees the buffers and pipelines (bind groups hold no GPU object of their own). */
  destroy(): void {
    for (const b of [...this.buffers, this.params, this.shape]) b.destroy();
    this.sim.destroy();
    this.draw?.destroy();
  }
}
