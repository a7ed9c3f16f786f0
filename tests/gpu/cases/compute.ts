import {
  BufferUsage,
  TextureUsage,
  EncoderStateError,
  MissingBarrierError,
  UsageError,
  createDevice,
  type Device,
  type Buffer,
} from '../../../src/all.js';
import { ClockProbe, clockGuardFits } from '../../../check/clock-probe.js';
import { defineCases } from '../page/case.js';
import { assert, assertArrayEqual, assertEqual, assertThrows } from '../page/assert.js';
import { createScenePipeline, pixel, renderScene } from '../page/scenes.js';

const MARK = (wg: number): string => /* wgsl */ `
struct Params { count: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> marks: array<u32>;
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) num_workgroups: vec3u) {
  let i = gid.x + gid.y * (num_workgroups.x * ${wg}u);
  if (i >= params.count) { return; }
  marks[i] = marks[i] + 1u;
}
`;

function uniform(device: Device, values: number[]): Buffer {
  const b = device.createBuffer({
    label: 'params',
    size: 16,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(b, 0, new Uint32Array([...values, 0, 0, 0, 0].slice(0, 4)));
  return b;
}

/** Dispatches `count` threads that each add 1 to marks[i]; returns the marks (count + 64 entries). */
async function coverage(
  device: Device,
  count: number,
  wg: number,
): Promise<{ marks: Uint32Array; grid: number[] }> {
  const module = device.createShaderModule({ label: `mark${wg}`, code: MARK(wg) });
  const pipeline = device.createComputePipeline({
    label: `mark${wg}`,
    compute: { module, entryPoint: 'main' },
  });
  const marks = device.createBuffer({
    label: 'marks',
    size: (count + 64) * 4,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setUniformBuffer(0, uniform(device, [count]));
  pass.setStorageBuffer(1, marks);
  const grid = pass.dispatchThreads(count, wg);
  pass.end();
  device.queue.submit([enc.finish()]);
  return { marks: new Uint32Array(await marks.read()), grid };
}

function checkMarks(marks: Uint32Array, count: number): void {
  for (let i = 0; i < marks.length; i++) {
    const expected = i < count ? 1 : 0;
    if (marks[i] !== expected)
      throw new Error(
        `element ${i} was touched ${marks[i]} times, expected ${expected} (count ${count})`,
      );
  }
}

export const cases = defineCases({
  // The benchmarks' clock guard (check/clock-probe.ts) runs on Ignis's compute: its probe's time
  // must follow the work it is given, or its share of the top would say nothing of the clock.
  'the clock probe times its chain of multiply-adds: 32 times the chain takes over twice as long, and a share of the top is in (0, 1]':
    {
      needs: ['compute', 'timestampQuery'],
      async run({ device }) {
        const short = new ClockProbe(device, BufferUsage, { iterations: 512 });
        const long = new ClockProbe(device, BufferUsage, { iterations: 16_384 });
        // the fastest of four each: a first dispatch may pay for the pipeline, and a software
        // adapter on two busy cores stretches some (Firefox's lavapipe once gave 3.4× for 32×)
        const fastest = async (p: ClockProbe): Promise<number> => {
          let ms = Infinity;
          for (let k = 0; k < 4; k++) ms = Math.min(ms, await p.time());
          return ms;
        };
        const shortMs = await fastest(short);
        const longMs = await fastest(long);
        assert(
          longMs > 2 * shortMs,
          `a chain 32 times as long took ${longMs.toFixed(4)} ms against ${shortMs.toFixed(4)} ms`,
        );
        const share = await long.check();
        assert(share > 0 && share <= 1, `the share of the top is ${share}`);
        short.destroy();
        long.destroy();
      },
    },
  'the clock guard fits WebGPU with timestamps on a hardware adapter, and says why not elsewhere': {
    async run({ device }) {
      const fits = clockGuardFits(device);
      const a = device.caps.adapter;
      if (device.caps.backend !== 'webgpu')
        assertEqual(fits, `${device.caps.backend} has no compute`, 'no compute');
      else if (!device.caps.features.timestampQuery)
        assertEqual(fits, 'no timestamp queries', 'no timestamps');
      // Chromium's adapter here names itself; Firefox's says nothing of itself
      else if (/swiftshader/i.test(`${a.vendor} ${a.architecture} ${a.description}`))
        assertEqual(fits, 'a software adapter', 'SwiftShader');
      else assert(fits === true || fits === 'a software adapter', `clockGuardFits: ${fits}`);
    },
  },
  'dispatchThreads covers exactly 1, 63, 64, 65 and 65535·64+1 elements (2-D split)': {
    needs: ['compute'],
    async run({ device }) {
      for (const count of [1, 63, 64, 65, 65535 * 64 + 1]) {
        const { marks, grid } = await coverage(device, count, 64);
        checkMarks(marks, count);
        if (count === 65535 * 64 + 1)
          assertArrayEqual(grid, [65535, 2, 1], 'grid of the 2-D split');
      }
    },
  },
  'dispatchThreads past one dimension with workgroup size 256': {
    needs: ['compute'],
    async run({ device }) {
      const count = 65535 * 256 + 1000;
      const { marks, grid } = await coverage(device, count, 256);
      assertArrayEqual(grid, [65535, 2, 1], 'grid');
      checkMarks(marks, count);
    },
  },
  'several dispatches share one pass, with different pipelines and bindings': {
    needs: ['compute'],
    async run({ device }) {
      const m64 = device.createComputePipeline({
        compute: { module: device.createShaderModule({ code: MARK(64) }), entryPoint: 'main' },
      });
      const m32 = device.createComputePipeline({
        compute: { module: device.createShaderModule({ code: MARK(32) }), entryPoint: 'main' },
      });
      const a = device.createBuffer({
        label: 'a',
        size: 400,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
      });
      const b = device.createBuffer({
        label: 'b',
        size: 400,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
      });
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(m64);
      pass.setUniformBuffer(0, uniform(device, [100]));
      pass.setStorageBuffer(1, a);
      pass.dispatchThreads(100);
      pass.dispatchThreads(100); // same pipeline and bindings: a twice
      pass.setPipeline(m32);
      pass.setUniformBuffer(0, uniform(device, [50]));
      pass.setStorageBuffer(1, b);
      pass.dispatchThreads(50);
      pass.end();
      device.queue.submit([enc.finish()]);
      const ma = new Uint32Array(await a.read());
      const mb = new Uint32Array(await b.read());
      assert(
        ma.every((v) => v === 2),
        `a: every element twice, got ${Array.from(ma.slice(0, 8))}…`,
      );
      assertEqual(
        mb.slice(0, 50).every((v) => v === 1) && mb.slice(50).every((v) => v === 0),
        true,
        'b: first 50 once, rest untouched',
      );
    },
  },
  "auto barriers: compute-write → compute-read is inserted and the reader sees the writer's data": {
    needs: ['compute'],
    async run({ device }) {
      const write = device.createComputePipeline({
        label: 'write',
        compute: {
          module: device.createShaderModule({
            code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>; @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { if (g.x < 256u) { a[g.x] = g.x * 3u; } }',
          }),
        },
      });
      const copy = device.createComputePipeline({
        label: 'copy',
        compute: {
          module: device.createShaderModule({
            code: '@group(0) @binding(0) var<storage, read> a: array<u32>; @group(0) @binding(1) var<storage, read_write> b: array<u32>; @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { if (g.x < 256u) { b[g.x] = a[g.x] + 1u; } }',
          }),
        },
      });
      const a = device.createBuffer({ label: 'A', size: 1024, usage: BufferUsage.STORAGE });
      const b = device.createBuffer({
        label: 'B',
        size: 1024,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
      });
      const enc = device.createCommandEncoder();
      let pass = enc.beginComputePass({ label: 'writer' });
      pass.setPipeline(write);
      pass.setStorageBuffer(0, a);
      pass.dispatch(4);
      pass.end();
      pass = enc.beginComputePass({ label: 'reader' });
      pass.setPipeline(copy);
      pass.setStorageBuffer(0, a);
      pass.setStorageBuffer(1, b);
      pass.dispatch(4);
      pass.end();
      const trace = enc.trace();
      assert(
        trace.includes('barrier compute-write -> compute-read [A] (inserted)'),
        `trace shows the inserted barrier:\n${trace.join('\n')}`,
      );
      device.queue.submit([enc.finish()]);
      const out = new Uint32Array(await b.read());
      for (let i = 0; i < 256; i++)
        if (out[i] !== i * 3 + 1) throw new Error(`B[${i}] = ${out[i]}, expected ${i * 3 + 1}`);
    },
  },
  'explicit barriers: a missing one is a MissingBarrierError naming resource and passes; a declared one passes':
    {
      needs: ['compute'],
      async run({ backend }) {
        const device = await createDevice({ backend, barriers: 'explicit' });
        try {
          const module = device.createShaderModule({
            code: '@group(0) @binding(0) var<storage, read_write> a: array<u32>; @compute @workgroup_size(1) fn main() { a[0] = a[0] + 1u; }',
          });
          const pipeline = device.createComputePipeline({ compute: { module } });
          const a = device.createBuffer({
            label: 'counter',
            size: 16,
            usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
          });
          const record = (declare: boolean): ReturnType<Device['createCommandEncoder']> => {
            const enc = device.createCommandEncoder();
            for (const label of ['first', 'second']) {
              if (label === 'second' && declare)
                enc.barrier({ from: 'compute-write', to: 'compute-read', resources: [a] });
              const pass = enc.beginComputePass({ label });
              pass.setPipeline(pipeline);
              pass.setStorageBuffer(0, a);
              pass.dispatch(1);
              pass.end();
            }
            return enc;
          };
          const e = (await assertThrows(
            () => record(false),
            MissingBarrierError,
            /buffer "counter" was written by pass "first" \(compute-write\) and read by pass "second" \(compute-read\)/,
            'missing barrier',
          )) as MissingBarrierError;
          assertEqual(e.writer, 'first', 'writer');
          assertEqual(e.reader, 'second', 'reader');
          const enc = record(true);
          assert(
            enc
              .trace()
              .some((l) => l === 'barrier compute-write -> compute-read [counter] (declared)'),
            'trace shows the declared barrier',
          );
          device.queue.submit([enc.finish()]);
          assertEqual(new Uint32Array(await a.read())[0], 2, 'two ordered increments');
        } finally {
          device.destroy();
        }
      },
    },
  'dispatchIndirect reads its workgroup counts from a buffer': {
    needs: ['compute', 'indirect'],
    async run({ device }) {
      const module = device.createShaderModule({ code: MARK(64) });
      const pipeline = device.createComputePipeline({ compute: { module } });
      const marks = device.createBuffer({
        label: 'marks',
        size: 1024 * 4,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
      });
      const args = device.createBuffer({
        label: 'args',
        size: 12,
        usage: BufferUsage.INDIRECT | BufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(args, 0, new Uint32Array([5, 1, 1]));
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setUniformBuffer(0, uniform(device, [1024]));
      pass.setStorageBuffer(1, marks);
      pass.dispatchIndirect(args);
      pass.end();
      device.queue.submit([enc.finish()]);
      const m = new Uint32Array(await marks.read());
      assertEqual(
        m.slice(0, 320).every((v) => v === 1) && m.slice(320).every((v) => v === 0),
        true,
        '5 workgroups of 64 = 320 elements',
      );
    },
  },
  'reading a storage buffer every frame for 100 frames never stalls and sees each frame': {
    needs: ['compute'],
    async run({ device }) {
      const module = device.createShaderModule({
        code: '@group(0) @binding(0) var<storage, read_write> c: array<u32>; @compute @workgroup_size(1) fn main() { c[0] = c[0] + 1u; c[1] = c[1] + 2u; }',
      });
      const pipeline = device.createComputePipeline({ compute: { module } });
      const counter = device.createBuffer({
        label: 'counter',
        size: 8,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
      });
      const reads: Array<Promise<ArrayBuffer>> = [];
      const t0 = performance.now();
      let longest = 0;
      for (let frame = 0; frame < 100; frame++) {
        const f0 = performance.now();
        await device.beginFrame();
        const enc = device.createCommandEncoder();
        const pass = enc.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setStorageBuffer(0, counter);
        pass.dispatch(1);
        pass.end();
        device.queue.submit([enc.finish()]);
        reads.push(counter.read()); // not awaited: the frame loop goes on
        longest = Math.max(longest, performance.now() - f0);
      }
      const values = await Promise.all(reads);
      values.forEach((v, frame) =>
        assertArrayEqual(new Uint32Array(v), [frame + 1, 2 * (frame + 1)], `frame ${frame}`),
      );
      console.log(
        `100 frames in ${(performance.now() - t0).toFixed(1)} ms, longest frame ${longest.toFixed(2)} ms`,
      );
    },
  },
  'a STORAGE|VERTEX buffer written by compute is drawn as instance data without a copy': {
    needs: ['compute'],
    async run({ device }) {
      // instance k: offset (x, y) and colour (r, g, b, a), 6 floats = the 24-byte instance stride
      const module = device.createShaderModule({
        code: `@group(0) @binding(0) var<storage, read_write> inst: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) {
  let k = g.x; let f = f32(k);
  inst[k * 6u + 0u] = -0.75 + 0.5 * f; inst[k * 6u + 1u] = 0.0;
  inst[k * 6u + 2u] = 1.0; inst[k * 6u + 3u] = f * 0.25; inst[k * 6u + 4u] = 0.0; inst[k * 6u + 5u] = 1.0;
}`,
      });
      const pipeline = device.createComputePipeline({ compute: { module } });
      const instances = device.createBuffer({
        label: 'instances',
        size: 4 * 24,
        usage: BufferUsage.STORAGE | BufferUsage.VERTEX,
      });
      const shape = device.createBuffer({
        label: 'shape',
        size: 24,
        usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(shape, 0, new Float32Array([-0.1, -0.1, 0.1, -0.1, 0, 0.1]));
      const draw = createScenePipeline(device, { program: 'instanced' });
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setStorageBuffer(0, instances);
      pass.dispatch(1);
      pass.end();
      device.queue.submit([enc.finish()]);
      const img = await renderScene(device, [0, 0, 0, 1], (p) => {
        p.setPipeline(draw);
        p.setVertexBuffer(0, shape);
        p.setVertexBuffer(1, instances);
        p.draw(3, 4);
      });
      // instance k is centred at x = -0.75 + 0.5k → pixel column 8 + 16k, row 32 (y = 0)
      for (let k = 0; k < 4; k++)
        assertArrayEqual(
          pixel(img, 8 + 16 * k, 32),
          [255, Math.round(k * 0.25 * 255), 0, 255],
          `instance ${k}`,
        );
      assertArrayEqual(pixel(img, 16, 10), [0, 0, 0, 255], 'background');
    },
  },
  'a compute pass writes a storage texture that reads back': {
    needs: ['compute', 'storageTextures'],
    async run({ device }) {
      const module = device.createShaderModule({
        code: '@group(0) @binding(0) var out: texture_storage_2d<rgba8unorm, write>; @compute @workgroup_size(4, 4) fn main(@builtin(global_invocation_id) g: vec3u) { textureStore(out, vec2i(g.xy), vec4f(f32(g.x) / 3.0, f32(g.y) / 3.0, 0.0, 1.0)); }',
      });
      const pipeline = device.createComputePipeline({ compute: { module } });
      const tex = device.createTexture({
        label: 'written',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.STORAGE_BINDING | TextureUsage.COPY_SRC,
      });
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setStorageTexture(0, tex);
      pass.dispatch(1);
      pass.end();
      device.queue.submit([enc.finish()]);
      const px = (await tex.read()) as Uint8Array;
      assertArrayEqual(
        Array.from(px.subarray((2 * 4 + 3) * 4, (2 * 4 + 3) * 4 + 4)),
        [255, 170, 0, 255],
        'texel (3, 2)',
      );
    },
  },
  'compute misuse gets typed errors': {
    needs: ['compute'],
    async run({ device }) {
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass({ label: 'p' });
      await assertThrows(
        () => pass.dispatch(1),
        EncoderStateError,
        /\[p\] dispatch without a pipeline/,
        'dispatch without pipeline',
      );
      const noStorage = device.createBuffer({
        label: 'uniform-only',
        size: 16,
        usage: BufferUsage.UNIFORM,
      });
      await assertThrows(
        () => pass.setStorageBuffer(0, noStorage),
        UsageError,
        /\[uniform-only\] setStorageBuffer\(0\) needs BufferUsage.STORAGE, but the buffer's usage is UNIFORM/,
        'storage without STORAGE',
      );
      await assertThrows(
        () => pass.dispatch(70000),
        Error,
        /dispatch x 70000 exceeds limits.maxComputeWorkgroupsPerDimension \(65535\)/,
        'too many workgroups',
      );
      pass.end();
    },
  },
});
