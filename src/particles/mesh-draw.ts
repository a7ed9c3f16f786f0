/**
 * Mesh particles' draw (options.geometry, modules/geometry.ts): each particle drawn as the mesh,
 * turned, scaled and coloured in the vertex stage (shaders/particles/mesh.wgsl, mesh.vert.glsl),
 * no per-particle CPU work. The two raster modes give the same pixels, in the same order
 * (particle by particle, each mesh's triangles in its index order):
 *
 * - `instanced`: `drawIndexed(corners, count)` — the mesh's vertices are vertex attributes, the
 *   particle is the instance;
 * - `pulled`: `draw(corners · count)` — each vertex finds its particle (vertex / corners) and its
 *   corner of the mesh in the corner texture (position and normal per index, two rows each).
 *
 * The state is read as the quads read it (storage buffers or state textures, in slot order or the
 * depth sort's). Back faces are culled; with `blending: 'alpha'` into a pass with depth the
 * meshes write depth.
 */
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import meshWgsl from '../../shaders/particles/mesh.wgsl?raw';
import drawParamsGlsl from '../../shaders/particles/draw-params.glsl?raw';
import meshVertGlsl from '../../shaders/particles/mesh.vert.glsl?raw';
import meshFragGlsl from '../../shaders/particles/mesh.frag.glsl?raw';
import { SHADOW_BINDINGS, blendFor, drawWgslFor, tintWgsl, type StateKind } from './draw.js';
import type { PassShape } from './pass-shape.js';
import type { ParticleGeometry } from './options.js';

/** Corners per row of the corner texture (pulled mode): within WebGL2's least 2-D size. */
const CORNER_ROW = 2048;

/** The particle's state, from storage buffers or state textures: `stateP`, `stateV`, `slotOf`. */
function stateWgsl(state: StateKind, sorted: boolean): string {
  const read =
    state === 'buffers'
      ? `@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
fn stateP(i: u32) -> vec4f { return positions[i]; }
fn stateV(i: u32) -> vec4f { return velocities[i]; }
`
      : `@group(0) @binding(1) var positionState: texture_2d<f32>;
@group(0) @binding(2) var velocityState: texture_2d<f32>;
fn texelOf(i: u32) -> vec2i { return vec2i(i32(i % ps.width), i32(i / ps.width)); }
fn stateP(i: u32) -> vec4f { return textureLoad(positionState, texelOf(i), 0); }
fn stateV(i: u32) -> vec4f { return textureLoad(velocityState, texelOf(i), 0); }
`;
  // the i-th particle drawn is the slot the depth sort put at entry i (sort.ts: y + 2048 z)
  const order = !sorted
    ? 'fn slotOf(drawn: u32) -> u32 { return drawn; }\n'
    : state === 'buffers'
      ? `@group(0) @binding(6) var<storage, read> sortOrder: array<vec4f>;
fn slotOf(drawn: u32) -> u32 { let e = sortOrder[drawn]; return u32(e.y) + 2048u * u32(e.z); }
`
      : `@group(0) @binding(6) var sortOrder: texture_2d<f32>;
fn slotOf(drawn: u32) -> u32 {
  let w = u32(ps.sizes.w);
  let e = textureLoad(sortOrder, vec2i(i32(drawn % w), i32(drawn / w)), 0);
  return u32(e.y) + 2048u * u32(e.z);
}
`;
  return read + order;
}

const VS_INSTANCED = /* wgsl */ `
@vertex
fn vs(@builtin(instance_index) instance: u32, @location(0) local: vec3f, @location(1) normal: vec3f) -> MeshOut {
  let slot = slotOf(instance);
  return meshVertex(stateP(slot), stateV(slot), local, normal, slot);
}
`;

const VS_PULLED = /* wgsl */ `
@group(0) @binding(9) var meshCorners: texture_2d<f32>;
@vertex
fn vs(@builtin(vertex_index) vertex: u32) -> MeshOut {
  let corners = u32(ps.mesh.x);
  let drawn = vertex / corners;
  let corner = vertex - drawn * corners;
  let w = textureDimensions(meshCorners).x;
  let at = vec2i(i32(corner % w), i32(2u * (corner / w)));
  let slot = slotOf(drawn);
  return meshVertex(stateP(slot), stateV(slot), textureLoad(meshCorners, at, 0).xyz, textureLoad(meshCorners, at + vec2i(0, 1), 0).xyz, slot);
}
`;

/** The vertex entry point: a lit mesh hands the fragment stage its MeshOut, an unlit one the colour alone. */
function vertexEntry(pulled: boolean, lit: boolean): string {
  const entry = pulled ? VS_PULLED : VS_INSTANCED;
  if (lit) return entry;
  const unlit = entry
    .replace('-> MeshOut {', '-> UnlitOut {')
    .replace(/return (meshVertex\(.*\));/, 'return unlitOf($1);');
  if (!unlit.includes('return unlitOf(meshVertex('))
    throw new Error('mesh-draw.ts: the vertex entry point no longer returns meshVertex(…)');
  return unlit;
}

interface MeshPipeline {
  pipeline: RenderPipeline;
  modules: ShaderModule[];
}

/** The mesh draw of one particle system: its pipelines, and the mesh's vertices on the GPU. */
export class MeshParticleDraw {
  readonly #device: Device;
  readonly #state: StateKind;
  readonly #pipelines = new Map<string, MeshPipeline>();
  #last: {
    mode: 'instanced' | 'pulled';
    shape: PassShape;
    tinted: boolean;
    pipeline: RenderPipeline;
  } | null = null;
  /** The geometry the buffers below hold (another one replaces them). */
  #geometry: ParticleGeometry | null = null;
  #vertices: Buffer | null = null;
  #indices: Buffer | null = null;
  /** Pulled mode's corners: position and normal per index, made at the first pulled draw. */
  #corners: Texture | null = null;
  /** Stops the restore listener: after device.restore() buffers come back zeroed, so made again. */
  readonly #stopRestore: () => void;

  constructor(device: Device, state: StateKind) {
    this.#device = device;
    this.#state = state;
    this.#stopRestore = device.onRestored(() => this.#release());
  }

  /** The pipeline of `mode` for `shape` (sorted: the depth sort's order; tinted: a sub-emitter's colour). */
  pipeline(mode: 'instanced' | 'pulled', shape: PassShape, tinted: boolean): RenderPipeline {
    // the last one again when nothing changed (the renderer hands back the same shape object):
    // a draw every frame builds no key
    const last = this.#last;
    if (last && last.mode === mode && last.shape === shape && last.tinted === tinted)
      return last.pipeline;
    const pipeline = this.#pipelineFor(mode, shape, tinted);
    this.#last = { mode, shape, tinted, pipeline };
    return pipeline;
  }

  #pipelineFor(mode: 'instanced' | 'pulled', shape: PassShape, tinted: boolean): RenderPipeline {
    const sorted = shape.sorted;
    const id = `${mode}|${shape.format}|${shape.depthFormat ?? 'no depth'}|${shape.sampleCount}|${shape.blending}${shape.keepAlpha ? '+keep alpha' : ''}|${sorted ? 'sorted' : 'slots'}|${tinted ? 'tinted' : 'own'}|${shape.lit ? 'lit' : 'unlit'}|${shape.shadowed ? 'shadow' : 'unshadowed'}`;
    const cached = this.#pipelines.get(id);
    if (cached) return cached.pipeline;
    const device = this.#device;
    const pulled = mode === 'pulled';
    const label = `particles mesh (${this.#state}, ${mode})`;
    const targets = [{ format: shape.format, blend: blendFor(shape.blending, shape.keepAlpha) }];
    const multisample = { count: shape.sampleCount };
    const primitive = {
      topology: 'triangle-list' as const,
      cullMode: 'back' as const,
      frontFace: 'ccw' as const,
    };
    // solid meshes drawn over: they hide what is behind them; added light hides nothing
    const depthStencil = shape.depthFormat
      ? {
          format: shape.depthFormat,
          depthWriteEnabled: shape.blending === 'alpha',
          depthCompare: 'less' as const,
        }
      : undefined;
    const vertexLayout = pulled
      ? []
      : [
          {
            arrayStride: 24,
            stepMode: 'vertex' as const,
            attributes: [
              { format: 'float32x3' as const, offset: 0, shaderLocation: 0 },
              { format: 'float32x3' as const, offset: 12, shaderLocation: 1 },
            ],
          },
        ];
    let made: MeshPipeline;
    if (device.caps.shaderLanguage === 'glsl') {
      const defines = `${pulled ? '#define PULLED\n' : ''}${sorted ? '#define SORTED\n' : ''}${tinted ? '#define TINTED\n' : ''}`;
      const vs = device.createShaderModule({
        label: 'mesh.vert.glsl',
        code: `#version 300 es\n${defines}${drawParamsGlsl}${meshVertGlsl}`,
        stage: 'vertex',
      });
      const fs = device.createShaderModule({
        label: 'mesh.frag.glsl',
        code: `#version 300 es\n${shape.lit ? '#define LIT\n' : ''}${shape.shadowed ? '#define SHADOW\n' : ''}${drawParamsGlsl}${meshFragGlsl}`,
        stage: 'fragment',
      });
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module: vs, buffers: vertexLayout },
        fragment: { module: fs, targets },
        multisample,
        primitive,
        depthStencil,
        bindings: [
          { binding: 0, type: 'uniform', name: 'DrawParams' },
          { binding: 1, type: 'texture', name: 'positionState' },
          { binding: 2, type: 'texture', name: 'velocityState' },
          ...(sorted ? [{ binding: 6, type: 'texture' as const, name: 'sortOrder' }] : []),
          ...(tinted ? [{ binding: 8, type: 'texture' as const, name: 'tintState' }] : []),
          ...(pulled ? [{ binding: 9, type: 'texture' as const, name: 'meshCorners' }] : []),
          ...(shape.shadowed ? SHADOW_BINDINGS : []),
        ],
      });
      made = { pipeline, modules: [vs, fs] };
    } else {
      const module = device.createShaderModule({
        label: `mesh.wgsl (${this.#state}, ${mode}${sorted ? ', sorted' : ''}${tinted ? ', tinted' : ''})`,
        code:
          drawWgslFor(false, shape.shadowed) +
          stateWgsl(this.#state, sorted) +
          tintWgsl(tinted ? this.#state : null) +
          meshWgsl +
          vertexEntry(pulled, shape.lit),
      });
      const textures = [
        ...(this.#state === 'textures'
          ? [1, 2, ...(sorted ? [6] : []), ...(tinted ? [8] : [])]
          : []),
        ...(pulled ? [9] : []),
      ];
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module, entryPoint: 'vs', buffers: vertexLayout },
        // unlit meshes compute no lighting (mesh.wgsl's fsUnlit)
        fragment: { module, entryPoint: shape.lit ? 'fs' : 'fsUnlit', targets },
        multisample,
        primitive,
        depthStencil,
        bindings:
          textures.length > 0
            ? textures.map((binding) => ({
                binding,
                type: 'texture' as const,
                sampleType: 'unfilterable-float' as const,
              }))
            : undefined,
      });
      made = { pipeline, modules: [module] };
    }
    this.#pipelines.set(id, made);
    return made.pipeline;
  }

  /** The mesh's GPU copy for `geometry` (made again when the options give another mesh). */
  #upload(geometry: ParticleGeometry): void {
    if (this.#geometry === geometry) return;
    this.#release();
    const device = this.#device;
    this.#vertices = device.createBuffer({
      label: 'particles mesh vertices',
      size: geometry.vertices.byteLength,
      usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.#vertices, 0, geometry.vertices);
    this.#indices = device.createBuffer({
      label: 'particles mesh indices',
      size: geometry.indices.byteLength,
      usage: BufferUsage.INDEX | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.#indices, 0, geometry.indices);
    this.#geometry = geometry;
  }

  /** Pulled mode's corner texture: corner c at (c mod row, 2 ⌊c / row⌋), its normal a row below. */
  #cornerTexture(geometry: ParticleGeometry): Texture {
    if (this.#corners) return this.#corners;
    const corners = geometry.indices.length;
    const width = Math.min(corners, CORNER_ROW);
    const rows = Math.ceil(corners / width);
    const data = new Float32Array(4 * width * 2 * rows);
    for (let c = 0; c < corners; c++) {
      const v = geometry.indices[c] as number;
      const at = 4 * ((c % width) + width * 2 * Math.floor(c / width));
      data.set(geometry.vertices.subarray(6 * v, 6 * v + 3), at);
      data.set(geometry.vertices.subarray(6 * v + 3, 6 * v + 6), at + 4 * width);
    }
    this.#corners = this.#device.createTexture({
      label: 'particles mesh corners',
      size: { width, height: 2 * rows },
      format: 'rgba32float',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    });
    this.#device.queue.writeTexture(
      { texture: this.#corners },
      data,
      { bytesPerRow: 16 * width },
      { width, height: 2 * rows },
    );
    return this.#corners;
  }

  /**
   * Draws `count` particles' meshes (the pipeline, uniforms and state already bound by the
   * renderer).
   */
  draw(
    pass: RenderPass,
    mode: 'instanced' | 'pulled',
    geometry: ParticleGeometry,
    count: number,
  ): void {
    this.#upload(geometry);
    const corners = geometry.indices.length;
    if (mode === 'instanced') {
      pass.setVertexBuffer(0, this.#vertices!);
      pass.setIndexBuffer(this.#indices!, 'uint32');
      pass.drawIndexed(corners, count);
    } else {
      pass.setTexture(9, this.#cornerTexture(geometry));
      pass.draw(corners * count);
    }
  }

  #release(): void {
    this.#vertices?.destroy();
    this.#indices?.destroy();
    this.#corners?.destroy();
    this.#vertices = this.#indices = this.#corners = null;
    this.#geometry = null;
  }

  destroy(): void {
    this.#stopRestore();
    this.#release();
    for (const p of this.#pipelines.values()) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
    this.#pipelines.clear();
    this.#last = null;
  }
}
