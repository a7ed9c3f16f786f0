/** The ping-pong path of a portable kernel: the kernel translated to GLSL passes over RGBA32F textures. */
import { TextureUsage } from '../../rhi/core/flags.js';
import { LimitExceededError } from '../../rhi/core/errors.js';
import { KernelError } from '../kernel-error.js';
import type { TextureFormat } from '../../rhi/core/formats.js';
import type { Buffer } from '../../rhi/core/buffer.js';
import type { Texture } from '../../rhi/core/texture.js';
import type { Sampler } from '../../rhi/core/sampler.js';
import type { CommandEncoder } from '../../rhi/core/command-encoder.js';
import type { RenderPipeline } from '../../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../../rhi/core/shader-module.js';
import { UniformRing } from '../uniform-ring.js';
import type { Binding, PortableModule } from './analyze.js';
import { copyRows, elementCount, rowsFor, type Backend } from './backend.js';
import {
  emitGlsl,
  emitGlslImage,
  emitGlslScatter,
  TEXELS_PER_ROW,
  WORD_PASSES,
  WORDS_PER_ROW,
  type GlslProgram,
} from './glsl.js';
import type { PortableCompute } from './portable-compute.js';

/** One draw of the ping-pong path: its pipeline, the arrays it writes and how it draws. */
interface PingPongPass {
  program: GlslProgram;
  pipeline: RenderPipeline;
  modules: ShaderModule[];
  /** Scatter passes: points per invocation (else one full-screen triangle). */
  points?: number;
  /** A scatter into the array's word texture (its elements are not whole texels). */
  words?: boolean;
}

/**
 * The ping-pong path. Each storage array's buffer is copied into an RGBA32F texture (its bytes
 * unchanged); the kernel runs in one of two forms (glsl.ts) and the targets are copied back:
 * - gather, for a one-dimensional grid whose kernel writes only its own elements: a full-screen
 *   pass per `maxColorAttachments` writable arrays, one fragment per texel;
 * - scatter, for everything else: per writable array, points drawn by the invocations into a
 *   target that starts as a copy of the buffer (four passes with write masks where elements are
 *   not whole texels).
 */
export class PingPongBackend implements Backend {
  readonly #ring: UniformRing;
  /** The internal block's words (writeBuffer copies them at once: one array serves every dispatch). */
  readonly #block: Uint32Array;
  readonly #storage: readonly Binding[];
  readonly #writable: readonly Binding[];
  readonly #uniforms: readonly Binding[];
  /** Sampled textures the kernel reads with textureLoad (bound at their own binding numbers). */
  readonly #sampled: readonly Binding[];
  /** Storage textures the kernel writes with textureStore at its own texel (the image form). */
  readonly #images: readonly Binding[];
  /** Samplers of `textureSampleLevel`, each on the unit of the texture it samples. */
  readonly #samplers: readonly Binding[];
  /** Bindings of the pipelines: the internal block, then one texture per storage array. */
  readonly #internalBinding: number;
  readonly #textureBinding = new Map<string, number>();
  /** Textures by binding name: inputs (copies of the buffers) and outputs (the targets). */
  readonly #inputs = new Map<string, Texture>();
  readonly #outputs = new Map<string, Texture>();
  #gather: PingPongPass[] | null = null;
  #image: PingPongPass[] | null = null;
  #scatter: PingPongPass[] | null = null;
  /** Word textures (one word a texel) of the scatters over elements that are not whole texels. */
  readonly #wordTextures = new Map<string, Texture>();
  #wordPasses: { unpack: RenderPipeline; pack: RenderPipeline; modules: ShaderModule[] } | null =
    null;

  constructor(
    readonly pc: PortableCompute,
    readonly m: PortableModule,
  ) {
    const storage = m.bindings.filter((b) => b.space === 'storage');
    const next = Math.max(-1, ...m.bindings.map((b) => b.binding)) + 1;
    this.#internalBinding = next;
    storage.forEach((b, i) => this.#textureBinding.set(b.name, next + 1 + i));
    this.#storage = storage;
    this.#writable = storage.filter((b) => b.access !== 'read');
    this.#uniforms = m.bindings.filter((b) => b.space === 'uniform');
    this.#sampled = m.bindings.filter((b) => b.space === 'texture');
    this.#images = m.bindings.filter((b) => b.space === 'storage-texture');
    this.#samplers = m.bindings.filter((b) => b.space === 'sampler');
    const fields = 4 + storage.length + 2 * this.#images.length;
    this.#ring = new UniformRing(pc.device, 16, 256, `${pc.label} lengths`);
    this.#block = new Uint32Array(Math.ceil((4 * fields) / 16) * 4);
    // the form the first dispatch needs is built now, so its translation errors surface here
    this.#passes();
  }

  /** Whether a dispatch over the current grid runs as a gather. */
  get gathers(): boolean {
    const [, y, z] = this.pc.grid;
    return !this.m.scatter && y === 1 && z === 1;
  }

  #pipeline(
    label: string,
    program: GlslProgram,
    vertexCode: string,
    writeMask: number,
    topology: 'triangle-list' | 'point-list',
    format: TextureFormat = 'rgba32float',
  ): { pipeline: RenderPipeline; modules: ShaderModule[] } {
    const d = this.pc.device;
    const vs = d.createShaderModule({ label: `${label}.vert`, code: vertexCode, stage: 'vertex' });
    const fs = d.createShaderModule({
      label: `${label}.frag`,
      code: program.fragment,
      stage: 'fragment',
    });
    const pipeline = d.createRenderPipeline({
      label,
      vertex: { module: vs },
      fragment: {
        module: fs,
        targets: program.outputs.map(() => ({ format, writeMask })),
      },
      primitive: { topology },
      bindings: [
        ...this.#uniforms.map((b) => ({
          binding: b.binding,
          type: 'uniform' as const,
          name: program.uniformBlocks[b.name] as string,
        })),
        { binding: this.#internalBinding, type: 'uniform', name: program.internalBlock.name },
        ...this.#storage.map((b) => ({
          binding: this.#textureBinding.get(b.name) as number,
          type: 'texture' as const,
          name: program.samplers[b.name] as string,
        })),
        ...this.#sampled.map((b) => {
          const sampler = this.m.bindings.find((x) => x.name === this.m.samplerOf[b.name]);
          return {
            binding: b.binding,
            type: 'texture' as const,
            name: program.textures[b.name] as string,
            ...(sampler ? { samplerBinding: sampler.binding } : {}),
          };
        }),
        // GLSL pairs a sampler with a texture unit: named as the texture it samples
        ...this.#samplers.map((b) => ({
          binding: b.binding,
          type: 'sampler' as const,
          name: program.textures[
            Object.keys(this.m.samplerOf).find((t) => this.m.samplerOf[t] === b.name) as string
          ] as string,
        })),
      ],
    });
    return { pipeline, modules: [vs, fs] };
  }

  #passes(): PingPongPass[] {
    const { pc, m } = this;
    if (this.#images.length) {
      this.#image ??= this.#images.map((b) => {
        const program = emitGlslImage(m, b.name);
        const label = `${pc.label} image ${b.name}`;
        return {
          program,
          ...this.#pipeline(label, program, program.vertex, 0xf, 'triangle-list', b.format),
        };
      });
      return this.#image;
    }
    if (this.gathers) {
      if (this.#gather) return this.#gather;
      const max = pc.device.caps.limits.maxColorAttachments;
      const names = this.#writable.map((b) => b.name);
      const groups: string[][] = [];
      for (let i = 0; i < names.length; i += max) groups.push(names.slice(i, i + max));
      this.#gather = groups.map((group, k) => {
        const program = emitGlsl(m, group);
        const label = groups.length > 1 ? `${pc.label} pass ${k + 1}/${groups.length}` : pc.label;
        return { program, ...this.#pipeline(label, program, program.vertex, 0xf, 'triangle-list') };
      });
      return this.#gather;
    }
    if (this.#scatter) return this.#scatter;
    this.#scatter = this.#writable.map((b) => {
      const program = emitGlslScatter(m, b.name);
      return {
        program,
        points: program.pointsPerInvocation,
        words: program.masked,
        ...this.#pipeline(
          `${pc.label} scatter ${b.name}`,
          program,
          program.vertex,
          0xf,
          'point-list',
        ),
      };
    });
    return this.#scatter;
  }

  /** The word texture's unpack and pack pipelines (glsl.ts, WORD_PASSES), made once. */
  #words(): { unpack: RenderPipeline; pack: RenderPipeline } {
    if (this.#wordPasses) return this.#wordPasses;
    const d = this.pc.device;
    const vs = d.createShaderModule({
      label: `${this.pc.label} words.vert`,
      code: WORD_PASSES.vertex,
      stage: 'vertex',
    });
    const make = (name: 'unpack' | 'pack'): [RenderPipeline, ShaderModule] => {
      const fs = d.createShaderModule({
        label: `${this.pc.label} ${name}.frag`,
        code: WORD_PASSES[name],
        stage: 'fragment',
      });
      const pipeline = d.createRenderPipeline({
        label: `${this.pc.label} ${name} words`,
        vertex: { module: vs },
        fragment: { module: fs, targets: [{ format: 'rgba32float' }] },
        primitive: { topology: 'triangle-list' },
        bindings: [{ binding: 0, type: 'texture', name: '_src' }],
      });
      return [pipeline, fs];
    };
    const [unpack, ufs] = make('unpack');
    const [pack, pfs] = make('pack');
    this.#wordPasses = { unpack, pack, modules: [vs, ufs, pfs] };
    return this.#wordPasses;
  }

  /** Draws a full-screen pass of `pipeline` into `target`, reading `source` as `_src`. */
  #fullScreen(
    encoder: CommandEncoder,
    pipeline: RenderPipeline,
    source: Texture,
    target: Texture,
  ): void {
    encoder.barrier({ from: 'render-write', to: 'fragment-read', resources: [source] });
    const pass = encoder.beginRenderPass({
      label: pipeline.label,
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 0] }],
    });
    pass.setPipeline(pipeline);
    pass.setTexture(0, source);
    pass.draw(3);
    pass.end();
  }

  /** The word texture of writable array `name`: `WORDS_PER_ROW` wide, as many rows as its target. */
  #wordTexture(name: string, rows: number): Texture {
    const t = this.#wordTextures.get(name);
    if (t && t.height === rows) return t;
    t?.destroy();
    const texture = this.pc.device.createTexture({
      label: `${this.pc.label}.${name} words`,
      size: { width: WORDS_PER_ROW, height: rows },
      format: 'rgba32float',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    });
    this.#wordTextures.set(name, texture);
    return texture;
  }

  #texture(cache: Map<string, Texture>, name: string, rows: number, render: boolean): Texture {
    const t = cache.get(name);
    if (t && t.height === rows) return t;
    t?.destroy();
    const texture = this.pc.device.createTexture({
      label: `${this.pc.label}.${name}${render ? ' out' : ''}`,
      size: { width: TEXELS_PER_ROW, height: rows },
      format: 'rgba32float',
      usage:
        TextureUsage.TEXTURE_BINDING |
        TextureUsage.COPY_DST |
        TextureUsage.COPY_SRC |
        (render ? TextureUsage.RENDER_ATTACHMENT : 0),
    });
    cache.set(name, texture);
    return texture;
  }

  dispatch(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
    samplers: Record<string, Sampler>,
  ): void {
    const { pc } = this;
    const storage = this.#storage;
    const outputs = this.#writable;
    // checked before anything is recorded: a throw leaves the encoder as it was
    const maxRows = pc.device.caps.limits.maxTextureDimension2D;
    for (const b of storage) {
      const rows = rowsFor((buffers[b.name] as Buffer).size);
      if (rows > maxRows)
        throw new LimitExceededError(
          'maxTextureDimension2D',
          rows,
          maxRows,
          `Texture rows for ${b.name}`,
          pc.label,
        );
    }
    const passes = this.#passes();
    const gather = this.gathers;
    const [dx, dy, dz] = pc.invocations;
    if (this.#images.length) return this.#drawImages(encoder, buffers, textures, samplers, passes);
    const outRows = Math.max(...outputs.map((b) => rowsFor((buffers[b.name] as Buffer).size)));
    const { offset, inputs } = this.#upload(encoder, buffers, textures, outRows);
    const words = this.#block;
    const targets = outputs.map((b) => this.#texture(this.#outputs, b.name, outRows, true));
    // a scatter draws only the elements written: the rest of each target is the buffer as it was
    // (a copy of it; for a word texture, the array's texture spread one word a texel)
    if (!gather)
      passes.forEach((p, i) => {
        if (!p.words)
          copyRows(
            encoder,
            buffers[outputs[i]!.name] as Buffer,
            targets[i] as Texture,
            'to-texture',
          );
      });
    encoder.barrier({ from: 'copy-write', to: 'fragment-read', resources: inputs });
    for (const p of passes) {
      const k = outputs.findIndex((b) => b.name === p.program.outputs[0]);
      const wordTex = p.words ? this.#wordTexture(outputs[k]!.name, outRows) : null;
      if (wordTex)
        this.#fullScreen(
          encoder,
          this.#words().unpack,
          inputs[storage.indexOf(outputs[k]!)] as Texture,
          wordTex,
        );
      const pass = encoder.beginRenderPass({
        label: p.pipeline.label,
        colorAttachments: wordTex
          ? [{ texture: wordTex, loadOp: 'load' as const }]
          : p.program.outputs.map((name) => ({
              texture: targets[outputs.findIndex((b) => b.name === name)] as Texture,
              loadOp: gather ? ('clear' as const) : ('load' as const),
              clearValue: [0, 0, 0, 0] as const,
            })),
      });
      pass.setPipeline(p.pipeline);
      for (const u of this.#uniforms) pass.setUniformBuffer(u.binding, buffers[u.name] as Buffer);
      pass.setUniformBuffer(this.#internalBinding, this.#ring.buffer, offset, words.byteLength);
      storage.forEach((b, i) =>
        pass.setTexture(this.#textureBinding.get(b.name) as number, inputs[i] as Texture),
      );
      for (const b of this.#sampled) pass.setTexture(b.binding, textures[b.name] as Texture);
      for (const b of this.#samplers) pass.setSampler(b.binding, samplers[b.name] as Sampler);
      pass.draw(p.points ? p.points * dx * dy * dz : 3);
      pass.end();
      if (wordTex) this.#fullScreen(encoder, this.#words().pack, wordTex, targets[k] as Texture);
    }
    // textures → buffers
    encoder.barrier({ from: 'render-write', to: 'copy-read', resources: targets });
    outputs.forEach((b, i) =>
      copyRows(encoder, buffers[b.name] as Buffer, targets[i] as Texture, 'to-buffer'),
    );
  }

  /**
   * What every form does first: the internal block (the grid, the target's rows, each array's
   * length, each storage texture's size) into the ring — writeBuffer copies it at once, so one
   * array serves every dispatch — and each storage buffer copied into its input texture.
   */
  #upload(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
    rows: number,
  ): { offset: number; inputs: Texture[] } {
    const storage = this.#storage;
    const words = this.#block;
    words.set([...this.pc.invocations, rows]);
    storage.forEach((b, i) => (words[4 + i] = elementCount(b, buffers[b.name] as Buffer)));
    this.#images.forEach((b, i) => {
      const t = textures[b.name] as Texture;
      words[4 + storage.length + 2 * i] = t.width;
      words[5 + storage.length + 2 * i] = t.height;
    });
    const offset = this.#ring.take();
    this.pc.device.queue.writeBuffer(this.#ring.buffer, offset, words);
    const sources = storage.map((b) => buffers[b.name] as Buffer);
    encoder.barrier({ from: 'copy-write', to: 'copy-read', resources: sources });
    encoder.barrier({ from: 'compute-write', to: 'copy-read', resources: sources });
    const inputs = storage.map((b) => {
      const buffer = buffers[b.name] as Buffer;
      const texture = this.#texture(this.#inputs, b.name, rowsFor(buffer.size), false);
      copyRows(encoder, buffer, texture, 'to-texture');
      return texture;
    });
    return { offset, inputs };
  }

  /**
   * The image form: per storage texture, a full-screen pass into the texture over the invocations'
   * texels (a scissor), each fragment one invocation; the texels no store reaches are discarded.
   */
  #drawImages(
    encoder: CommandEncoder,
    buffers: Record<string, Buffer>,
    textures: Record<string, Texture>,
    samplers: Record<string, Sampler>,
    passes: PingPongPass[],
  ): void {
    const { pc } = this;
    const [dx, dy, dz] = pc.invocations;
    if (dz !== 1)
      throw new KernelError(
        pc.label,
        `the ping-pong path draws a storage texture's texels from a 2-D grid; this dispatch runs ${dx}×${dy}×${dz} invocations (use the CPU path for a 3-D grid)`,
      );
    const storage = this.#storage;
    const words = this.#block;
    const { offset, inputs } = this.#upload(encoder, buffers, textures, 0);
    encoder.barrier({ from: 'copy-write', to: 'fragment-read', resources: inputs });
    passes.forEach((p, k) => {
      const target = textures[(this.#images[k] as Binding).name] as Texture;
      const pass = encoder.beginRenderPass({
        label: p.pipeline.label,
        colorAttachments: [{ texture: target, loadOp: 'load' }],
      });
      pass.setPipeline(p.pipeline);
      pass.setScissorRect(0, 0, Math.min(dx, target.width), Math.min(dy, target.height));
      for (const u of this.#uniforms) pass.setUniformBuffer(u.binding, buffers[u.name] as Buffer);
      pass.setUniformBuffer(this.#internalBinding, this.#ring.buffer, offset, words.byteLength);
      storage.forEach((b, i) =>
        pass.setTexture(this.#textureBinding.get(b.name) as number, inputs[i] as Texture),
      );
      for (const b of this.#sampled) pass.setTexture(b.binding, textures[b.name] as Texture);
      for (const b of this.#samplers) pass.setSampler(b.binding, samplers[b.name] as Sampler);
      pass.draw(3);
      pass.end();
    });
  }

  destroy(): void {
    for (const p of [...(this.#gather ?? []), ...(this.#scatter ?? []), ...(this.#image ?? [])]) {
      p.pipeline.destroy();
      for (const mod of p.modules) mod.destroy();
    }
    for (const t of [
      ...this.#inputs.values(),
      ...this.#outputs.values(),
      ...this.#wordTextures.values(),
    ])
      t.destroy();
    if (this.#wordPasses) {
      this.#wordPasses.unpack.destroy();
      this.#wordPasses.pack.destroy();
      for (const mod of this.#wordPasses.modules) mod.destroy();
    }
    this.#ring.destroy();
  }
}
