// Sparks off a spinning mesh: a glTF torus (torus.glb, written by scripts/demo-assets.mjs) read with
// glTF-Transform's WebIO — no glTF parsing of our own — becomes the `mesh` a particle system is born
// on. Every frame the torus turns about y and tilts (its `transform`), and the system is told its
// angular velocity, so each spark leaves the surface with the speed of the point it was born at
// (docs/particles.md, "Emission from a mesh"). The torus is textured as glTF models are (TEXCOORD_0
// and a base colour texture, a PNG in the .glb, decoded by the browser): each spark takes the
// colour painted where it is born (the mesh's `uvs` and `colorMap`). ?pose=gpu (WebGPU) also deforms the torus on the GPU
// each frame — a compute pass, as a skinning pass would, writes its posed vertices into a storage
// buffer the system is born on (a skinned mesh posed on the GPU; nothing is read back).
// ?backend=webgl2 the fallback, ?path=cpu the CPU path, ?frames=N stops after N frames,
// ?panel=closed folds the controls.
import { WebIO } from '@gltf-transform/core';
import { mat4 } from 'wgpu-matrix';
import { createParticleSystem, orbitCamera, type ParticlePath } from '../../src/particles/index.js';
import { BufferUsage, type Buffer } from '../../src/index.js';
import { FrameMeter, dockedPane, fitCanvas, openDemo } from '../shared/ui.js';

const { url, canvas, info, device } = await openDemo();
const surface = device.surface!;

// the first primitive of the first mesh: its positions, indices and texture coordinates as the file
// holds them, and its material's base colour texture as pixels
const doc = await new WebIO().read(new URL('./torus.glb', import.meta.url).href);
const primitive = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
const positions = primitive.getAttribute('POSITION')!.getArray()!;
const indices = primitive.getIndices()!.getArray()!;
const uvs = primitive.getAttribute('TEXCOORD_0')!.getArray()!;
const texture = primitive.getMaterial()!.getBaseColorTexture()!;
const colorMap = await pixelsOf(texture.getImage()!, texture.getMimeType());

/** An encoded image (PNG, JPEG) as its rgba8 pixels, decoded by the browser. */
async function pixelsOf(bytes: Uint8Array, type: string): Promise<ImageData> {
  const bitmap = await createImageBitmap(new Blob([bytes as BlobPart], { type }), {
    colorSpaceConversion: 'none',
    premultiplyAlpha: 'none',
  });
  const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
}

const settings = { spin: 2.5, wobble: 0.35, sparks: 1 };
const path = (url.get('path') ?? 'auto') as 'auto' | ParticlePath;

/**
 * ?pose=gpu: the torus breathes — a compute pass writes each frame's posed vertices (the rest pose
 * pushed in and out along the ring, a wave running round it) into a storage buffer, as a skinning
 * pass would; the particle system reads them on the GPU.
 */
const POSE_WGSL = `
struct Pose { time: f32, count: u32 };
@group(0) @binding(0) var<uniform> pose: Pose;
@group(0) @binding(1) var<storage, read> rest: array<f32>;
@group(0) @binding(2) var<storage, read_write> posed: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= pose.count) { return; }
  let p = vec3f(rest[3u * i], rest[3u * i + 1u], rest[3u * i + 2u]);
  let around = atan2(p.z, p.x);
  let s = 1.0 + 0.18 * sin(3.0 * around - 4.0 * pose.time);
  let q = vec3f(p.x * s, p.y * (2.0 - s), p.z * s);
  posed[3u * i] = q.x;
  posed[3u * i + 1u] = q.y;
  posed[3u * i + 2u] = q.z;
}`;
const gpuPose = url.get('pose') === 'gpu' && device.caps.features.compute ? makeGpuPose() : null;
function makeGpuPose() {
  const vertices = positions.length / 3;
  const rest = device.createBuffer({
    label: 'torus rest pose',
    size: 12 * vertices,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(rest, 0, Float32Array.from(positions));
  const posed: Buffer = device.createBuffer({
    label: 'torus posed vertices',
    size: 12 * vertices,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(posed, 0, Float32Array.from(positions));
  const uniforms = device.createBuffer({
    label: 'torus pose',
    size: 16,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  const module = device.createShaderModule({ label: 'torus pose', code: POSE_WGSL });
  const pipeline = device.createComputePipeline({ compute: { module, entryPoint: 'main' } });
  const data = new ArrayBuffer(16);
  return {
    posed,
    /** Records this frame's pose into `posed`. */
    record(encoder: ReturnType<typeof device.createCommandEncoder>, time: number): void {
      new Float32Array(data, 0, 1)[0] = time;
      new Uint32Array(data, 4, 1)[0] = vertices;
      device.queue.writeBuffer(uniforms, 0, data);
      const pass = encoder.beginComputePass({ label: 'torus pose' });
      pass.setPipeline(pipeline);
      pass.setUniformBuffer(0, uniforms);
      pass.setStorageBuffer(1, rest, { access: 'read' });
      pass.setStorageBuffer(2, posed);
      pass.dispatchThreads(vertices, 64);
      pass.end();
    },
  };
}
const meshOf = (extra: object) =>
  gpuPose
    ? { positions: gpuPose.posed, restPositions: positions, indices, uvs, colorMap, ...extra }
    : { positions, indices, uvs, colorMap, ...extra };
const ps = await createParticleSystem(device, {
  count: 20_000,
  emitRate: 12_000,
  ...(gpuPose ? { path: 'compute' as const } : path === 'auto' ? {} : { path }),
  // the mesh is placed at the emitter's position (then by its transform)
  emitter: { shape: 'point', position: [0, 0, 0], radius: 0, angle: 0 },
  mesh: meshOf({}),
  speedMin: 0.2,
  speedMax: 0.8,
  spread: 0.4,
  lifeMin: 0.8,
  lifeMax: 1.4,
  gravity: [0, -3, 0],
  drag: 0.4,
  size: 0.05,
  sizeOverLife: [1, 0.2],
  colors: [
    [1, 1, 0.85, 1],
    [1, 0.75, 0.3, 1],
    [1, 0.35, 0.08, 0.8],
    [0.4, 0.08, 0.02, 0],
  ],
  billboard: 'velocity',
  stretch: 0.04,
});
const pane = dockedPane('spinning mesh');
const meter = new FrameMeter(pane);
pane.addBinding(settings, 'spin', { min: 0, max: 8, label: 'spin (rad/s)' });
pane.addBinding(settings, 'wobble', { min: 0, max: 1, label: 'tilt' });

const frames = Number(url.get('frames') ?? Infinity);
let frame = 0;
let last = performance.now();
let angle = 0;
let time = 0;
(window as unknown as { __frames: number }).__frames = 0;
const transform = mat4.identity();
function tick(now: number): void {
  const dt = Math.min(0.05, Math.max(0, now - last) / 1000);
  last = now;
  time += dt;
  fitCanvas(canvas);
  // the torus turns about its own axis, which tilts back and forth
  angle += settings.spin * dt;
  const tilt = settings.wobble * Math.sin(0.7 * time);
  mat4.rotationX(tilt, transform);
  mat4.rotateY(transform, angle, transform);
  // its angular velocity in the world: the spin about the tilted axis (the tilt's own is small)
  const axis = [transform[4]!, transform[5]!, transform[6]!];
  ps.setOptions({
    mesh: meshOf({
      transform,
      angularVelocity: axis.map((a) => a * settings.spin) as [number, number, number],
    }),
  });
  const camera = orbitCamera({
    aspect: canvas.width / canvas.height,
    distance: 11,
    pitch: 0.45,
    target: [0, -0.8, 0],
  });
  const encoder = device.createCommandEncoder({ label: 'spinning mesh frame' });
  // the pose first (the system's update reads it)
  gpuPose?.record(encoder, time);
  ps.update(encoder, dt);
  const target = surface.getCurrentTexture();
  ps.prepareDraw(encoder, camera, target);
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0.02, 0.02, 0.03, 1] }],
  });
  ps.draw(pass, camera);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick(now);
  frame++;
  (window as unknown as { __frames: number }).__frames = frame;
  if (frame % 30 === 0)
    void ps.stats().then((s) => {
      info.textContent = `${device.caps.backend} · ${ps.path} · ${s.alive} sparks · ${positions.length / 3} vertices from torus.glb, painted by its ${colorMap.width} × ${colorMap.height} texture${gpuPose ? ', posed on the GPU' : ''}`;
    });
  if (frame < frames) requestAnimationFrame(tick);
}
info.textContent = `${device.caps.backend} · ${ps.path}`;
requestAnimationFrame(tick);
