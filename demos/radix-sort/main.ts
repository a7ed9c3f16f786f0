// Babylon.js's radix sort (sort.ts), unchanged, on the path the device has: WebGPU compute, or on
// WebGL2 the CPU path (its shaders share workgroup memory between barriers, which the fragment
// ping-pong cannot). Random keys are drawn as bars, then sorted by the first `passes` 4-bit digits:
// after one pass they are sorted by their lowest 4 bits, after eight completely. ?backend=webgl2
// picks the WebGL2 device, ?count= the number of keys.
import {
  BufferUsage,
  createDevice,
  type BackendRequest,
  type RenderPipeline,
} from '../../src/index.js';
import { PASSES, RadixSort } from './sort.js';
import { dockedPane, element, fitCanvas, FrameMeter } from '../shared/ui.js';

const params = new URLSearchParams(location.search);
const canvas = element<HTMLCanvasElement>('canvas');
const info = element('info');
fitCanvas(canvas);

// host copies of the buffers: the CPU path reads them
const device = await createDevice({
  backend: (params.get('backend') ?? 'auto') as BackendRequest,
  canvas,
  hostShadows: true,
});
const surface = device.surface!;
const count = Number(params.get('count') ?? 4096);
const sort = new RadixSort(device, count, { usage: BufferUsage.VERTEX });
const settings = { passes: Number(params.get('passes') ?? PASSES), reshuffle: true };

let seed = 1;
function shuffle(): void {
  const keys = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    // a 32-bit hash of the index and the seed
    let h = Math.imul(i ^ (seed * 0x9e3779b9), 2654435761) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
    keys[i] = (h ^ (h >>> 13)) >>> 0;
  }
  seed++;
  device.queue.writeBuffer(sort.keys[0], 0, keys);
  device.queue.writeBuffer(
    sort.values[0],
    0,
    Uint32Array.from({ length: count }, (_, i) => i),
  );
}
shuffle();

const pane = dockedPane('radix sort');
const meter = new FrameMeter(pane);
pane.addBinding(settings, 'passes', { min: 0, max: PASSES, step: 1 });
pane.addBinding(settings, 'reshuffle', { label: 'new keys each second' });
pane.addButton({ title: 'new keys' }).on('click', shuffle);

// one bar per key: x its position, height the key, colour its lowest digit
const BARS_WGSL = /* wgsl */ `
const count: f32 = COUNT;
struct Out { @builtin(position) position: vec4f, @location(0) color: vec4f };
@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32, @location(0) key: u32) -> Out {
  let corner = vec2f(f32(v == 1u || v == 2u || v == 4u), f32(v >= 2u && v != 3u));
  let h = f32(key >> 8u) / 16777216.0;
  let x = (f32(i) + corner.x) / count * 2.0 - 1.0;
  let d = f32(key & 15u) / 15.0;
  return Out(vec4f(x, corner.y * h * 1.9 - 0.95, 0.0, 1.0), vec4f(0.3 + 0.7 * d, 0.5, 1.0 - 0.7 * d, 1.0));
}
@fragment fn fs(in: Out) -> @location(0) vec4f { return in.color; }`;

const BARS_VS_GLSL = `#version 300 es
layout(location = 0) in uint key;
const float count = COUNT;
out vec4 color;
void main() {
  int v = gl_VertexID;
  vec2 corner = vec2(float(v == 1 || v == 2 || v == 4), float(v >= 2 && v != 3));
  float h = float(key >> 8u) / 16777216.0;
  float x = (float(gl_InstanceID) + corner.x) / count * 2.0 - 1.0;
  float d = float(key & 15u) / 15.0;
  color = vec4(0.3 + 0.7 * d, 0.5, 1.0 - 0.7 * d, 1.0);
  gl_Position = vec4(x, corner.y * h * 1.9 - 0.95, 0.0, 1.0);
}`;
const BARS_FS_GLSL = `#version 300 es
precision highp float;
in vec4 color;
out vec4 outColor;
void main() { outColor = color; }`;

function barsPipeline(): RenderPipeline {
  const glsl = device.caps.shaderLanguage === 'glsl';
  const vs = device.createShaderModule({
    label: 'bars',
    code: (glsl ? BARS_VS_GLSL : BARS_WGSL).replace('COUNT', `${count}.0`),
    stage: glsl ? 'vertex' : undefined,
  });
  const fs = glsl
    ? device.createShaderModule({ label: 'bars fs', code: BARS_FS_GLSL, stage: 'fragment' })
    : vs;
  return device.createRenderPipeline({
    label: 'bars',
    vertex: {
      module: vs,
      entryPoint: glsl ? undefined : 'vs',
      buffers: [
        {
          arrayStride: 4,
          stepMode: 'instance',
          attributes: [{ format: 'uint32', offset: 0, shaderLocation: 0 }],
        },
      ],
    },
    fragment: {
      module: fs,
      entryPoint: glsl ? undefined : 'fs',
      targets: [{ format: surface.format }],
    },
  });
}
const bars = barsPipeline();

let frames = 0;
let last = performance.now();
async function frame(): Promise<void> {
  await device.beginFrame();
  fitCanvas(canvas);
  if (settings.reshuffle && performance.now() - last > 1000) {
    shuffle();
    last = performance.now();
  }
  const encoder = device.createCommandEncoder({ label: 'frame' });
  const at = sort.record(encoder, count, settings.passes);
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0.03, 0.04, 0.07, 1] },
    ],
  });
  pass.setPipeline(bars);
  pass.setVertexBuffer(0, sort.keys[at]);
  pass.draw(6, count);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick();
  frames++;
  info.textContent = `${device.caps.backend} · path ${sort.path} (${sort.reason}) · ${count} keys · ${settings.passes} of ${PASSES} passes · ${meter.text()}`;
  Object.assign(window, {
    __frames: frames,
    __path: sort.path,
    __sorted: async (): Promise<boolean> => {
      const keys = new Uint32Array(await sort.keys[at].read()).slice(0, count);
      return keys.every((k, i) => i === 0 || (keys[i - 1] as number) <= k);
    },
  });
  if (frames < Number(params.get('frames') ?? Infinity)) requestAnimationFrame(() => void frame());
}
void frame();
