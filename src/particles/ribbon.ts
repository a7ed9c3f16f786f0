/**
 * Trail ribbons: the trail module's draw. Each particle's last positions (trail-history.ts) become
 * a camera-facing strip, `length − 1` segments of two triangles, its width and colour going from
 * the head's to the tail's, soft across its width. The two raster modes give the same pixels, in
 * the same order (particle by particle):
 *
 * - `instanced`: `draw(6 · (length − 1), count)`, the particle is the instance;
 * - `pulled`: `draw(6 · (length − 1) · count)`, each vertex finds its particle.
 *
 * The samples come from a storage buffer or a texture, where the history lives (the same home as
 * the state's). Segments that are not drawn (not yet recorded, or across a death and a birth) are
 * moved out of the clip volume in the vertex stage.
 */
import { mat4 } from 'wgpu-matrix';
import type { Device } from '../rhi/core/device.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import type { Sampler } from '../rhi/core/sampler.js';
import type { Texture } from '../rhi/core/texture.js';
import type { Buffer } from '../rhi/core/buffer.js';
import { UniformRing } from '../compute/uniform-ring.js';
import ribbonWgsl from '../../shaders/particles/ribbon.wgsl?raw';
import ribbonVertGlsl from '../../shaders/particles/ribbon.vert.glsl?raw';
import ribbonFragGlsl from '../../shaders/particles/ribbon.frag.glsl?raw';
import { blendFor, type StateKind } from './draw.js';
import type { PassShape } from './pass-shape.js';
import type { Camera } from './options.js';
import type { TrailHistory } from './trail-history.js';

/** A ribbon's look: its width and colour at the head (newest sample) and at the tail, its image. */
export interface RibbonLook {
  readonly width: readonly [number, number];
  readonly colors: readonly [readonly number[], readonly number[]];
  /** Sampled at (along, across) and tinted by the colour; null: soft across the width. */
  readonly texture: Texture | null;
  /** The particles' colour and size over life at each sample's age multiply the ribbon's. */
  readonly inherit: boolean;
  /** Seconds over which an ended life's trail fades out (trails; 0 or absent: no fade). */
  readonly fade?: number;
}

/** The particles' look over life, which a ribbon with `inherit` takes at each sample's age. */
export interface RibbonLife {
  readonly colors: ReadonlyArray<readonly number[]>;
  readonly colorStops: readonly number[];
  readonly sizeOverLife: readonly [number, number];
}

/** The fragment stages: soft across the width, or the look's texture tinted by the colour. */
const FS_SOFT = /* wgsl */ `
@fragment
fn fs(in: RibbonOut) -> @location(0) vec4f {
  // full at the middle, nothing at the edges
  let s = in.uv.y * 2.0 - 1.0;
  return vec4f(in.color.rgb, in.color.a * (1.0 - s * s));
}
`;
const FS_TEXTURED = /* wgsl */ `
@group(0) @binding(3) var ribbonTexture: texture_2d<f32>;
@group(0) @binding(4) var ribbonSampler: sampler;
@fragment
fn fs(in: RibbonOut) -> @location(0) vec4f {
  return in.color * textureSample(ribbonTexture, ribbonSampler, in.uv);
}
`;

/** A trail history as a ribbon draw's input: one ribbon per particle (made once, read live). */
export function trailInput(
  history: TrailHistory,
  grid: { width: number; height: number },
  /** The velocity state the draw reads the particles' lives from (`inherit`), read live. */
  velocity: () => Buffer | Texture,
  /** The particles' tint (a sub-emitter's inheritColor), where the state has one; read live. */
  tint: () => Buffer | Texture | undefined = () => undefined,
): RibbonInput {
  return {
    kind: 'trail',
    get tinted() {
      return tint() !== undefined;
    },
    ribbons: history.count,
    split: null,
    samples: history.length,
    get newest() {
      return history.head;
    },
    get filled() {
      return history.filled;
    },
    times: history.times,
    grid,
    bind(pass) {
      const v = velocity();
      const t = tint();
      if (history.buffer) {
        pass.setStorageBuffer(1, history.buffer);
        pass.setStorageBuffer(2, v as Buffer);
        if (t) pass.setStorageBuffer(8, t as Buffer);
      } else {
        pass.setTexture(1, history.texture!);
        pass.setTexture(2, v as Texture);
        if (t) pass.setTexture(8, t as Texture);
      }
    },
  };
}

/** Bytes of RibbonParams (ribbon.wgsl), and of a ring slot (rounded up to the offset alignment). */
const RIBBON_PARAMS_BYTES = 528;
const RIBBON_SLOT = 768;

/** A trail: one life — the newer sample is older in age (a birth restarts it at 0). */
const JOINS_TRAIL = /* wgsl */ `
fn joins(a: vec4f, b: vec4f) -> bool {
  return a.w > b.w;
}
`;

/** A link: both alive (a dead slot's age reads −1), born in order. */
const JOINS_LINK = /* wgsl */ `
fn joins(a: vec4f, b: vec4f) -> bool {
  return a.w >= 0.0 && b.w >= 0.0 && a.w <= b.w;
}
`;

/**
 * A link's slot for sample `back` (newest first) of ribbon `ribbon`: `grid.z` ribbons share the
 * emitter's ring of `grid.z · ring.y` slots, dealt interleaved (`grid.w` 0: slot i on ribbon
 * i mod grid.z, newest first from the ring's head) or in blocks (`grid.w` 1: ribbon r the slots
 * [r·ring.y, (r + 1)·ring.y), in slot order; where the head is inside a block, the ages break it).
 */
const LINK_SLOT = /* wgsl */ `
fn linkSlot(ribbon: u32, back: u32) -> u32 {
  let samples = rp.ring.y;
  if (rp.grid.w == 1u) {
    return ribbon * samples + samples - 1u - back;
  }
  let k = rp.grid.z;
  let newest = ((rp.ring.z + k * samples - ribbon) / k) % samples;
  return ribbon + k * ((newest + samples - back) % samples);
}
`;

/**
 * A trail sample's life: the particle's, for the samples of its current life (no older than the
 * newest sample); −1 (unknown: the end-of-life look) for a life before it, or a dead particle.
 */
const TRAIL_LIFE = (life: string): string => /* wgsl */ `
fn sampleLife(particle: u32, back: u32, age: f32) -> f32 {
  if (age > trailSample(particle, 0u).w) {
    return -1.0;
  }
  return ${life};
}
`;

/** A trail's tint: its particle's (binding 8), or none. */
const TINT = {
  buffers: /* wgsl */ `
@group(0) @binding(8) var<storage, read> tints: array<vec4f>;
fn ribbonTint(particle: u32) -> vec4f {
  return tints[particle];
}
`,
  textures: /* wgsl */ `
@group(0) @binding(8) var tintState: texture_2d<f32>;
fn ribbonTint(particle: u32) -> vec4f {
  return textureLoad(tintState, vec2i(i32(particle % rp.grid.x), i32(particle / rp.grid.x)), 0);
}
`,
  none: 'fn ribbonTint(particle: u32) -> vec4f { return vec4f(1.0); }\n',
};

const FETCH = {
  trail: {
    buffers: /* wgsl */ `
@group(0) @binding(1) var<storage, read> trail: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
fn trailSample(particle: u32, back: u32) -> vec4f {
  return trail[ringSlot(back) * rp.ring.x + particle];
}
${TRAIL_LIFE('velocities[particle].w')}
${JOINS_TRAIL}`,
    textures: /* wgsl */ `
@group(0) @binding(1) var trail: texture_2d<f32>;
@group(0) @binding(2) var velocityState: texture_2d<f32>;
fn trailSample(particle: u32, back: u32) -> vec4f {
  let texel = vec2u(particle % rp.grid.x, ringSlot(back) * rp.grid.y + particle / rp.grid.x);
  return textureLoad(trail, vec2i(texel), 0);
}
${TRAIL_LIFE('textureLoad(velocityState, vec2i(i32(particle % rp.grid.x), i32(particle / rp.grid.x)), 0).w')}
${JOINS_TRAIL}`,
  },
  link: {
    buffers: /* wgsl */ `${LINK_SLOT}
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
fn trailSample(particle: u32, back: u32) -> vec4f {
  let slot = linkSlot(particle, back);
  let p = positions[slot];
  return vec4f(p.xyz, select(-1.0, p.w, p.w < velocities[slot].w));
}
fn sampleLife(particle: u32, back: u32, age: f32) -> f32 {
  return velocities[linkSlot(particle, back)].w;
}
${JOINS_LINK}`,
    textures: /* wgsl */ `${LINK_SLOT}
@group(0) @binding(1) var positionState: texture_2d<f32>;
@group(0) @binding(2) var velocityState: texture_2d<f32>;
fn trailSample(particle: u32, back: u32) -> vec4f {
  let slot = linkSlot(particle, back);
  let texel = vec2i(i32(slot % rp.grid.x), i32(slot / rp.grid.x));
  let p = textureLoad(positionState, texel, 0);
  return vec4f(p.xyz, select(-1.0, p.w, p.w < textureLoad(velocityState, texel, 0).w));
}
fn sampleLife(particle: u32, back: u32, age: f32) -> f32 {
  let slot = linkSlot(particle, back);
  return textureLoad(velocityState, vec2i(i32(slot % rp.grid.x), i32(slot / rp.grid.x)), 0).w;
}
${JOINS_LINK}`,
  },
};

/**
 * What a ribbon draw reads: `ribbons` strips of `samples` samples each, from a ring whose newest
 * sample is at `newest` (`filled` recorded), laid out on `grid` (the state texture's size), bound
 * at slots 1 (and 2) by `bind`.
 */
export interface RibbonInput {
  readonly kind: 'trail' | 'link';
  /** Each ribbon's colour times its particle's tint (binding 8: a trail of a sub-emitter's inheritColor). */
  readonly tinted: boolean;
  readonly ribbons: number;
  /** A link's dealing of the slots to its ribbons (ParticleLink.split); null for trails. */
  readonly split: 'interleaved' | 'blocks' | null;
  readonly samples: number;
  readonly newest: number;
  readonly filled: number;
  /** When each ring slot was recorded (simulation seconds): a trail's fade; null for a link. */
  readonly times: Float64Array | null;
  readonly grid: { width: number; height: number };
  bind(pass: RenderPass): void;
}

const VS_INSTANCED = /* wgsl */ `
@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> RibbonOut {
  return ribbonVertex(instance, vertex);
}
`;

const VS_PULLED = /* wgsl */ `
@vertex
fn vs(@builtin(vertex_index) vertex: u32) -> RibbonOut {
  let per = 6u * (rp.ring.y - 1u);
  let particle = vertex / per;
  return ribbonVertex(particle, vertex - particle * per);
}
`;

interface RibbonPipeline {
  pipeline: RenderPipeline;
  modules: ShaderModule[];
}

/** The ribbons of one particle system: its pipelines (per pass shape and mode) and uniforms. */
export class RibbonDraw {
  readonly #device: Device;
  readonly #state: StateKind;
  readonly #pipelines = new Map<string, RibbonPipeline>();
  readonly #ring: UniformRing;
  readonly #f32 = new Float32Array(RIBBON_PARAMS_BYTES / 4);
  readonly #u32 = new Uint32Array(this.#f32.buffer);
  readonly #viewProjection = mat4.create();
  /** The linear sampler of a textured look, made at its first draw. */
  #sampler: Sampler | null = null;

  constructor(device: Device, state: StateKind) {
    this.#device = device;
    this.#state = state;
    this.#ring = new UniformRing(device, 4, RIBBON_SLOT, 'particles ribbon params');
  }

  #pipeline(
    kind: 'trail' | 'link',
    mode: 'instanced' | 'pulled',
    shape: PassShape,
    textured: boolean,
    tinted: boolean,
  ): RenderPipeline {
    const id = `${kind}|${mode}|${shape.format}|${shape.depthFormat ?? 'no depth'}|${shape.sampleCount}|${shape.blending}${shape.keepAlpha ? '+keep alpha' : ''}|${textured ? 'textured' : 'soft'}|${tinted ? 'tinted' : 'own'}`;
    const cached = this.#pipelines.get(id);
    if (cached) return cached.pipeline;
    const device = this.#device;
    const label = `particles ${kind} ribbon (${this.#state}, ${mode})`;
    const targets = [{ format: shape.format, blend: blendFor(shape.blending, shape.keepAlpha) }];
    const multisample = { count: shape.sampleCount };
    const primitive = { topology: 'triangle-list' as const };
    const depthStencil = shape.depthFormat
      ? { format: shape.depthFormat, depthWriteEnabled: false, depthCompare: 'less' as const }
      : undefined;
    let made: RibbonPipeline;
    if (device.caps.shaderLanguage === 'glsl') {
      const vs = device.createShaderModule({
        label: 'ribbon.vert.glsl',
        code: `#version 300 es\n${mode === 'pulled' ? '#define PULLED\n' : ''}${kind === 'link' ? '#define LINK\n' : ''}${tinted ? '#define TINTED\n' : ''}${ribbonVertGlsl}`,
        stage: 'vertex',
      });
      const fs = device.createShaderModule({
        label: 'ribbon.frag.glsl',
        code: `#version 300 es\n${textured ? '#define TEXTURED\n' : ''}${ribbonFragGlsl}`,
        stage: 'fragment',
      });
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module: vs },
        fragment: { module: fs, targets },
        multisample,
        primitive,
        depthStencil,
        bindings: [
          { binding: 0, type: 'uniform', name: 'RibbonParams' },
          ...(kind === 'link'
            ? [
                { binding: 1, type: 'texture' as const, name: 'positionState' },
                { binding: 2, type: 'texture' as const, name: 'velocityState' },
              ]
            : [
                { binding: 1, type: 'texture' as const, name: 'trail' },
                { binding: 2, type: 'texture' as const, name: 'velocityState' },
              ]),
          ...(textured
            ? [
                {
                  binding: 3,
                  type: 'texture' as const,
                  name: 'ribbonTexture',
                  samplerBinding: 4,
                },
                { binding: 4, type: 'sampler' as const, name: 'ribbonTexture' },
              ]
            : []),
          ...(tinted ? [{ binding: 8, type: 'texture' as const, name: 'tintState' }] : []),
        ],
      });
      made = { pipeline, modules: [vs, fs] };
    } else {
      const module = device.createShaderModule({
        label: `ribbon.wgsl (${kind}, ${this.#state}, ${mode}${tinted ? ', tinted' : ''})`,
        code:
          ribbonWgsl +
          FETCH[kind][this.#state] +
          TINT[tinted ? this.#state : 'none'] +
          (mode === 'pulled' ? VS_PULLED : VS_INSTANCED) +
          (textured ? FS_TEXTURED : FS_SOFT),
      });
      const pipeline = device.createRenderPipeline({
        label,
        vertex: { module, entryPoint: 'vs', buffers: [] },
        fragment: { module, entryPoint: 'fs', targets },
        multisample,
        primitive,
        depthStencil,
        bindings:
          this.#state === 'textures'
            ? [1, 2, ...(tinted ? [8] : [])].map((binding) => ({
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

  /** Packs RibbonParams for this draw into the next ring slot; returns its offset. */
  #write(input: RibbonInput, look: RibbonLook, camera: Camera, life: RibbonLife): number {
    const f = this.#f32;
    const u = this.#u32;
    mat4.multiply(camera.projection, camera.view, this.#viewProjection);
    f.set(this.#viewProjection, 0);
    // the eye: the view's translation taken back through its rotation, −Rᵀ t (column-major)
    const v = camera.view;
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let r = 0; r < 3; r++) sum += (v[4 * c + r] as number) * (v[12 + r] as number);
      f[16 + c] = -sum;
    }
    f[19] = 1;
    f.set(look.colors[0], 20);
    f.set(look.colors[1], 24);
    f[28] = look.width[0];
    f[29] = look.width[1];
    u[32] = input.ribbons;
    u[33] = input.samples;
    u[34] = input.newest;
    u[35] = input.filled;
    u[36] = input.grid.width;
    u[37] = input.grid.height;
    u[38] = input.split ? input.ribbons : 0;
    u[39] = input.split === 'blocks' ? 1 : 0;
    for (let i = 0; i < 4; i++) f.set(life.colors[i] as readonly number[], 40 + 4 * i);
    f.set(life.colorStops, 56);
    for (let i = 0; i < 3; i++)
      f[60 + i] =
        1 / Math.max((life.colorStops[i + 1] as number) - (life.colorStops[i] as number), 1e-6);
    f[64] = life.sizeOverLife[0];
    f[65] = life.sizeOverLife[1];
    f[66] = look.inherit ? 1 : 0;
    // the fade: its seconds, and how long before the newest record each ring slot was recorded
    const times = input.times;
    f[67] = times ? (look.fade ?? 0) : 0;
    const newest = times ? (times[input.newest] as number) : 0;
    for (let s = 0; s < 64; s++) f[68 + s] = times && s < times.length ? newest - times[s]! : 0;
    const offset = this.#ring.take();
    this.#device.queue.writeBuffer(this.#ring.buffer, offset, this.#f32);
    return offset;
  }

  /** Draws the ribbons of `input` into `pass` (nothing while fewer than two samples are recorded). */
  draw(
    pass: RenderPass,
    mode: 'instanced' | 'pulled',
    shape: PassShape,
    input: RibbonInput,
    look: RibbonLook,
    camera: Camera,
    life: RibbonLife,
  ): void {
    if (input.filled < 2) return;
    const offset = this.#write(input, look, camera, life);
    pass.setPipeline(this.#pipeline(input.kind, mode, shape, look.texture !== null, input.tinted));
    pass.setUniformBuffer(0, this.#ring.buffer, offset, RIBBON_PARAMS_BYTES);
    input.bind(pass);
    if (look.texture) {
      pass.setTexture(3, look.texture);
      pass.setSampler(
        4,
        (this.#sampler ??= this.#device.createSampler({
          label: 'particles ribbon texture',
          magFilter: 'linear',
          minFilter: 'linear',
        })),
      );
    }
    const vertices = 6 * (input.samples - 1);
    if (mode === 'instanced') pass.draw(vertices, input.ribbons);
    else pass.draw(vertices * input.ribbons);
  }

  destroy(): void {
    this.#ring.destroy();
    this.#sampler?.destroy();
    for (const p of this.#pipelines.values()) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
    this.#pipelines.clear();
  }
}
