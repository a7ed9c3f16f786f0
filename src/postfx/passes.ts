/**
 * Records the post-process passes on either path: a compute dispatch writing a storage texture, or
 * a fullscreen fragment pass rendering into a colour target. Pipelines are made once per (pass,
 * format) and destroyed with their modules. Each pass declares the barrier it needs from whoever
 * wrote its inputs, so a chain runs the same in `auto` and `explicit` barrier modes.
 */
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { BarrierScope } from '../rhi/core/commands.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import {
  BLUR_TILE,
  GLSL_VERTEX,
  USES_SRC1,
  glslFragment,
  wgslBlurCompute,
  wgslCompute,
  wgslFragment,
  type PassOp,
} from './shaders.js';

/** Where post-processing passes run: compute or fragment. */
export type PostPath = 'compute' | 'fragment';

/** Who last wrote a texture, for the barrier the next reader declares. */
export type WrittenBy = 'render' | 'compute';

export interface PassInputs {
  src0: Texture;
  src1?: Texture;
  /** How each input was written (the scene target by a render pass, levels by this path). */
  writtenBy: WrittenBy;
}

interface Program {
  pipeline: RenderPipeline | ComputePipeline;
  modules: ShaderModule[];
}

export class PostPasses {
  readonly #device: Device;
  readonly #programs = new Map<string, Program>();
  readonly label: string;

  constructor(device: Device, label: string) {
    this.#device = device;
    this.label = label;
  }

  #program(op: PassOp, format: TextureFormat, compute: boolean): Program {
    const key = `${op}|${format}|${compute ? 'compute' : 'fragment'}`;
    const cached = this.#programs.get(key);
    if (cached) return cached;
    const device = this.#device;
    const label = `${this.label} ${op}`;
    let program: Program;
    if (compute) {
      const code =
        op === 'blur'
          ? wgslBlurCompute(format)
          : wgslCompute(op as Exclude<PassOp, 'composite' | 'blur'>, format);
      const module = device.createShaderModule({ label: `${label}.compute.wgsl`, code });
      program = {
        pipeline: device.createComputePipeline({ label, compute: { module, entryPoint: 'main' } }),
        modules: [module],
      };
    } else if (device.caps.shaderLanguage === 'glsl') {
      const vs = device.createShaderModule({
        label: `${label}.vert`,
        code: GLSL_VERTEX,
        stage: 'vertex',
      });
      const fs = device.createShaderModule({
        label: `${label}.frag`,
        code: glslFragment(op),
        stage: 'fragment',
      });
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module: vs },
        fragment: { module: fs, targets: [{ format }] },
        bindings: [
          { binding: 0, type: 'uniform', name: 'Post' },
          { binding: 1, type: 'texture', name: 'src0' },
          ...(USES_SRC1[op] ? [{ binding: 2, type: 'texture' as const, name: 'src1' }] : []),
        ],
      });
      program = { pipeline, modules: [vs, fs] };
    } else {
      const module = device.createShaderModule({ label: `${label}.wgsl`, code: wgslFragment(op) });
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format }] },
      });
      program = { pipeline, modules: [module] };
    }
    this.#programs.set(key, program);
    return program;
  }

  /**
   * Records `op` reading `inputs` into `dst`: a dispatch where `compute` is true (dst has
   * STORAGE_BINDING), else a fullscreen fragment pass (dst has RENDER_ATTACHMENT).
   */
  record(
    encoder: CommandEncoder,
    op: PassOp,
    inputs: PassInputs,
    dst: Texture,
    uniforms: { buffer: Buffer; offset: number; size: number },
    compute: boolean,
    extra: { axis?: 0 | 1; timestampWrites?: PassTimestampWrites } = {},
  ): void {
    const { timestampWrites } = extra;
    const reads = [
      inputs.src0,
      ...(inputs.src1 && inputs.src1 !== inputs.src0 ? [inputs.src1] : []),
    ];
    const from: BarrierScope = inputs.writtenBy === 'compute' ? 'compute-write' : 'render-write';
    encoder.barrier({ from, to: compute ? 'compute-read' : 'fragment-read', resources: reads });
    const { pipeline } = this.#program(op, dst.format, compute);
    if (compute) {
      const pass = encoder.beginComputePass({ label: `${this.label} ${op}`, timestampWrites });
      pass.setPipeline(pipeline as ComputePipeline);
      pass.setUniformBuffer(0, uniforms.buffer, uniforms.offset, uniforms.size);
      pass.setTexture(1, inputs.src0);
      if (USES_SRC1[op]) pass.setTexture(2, inputs.src1 ?? inputs.src0);
      pass.setStorageTexture(3, dst);
      if (op === 'blur') {
        // one workgroup per 128-texel run along the blur axis
        const axis = extra.axis ?? 0;
        const along = axis === 0 ? dst.width : dst.height;
        const across = axis === 0 ? dst.height : dst.width;
        pass.dispatch(Math.ceil(along / BLUR_TILE), across);
      } else {
        pass.dispatch(Math.ceil(dst.width / 8), Math.ceil(dst.height / 8));
      }
      pass.end();
      return;
    }
    const pass = encoder.beginRenderPass({
      label: `${this.label} ${op}`,
      timestampWrites,
      colorAttachments: [{ texture: dst, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
    });
    pass.setPipeline(pipeline as RenderPipeline);
    pass.setUniformBuffer(0, uniforms.buffer, uniforms.offset, uniforms.size);
    pass.setTexture(1, inputs.src0);
    if (USES_SRC1[op]) pass.setTexture(2, inputs.src1 ?? inputs.src0);
    pass.draw(3);
    pass.end();
  }

  destroy(): void {
    for (const p of this.#programs.values()) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
    this.#programs.clear();
  }
}
