// The soak (issue 34): frames of real work — a particle system updated and drawn every frame —
// with create/destroy churn around it (buffers and textures every frame, pipelines, particle
// systems, post-process chains and portable kernels every few), and a real loss and restore in
// the middle. The resources alive (device.stats()) and the backend's caches (device.cacheStats():
// bind groups, framebuffers, vertex arrays) come back to where they were after the warm-up; the JS
// heap is sampled where the engine tells it (performance.memory, Chromium). `npm test` runs a short
// soak on every engine; `npm run soak` runs 10,000 frames and draws the curves
// (docs/images/soak.svg).
import {
  BufferUsage,
  TextureUsage,
  WebGL2Device,
  bloom,
  createDevice,
  createElementwiseRunner,
  createParticleSystem,
  createPostProcess,
  defineKernel,
  orbitCamera,
  toneMap,
  type Device,
  type RenderPass,
  type RhiError,
  type WebGPUDevice,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual } from '../page/assert.js';

/** One sample of the soak's curves. */
export interface SoakSample {
  frame: number;
  /** Resources alive (device.stats().total). */
  objects: number;
  bytes: number;
  /** Entries of the backend's caches, all together (device.cacheStats()). */
  caches: number;
  /** performance.memory.usedJSHeapSize where the engine has it, else null. */
  heap: number | null;
  /** The caches by name. */
  detail: Record<string, number>;
}

declare const window: {
  /** Frames of the soak: the node side sets it (`npm run soak`: 10,000); 240 by default. */
  __ignisSoakFrames?: number;
  /** The samples of each run, by backend, for the node side to read. */
  __ignisSoak?: Record<string, SoakSample[]>;
};

const KERNEL = defineKernel({
  label: 'soak integrate',
  attributes: ['pos', 'vel'],
  uniforms: [['dt', 'f32']],
  body: `
    pos = vec4f(pos.xyz + vel.xyz * params.dt, pos.w);
  `,
});

function pipeline(device: Device): { destroy(): void; use(pass: RenderPass): void } {
  const targets = [{ format: 'rgba8unorm' as const }];
  const modules =
    device.caps.shaderLanguage === 'glsl'
      ? [
          device.createShaderModule({
            code: '#version 300 es\nvoid main() { gl_Position = vec4(0.0, 0.0, 2.0, 1.0); }',
            stage: 'vertex',
          }),
          device.createShaderModule({
            code: '#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }',
            stage: 'fragment',
          }),
        ]
      : [
          device.createShaderModule({
            code: '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 2.0, 1.0); }\n@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
          }),
        ];
  const p = device.createRenderPipeline({
    label: 'soak churn',
    vertex: { module: modules[0]! },
    fragment: { module: modules[modules.length - 1]!, targets },
  });
  return {
    use(pass) {
      pass.setPipeline(p);
      pass.draw(3);
    },
    destroy() {
      p.destroy();
      for (const m of modules) m.destroy();
    },
  };
}
export const cases = defineCases({
  'soak: frames of churn (buffers, textures, pipelines, particle systems, post chains, portable kernels) around a drawn system, a loss and restore in the middle: objects and caches back at their warm-up level, no error':
    {
      async run({ backend }) {
        const frames = window.__ignisSoakFrames ?? 480;
        const canvas = document.createElement('canvas');
        const device = await createDevice({ backend, canvas, hostShadows: true });
        const errors: RhiError[] = [];
        device.onError((e) => errors.push(e));
        const target = device.createTexture({
          label: 'soak target',
          size: { width: 64, height: 64 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const ps = await createParticleSystem(device, { count: 256, size: 0.2, seed: 5 });
        const camera = orbitCamera({ aspect: 1 });
        let seed = 2026;
        const random = (n: number): number => {
          seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
          return seed % n;
        };
        const heap = (): number | null =>
          (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
            ?.usedJSHeapSize ?? null;
        const samples: SoakSample[] = [];
        const sample = (frame: number): SoakSample => {
          const stats = device.stats().total;
          const detail = device.cacheStats();
          const caches = Object.values(detail).reduce((a, b) => a + b, 0);
          const s = {
            frame,
            objects: stats.count,
            bytes: stats.bytes,
            caches,
            heap: heap(),
            detail,
          };
          samples.push(s);
          return s;
        };
        const every = Math.max(1, Math.floor(frames / 200));
        const warmup = Math.floor(frames / 10);
        const lossAt = Math.floor(frames / 2);
        let atWarmup: SoakSample | null = null;
        let lost = 0;
        for (let frame = 0; frame < frames; frame++) {
          if (frame === lossAt) {
            const ext =
              device instanceof WebGL2Device ? device.gl.getExtension('WEBGL_lose_context') : null;
            if (ext) ext.loseContext();
            else (device as WebGPUDevice).gpu.destroy();
            await device.lost;
            lost++;
            await new Promise((r) => setTimeout(r, 50));
            ext?.restoreContext();
            await device.restore();
          }
          // churn: a buffer and a texture every frame, written and let go
          const b = device.createBuffer({
            size: 4 * (1 + random(1024)),
            usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
          });
          device.queue.writeBuffer(b, 0, new Uint8Array(4));
          const t = device.createTexture({
            size: { width: 1 + random(32), height: 1 + random(32) },
            format: random(2) === 0 ? 'rgba8unorm' : 'rgba16float',
            usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
          });
          const encoder = device.createCommandEncoder();
          const gone: Array<{ destroy(): void }> = [b, t];
          // a particle system of its own every 25 frames, updated and drawn once
          const extra =
            frame % 25 === 3
              ? await createParticleSystem(device, { count: 1 + random(200), seed: frame })
              : null;
          if (extra) {
            extra.update(encoder, 1 / 60);
            extra.prepareDraw(encoder, camera, target);
            gone.push(extra);
          }
          // a portable kernel every 50 frames
          if (frame % 50 === 7) {
            const runner = createElementwiseRunner(device, KERNEL, { count: 16 + random(64) });
            runner.step(encoder, { dt: 1 / 60 });
            gone.push(runner);
          }
          ps.update(encoder, 1 / 60);
          ps.prepareDraw(encoder, camera, target);
          const pass = encoder.beginRenderPass({
            colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          });
          ps.draw(pass, camera);
          extra?.draw(pass, camera);
          // a pipeline every 10 frames, bound and drawn (outside the clip volume)
          if (frame % 10 === 5) {
            const p = pipeline(device);
            p.use(pass);
            gone.push(p);
          }
          pass.end();
          // a post chain every 50 frames, through the frame's image
          if (frame % 50 === 11) {
            const post = createPostProcess(device, {
              width: 16,
              height: 16,
              effects: [bloom(), toneMap({ operator: 'agx' })],
            });
            const shown = device.createTexture({
              size: { width: 16, height: 16 },
              format: 'rgba8unorm',
              usage: TextureUsage.RENDER_ATTACHMENT,
            });
            post.apply(encoder, shown);
            gone.push(post, shown);
          }
          device.queue.submit([encoder.finish()]);
          for (const g of gone) g.destroy();
          // the queue kept short: software GPUs run behind
          if (frame % 8 === 7) await device.queue.onSubmittedWorkDone();
          if (frame % every === 0) {
            const s = sample(frame);
            if (frame >= warmup && atWarmup === null) atWarmup = s;
          }
        }
        await device.queue.onSubmittedWorkDone();
        const end = sample(frames);
        const pixels = (await target.read()) as Uint8Array;
        let lit = 0;
        for (let i = 0; i < pixels.length; i += 4) if ((pixels[i] as number) > 8) lit++;
        (window.__ignisSoak ??= {})[backend] = samples;
        const reported = errors.filter((e) => e.code !== 'device-lost');
        assertEqual(lost, 1, 'one loss and restore in the middle');
        assert(
          reported.length === 0,
          `no error in ${frames} frames (${reported.map((e) => e.message).join(' | ')})`,
        );
        assert(lit > 20, `the system is still drawn at the end (${lit} lit pixels)`);
        // resources: standing still in the last quarter, and no more than after the warm-up (a
        // system's first frames may hold what its draw-mode measurement needs: Firefox's WebGL2
        // held two more buffers at frame 48 of 480, none at the end)
        const w = atWarmup as SoakSample;
        const tail = samples.filter((x) => x.frame >= (3 * frames) / 4);
        const kinds = new Set(tail.map((x) => `${x.objects}/${x.bytes}`));
        assert(
          kinds.size === 1 && end.objects <= w.objects && end.bytes <= w.bytes,
          `resources alive (count/bytes) flat: ${[...kinds].join(', ')} in the last quarter, ${w.objects}/${w.bytes} after the warm-up (frame ${w.frame})`,
        );
        // caches fill as slots of the uniform rings are first bound, then stay: in the last
        // quarter (well after the restore) they do not move, and never exceed the first half's
        const before = samples.filter((x) => x.frame < lossAt).map((x) => x.caches);
        const last = samples.filter((x) => x.frame >= (3 * frames) / 4).map((x) => x.caches);
        assert(
          Math.max(...last) === Math.min(...last) && Math.max(...last) <= Math.max(...before),
          `backend caches flat: ${Math.min(...last)} to ${Math.max(...last)} entries in the last quarter (${JSON.stringify(end.detail)}), at most ${Math.max(...before)} before the loss`,
        );
        ps.destroy();
        target.destroy();
        device.destroy();
      },
    },
});
