// Existing WGSL runs unchanged: the boids simulation through raw WebGPU and through Ignis, in one
// page, must give bit-identical buffers after 100 steps.
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import {
  Boids,
  DEFAULT_PARAMS,
  initialBoids,
  paramBytes,
  simWgsl,
} from '../../../demos/compute-boids/boids.js';

const COUNT = 512;
const STEPS = 100;

async function rawWebGPU(): Promise<Uint32Array> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no adapter');
  const device = await adapter.requestDevice();
  const module = device.createShaderModule({ code: simWgsl });
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const buffers = [0, 1].map(() => device.createBuffer({ size: 16 * COUNT, usage }));
  device.queue.writeBuffer(
    buffers[0] as GPUBuffer,
    0,
    initialBoids(COUNT) as Float32Array<ArrayBuffer>,
  );
  const params = device.createBuffer({
    size: 32,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(params, 0, paramBytes(DEFAULT_PARAMS, COUNT));
  const groups = [0, 1].map((i) =>
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params } },
        { binding: 1, resource: { buffer: buffers[i] as GPUBuffer } },
        { binding: 2, resource: { buffer: buffers[1 - i] as GPUBuffer } },
      ],
    }),
  );
  const encoder = device.createCommandEncoder();
  for (let s = 0; s < STEPS; s++) {
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, groups[s % 2] as GPUBindGroup);
    pass.dispatchWorkgroups(Math.ceil(COUNT / 64));
    pass.end();
  }
  const staging = device.createBuffer({
    size: 16 * COUNT,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  encoder.copyBufferToBuffer(buffers[STEPS % 2] as GPUBuffer, 0, staging, 0, 16 * COUNT);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0));
  device.destroy();
  return out;
}

export const cases = defineCases({
  'boids WGSL through Ignis is bit-identical to raw WebGPU after 100 steps': {
    needs: ['compute'],
    async run({ device }) {
      const boids = new Boids(device, COUNT);
      for (let s = 0; s < STEPS; s += 25) {
        const enc = device.createCommandEncoder();
        for (let k = 0; k < 25; k++) boids.step(enc);
        device.queue.submit([enc.finish()]);
      }
      const ignis = new Uint32Array(await boids.read());
      const raw = await rawWebGPU();
      let differ = 0;
      for (let i = 0; i < raw.length; i++) if (raw[i] !== ignis[i]) differ++;
      assert(differ === 0, `${differ} of ${raw.length} words differ between raw WebGPU and Ignis`);
      const start = new Uint32Array(initialBoids(COUNT).buffer);
      let moved = 0;
      for (let i = 0; i < raw.length; i++) if (raw[i] !== start[i]) moved++;
      assert(moved > raw.length * 0.9, `the flock moved (${moved} of ${raw.length} words changed)`);
    },
  },
});
