// Storage textures: `texture_storage_2d<format, write>` written with textureStore on the CPU path,
// against a JavaScript reference of the same filter; which path a WebGL2 device takes; what each
// path requires of the texture; the kernels the front end refuses. The browser runs the same kernel against raw WebGPU
// (tests/gpu/cases/portable-world.ts).
import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  KernelError,
  MissingBarrierError,
  NullDevice,
  TextureUsage,
  UsageError,
  ValidationError,
  halfToFloat,
  type Texture,
  type TextureFormat,
} from '../../src/all.js';
import {
  PortableKernelError,
  createPortableCompute,
  storageTextureUsage,
} from '../../src/compute/portable/index.js';
import { IMAGE_EDGES, IMAGE_TONE, SAMPLED } from '../gpu/page/portable-kernels.js';
import { sampleTexel, type DecodedTexture } from '../../src/compute/portable/texels.js';
import { device, expectRejected } from './portable-helpers.js';

const [W, H] = [13, 9];

function texture(d: NullDevice, format: TextureFormat, bytes: Uint8Array, usage?: number): Texture {
  const t = d.createTexture({
    label: format,
    size: { width: W, height: H },
    format,
    usage: usage ?? storageTextureUsage(d),
  });
  d.queue.writeTexture(
    { texture: t },
    bytes,
    { bytesPerRow: bytes.byteLength / H },
    { width: W, height: H },
  );
  return t;
}

const source = Uint8Array.from({ length: 4 * W * H }, (_, i) => (i * 53 + (i >> 3) * 7) % 256);

/** The filter in JavaScript: per texel (gx, gy, m) from the source's luma, as the WGSL says. */
function sobel(x: number, y: number): [number, number, number] {
  const luma = (px: number, py: number): number => {
    const cx = Math.min(Math.max(px, 0), W - 1);
    const cy = Math.min(Math.max(py, 0), H - 1);
    const i = 4 * (cy * W + cx);
    const c = (k: number): number => (source[i + k] as number) / 255;
    return 0.25 * c(0) + 0.5 * c(1) + 0.25 * c(2);
  };
  const gx =
    luma(x + 1, y - 1) +
    2 * luma(x + 1, y) +
    luma(x + 1, y + 1) -
    luma(x - 1, y - 1) -
    2 * luma(x - 1, y) -
    luma(x - 1, y + 1);
  const gy =
    luma(x - 1, y + 1) +
    2 * luma(x, y + 1) +
    luma(x + 1, y + 1) -
    luma(x - 1, y - 1) -
    2 * luma(x, y - 1) -
    luma(x + 1, y - 1);
  return [gx, gy, Math.abs(gx) + Math.abs(gy)];
}

const unorm = (v: number): number => Math.round(Math.min(Math.max(v, 0), 1) * 255);

describe('storage textures on the CPU path', () => {
  it('textureStore into rgba8unorm, rgba16float and r32float: the filter by hand; unwritten texels keep their contents, stores outside write nothing', () => {
    const d = device();
    const src = texture(
      d,
      'rgba8unorm',
      source,
      TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    );
    const edges = texture(d, 'rgba8unorm', new Uint8Array(4 * W * H).fill(7));
    const hdr = texture(d, 'rgba16float', new Uint8Array(8 * W * H));
    const before = Float32Array.from({ length: W * H }, (_, i) => -i);
    const shifted = texture(d, 'r32float', new Uint8Array(before.buffer));
    const sim = createPortableCompute(d, {
      code: IMAGE_EDGES,
      count: [W + 3, H + 5],
      textures: { src, edges, hdr, shifted },
      path: 'cpu',
    });
    sim.dispatch(d.createCommandEncoder());
    const e = edges.hostShadow?.bytes as Uint8Array;
    const h = new Uint16Array((hdr.hostShadow?.bytes as Uint8Array).slice().buffer);
    const s = new Float32Array((shifted.hostShadow?.bytes as Uint8Array).slice().buffer);
    let worst = 0;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const [gx, gy, m] = sobel(x, y);
        const want = [unorm(m), unorm(gx * 0.5 + 0.5), unorm(gy * 0.5 + 0.5), 255];
        for (let c = 0; c < 4; c++)
          worst = Math.max(worst, Math.abs((e[4 * i + c] as number) - (want[c] as number)));
        const half = [gx, gy, m * 1000, -m];
        for (let c = 0; c < 4; c++)
          expect(halfToFloat(h[4 * i + c] as number)).toBeCloseTo(
            half[c] as number,
            c === 2 ? 0 : 2,
          );
        // texel (x, y) of `shifted` is written by the invocation at (x - 1, y), where (x - 1 + y) % 3 != 0
        const writer = x > 0 && (x - 1 + y) % 3 !== 0;
        if (writer) expect(s[i]).toBeCloseTo((sobel(x - 1, y)[2] as number) - 0.25, 5);
        else expect(s[i]).toBe(before[i]);
      }
    // f32 arithmetic against double: a byte may round the other way
    expect(worst).toBeLessThanOrEqual(1);
    // the edges are not all one value: the filter saw the image
    expect(new Set(e).size).toBeGreaterThan(20);
  });

  it('on a WebGL2-like device: a kernel storing only at its own texel takes the ping-pong, one storing elsewhere the CPU path', () => {
    const d = new NullDevice({
      hostShadows: true,
      features: { compute: false, storageTextures: false },
    });
    Object.assign(d, { caps: { ...d.caps, backend: 'webgl2', shaderLanguage: 'glsl' } });
    const tone = createPortableCompute(d, { code: IMAGE_TONE, count: [W, H] });
    expect(tone.path).toBe('pingpong');
    expect(tone.portability).toEqual({ portable: true });
    const edges = createPortableCompute(d, { code: IMAGE_EDGES, count: [W, H] });
    expect(edges.path).toBe('cpu');
    // the store one texel to the right, at its line and column
    const line = IMAGE_EDGES.split('\n').findIndex((l) => l.includes('textureStore(shifted')) + 1;
    expect(edges.portability).toMatchObject({
      portable: true,
      pingpong: { construct: 'textureStore', line, column: 5 },
    });
    expect(() =>
      createPortableCompute(d, { code: IMAGE_EDGES, count: [W, H], path: 'pingpong' }),
    ).toThrow(PortableKernelError);
    // a kernel writing a buffer too: the CPU path
    const both = `@group(0) @binding(0) var o: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {
  textureStore(o, id.xy, vec4f(1.0));
  b[id.x] = id.y;
}`;
    expect(createPortableCompute(d, { code: both, count: [W, H] }).portability).toMatchObject({
      pingpong: { construct: 'texture_storage_2d', line: 1 },
    });
    // what each device's paths need
    expect(storageTextureUsage(d)).toBe(
      TextureUsage.COPY_DST | TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    );
    expect(storageTextureUsage(device())).toBe(
      TextureUsage.COPY_DST | TextureUsage.TEXTURE_BINDING | TextureUsage.STORAGE_BINDING,
    );
  });

  it('refuses a texture of another format, one without the usage its path needs, and one bound twice', () => {
    const d = device();
    const src = texture(
      d,
      'rgba8unorm',
      source,
      TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    );
    const code = IMAGE_EDGES;
    const wrong = texture(d, 'rgba16float', new Uint8Array(8 * W * H));
    expect(() =>
      createPortableCompute(d, { code, count: [W, H], path: 'cpu', textures: { edges: wrong } }),
    ).toThrow(/is rgba16float; the shader declares rgba8unorm/);
    const noCopy = texture(
      d,
      'rgba8unorm',
      new Uint8Array(4 * W * H),
      TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    );
    let error: unknown;
    try {
      createPortableCompute(d, {
        code,
        count: [W, H],
        path: 'compute',
        textures: { edges: noCopy },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toMatch(/needs STORAGE_BINDING on the compute path/);
    const storageOnly = d.createTexture({
      size: { width: W, height: H },
      format: 'rgba8unorm',
      usage: TextureUsage.STORAGE_BINDING,
    });
    expect(() =>
      createPortableCompute(d, {
        code,
        count: [W, H],
        path: 'cpu',
        textures: { edges: storageOnly },
      }),
    ).toThrow(/needs COPY_DST\|TEXTURE_BINDING on the cpu path/);
    const a = texture(d, 'rgba8unorm', new Uint8Array(4 * W * H));
    const hdr = texture(d, 'rgba16float', new Uint8Array(8 * W * H));
    const r = texture(d, 'r32float', new Uint8Array(4 * W * H));
    const sim = createPortableCompute(d, { code, count: [W, H], path: 'cpu' });
    expect(() =>
      sim.dispatch(d.createCommandEncoder(), {}, { src: a, edges: a, hdr, shifted: r }),
    ).toThrow(ValidationError);
    const fresh = createPortableCompute(d, { code, count: [W, H], path: 'cpu' });
    expect(() => fresh.dispatch(d.createCommandEncoder(), {}, { src, edges: a, hdr })).toThrow(
      /no texture bound for shifted/,
    );
  });

  it('refuses what Ignis does not write: read_write access, other formats and dimensions, loads, a storage texture as a value', () => {
    const decl = (t: string): string =>
      `@group(0) @binding(0) var o: ${t};\n@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) id: vec3u) {\n  textureStore(o, vec2u(id.x, 0u), vec4f(1.0));\n}`;
    const cpuOnly = { cpu: true };
    expectRejected(
      decl('texture_storage_2d<rgba8unorm, read_write>'),
      'read_write',
      1,
      /write-only/,
      cpuOnly,
    );
    expectRejected(
      decl('texture_storage_2d<rgba32uint, write>'),
      'rgba32uint',
      1,
      /not a storage format/,
      cpuOnly,
    );
    expectRejected(
      decl('texture_storage_3d<rgba8unorm, write>'),
      'texture_storage_3d',
      1,
      /not portable/,
      cpuOnly,
    );
    expectRejected(
      `@group(0) @binding(0) var o: texture_storage_2d<rgba8unorm, write>;\n@compute @workgroup_size(8) fn main() {\n  let v = textureLoad(o, vec2i(0));\n}`,
      'textureLoad',
      3,
      /write-only storage texture cannot be read/,
      cpuOnly,
    );
    expectRejected(
      `@group(0) @binding(0) var o: texture_storage_2d<rgba8unorm, write>;\n@compute @workgroup_size(8) fn main() {\n  textureStore(o, vec2i(0), vec3f(1.0));\n}`,
      'textureStore',
      3,
      /must be vec4<f32>/,
      cpuOnly,
    );
    expectRejected(
      `@group(0) @binding(0) var o: texture_storage_2d<rgba8unorm, write>;\nfn f(t: texture_storage_2d<rgba8unorm, write>) {}\n@compute @workgroup_size(8) fn main() {\n  let t = o;\n}`,
      'o',
      4,
      /written with textureStore/,
      cpuOnly,
    );
    // without the CPU path (defineKernel's analysis): refused at the declaration
    expectRejected(
      decl('texture_storage_2d<rgba8unorm, write>'),
      'texture_storage_2d',
      1,
      /not portable/,
    );
  });
});

describe('textureSampleLevel with a sampler', () => {
  // a 2×2 texture: red channel 0, 1 / 2, 3 (row-major); the other channels constant
  const t: DecodedTexture = {
    width: 2,
    height: 2,
    levels: 1,
    data: Float32Array.from([0, 0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 1, 3, 0, 0, 1]),
  };
  const state = (filter: string, mode: string) => ({
    magFilter: filter,
    minFilter: filter,
    addressModeU: mode,
    addressModeV: mode,
    lodMinClamp: 0,
    lodMaxClamp: 32,
  });
  const red = (s: ReturnType<typeof state>, u: number, v: number): number =>
    sampleTexel(t, s, [u, v], 0)[0] as number;

  it('filters at texel centres: bilinear weights by hand, nearest texels, each address mode', () => {
    const linear = state('linear', 'clamp-to-edge');
    expect(red(linear, 0.25, 0.25)).toBe(0); // texel (0, 0)'s centre
    expect(red(linear, 0.5, 0.5)).toBe(1.5); // the mean of the four
    expect(red(linear, 0.5, 0.25)).toBe(0.5); // between (0, 0) and (1, 0)
    // x 0.25 of the way from column 0 to 1, y 0.75 from row 0 to 1: rows 0.25 and 2.25, then 1.75
    expect(red(linear, 0.375, 0.625)).toBe(1.75);
    expect(red(linear, -1, -1)).toBe(0); // clamped to the corner
    // repeat: half a texel left of u = 0 wraps to the last column
    expect(red(state('linear', 'repeat'), 0, 0.25)).toBe(0.5);
    // mirror-repeat: u in (1, 2) reads the columns backwards
    expect(red(state('nearest', 'mirror-repeat'), 1.3, 0.25)).toBe(1);
    expect(red(state('nearest', 'mirror-repeat'), 1.8, 0.25)).toBe(0);
    expect(red(state('nearest', 'repeat'), 1.8, 0.25)).toBe(1);
    expect(red(state('nearest', 'clamp-to-edge'), 0.6, 0.9)).toBe(3);
  });

  it('runs on the CPU path and the ping-pong is chosen on a WebGL2-like device; a level past 0 of a mipmapped texture is a KernelError', () => {
    const d = device();
    const photo = texture(
      d,
      'rgba8unorm',
      source,
      TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    );
    const tiles = texture(
      d,
      'rgba8unorm',
      source.slice().reverse(),
      TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    );
    const params = d.createBuffer({ size: 16, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
    d.queue.writeBuffer(params, 0, new Float32Array([1, 1, 0, 0]));
    const linear = texture(d, 'rgba8unorm', new Uint8Array(4 * W * H));
    const nearest = texture(d, 'rgba8unorm', new Uint8Array(4 * W * H));
    const soft = d.createSampler({ magFilter: 'linear', minFilter: 'linear' });
    const blocky = d.createSampler({});
    const sim = createPortableCompute(d, {
      code: SAMPLED,
      count: [W, H],
      buffers: { params },
      textures: { photo, tiles, linear, nearest },
      samplers: { soft, blocky },
      path: 'cpu',
    });
    sim.dispatch(d.createCommandEncoder());
    // scale 1, offset 0: every texel centre samples itself, so both copy their picture
    expect(Array.from(linear.hostShadow?.bytes ?? [])).toEqual(Array.from(source));
    expect(Array.from(nearest.hostShadow?.bytes ?? [])).toEqual(
      Array.from(source.slice().reverse()),
    );
    const gl = new NullDevice({
      hostShadows: true,
      features: { compute: false, storageTextures: false },
    });
    Object.assign(gl, { caps: { ...gl.caps, backend: 'webgl2', shaderLanguage: 'glsl' } });
    expect(createPortableCompute(gl, { code: SAMPLED, count: [W, H] }).path).toBe('pingpong');
    // a texture with mips, sampled at level 1: the CPU path has level 0 only
    const mipped = d.createTexture({
      size: { width: W, height: H },
      format: 'rgba8unorm',
      mipLevelCount: 2,
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    });
    const level1 = SAMPLED.replace(
      'textureSampleLevel(photo, soft, uv, 0.0)',
      'textureSampleLevel(photo, soft, uv, 1.0)',
    );
    const deep = createPortableCompute(d, {
      code: level1,
      count: [W, H],
      buffers: { params },
      textures: { photo: mipped, tiles, linear, nearest },
      samplers: { soft, blocky },
      path: 'cpu',
    });
    expect(() => deep.dispatch(d.createCommandEncoder())).toThrow(KernelError);
  });

  it('refuses what is not portable: textureSample with derivatives, an offset, a comparison sampler, samplers in the wrong place; two samplers on one texture keep it off the ping-pong', () => {
    const head = `@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var s: sampler;\n@group(0) @binding(2) var o: texture_storage_2d<rgba8unorm, write>;\n`;
    const body = (call: string): string =>
      `${head}@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {\n  textureStore(o, id.xy, ${call});\n}`;
    const cpuOnly = { cpu: true };
    expectRejected(
      body('textureSample(t, s, vec2f(0.5))'),
      'textureSample',
      5,
      /textureSampleLevel/,
      cpuOnly,
    );
    expectRejected(
      body('textureSampleLevel(t, s, vec2f(0.5), 0.0, vec2i(1))'),
      'textureSampleLevel',
      5,
      /offset/,
      cpuOnly,
    );
    expectRejected(
      body('textureSampleLevel(s, t, vec2f(0.5), 0.0)'),
      'textureSampleLevel',
      5,
      /texture_2d<f32> binding and a sampler/,
      cpuOnly,
    );
    expectRejected(
      body('textureSampleLevel(t, s, vec2i(1), 0.0)'),
      'textureSampleLevel',
      5,
      /must be vec2<f32>/,
      cpuOnly,
    );
    expectRejected(
      body('textureSampleLevel(t, s, vec2f(0.5), 0.0)').replace(
        'var s: sampler',
        'var s: sampler_comparison',
      ),
      'sampler_comparison',
      2,
      /not portable/,
      cpuOnly,
    );
    const two = `${head}@group(0) @binding(3) var s2: sampler;\n@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {\n  textureStore(o, id.xy, textureSampleLevel(t, s, vec2f(0.5), 0.0) + textureSampleLevel(t, s2, vec2f(0.5), 0.0));\n}`;
    const d = device();
    expect(createPortableCompute(d, { code: two, count: [8, 8] }).portability).toMatchObject({
      pingpong: { construct: 'textureSampleLevel', line: 6 },
    });
    // binding a sampler: by name, not in buffers, not a comparison sampler
    const sim = createPortableCompute(d, {
      code: body('textureSampleLevel(t, s, vec2f(0.5), 0.0)'),
      count: [8, 8],
    });
    expect(() => sim.setSamplers({ t: d.createSampler({}) })).toThrow(
      /t is a texture binding, not a sampler/,
    );
    expect(() =>
      sim.setBuffers({ s: d.createBuffer({ size: 16, usage: BufferUsage.UNIFORM }) }),
    ).toThrow(/pass it in samplers/);
    expect(() => sim.setSamplers({ s: d.createSampler({ compare: 'less' }) })).toThrow(
      /comparison sampler/,
    );
    expect(() => sim.dispatch(d.createCommandEncoder())).toThrow(/no texture bound for t, o/);
  });
});

describe('barriers after a storage texture (explicit barrier mode)', () => {
  it('a dispatch reading what another stored needs barrierFor: without it the encoder refuses the hazard', () => {
    for (const declare of [false, true]) {
      const d = new NullDevice({ barriers: 'explicit', hostShadows: true });
      const params = d.createBuffer({
        size: 16,
        usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
      });
      const weights = d.createBuffer({
        size: 80,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      });
      const src = texture(
        d,
        'rgba8unorm',
        source,
        TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
      );
      const bright = texture(d, 'rgba8unorm', new Uint8Array(4 * W * H));
      const glow = texture(d, 'rgba16float', new Uint8Array(8 * W * H));
      const tone = createPortableCompute(d, {
        code: IMAGE_TONE,
        count: [W, H],
        buffers: { params, weights },
        textures: { src, bright, glow },
      });
      expect(tone.path).toBe('compute');
      const edges = createPortableCompute(d, {
        code: IMAGE_EDGES,
        count: [W, H],
        textures: {
          src: bright, // what the tone pass stored, read as a sampled texture
          edges: texture(d, 'rgba8unorm', new Uint8Array(4 * W * H)),
          hdr: texture(d, 'rgba16float', new Uint8Array(8 * W * H)),
          shifted: texture(d, 'r32float', new Uint8Array(4 * W * H)),
        },
      });
      const encoder = d.createCommandEncoder();
      tone.dispatch(encoder);
      if (declare) tone.barrierFor(encoder, 'compute-read');
      let error: unknown;
      try {
        edges.dispatch(encoder);
        encoder.finish();
      } catch (e) {
        error = e;
      }
      if (declare) expect(error).toBeUndefined();
      else {
        expect(error).toBeInstanceOf(MissingBarrierError);
        expect(String(error)).toMatch(
          /\(compute-write\) and read .* \(compute-read\) with no barrier/,
        );
      }
    }
  });
});
