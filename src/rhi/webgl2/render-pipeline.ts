import { RenderPipeline } from '../core/render-pipeline.js';
import { ShaderCompileError, ValidationError } from '../core/errors.js';
import type {
  BindingLayoutEntry,
  BlendComponent,
  RenderPipelineDescriptor,
} from '../core/descriptors.js';
import { BLEND_FACTORS, BLEND_OPERATIONS, COMPARE_FUNCTIONS, GL, TOPOLOGIES } from './conv.js';
import { parseInfoLog, type WebGL2ShaderModule } from './shader-module.js';
import type { BlendGL } from './state.js';
import type { WebGL2Device } from './device.js';
import { slotOf } from '../core/slots.js';

export interface TextureUnit {
  /** The texture's slot (flat: `slotOf(entry)`). */
  readonly slot: number;
  readonly unit: number;
  /** The slot of the sampler whose sampler object goes on the same unit (undefined: the default sampler). */
  readonly samplerSlot: number | undefined;
}

/** A uniform block of the program: its slot, the GL binding point it was given, its size. */
export interface UniformBlock {
  readonly slot: number;
  readonly point: number;
  readonly name: string;
  readonly size: number;
}

function blendComponent(c: BlendComponent): [number, number, number] {
  return [
    BLEND_OPERATIONS[c.operation ?? 'add'],
    BLEND_FACTORS[c.srcFactor ?? 'one'],
    BLEND_FACTORS[c.dstFactor ?? 'zero'],
  ];
}

/**
 * A linked program plus the fixed-function state a WebGPU pipeline carries (blend, depth, cull,
 * topology), applied through the shadow state cache when the pipeline is set. Uniform blocks are
 * bound to the UBO index equal to their slot; sampler uniforms get one texture unit per texture slot.
 */
export class WebGL2RenderPipeline extends RenderPipeline {
  readonly program: WebGLProgram;
  readonly topology: number;
  readonly blend: BlendGL;
  readonly colorMask: number;
  readonly depth: { test: boolean; write: boolean; func: number };
  readonly cullFace: number;
  readonly frontFace: number;
  readonly textureUnits: readonly TextureUnit[];
  /** Bytes each uniform block needs (GL's UNIFORM_BLOCK_DATA_SIZE), by slot. */
  /** The uniform blocks, each on its own binding point (numbered per program: slots of every group fit GL's few points). */
  readonly uniformBlocks: UniformBlock[] = [];
  readonly #device: WebGL2Device;

  constructor(
    device: WebGL2Device,
    desc: RenderPipelineDescriptor,
    bindings: BindingLayoutEntry[],
  ) {
    super(device, desc, bindings);
    this.#device = device;
    const gl = device.gl;
    const program = gl.createProgram();
    gl.attachShader(program, (desc.vertex.module as WebGL2ShaderModule).shader);
    if (desc.fragment)
      gl.attachShader(program, (desc.fragment.module as WebGL2ShaderModule).shader);
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
      const log = gl.getProgramInfoLog(program) ?? '';
      gl.deleteProgram(program);
      throw new ShaderCompileError('link', parseInfoLog(log, ''), desc.label);
    }
    this.program = program;
    // WebGPU rejects a pipeline whose shader reads a vertex input no buffer provides; GL would
    // silently feed it (0, 0, 0, 1). Reject it here too, naming the input.
    const provided = new Set(
      (desc.vertex.buffers ?? []).flatMap((b) => b.attributes.map((a) => a.shaderLocation)),
    );
    const active = Number(gl.getProgramParameter(program, gl.ACTIVE_ATTRIBUTES)) || 0;
    for (let i = 0; i < active; i++) {
      const info = gl.getActiveAttrib(program, i);
      if (!info || info.name.startsWith('gl_')) continue;
      const location = gl.getAttribLocation(program, info.name);
      if (location >= 0 && !provided.has(location)) {
        gl.deleteProgram(program);
        throw new ValidationError(
          'pipeline-vertex-input',
          `Vertex input "${info.name}" (location ${location}) has no attribute in vertex.buffers`,
          desc.label,
          {
            name: info.name,
            location,
          },
        );
      }
    }
    device.state.useProgram(program);
    const units: TextureUnit[] = [];
    for (const b of bindings) {
      if (b.type === 'uniform' && b.name) {
        const index = gl.getUniformBlockIndex(program, b.name);
        if (index !== gl.INVALID_INDEX) {
          const point = this.uniformBlocks.length;
          gl.uniformBlockBinding(program, index, point);
          this.uniformBlocks.push({
            slot: slotOf(b),
            point,
            name: b.name,
            size: Number(
              gl.getActiveUniformBlockParameter(program, index, gl.UNIFORM_BLOCK_DATA_SIZE),
            ),
          });
        }
      } else if (b.type === 'texture' && b.name) {
        const unit = units.length;
        units.push({
          slot: slotOf(b),
          unit,
          samplerSlot:
            b.samplerBinding === undefined
              ? undefined
              : slotOf({ group: b.group, binding: b.samplerBinding }),
        });
        const location = gl.getUniformLocation(program, b.name);
        if (location) gl.uniform1i(location, unit);
      }
    }
    this.textureUnits = units;

    const target = desc.fragment?.targets[0];
    const blend = target?.blend;
    if (blend) {
      const [colorOp, colorSrc, colorDst] = blendComponent(blend.color);
      const [alphaOp, alphaSrc, alphaDst] = blendComponent(blend.alpha);
      this.blend = { enabled: true, colorOp, colorSrc, colorDst, alphaOp, alphaSrc, alphaDst };
    } else {
      this.blend = {
        enabled: false,
        colorOp: GL.FUNC_ADD,
        alphaOp: GL.FUNC_ADD,
        colorSrc: GL.ONE,
        colorDst: GL.ZERO,
        alphaSrc: GL.ONE,
        alphaDst: GL.ZERO,
      };
    }
    this.colorMask = target?.writeMask ?? 0xf;
    const ds = desc.depthStencil;
    this.depth = ds
      ? {
          test: true,
          write: ds.depthWriteEnabled ?? true,
          func: COMPARE_FUNCTIONS[ds.depthCompare ?? 'less'],
        }
      : { test: false, write: false, func: GL.LESS };
    this.topology = TOPOLOGIES[desc.primitive?.topology ?? 'triangle-list'];
    const cull = desc.primitive?.cullMode ?? 'none';
    this.cullFace = cull === 'none' ? 0 : cull === 'front' ? GL.FRONT : GL.BACK;
    this.frontFace = (desc.primitive?.frontFace ?? 'ccw') === 'ccw' ? GL.CCW : GL.CW;
  }

  protected destroyImpl(): void {
    this.#device.vaos.evict(this.id);
    this.#device.gl.deleteProgram(this.program);
  }
}
