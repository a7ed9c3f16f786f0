// The ping-pong fallback gives the same result as a compute kernel for element-wise updates.
import {
  createElementwiseRunner,
  defineKernel,
  pcg,
  type Device,
  type ElementwiseMode,
  type StateArrays,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual } from '../page/assert.js';
import { integrator, integratorCpu, initialState, PARAMS } from '../page/integrator.js';

const COUNT = 5000;
const STEPS = 120;
/**
 * Tolerance: all paths compute in IEEE float32, but drivers may contract a*b+c into an FMA or not,
 * which changes the last bit of a step; over 120 steps such differences stay below 1e-4 relative
 * (measured here: 4e-5). Elements whose bounce test flips through rounding diverge more; against
 * the CPU reference that is 25 of 5000 (0.5%) here, so up to 1% is allowed; the GPU paths must
 * agree with each other on every element (measured: bit-identical).
 */
const TOLERANCE = 1e-4;

async function simulate(
  device: Device,
  mode: ElementwiseMode | 'auto',
): Promise<{ state: StateArrays; runner: ReturnType<typeof createElementwiseRunner> }> {
  const runner = createElementwiseRunner(device, integrator, {
    count: COUNT,
    mode,
    cpu: integratorCpu,
  });
  const init = initialState(COUNT);
  runner.write('pos', init.pos);
  runner.write('vel', init.vel);
  for (let s = 0; s < STEPS; s += 20) {
    const enc = device.createCommandEncoder();
    for (let k = 0; k < 20; k++) runner.step(enc, PARAMS);
    device.queue.submit([enc.finish()]);
  }
  return { state: await runner.read(), runner };
}

/** Compares per element; returns the worst relative difference and the elements beyond TOLERANCE. */
function compare(
  a: StateArrays,
  b: StateArrays,
  what: string,
  allowedFraction: number,
): { worst: number; diverged: number } {
  let worst = 0;
  const diverged = new Set<number>();
  for (const key of ['pos', 'vel']) {
    const x = a[key] as Float32Array;
    const y = b[key] as Float32Array;
    assertEqual(x.length, y.length, `${what} ${key} length`);
    for (let i = 0; i < x.length; i++) {
      const d =
        Math.abs((x[i] as number) - (y[i] as number)) / Math.max(1, Math.abs(y[i] as number));
      if (d > TOLERANCE) diverged.add(i >> 2);
      else worst = Math.max(worst, d);
    }
  }
  assert(
    diverged.size <= allowedFraction * COUNT,
    `${what}: ${diverged.size} of ${COUNT} elements differ by more than ${TOLERANCE} relative (allowed ${allowedFraction * 100}%)`,
  );
  return { worst, diverged: diverged.size };
}

const hashKernel = defineKernel({
  label: 'pcg',
  attributes: ['hashed'],
  helpers: `
u32 pcg(u32 v) {
  u32 s = v * 747796405u + 2891336453u;
  u32 w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
  return (w >> 22u) ^ w;
}`,
  body: `
    u32 k = index * 2654435761u + 12345u;
    u32 h = pcg(k);
    hashed = vec4f(f32(h >> 16u), f32(h & 65535u), f32(pcg(h) >> 16u), f32(k >> 16u));
  `,
});

export const cases = defineCases({
  "a kernel reads another runner's state (source) on every path, after that runner's step in the same encoder":
    {
      async run({ device }) {
        // the parent counts up (x = its index, y = steps so far); each of its 3 children reads it
        const parent = defineKernel({
          label: 'source parent',
          attributes: ['value'],
          body: 'value = vec4f(f32(index), value.y + 1.0, 0.0, 1.0);',
        });
        const child = defineKernel({
          label: 'source child',
          attributes: ['copy'],
          source: ['value'],
          body: `let p = ignisSource(index / 3u);
copy = vec4f(p.value.x, p.value.y, f32(params.sourceCount), copy.w + p.value.y);`,
        });
        const paths = [
          ...(device.caps.features.compute ? (['compute'] as const) : []),
          ...(device.caps.features.floatRenderTargets ? (['pingpong'] as const) : []),
          'cpu' as const,
        ];
        for (const mode of paths) {
          const a = createElementwiseRunner(device, parent, { count: 700, mode });
          const b = createElementwiseRunner(device, child, { count: 2100, mode });
          a.write('value', new Float32Array(4 * 700));
          b.write('copy', new Float32Array(4 * 2100));
          const enc = device.createCommandEncoder();
          for (let k = 0; k < 3; k++) {
            a.step(enc);
            b.step(enc, {}, undefined, { source: a.source });
          }
          device.queue.submit([enc.finish()]);
          const out = (await b.read()).copy as Float32Array;
          for (let i = 0; i < 2100; i++) {
            // after steps 1, 2, 3 the parent's y was 1, 2, 3: the child summed 6 in w
            const want = [Math.floor(i / 3), 3, 700, 6];
            for (let c = 0; c < 4; c++)
              if (out[4 * i + c] !== want[c])
                throw new Error(
                  `${mode}: child ${i} component ${c} is ${out[4 * i + c]}, expected ${want[c]}`,
                );
          }
          let error: unknown;
          try {
            b.step(device.createCommandEncoder());
          } catch (e) {
            error = e;
          }
          assert(
            /pass inputs.source.*none was given/.test(String(error)),
            `${mode}: a step without its source is named: ${String(error)}`,
          );
          a.destroy();
          b.destroy();
        }
      },
    },
  'u32 hashing gives the TypeScript reference bits on every path': {
    async run({ device }) {
      const count = 4096;
      const modes = device.caps.features.compute
        ? (['compute', 'pingpong'] as const)
        : (['pingpong'] as const);
      for (const mode of modes) {
        const runner = createElementwiseRunner(device, hashKernel, { count, mode });
        runner.write('hashed', new Float32Array(4 * count));
        const enc = device.createCommandEncoder();
        runner.step(enc);
        device.queue.submit([enc.finish()]);
        const out = (await runner.read()).hashed as Float32Array;
        for (let i = 0; i < count; i++) {
          const k = (Math.imul(i, 2654435761) + 12345) >>> 0;
          const h = pcg(k);
          const expected = [h >>> 16, h & 65535, pcg(h) >>> 16, k >>> 16];
          for (let c = 0; c < 4; c++) {
            if (out[4 * i + c] !== expected[c])
              throw new Error(
                `${mode}: element ${i} component ${c} is ${out[4 * i + c]}, expected ${expected[c]}`,
              );
          }
        }
        runner.destroy();
      }
    },
  },
  'ping-pong on WebGL2 and WebGPU, compute on WebGPU, and the CPU path agree after 120 steps': {
    cross: true,
    async run(ctx) {
      const gpu = await ctx.open('webgpu');
      const gl = await ctx.open('webgl2');
      const cpu = await simulate(gpu, 'cpu');
      const compute = await simulate(gpu, 'compute');
      const ppGpu = await simulate(gpu, 'pingpong');
      const ppGl = await simulate(gl, 'auto');
      assertEqual(compute.runner.mode, 'compute', 'WebGPU auto mode');
      assertEqual(ppGl.runner.mode, 'pingpong', 'WebGL2 auto mode');
      assertEqual(ppGl.runner.precision, 'f32', 'WebGL2 precision with EXT_color_buffer_float');
      const r = {
        'compute vs cpu': compare(compute.state, cpu.state, 'compute vs cpu', 0.01),
        'webgpu ping-pong vs cpu': compare(ppGpu.state, cpu.state, 'webgpu ping-pong vs cpu', 0.01),
        'webgl2 ping-pong vs cpu': compare(ppGl.state, cpu.state, 'webgl2 ping-pong vs cpu', 0.01),
        'webgl2 ping-pong vs compute': compare(
          ppGl.state,
          compute.state,
          'webgl2 ping-pong vs compute',
          0,
        ),
        'webgpu ping-pong vs compute': compare(
          ppGpu.state,
          compute.state,
          'webgpu ping-pong vs compute',
          0,
        ),
      };
      console.log(
        `elementwise equivalence (${COUNT} elements, ${STEPS} steps): ${JSON.stringify(r)}`,
      );
      // the state really moved: a kernel that did nothing would match nothing
      assert(
        Math.abs((compute.state.pos as Float32Array)[1] as number) > 1e-3 ||
          Math.abs(
            (initialState(COUNT).pos[1] as number) -
              ((compute.state.pos as Float32Array)[1] as number),
          ) > 1e-3,
        'state moved',
      );
    },
  },
  'reduce counts predicates on the GPU on every path': {
    async run({ device }) {
      const runner = createElementwiseRunner(device, integrator, { count: COUNT });
      const init = initialState(COUNT);
      runner.write('pos', init.pos);
      runner.write('vel', init.vel);
      const expected = { below: 0, fast: 0 };
      for (let i = 0; i < COUNT; i++) {
        if ((init.pos[4 * i + 1] as number) < 0) expected.below++;
        if ((init.vel[4 * i + 1] as number) > 2.5) expected.fast++;
      }
      const counts = await runner.reduce({ below: 'pos.y < 0.0', fast: 'vel.y > 2.5' });
      assertEqual(counts.below, expected.below, `below (mode ${runner.mode})`);
      assertEqual(counts.fast, expected.fast, `fast (mode ${runner.mode})`);
      assert(expected.below > 0 && expected.fast > 0, 'the predicates select something');
      runner.destroy();
    },
  },
});
