/**
 * The ping-pong path, where compute is missing (WebGL2) or not wanted: state in two sets of RGBA
 * float textures per attribute; a step is one fullscreen fragment pass reading set A (texelFetch by
 * element index) and writing set B through MRT, then the sets swap. Reductions are a point draw
 * with additive blending into a 1×1 float target. Each pass declares its own barrier, so it runs
 * the same in `auto` and `explicit` barrier modes (on WebGL2 the barrier is the framebuffer unbind).
 */
import { TextureUsage } from '../../rhi/core/flags.js';
import { UnsupportedFeatureError } from '../../rhi/core/errors.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { RenderPipeline } from '../../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../../rhi/core/shader-module.js';
import type { TextureFormat } from '../../rhi/core/formats.js';
import type { PassTimestampWrites } from '../../rhi/core/descriptors.js';
import { glslReducePoints, wgslReducePoints, type Predicates } from '../reduce.js';
import { loadFrontEnd } from '../front-end.js';
import {
  bytesPerTexel,
  createStateTextures,
  readTexture,
  stateFormat,
  uploadTexture,
} from './state.js';
import type {
  CpuPredicates,
  ExecutionPath,
  PathContext,
  StateArrays,
  StepInputs,
  StepParams,
} from './path.js';
import { compiledAll } from './path.js';
import { sceneDepthBinding, sourceBinding } from '../kernel.js';
import { countOnHost } from './cpu.js';

/** A fragment pipeline over the state textures, in the device's shader language, with the modules it made. */
interface FragmentProgram {
  pipeline: RenderPipeline;
  modules: ShaderModule[];
}

export class PingPongPath implements ExecutionPath {
  readonly name = 'pingpong' as const;
  readonly precision;
  readonly hostBytesPerElement = 0;
  readonly gpuBytesPerElement: number;
  readonly buffers = {};
  readonly #ctx: PathContext;
  readonly #sets: [Record<string, Texture>, Record<string, Texture>];
  #current: 0 | 1 = 0;
  readonly #step: FragmentProgram;
  readonly #reducers = new Map<string, { program: FragmentProgram; counts: Texture }>();

  constructor(ctx: PathContext) {
    this.#ctx = ctx;
    this.precision = ctx.precision;
    const attributes = ctx.kernel.descriptor.attributes;
    this.gpuBytesPerElement = 2 * attributes.length * bytesPerTexel(ctx);
    this.#sets = [createStateTextures(ctx, 0, true), createStateTextures(ctx, 1, true)];
    const k = ctx.kernel;
    this.#step = this.#program(
      `${ctx.label} step`,
      k.wgslFragment,
      k.glslVertex,
      // translated (the front end) only where GLSL runs it
      ctx.device.caps.shaderLanguage === 'glsl' ? k.glslFragment : '',
      attributes.map(() => stateFormat(ctx)),
      'triangle-list',
      false,
      k.descriptor.sceneDepth === true,
      k.descriptor.source ?? [],
    );
  }

  get textures(): Readonly<Record<string, Texture>> {
    return this.#sets[this.#current];
  }

  #program(
    label: string,
    wgsl: string,
    glslVs: string,
    glslFs: string,
    formats: TextureFormat[],
    topology: 'triangle-list' | 'point-list',
    additive: boolean,
    sceneDepth = false,
    source: readonly string[] = [],
  ): FragmentProgram {
    const depthBinding = sceneDepthBinding(this.#ctx.kernel.descriptor.attributes.length);
    const device = this.#ctx.device;
    const attributes = this.#ctx.kernel.descriptor.attributes;
    const one = { srcFactor: 'one' as const, dstFactor: 'one' as const };
    const targets = formats.map((format) => ({
      format,
      blend: additive ? { color: one, alpha: one } : undefined,
    }));
    if (device.caps.shaderLanguage === 'glsl') {
      const vs = device.createShaderModule({
        label: `${label}.vert`,
        code: glslVs,
        stage: 'vertex',
      });
      const fs = device.createShaderModule({
        label: `${label}.frag`,
        code: glslFs,
        stage: 'fragment',
      });
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module: vs },
        fragment: { module: fs, targets },
        primitive: { topology },
        bindings: [
          { binding: 0, type: 'uniform', name: 'Params' },
          ...attributes.map((a, i) => ({
            binding: i + 1,
            type: 'texture' as const,
            name: `_ignis_${a}`,
          })),
          ...(sceneDepth
            ? [
                {
                  binding: depthBinding,
                  type: 'texture' as const,
                  name: '_ignis_depth',
                  sampleType: 'depth' as const,
                },
              ]
            : []),
          ...source.map((a, i) => ({
            binding: sourceBinding(attributes.length, i),
            type: 'texture' as const,
            name: `_ignis_src_${a}`,
          })),
        ],
      });
      return { pipeline, modules: [vs, fs] };
    }
    const module = device.createShaderModule({ label: `${label}.wgsl`, code: wgsl });
    const pipeline = device.createRenderPipeline({
      label,
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets },
      primitive: { topology },
      bindings: [
        ...attributes.map((_, i) => ({
          binding: i + 1,
          type: 'texture' as const,
          sampleType: 'unfilterable-float' as const,
        })),
        ...(sceneDepth
          ? [{ binding: depthBinding, type: 'texture' as const, sampleType: 'depth' as const }]
          : []),
        ...source.map((_, i) => ({
          binding: sourceBinding(attributes.length, i),
          type: 'texture' as const,
          sampleType: 'unfilterable-float' as const,
        })),
      ],
    });
    return { pipeline, modules: [module] };
  }

  write(name: string, data: Float32Array): void {
    uploadTexture(this.#ctx, this.textures[name] as Texture, data);
  }

  step(
    encoder: CommandEncoder,
    params: StepParams,
    timestampWrites?: PassTimestampWrites,
    inputs?: StepInputs,
  ): void {
    const { label, uniforms, kernel } = this.#ctx;
    const attributes = kernel.descriptor.attributes;
    const offset = uniforms.write(params);
    const src = this.#sets[this.#current];
    const dst = this.#sets[1 - this.#current] as Record<string, Texture>;
    encoder.barrier({ from: 'render-write', to: 'fragment-read', resources: Object.values(src) });
    const source = kernel.descriptor.source ?? [];
    if (source.length > 0)
      encoder.barrier({
        from: 'render-write',
        to: 'fragment-read',
        resources: source.map((a) => inputs?.source?.textures[a] as Texture),
      });
    const pass = encoder.beginRenderPass({
      label: `${label} step`,
      timestampWrites,
      colorAttachments: attributes.map((a) => ({
        texture: dst[a] as Texture,
        loadOp: 'clear' as const,
        clearValue: [0, 0, 0, 0] as const,
      })),
    });
    pass.setPipeline(this.#step.pipeline);
    pass.setUniformBuffer(0, uniforms.buffer, offset, uniforms.size);
    attributes.forEach((a, i) => pass.setTexture(i + 1, src[a] as Texture));
    if (kernel.descriptor.sceneDepth)
      pass.setTexture(sceneDepthBinding(attributes.length), inputs?.sceneDepth as Texture);
    source.forEach((a, i) =>
      pass.setTexture(sourceBinding(attributes.length, i), inputs?.source?.textures[a] as Texture),
    );
    pass.draw(3);
    pass.end();
    this.#current = this.#current === 0 ? 1 : 0;
  }

  barrierForDraw(encoder: CommandEncoder): void {
    encoder.barrier({
      from: 'render-write',
      to: 'vertex-read',
      resources: Object.values(this.textures),
    });
  }

  async read(): Promise<StateArrays> {
    const out: StateArrays = {};
    for (const a of this.#ctx.kernel.descriptor.attributes)
      out[a] = await readTexture(this.#ctx, this.textures[a] as Texture);
    return out;
  }

  /** Counts with a point draw blended into one float texel; without float32 blending, on a readback. */
  async reduce(
    predicates: Predicates,
    cpu: CpuPredicates | undefined,
  ): Promise<Record<string, number>> {
    const { device, kernel, count, label, uniforms } = this.#ctx;
    const f = device.caps.features;
    if (!(f.floatRenderTargets && f.float32Blendable)) {
      if (!cpu) {
        const missing = f.floatRenderTargets ? 'float32Blendable' : 'floatRenderTargets';
        throw new UnsupportedFeatureError(
          missing,
          device.caps.backend,
          'pass the predicates in JS (the cpu argument) to count on a full readback',
          label,
        );
      }
      return countOnHost(await this.read(), count, cpu);
    }
    const gl = device.caps.shaderLanguage === 'glsl';
    // WebGL2 counts with the predicates translated to GLSL: the front end, loaded on demand
    if (gl) await loadFrontEnd();
    const key = JSON.stringify(predicates);
    let r = this.#reducers.get(key);
    if (!r) {
      const glsl = gl ? glslReducePoints(kernel, predicates) : { vertex: '', fragment: '' };
      r = {
        program: this.#program(
          `${label} reduce`,
          wgslReducePoints(kernel, predicates),
          glsl.vertex,
          glsl.fragment,
          ['rgba32float'],
          'point-list',
          true,
        ),
        counts: device.createTexture({
          label: `${label} counts`,
          size: { width: 1, height: 1 },
          format: 'rgba32float',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        }),
      };
      this.#reducers.set(key, r);
    }
    const encoder = device.createCommandEncoder({ label: `${label} reduce` });
    const offset = uniforms.write({});
    const src = this.textures;
    encoder.barrier({ from: 'render-write', to: 'vertex-read', resources: Object.values(src) });
    const pass = encoder.beginRenderPass({
      label: `${label} reduce`,
      colorAttachments: [{ texture: r.counts, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
    });
    pass.setPipeline(r.program.pipeline);
    pass.setUniformBuffer(0, uniforms.buffer, offset, uniforms.size);
    kernel.descriptor.attributes.forEach((a, i) => pass.setTexture(i + 1, src[a] as Texture));
    pass.draw(count);
    pass.end();
    device.queue.submit([encoder.finish()]);
    const counts = (await r.counts.read()) as Float32Array;
    return Object.fromEntries(
      Object.keys(predicates).map((n, i) => [n, Math.round(counts[i] as number)]),
    );
  }

  compiled(): Promise<void> {
    return compiledAll(this.#step.modules);
  }

  destroy(): void {
    for (const set of this.#sets) for (const t of Object.values(set)) t.destroy();
    const programs = [this.#step, ...[...this.#reducers.values()].map((r) => r.program)];
    for (const p of programs) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
    for (const r of this.#reducers.values()) r.counts.destroy();
  }
}
