// A hand-written WebGPU compute splat of the same particles, footprint and coverage rule as Ignis's
// `drawMode: 'splat'` (shaders/particles/splat.wgsl): one thread per particle adds its disc — the
// pixel centres inside its camera-facing quad, weighted by the same smoothstep falloff — to
// per-pixel 16.16 fixed-point sums with atomicAdd, and one full-screen pass adds the sums to the
// target (blend one, one) and clears them. No Ignis in between. Variants name what Ignis's kernel
// does beyond the plainest splat: `channels` 3 (premultiplied rgb onto an opaque target: alpha not
// kept) or 4 (alpha summed too, as Ignis), and `check` (an overflow test after every add, as
// Ignis's atomicOr bit). The benchmark measures each against Ignis on the same state.
import { viewProjection, type RawCamera, type RawLook } from './raw-reference.js';

export interface RawSplatVariant {
  channels: 3 | 4;
  check: boolean;
  /** The adds as Ignis's splatAdd writes them: a loop over the channels, skipping zeros. */
  loop?: boolean;
}

const COMMON = /* wgsl */ `
struct Uniforms {
  viewProjection: mat4x4f,
  axes: vec4f,         // x: clip x per world unit along the camera's right; y: clip y per unit up
  colors: array<vec4f, 4>,
  stops: vec4f,
  sizes: vec4f,        // x birth factor, y death factor, z world size
  frame: vec4u,        // width, height, particle count
};
@group(0) @binding(0) var<uniform> u: Uniforms;
`;

function splatWgsl({ channels, check, loop }: RawSplatVariant): string {
  const looped = `  let q = vec4u(vec4f(rgb, a) * 65536.0 + 0.5);
  for (var c = 0u; c < ${channels}u; c++) {
    if (q[c] == 0u) { continue; }
    let old = atomicAdd(&accum[${channels}u * pixel + c], q[c]);
    ${check ? 'if (old > 0xffffffffu - q[c]) { atomicOr(&saturated[pixel / 32u], 1u << (pixel % 32u)); }' : ''}
  }`;
  const add = loop
    ? looped
    : Array.from({ length: channels }, (_, c) => {
        const value = c < 3 ? `rgb.${'xyz'[c]}` : 'a';
        const q = `u32(${value} * 65536.0 + 0.5)`;
        return check
          ? `  { let q = ${q}; let old = atomicAdd(&accum[${channels}u * pixel + ${c}u], q); if (old > 0xffffffffu - q) { atomicOr(&saturated[pixel / 32u], 1u << (pixel % 32u)); } }`
          : `  atomicAdd(&accum[${channels}u * pixel + ${c}u], ${q});`;
      }).join('\n');
  return `${COMMON}
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> accum: array<atomic<u32>>;
${check ? '@group(0) @binding(4) var<storage, read_write> saturated: array<atomic<u32>>;' : ''}

fn add(pixel: u32, rgb: vec3f, a: f32) {
${add}
}

@compute @workgroup_size(64)
fn splat(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = gid.x + gid.y * (groups.x * 64u);
  if (i >= u.frame.z) { return; }
  let p = positions[i];
  let v = velocities[i];
  if (v.w <= 0.0) { return; }
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let half = 0.5 * u.sizes.z * mix(u.sizes.x, u.sizes.y, t);
  let clip = u.viewProjection * vec4f(p.xyz, 1.0);
  if (clip.w <= 0.0 || clip.z < 0.0 || clip.z > clip.w) { return; }
  var c = u.colors[0];
  c = mix(c, u.colors[1], clamp((t - u.stops.x) / (u.stops.y - u.stops.x), 0.0, 1.0));
  c = mix(c, u.colors[2], clamp((t - u.stops.y) / (u.stops.z - u.stops.y), 0.0, 1.0));
  c = mix(c, u.colors[3], clamp((t - u.stops.z) / (u.stops.w - u.stops.z), 0.0, 1.0));
  if (c.a <= 0.0) { return; }
  let size = vec2f(f32(u.frame.x), f32(u.frame.y));
  let centre = vec2f(clip.x / clip.w * 0.5 + 0.5, 0.5 - clip.y / clip.w * 0.5) * size;
  let extent = vec2f(abs(u.axes.x), abs(u.axes.y)) * (half / clip.w * 0.5) * size;
  let lo = max(vec2i(ceil(centre - extent - 0.5)), vec2i(0));
  let hi = min(vec2i(floor(centre + extent - 0.5)), vec2i(size) - 1);
  for (var y = lo.y; y <= hi.y; y++) {
    let dy = (f32(y) + 0.5 - centre.y) / extent.y;
    for (var x = lo.x; x <= hi.x; x++) {
      let dx = (f32(x) + 0.5 - centre.x) / extent.x;
      let r2 = dx * dx + dy * dy;
      if (r2 >= 1.0) { continue; }
      let a = c.a * (1.0 - smoothstep(0.25, 1.0, r2));
      add(u32(y) * u.frame.x + u32(x), c.rgb * a, a);
    }
  }
}
`;
}

function resolveWgsl({ channels, check }: RawSplatVariant): string {
  const n = channels;
  return `${COMMON}
@group(0) @binding(3) var<storage, read_write> accum: array<u32>;
${check ? '@group(0) @binding(4) var<storage, read_write> saturated: array<atomic<u32>>;' : ''}

@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn resolve(@builtin(position) frag: vec4f) -> @location(0) vec4f {
  let pixel = u32(frag.y) * u.frame.x + u32(frag.x);
  let base = ${n}u * pixel;
  var sum = vec4f(f32(accum[base]), f32(accum[base + 1u]), f32(accum[base + 2u]), ${n === 4 ? 'f32(accum[base + 3u])' : '0.0'}) / 65536.0;
  ${check ? 'let bit = 1u << (pixel % 32u);\n  if ((atomicAnd(&saturated[pixel / 32u], ~bit) & bit) != 0u) { sum = vec4f(65536.0); }' : ''}
${Array.from({ length: n }, (_, c) => `  accum[base + ${c}u] = 0u;`).join('\n')}
  return sum;
}
`;
}

export class RawSplat {
  readonly #gpu: GPUDevice;
  readonly #uniforms: GPUBuffer;
  readonly #accum: GPUBuffer;
  readonly #saturated: GPUBuffer | null;
  readonly #splat: GPUComputePipeline;
  readonly #resolve: GPURenderPipeline;
  readonly #splatGroup: GPUBindGroup;
  readonly #resolveGroup: GPUBindGroup;
  readonly #width: number;
  readonly #height: number;
  readonly count: number;
  readonly variant: RawSplatVariant;

  constructor(
    gpu: GPUDevice,
    format: GPUTextureFormat,
    size: { width: number; height: number },
    /** The particles' state buffers (x y z age, vx vy vz life per particle; STORAGE). */
    state: { positions: GPUBuffer; velocities: GPUBuffer; count: number },
    variant: RawSplatVariant,
  ) {
    this.#gpu = gpu;
    this.variant = variant;
    this.count = state.count;
    this.#width = size.width;
    this.#height = size.height;
    const pixels = size.width * size.height;
    this.#uniforms = gpu.createBuffer({
      size: 256,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.#accum = gpu.createBuffer({
      size: 4 * variant.channels * pixels,
      usage: GPUBufferUsage.STORAGE,
    });
    this.#saturated = variant.check
      ? gpu.createBuffer({ size: 4 * Math.ceil(pixels / 32), usage: GPUBufferUsage.STORAGE })
      : null;
    const splatModule = gpu.createShaderModule({ code: splatWgsl(variant) });
    this.#splat = gpu.createComputePipeline({
      layout: 'auto',
      compute: { module: splatModule, entryPoint: 'splat' },
    });
    const resolveModule = gpu.createShaderModule({ code: resolveWgsl(variant) });
    this.#resolve = gpu.createRenderPipeline({
      layout: 'auto',
      vertex: { module: resolveModule, entryPoint: 'fullscreen' },
      fragment: {
        module: resolveModule,
        entryPoint: 'resolve',
        targets: [
          {
            format,
            blend: {
              color: { srcFactor: 'one', dstFactor: 'one' },
              alpha: { srcFactor: 'one', dstFactor: 'one' },
            },
          },
        ],
      },
    });
    const saturated = this.#saturated
      ? [{ binding: 4, resource: { buffer: this.#saturated } }]
      : [];
    this.#splatGroup = gpu.createBindGroup({
      layout: this.#splat.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.#uniforms } },
        { binding: 1, resource: { buffer: state.positions } },
        { binding: 2, resource: { buffer: state.velocities } },
        { binding: 3, resource: { buffer: this.#accum } },
        ...saturated,
      ],
    });
    this.#resolveGroup = gpu.createBindGroup({
      layout: this.#resolve.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.#uniforms } },
        { binding: 3, resource: { buffer: this.#accum } },
        ...saturated,
      ],
    });
  }

  #data = new Float32Array(64);

  /**
   * Records and submits one frame: uniforms, the splat's compute pass, the resolve's render pass
   * (timestamps: the compute pass at `base`, `base + 1`, the render pass at `base + 2`, `base + 3`).
   */
  frame(
    target: GPUTextureView,
    camera: RawCamera,
    look: RawLook,
    timestamps?: { querySet: GPUQuerySet; base: number },
  ): void {
    const d = this.#data;
    const p = camera.projection;
    viewProjection(camera, d);
    d[16] = p[0] as number;
    d[17] = p[5] as number;
    for (let i = 0; i < 4; i++) d.set(look.colors[i] as readonly number[], 20 + 4 * i);
    d.set(look.stops, 36);
    d.set(look.sizes, 40);
    new Uint32Array(d.buffer).set([this.#width, this.#height, this.count, 0], 44);
    this.#gpu.queue.writeBuffer(this.#uniforms, 0, d);
    const encoder = this.#gpu.createCommandEncoder();
    const ts = (at: number) =>
      timestamps
        ? {
            querySet: timestamps.querySet,
            beginningOfPassWriteIndex: timestamps.base + at,
            endOfPassWriteIndex: timestamps.base + at + 1,
          }
        : undefined;
    const compute = encoder.beginComputePass({ timestampWrites: ts(0) });
    compute.setPipeline(this.#splat);
    compute.setBindGroup(0, this.#splatGroup);
    const groups = Math.ceil(this.count / 64);
    const x = Math.min(groups, 65535);
    compute.dispatchWorkgroups(x, Math.ceil(groups / x));
    compute.end();
    const pass = encoder.beginRenderPass({
      colorAttachments: [
        { view: target, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] },
      ],
      timestampWrites: ts(2),
    });
    pass.setPipeline(this.#resolve);
    pass.setBindGroup(0, this.#resolveGroup);
    pass.draw(3);
    pass.end();
    this.#gpu.queue.submit([encoder.finish()]);
  }

  destroy(): void {
    this.#uniforms.destroy();
    this.#accum.destroy();
    this.#saturated?.destroy();
  }
}
