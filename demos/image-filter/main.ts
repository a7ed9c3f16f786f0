// A portable image filter (filter.wgsl.ts): ordinary WGSL with textureLoad, textureSampleLevel
// and textureStore, run
// by createPortableCompute on the path the device has — WebGPU compute, or on WebGL2 a fragment
// pass drawn into the storage texture (each store is at the invocation's own texel). The filtered
// picture is drawn to the canvas. ?backend=webgl2 picks the WebGL2 device, ?size= the picture's.
import {
  BufferUsage,
  TextureUsage,
  createDevice,
  type BackendRequest,
  type RenderPipeline,
  type Texture,
} from '../../src/index.js';
import { createPortableCompute, storageTextureUsage } from '../../src/compute/portable/index.js';
import { FILTER_WGSL } from './filter.wgsl.js';
import { dockedPane, element, fitCanvas, FrameMeter } from '../shared/ui.js';

const params = new URLSearchParams(location.search);
const canvas = element<HTMLCanvasElement>('canvas');
const info = element('info');
fitCanvas(canvas);

// host copies: the page's check runs the same filter on the CPU path beside the device's own
const device = await createDevice({
  backend: (params.get('backend') ?? 'auto') as BackendRequest,
  canvas,
  hostShadows: true,
});
const surface = device.surface!;
const size = Number(params.get('size') ?? 256);

/** A picture to filter: soft rings over diagonal stripes, in colour. */
function picture(): Texture {
  const texels = new Uint8Array(4 * size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const u = x / size - 0.5;
      const v = y / size - 0.5;
      const ring = 0.5 + 0.5 * Math.cos(Math.hypot(u, v) * 40);
      const stripe = ((x + y) >> 4) & 1;
      const i = 4 * (y * size + x);
      texels[i] = 255 * ring;
      texels[i + 1] = 90 + 120 * stripe * ring;
      texels[i + 2] = 255 * (1 - ring) * (0.4 + 0.6 * stripe);
      texels[i + 3] = 255;
    }
  const t = device.createTexture({
    label: 'picture',
    size: { width: size, height: size },
    format: 'rgba8unorm',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  device.queue.writeTexture(
    { texture: t },
    texels,
    { bytesPerRow: 4 * size },
    { width: size, height: size },
  );
  return t;
}
const source = picture();

/** A texture the filter can write on every path (and the draw sample, and the check read). */
const target = (label: string): Texture =>
  device.createTexture({
    label,
    size: { width: size, height: size },
    format: 'rgba8unorm',
    usage: storageTextureUsage(device) | TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_SRC,
  });
const filtered = target('filtered');
const settings = { gain: 0.8, edges: 0.6, swirl: 1.5 };
const bilinear = device.createSampler({ magFilter: 'linear', minFilter: 'linear' });
const uniforms = device.createBuffer({
  label: 'filter params',
  size: 16,
  usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
});
const filter = createPortableCompute(device, {
  label: 'edge filter',
  code: FILTER_WGSL,
  count: [size, size],
  buffers: { params: uniforms },
  textures: { picture: source, filtered },
  samplers: { bilinear },
});

const pane = dockedPane('image filter');
const meter = new FrameMeter(pane);
pane.addBinding(settings, 'gain', { min: 0, max: 2 });
pane.addBinding(settings, 'edges', { min: 0, max: 1 });
pane.addBinding(settings, 'swirl', { min: -3, max: 3 });

// the filtered picture over the canvas
const DRAW_WGSL = /* wgsl */ `
@group(0) @binding(0) var img: texture_2d<f32>;
struct Out { @builtin(position) position: vec4f, @location(0) uv: vec2f };
@vertex fn vs(@builtin(vertex_index) v: u32) -> Out {
  let p = vec2f(f32((v << 1u) & 2u), f32(v & 2u));
  return Out(vec4f(p * 2.0 - 1.0, 0.0, 1.0), vec2f(p.x, 1.0 - p.y));
}
@fragment fn fs(in: Out) -> @location(0) vec4f {
  let size = vec2f(textureDimensions(img));
  return textureLoad(img, vec2i(min(in.uv * size, size - 1.0)), 0);
}`;
const DRAW_VS_GLSL = `#version 300 es
out vec2 uv;
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  uv = vec2(p.x, 1.0 - p.y);
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`;
const DRAW_FS_GLSL = `#version 300 es
precision highp float;
uniform highp sampler2D img;
in vec2 uv;
out vec4 color;
void main() {
  vec2 size = vec2(textureSize(img, 0));
  color = texelFetch(img, ivec2(min(uv * size, size - 1.0)), 0);
}`;

function drawPipeline(): RenderPipeline {
  const glsl = device.caps.shaderLanguage === 'glsl';
  const vs = device.createShaderModule({
    label: 'draw',
    code: glsl ? DRAW_VS_GLSL : DRAW_WGSL,
    stage: glsl ? 'vertex' : undefined,
  });
  const fs = glsl
    ? device.createShaderModule({ label: 'draw fs', code: DRAW_FS_GLSL, stage: 'fragment' })
    : vs;
  return device.createRenderPipeline({
    label: 'draw',
    vertex: { module: vs, entryPoint: glsl ? undefined : 'vs' },
    fragment: {
      module: fs,
      entryPoint: glsl ? undefined : 'fs',
      targets: [{ format: surface.format }],
    },
    ...(glsl ? { bindings: [{ binding: 0, type: 'texture' as const, name: 'img' }] } : {}),
  });
}
const draw = drawPipeline();

/** The same filter on the CPU path into a texture of its own: the most any texel differs. */
async function check(): Promise<{ differ: number; worst: number; values: number }> {
  const cpuTarget = target('filtered on the CPU');
  const cpu = createPortableCompute(device, {
    label: 'edge filter (CPU)',
    code: FILTER_WGSL,
    count: [size, size],
    buffers: { params: uniforms },
    textures: { picture: source, filtered: cpuTarget },
    samplers: { bilinear },
    path: 'cpu',
  });
  const encoder = device.createCommandEncoder();
  cpu.dispatch(encoder);
  device.queue.submit([encoder.finish()]);
  const [a, b] = [await filtered.read(), await cpuTarget.read()];
  let differ = 0;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] as number) - (b[i] as number));
    if (d) differ++;
    worst = Math.max(worst, d);
  }
  cpu.destroy();
  cpuTarget.destroy();
  return { differ, worst, values: new Set(a).size };
}

let frames = 0;
async function frame(): Promise<void> {
  await device.beginFrame();
  fitCanvas(canvas);
  device.queue.writeBuffer(
    uniforms,
    0,
    new Float32Array([settings.gain, settings.edges, settings.swirl, 0]),
  );
  const encoder = device.createCommandEncoder({ label: 'frame' });
  filter.dispatch(encoder);
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
    ],
  });
  pass.setPipeline(draw);
  pass.setTexture(0, filtered);
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick();
  frames++;
  info.textContent = `${device.caps.backend} · path ${filter.path} (${filter.reason}) · ${size}² · ${meter.text()}`;
  Object.assign(window, { __frames: frames, __path: filter.path, __check: check });
  if (frames < Number(params.get('frames') ?? Infinity)) requestAnimationFrame(() => void frame());
}
void frame();
