// A hand-written WebGPU draw of the same particles and the same look as Ignis's (camera-facing
// quads, colour over life, the same soft disc — or, the `sprite` look, the same image tinted by
// it, as Ignis's options.texture draws), with no Ignis in between: its own buffers, pipeline,
// bind group and uniform buffer, recorded straight into a GPUCommandEncoder. The benchmark draws
// the same state with it and with Ignis, so what Ignis adds — to the GPU time and to the CPU time
// of a frame — is measured side by side.
const WGSL = /* wgsl */ `
struct Uniforms {
  viewProjection: mat4x4f,
  right: vec4f,        // clip-space offset of one world unit along the camera's right
  up: vec4f,           // … and up
  colors: array<vec4f, 4>,
  stops: vec4f,
  sizes: vec4f,        // x birth factor, y death factor, z world size
};
@group(0) @binding(0) var<uniform> u: Uniforms;
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;

struct Out {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  @location(1) uv: vec2f,
};

fn particle(p: vec4f, v: vec4f, corner: vec2f) -> Out {
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let half = 0.5 * u.sizes.z * mix(u.sizes.x, u.sizes.y, t);
  var c = u.colors[0];
  c = mix(c, u.colors[1], clamp((t - u.stops.x) / (u.stops.y - u.stops.x), 0.0, 1.0));
  c = mix(c, u.colors[2], clamp((t - u.stops.y) / (u.stops.z - u.stops.y), 0.0, 1.0));
  c = mix(c, u.colors[3], clamp((t - u.stops.z) / (u.stops.w - u.stops.z), 0.0, 1.0));
  let clip = u.viewProjection * vec4f(p.xyz, 1.0) + (u.right * corner.x + u.up * corner.y) * half;
  return Out(clip, c, corner);
}

// instanced: a 4-vertex strip per instance, the particle from instance-rate attributes
@vertex
fn vsInstanced(@builtin(vertex_index) i: u32, @location(0) p: vec4f, @location(1) v: vec4f) -> Out {
  let corner = vec2f(f32(i & 1u) * 2.0 - 1.0, f32(i >> 1u) * 2.0 - 1.0);
  return particle(p, v, corner);
}

// pulled: 6 vertices per particle, the particle fetched from storage
@vertex
fn vsPulled(@builtin(vertex_index) i: u32) -> Out {
  let n = i / 6u;
  var corners = array<vec2f, 6>(vec2f(-1, -1), vec2f(1, -1), vec2f(1, 1), vec2f(-1, -1), vec2f(1, 1), vec2f(-1, 1));
  return particle(positions[n], velocities[n], corners[i - n * 6u]);
}

@fragment
fn fs(in: Out) -> @location(0) vec4f {
  let r2 = dot(in.uv, in.uv);
  return vec4f(in.color.rgb, in.color.a * (1.0 - smoothstep(0.25, 1.0, r2)));
}

// the sprite look: the image at the corner's uv (-1..1, y up → 0..1, y down, as its rows), tinted
@group(0) @binding(3) var sprite: texture_2d<f32>;
@group(0) @binding(4) var spriteSampler: sampler;

@fragment
fn fsSprite(in: Out) -> @location(0) vec4f {
  return in.color * textureSample(sprite, spriteSampler, vec2f(in.uv.x, -in.uv.y) * 0.5 + 0.5);
}
`;

/** Channels (of 255) two images of the same look may differ by: the blends' rounding order. */
export const IMAGE_TOLERANCE = 8;

/** Two draws' images of one frame compared: pixels Ignis lit, and pixels differing. */
export interface ImageComparison {
  lit: number;
  /** Pixels with a channel more than `tolerance` apart. */
  differing: number;
  tolerance: number;
}

/**
 * Pixels Ignis lit, and pixels whose channels differ by more than IMAGE_TOLERANCE: a hand-written
 * draw that does not look like Ignis's cannot stand in for it (RGBA8, the same size and row order).
 */
export function compareImages(ignis: Uint8Array, raw: Uint8Array): ImageComparison {
  let lit = 0;
  let differing = 0;
  for (let i = 0; i < ignis.length; i += 4) {
    if ((ignis[i] as number) + (ignis[i + 1] as number) + (ignis[i + 2] as number) > 0) lit++;
    for (let c = 0; c < 4; c++)
      if (Math.abs((ignis[i + c] as number) - (raw[i + c] as number)) > IMAGE_TOLERANCE) {
        differing++;
        break;
      }
  }
  return { lit, differing, tolerance: IMAGE_TOLERANCE };
}

/** What the particles look like: the soft disc, or an image (SPRITE) tinted by the colour over life. */
export type RawLookKind = 'disc' | 'sprite';

/** The sprite's side, in pixels. */
export const SPRITE_SIZE = 32;

/**
 * The image of the `sprite` look, SPRITE_SIZE² RGBA8 rows top first: a soft four-pointed star
 * (its alpha), red towards the top and green towards the right. Both draws upload these bytes.
 */
export function spriteImage(): Uint8Array<ArrayBuffer> {
  const n = SPRITE_SIZE;
  const out = new Uint8Array(n * n * 4);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const u = ((x + 0.5) / n) * 2 - 1;
      const v = ((y + 0.5) / n) * 2 - 1;
      const r = Math.hypot(u, v);
      const star = 1 - Math.min(1, r / (0.35 + 0.65 * Math.abs(Math.cos(2 * Math.atan2(v, u)))));
      const i = 4 * (y * n + x);
      // red at the top, green at the right: an image upside down or mirrored is another image
      out[i] = Math.round((255 * (n - 1 - y)) / (n - 1));
      out[i + 1] = Math.round((255 * x) / (n - 1));
      out[i + 2] = 160;
      out[i + 3] = Math.round(255 * Math.max(0, Math.min(1, r >= 1 ? 0 : star)));
    }
  return out;
}

export interface RawCamera {
  view: ArrayLike<number>;
  projection: ArrayLike<number>;
}

/** projection × view (column-major, as wgpu-matrix makes them) into out[0..15]. */
export function viewProjection(camera: RawCamera, out: Float32Array): void {
  const v = camera.view;
  const p = camera.projection;
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += (p[4 * k + r] as number) * (v[4 * c + k] as number);
      out[4 * c + r] = s;
    }
}

export interface RawLook {
  colors: ReadonlyArray<readonly number[]>;
  stops: readonly number[];
  sizes: readonly [number, number, number];
}

export class RawReference {
  readonly #gpu: GPUDevice;
  readonly #positions: GPUBuffer;
  readonly #velocities: GPUBuffer;
  readonly #uniforms: GPUBuffer;
  readonly #pipelines: Record<'instanced' | 'pulled', GPURenderPipeline>;
  readonly #bindGroups: Record<'instanced' | 'pulled', GPUBindGroup>;
  readonly count: number;

  readonly #sprite: GPUTexture | null = null;

  constructor(
    gpu: GPUDevice,
    format: GPUTextureFormat,
    state: { position: Float32Array; velocity: Float32Array },
    look: RawLookKind = 'disc',
  ) {
    this.#gpu = gpu;
    this.count = state.position.length / 4;
    const buffer = (data: Float32Array<ArrayBuffer>): GPUBuffer => {
      const b = gpu.createBuffer({
        size: data.byteLength,
        usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      gpu.queue.writeBuffer(b, 0, data);
      return b;
    };
    this.#positions = buffer(new Float32Array(state.position));
    this.#velocities = buffer(new Float32Array(state.velocity));
    this.#uniforms = gpu.createBuffer({
      size: 256,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const module = gpu.createShaderModule({ code: WGSL });
    const blend: GPUBlendState = {
      color: { srcFactor: 'src-alpha', dstFactor: 'one' },
      alpha: { srcFactor: 'one', dstFactor: 'one' },
    };
    const attributes = (location: number): GPUVertexBufferLayout => ({
      arrayStride: 16,
      stepMode: 'instance',
      attributes: [{ format: 'float32x4', offset: 0, shaderLocation: location }],
    });
    const make = (mode: 'instanced' | 'pulled'): GPURenderPipeline =>
      gpu.createRenderPipeline({
        layout: 'auto',
        vertex: {
          module,
          entryPoint: mode === 'instanced' ? 'vsInstanced' : 'vsPulled',
          buffers: mode === 'instanced' ? [attributes(0), attributes(1)] : [],
        },
        fragment: {
          module,
          entryPoint: look === 'sprite' ? 'fsSprite' : 'fs',
          targets: [{ format, blend }],
        },
        primitive: { topology: mode === 'instanced' ? 'triangle-strip' : 'triangle-list' },
      });
    this.#pipelines = { instanced: make('instanced'), pulled: make('pulled') };
    const image: GPUBindGroupEntry[] = [];
    if (look === 'sprite') {
      const t = (this.#sprite = gpu.createTexture({
        size: [SPRITE_SIZE, SPRITE_SIZE],
        format: 'rgba8unorm',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      }));
      gpu.queue.writeTexture({ texture: t }, spriteImage(), { bytesPerRow: SPRITE_SIZE * 4 }, [
        SPRITE_SIZE,
        SPRITE_SIZE,
      ]);
      image.push(
        { binding: 3, resource: t.createView() },
        { binding: 4, resource: gpu.createSampler({ magFilter: 'linear', minFilter: 'linear' }) },
      );
    }
    const group = (mode: 'instanced' | 'pulled'): GPUBindGroup =>
      gpu.createBindGroup({
        layout: this.#pipelines[mode].getBindGroupLayout(0),
        entries:
          mode === 'instanced'
            ? [{ binding: 0, resource: { buffer: this.#uniforms } }, ...image]
            : [
                { binding: 0, resource: { buffer: this.#uniforms } },
                { binding: 1, resource: { buffer: this.#positions } },
                { binding: 2, resource: { buffer: this.#velocities } },
                ...image,
              ],
      });
    this.#bindGroups = { instanced: group('instanced'), pulled: group('pulled') };
  }

  /** What a frame writes: the camera and the look, 36 floats. */
  #data = new Float32Array(48);

  /** Records and submits one frame: uniforms, a render pass, one draw. */
  frame(
    mode: 'instanced' | 'pulled',
    target: GPUTextureView,
    camera: RawCamera,
    look: RawLook,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void {
    const d = this.#data;
    const p = camera.projection;
    viewProjection(camera, d);
    for (let i = 0; i < 8; i++) d[16 + i] = p[i] as number;
    for (let i = 0; i < 4; i++) d.set(look.colors[i] as readonly number[], 24 + 4 * i);
    d.set(look.stops, 40);
    d.set(look.sizes, 44);
    this.#gpu.queue.writeBuffer(this.#uniforms, 0, d);
    const encoder = this.#gpu.createCommandEncoder();
    const pass = encoder.beginRenderPass({
      colorAttachments: [
        { view: target, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] },
      ],
      timestampWrites,
    });
    pass.setPipeline(this.#pipelines[mode]);
    pass.setBindGroup(0, this.#bindGroups[mode]);
    if (mode === 'instanced') {
      pass.setVertexBuffer(0, this.#positions);
      pass.setVertexBuffer(1, this.#velocities);
      pass.draw(4, this.count);
    } else pass.draw(6 * this.count);
    pass.end();
    this.#gpu.queue.submit([encoder.finish()]);
  }

  destroy(): void {
    this.#positions.destroy();
    this.#velocities.destroy();
    this.#uniforms.destroy();
    this.#sprite?.destroy();
  }
}

/**
 * GPU time of a hand-written pass, from its own timestamp query set (the reference has no Ignis to
 * read them with): `writes` goes into the pass's descriptor; `read()` after the frame's submit
 * resolves, copies and maps the two timestamps, in ms.
 */
export class RawPassTimer {
  readonly #queries: GPUQuerySet;
  readonly #resolve: GPUBuffer;
  readonly #readback: GPUBuffer;
  readonly writes: GPURenderPassTimestampWrites;

  constructor(private readonly gpu: GPUDevice) {
    this.#queries = gpu.createQuerySet({ type: 'timestamp', count: 2 });
    this.#resolve = gpu.createBuffer({
      size: 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    this.#readback = gpu.createBuffer({
      size: 16,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    this.writes = { querySet: this.#queries, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
  }

  async read(): Promise<number> {
    const e = this.gpu.createCommandEncoder();
    e.resolveQuerySet(this.#queries, 0, 2, this.#resolve, 0);
    e.copyBufferToBuffer(this.#resolve, 0, this.#readback, 0, 16);
    this.gpu.queue.submit([e.finish()]);
    await this.#readback.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.#readback.getMappedRange());
    const ms = Number((t[1] as bigint) - (t[0] as bigint)) / 1e6;
    this.#readback.unmap();
    return ms;
  }

  destroy(): void {
    this.#queries.destroy();
    this.#resolve.destroy();
    this.#readback.destroy();
  }
}

/**
 * Ignis's texture of the sprite image, for the system the reference is measured against (the page's
 * suite and the Deno benchmark make it alike). `usage` is Ignis's TextureUsage: this file loads no
 * Ignis build of its own.
 */
export function ignisSpriteTexture(
  device: import('../../src/all.js').Device,
  usage: { TEXTURE_BINDING: number; COPY_DST: number },
): import('../../src/all.js').Texture {
  const texture = device.createTexture({
    label: 'reference sprite',
    size: { width: SPRITE_SIZE, height: SPRITE_SIZE },
    format: 'rgba8unorm',
    usage: usage.TEXTURE_BINDING | usage.COPY_DST,
  });
  device.queue.writeTexture(
    { texture },
    spriteImage(),
    { bytesPerRow: SPRITE_SIZE * 4 },
    { width: SPRITE_SIZE, height: SPRITE_SIZE },
  );
  return texture;
}
