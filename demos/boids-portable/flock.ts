// The portable flock: flock.wgsl run by createPortableCompute on whatever path the device has,
// ping-ponging two buffers that the draw reads as instance data on every path. Shared by the demo,
// the GPU test and the benchmark.
import {
  BufferUsage,
  type Buffer,
  type CommandEncoder,
  type Device,
  type RenderPass,
  type RenderPipeline,
  type TextureFormat,
} from '../../src/index.js';
import { createPortableCompute, type PortableCompute } from '../../src/compute/portable/index.js';
import type { PathName } from '../../src/compute/index.js';
import flockWgsl from './flock.wgsl?raw';
import { DEFAULT_RULES, initialFlock, rulesBytes, type Rules } from './rules.js';

export { flockWgsl, DEFAULT_RULES, initialFlock, rulesBytes, type Rules };

const DRAW_WGSL = /* wgsl */ `
struct Out { @builtin(position) position: vec4f, @location(0) color: vec4f };
@vertex fn vs(@location(0) pos: vec2f, @location(1) vel: vec2f, @location(2) corner: vec2f) -> Out {
  let dir = normalize(vel + vec2f(1e-6, 0.0));
  let p = vec2f(corner.x * dir.y + corner.y * dir.x, -corner.x * dir.x + corner.y * dir.y);
  let h = dir * 0.5 + 0.5;
  return Out(vec4f(pos + p, 0.0, 1.0), vec4f(0.3 + 0.7 * h.x, 0.5 + 0.5 * h.y, 1.0 - 0.6 * h.x, 1.0));
}
@fragment fn fs(in: Out) -> @location(0) vec4f { return in.color; }`;

const DRAW_VS_GLSL = `#version 300 es
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 vel;
layout(location = 2) in vec2 corner;
out vec4 color;
void main() {
  vec2 dir = normalize(vel + vec2(1e-6, 0.0));
  vec2 p = vec2(corner.x * dir.y + corner.y * dir.x, -corner.x * dir.x + corner.y * dir.y);
  vec2 h = dir * 0.5 + 0.5;
  color = vec4(0.3 + 0.7 * h.x, 0.5 + 0.5 * h.y, 1.0 - 0.6 * h.x, 1.0);
  gl_Position = vec4(pos + p, 0.0, 1.0);
}`;
const DRAW_FS_GLSL = `#version 300 es
precision highp float;
in vec4 color;
out vec4 outColor;
void main() { outColor = color; }`;

export class PortableFlock {
  readonly buffers: [Buffer, Buffer];
  readonly rules: Buffer;
  sim: PortableCompute;
  #shape: Buffer | null = null;
  #draw: RenderPipeline | null = null;
  #switching = false;
  /** The buffer holding the latest state. */
  current: 0 | 1 = 0;

  constructor(
    readonly device: Device,
    readonly count: number,
    path: 'auto' | PathName = 'auto',
  ) {
    const usage =
      BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
    const size = Math.ceil((16 * count) / 16) * 16;
    this.buffers = [0, 1].map((i) => device.createBuffer({ label: `flock ${i}`, size, usage })) as [
      Buffer,
      Buffer,
    ];
    device.queue.writeBuffer(this.buffers[0], 0, initialFlock(count));
    this.rules = device.createBuffer({
      label: 'rules',
      size: 32,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    this.setRules(DEFAULT_RULES);
    this.sim = createPortableCompute(device, {
      label: 'flock',
      code: flockWgsl,
      count,
      path,
      buffers: { rules: this.rules },
    });
  }

  /**
   * Runs the same WGSL on another path from the next step on, with the flock as it is. The CPU path
   * reads the buffers' host copies, which a GPU path's writes leave behind: they are refreshed from
   * a readback first.
   */
  async setPath(path: 'auto' | PathName): Promise<void> {
    this.#switching = true; // no steps until the copies are refreshed: a step now would stale them
    const next = createPortableCompute(this.device, {
      label: 'flock',
      code: flockWgsl,
      count: this.count,
      path,
      buffers: { rules: this.rules },
    });
    if (next.path === 'cpu')
      for (const b of this.buffers)
        if (b.hostShadow?.stale) this.device.queue.writeBuffer(b, 0, await b.read());
    this.sim.destroy();
    this.sim = next;
    this.#switching = false;
  }

  setRules(r: Rules): void {
    this.device.queue.writeBuffer(this.rules, 0, rulesBytes(r, this.count));
  }

  /** Records one step: reads the current buffer, writes the other. */
  step(encoder: CommandEncoder): void {
    if (this.#switching) return;
    const from = this.buffers[this.current];
    const to = this.buffers[1 - this.current] as Buffer;
    this.sim.dispatch(encoder, { flockIn: from, flockOut: to });
    this.current = this.current === 0 ? 1 : 0;
  }

  async read(): Promise<Float32Array> {
    return new Float32Array(await this.buffers[this.current].read());
  }

  /** Draws every boid as a small triangle along its velocity, from the buffer the last step wrote. */
  render(pass: RenderPass, format: TextureFormat): void {
    const d = this.device;
    if (!this.#draw) {
      this.#shape = d.createBuffer({
        label: 'boid shape',
        size: 24,
        usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
      });
      d.queue.writeBuffer(
        this.#shape,
        0,
        new Float32Array([-0.008, -0.015, 0.008, -0.015, 0, 0.018]),
      );
      const glsl = d.caps.shaderLanguage === 'glsl';
      const vs = d.createShaderModule({
        label: 'flock draw',
        code: glsl ? DRAW_VS_GLSL : DRAW_WGSL,
        stage: glsl ? 'vertex' : undefined,
      });
      const fs = glsl
        ? d.createShaderModule({ label: 'flock draw fs', code: DRAW_FS_GLSL, stage: 'fragment' })
        : vs;
      this.#draw = d.createRenderPipeline({
        label: 'flock draw',
        vertex: {
          module: vs,
          entryPoint: glsl ? undefined : 'vs',
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
        fragment: { module: fs, entryPoint: glsl ? undefined : 'fs', targets: [{ format }] },
      });
    }
    pass.setPipeline(this.#draw);
    pass.setVertexBuffer(0, this.buffers[this.current]);
    pass.setVertexBuffer(1, this.#shape as Buffer);
    pass.draw(3, this.count);
  }

  destroy(): void {
    this.sim.destroy();
    this.#draw?.destroy();
    this.#shape?.destroy();
    for (const b of [...this.buffers, this.rules]) b.destroy();
  }
}
