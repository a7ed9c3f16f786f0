// Loss and churn on each backend: after a real loss (WEBGL_lose_context; GPUDevice.destroy()),
// every call is a DeviceLostError, every promise settles; creating and destroying thousands of
// resources and systems leaves device.stats() where it started.
import {
  BufferUsage,
  TextureUsage,
  DeviceLostError,
  WebGL2Device,
  createDevice,
  createParticleSystem,
  createPostProcess,
  bloom,
  toneMap,
  toHalfs,
  orbitCamera,
  type RhiError,
  type WebGPUDevice,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { loseAndRestore } from '../page/loss.js';
import { assert, assertEqual, assertThrows } from '../page/assert.js';
import type { Device, RenderPipeline, ShaderModule } from '../../../src/all.js';

/** A small pipeline with the modules it was made from, so the churn can destroy both. */
function pipelineWithModules(device: Device): {
  pipeline: RenderPipeline;
  modules: ShaderModule[];
} {
  const targets = [{ format: 'rgba8unorm' as const }];
  if (device.caps.shaderLanguage === 'glsl') {
    const vs = device.createShaderModule({
      code: '#version 300 es\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }',
      stage: 'vertex',
    });
    const fs = device.createShaderModule({
      code: '#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }',
      stage: 'fragment',
    });
    const pipeline = device.createRenderPipeline({
      vertex: { module: vs },
      fragment: { module: fs, targets },
    });
    return { pipeline, modules: [vs, fs] };
  }
  const module = device.createShaderModule({
    code: '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }\n@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
  });
  const pipeline = device.createRenderPipeline({
    vertex: { module },
    fragment: { module, targets },
  });
  return { pipeline, modules: [module] };
}

export const cases = defineCases({
  'an error only WebGPU finds is reported once, naming the Ignis call and the label': {
    cross: true, // WebGPU's validation (WebGL2's GL errors: the device's debug mode)
    async run(ctx) {
      const device = await ctx.open('webgpu');
      const errors: RhiError[] = [];
      device.onError((e) => errors.push(e));
      // each stage compiles; together they do not: the fragment reads a location the vertex lacks
      const module = device.createShaderModule({
        code: `struct V { @builtin(position) p: vec4f, @location(0) a: vec4f };
@vertex fn vs() -> V { return V(vec4f(0.0), vec4f(1.0)); }
@fragment fn fs(@location(3) b: vec4f) -> @location(0) vec4f { return b; }`,
      });
      device.createRenderPipeline({
        label: 'mismatched stages',
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
      });
      await device.queue.onSubmittedWorkDone();
      await new Promise((r) => setTimeout(r, 200));
      const backendErrors = errors.filter((e) => e.code === 'backend');
      assertEqual(
        backendErrors.length,
        1,
        `reported once (${errors.map((e) => e.message).join(' | ')})`,
      );
      assert(
        // the rest is the implementation's own words (Dawn: "The fragment input …", wgpu:
        // "Error matching ShaderStages(FRAGMENT) …")
        /createRenderPipeline "mismatched stages": .*fragment/i.test(
          backendErrors[0]?.message ?? '',
        ),
        `names the call and the label: ${backendErrors[0]?.message}`,
      );
    },
  },
  'restore after a real loss: the same objects work again, host copies refill buffers, particles re-seed and draw, the post chain gives the same image':
    {
      async run({ backend }) {
        const canvas = document.createElement('canvas');
        const device = await createDevice({ backend, canvas, hostShadows: true });
        const reported: RhiError[] = [];
        device.onError((e) => reported.push(e)); // the loss is reported once, here
        const data = Float32Array.from({ length: 16 }, (_, i) => i * 1.5);
        const kept = device.createBuffer({
          label: 'kept',
          size: 64,
          usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(kept, 0, data);
        const target = device.createTexture({
          size: { width: 64, height: 64 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const ps = await createParticleSystem(device, {
          count: 2000,
          drawMode: 'instanced',
          size: 0.2,
        });
        const { pipeline } = pipelineWithModules(device);
        /** One frame: an update, the particles drawn into `target`, a pipeline made before the loss bound; lit pixels. */
        const frame = async (): Promise<number> => {
          for (let i = 0; i < 60; i++) ps.step(1 / 60); // a second: the fountain rises out of the emitter
          const camera = orbitCamera({ aspect: 1 });
          const encoder = device.createCommandEncoder();
          ps.update(encoder, 1 / 60);
          ps.prepareDraw(encoder, camera, target);
          const pass = encoder.beginRenderPass({
            colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          });
          ps.draw(pass, camera);
          pass.setPipeline(pipeline);
          pass.end();
          device.queue.submit([encoder.finish()]);
          const pixels = (await target.read()) as Uint8Array;
          let n = 0;
          for (let i = 0; i < pixels.length; i += 4)
            if ((pixels[i] as number) + (pixels[i + 1] as number) + (pixels[i + 2] as number) > 8)
              n++;
          return n;
        };
        // a second system keeps what it last read instead of re-seeding
        const keeper = await createParticleSystem(device, { count: 500, onRestore: 'last-read' });
        for (let i = 0; i < 10; i++) keeper.step(1 / 60);
        const snapshot = await keeper.read();
        // a post-process chain: the same image through it before the loss and after the restore
        const post = createPostProcess(device, {
          width: 16,
          height: 16,
          effects: [bloom(), toneMap({ operator: 'agx' })],
        });
        const hdr = new Float32Array(16 * 16 * 4).map((_, i) => (i % 4 === 3 ? 1 : (i % 37) / 9));
        const shown = device.createTexture({
          size: { width: 16, height: 16 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const throughChain = async (): Promise<string> => {
          // the scene is rendered anew every frame (a restore brings textures back zeroed)
          device.queue.writeTexture(
            { texture: post.target },
            toHalfs(hdr),
            { bytesPerRow: 16 * 8 },
            { width: 16, height: 16 },
          );
          const enc = device.createCommandEncoder();
          post.apply(enc, shown);
          device.queue.submit([enc.finish()]);
          return Array.from((await shown.read()) as Uint8Array).join();
        };
        // mesh particles: their mesh (vertex, index buffers; the pulled draw's corner texture)
        // is written again after the restore, so the re-seeded systems draw what they drew at creation
        const tetrahedron = [1, 1, 1, -1, -1, 1, -1, 1, -1, 1, -1, -1];
        const meshSystems = await Promise.all(
          (['instanced', 'pulled'] as const).map((drawMode) =>
            createParticleSystem(device, {
              count: 300,
              drawMode,
              size: 0.4,
              geometry: { positions: tetrahedron, indices: [0, 1, 3, 0, 2, 1, 0, 3, 2, 1, 2, 3] },
              light: { direction: [-1, -2, -1] },
            }),
          ),
        );
        const meshImage = async (system: (typeof meshSystems)[number]): Promise<string> => {
          const camera = orbitCamera({ aspect: 1, distance: 6, target: [0, -3, 0] });
          const encoder = device.createCommandEncoder();
          const pass = encoder.beginRenderPass({
            colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          });
          system.draw(pass, camera);
          pass.end();
          device.queue.submit([encoder.finish()]);
          return Array.from((await target.read()) as Uint8Array).join();
        };
        const meshImageBlank = async (): Promise<string> => {
          const encoder = device.createCommandEncoder();
          encoder
            .beginRenderPass({
              colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
            })
            .end();
          device.queue.submit([encoder.finish()]);
          return Array.from((await target.read()) as Uint8Array).join();
        };
        const meshesBefore = [];
        for (const system of meshSystems) meshesBefore.push(await meshImage(system));
        const chainBefore = await throughChain();
        const litBefore = await frame();
        assert(litBefore > 20, `particles drawn before the loss (${litBefore} lit pixels)`);
        const ext =
          device instanceof WebGL2Device ? device.gl.getExtension('WEBGL_lose_context') : null;
        if (ext) ext.loseContext();
        else (device as WebGPUDevice).gpu.destroy();
        await device.lost;
        assert(device.isLost, 'lost');
        // (out of the loss event's dispatch: Chrome ignores a restoreContext() made inside it)
        await new Promise((r) => setTimeout(r, 50));
        ext?.restoreContext();
        await device.restore();
        assert(!device.isLost, 'no longer lost after restore()');
        // the buffer's host copy came back; the particle state is step 0's spawn again
        assertEqual(
          Array.from(new Float32Array(await kept.read())).join(),
          Array.from(data).join(),
          'buffer contents',
        );
        const seeded = await ps.read();
        const fresh = await createParticleSystem(device, {
          count: 2000,
          drawMode: 'instanced',
          size: 0.2,
        });
        const expected = await fresh.read();
        fresh.destroy();
        let differ = 0;
        for (let i = 0; i < expected.position.length; i++)
          if (seeded.position[i] !== expected.position[i]) differ++;
        assertEqual(differ, 0, 'positions re-seeded as at creation');
        const back = await keeper.read();
        let changed = 0;
        for (let i = 0; i < snapshot.position.length; i++)
          if (
            back.position[i] !== snapshot.position[i] ||
            back.velocity[i] !== snapshot.velocity[i]
          )
            changed++;
        assertEqual(changed, 0, "onRestore: 'last-read' puts the last read state back");
        keeper.destroy();
        assertEqual(
          await throughChain(),
          chainBefore,
          'the post-process chain gives the same image after the restore',
        );
        post.destroy();
        for (const [i, system] of meshSystems.entries()) {
          const after = await meshImage(system);
          assert(
            meshesBefore[i] !== (await meshImageBlank()),
            `mesh particles (${system.drawMode}) drew something before the loss`,
          );
          assert(
            after === meshesBefore[i],
            `mesh particles (${system.drawMode}) draw the same image after the restore`,
          );
          system.destroy();
        }
        const lit = await frame();
        assert(
          lit > litBefore / 2,
          `particles drawn after restore (${lit} lit pixels; ${litBefore} before the loss)`,
        );
        ps.destroy();
        device.destroy();
      },
    },
  'a command buffer finished before a loss and submitted after restore() draws on the restored device':
    {
      async run({ backend }) {
        const canvas = document.createElement('canvas');
        const device = await createDevice({ backend, canvas });
        device.onError(() => {}); // the loss is reported there; this case looks at the image
        const target = device.createTexture({
          size: { width: 8, height: 8 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
        });
        const enc = device.createCommandEncoder({ label: 'recorded before the loss' });
        enc
          .beginRenderPass({
            colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 1, 0, 1] }],
          })
          .end();
        const cb = enc.finish();
        await loseAndRestore(device);
        // (WebGPU encoded it into the lost GPUDevice's encoder while recording: it is replayed)
        device.queue.submit([cb]);
        const pixels = (await target.read()) as Uint8Array;
        assertEqual(
          Array.from(pixels.subarray(0, 4)).join(),
          '0,255,0,255',
          'the pass cleared the restored target green',
        );
        device.destroy();
      },
    },
  'after a real loss every call is a DeviceLostError and every promise settles': {
    async run({ backend }) {
      const canvas = document.createElement('canvas');
      const device = await createDevice({ backend, canvas });
      const errors: RhiError[] = [];
      device.onError((e) => errors.push(e));
      const buffer = device.createBuffer({
        size: 16,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC | BufferUsage.UNIFORM,
      });
      const texture = device.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
      });
      const ps = await createParticleSystem(device, { count: 100 });
      const finished = device.createCommandEncoder().finish();
      device.queue.submit([device.createCommandEncoder().finish()]);
      if (device instanceof WebGL2Device)
        device.gl.getExtension('WEBGL_lose_context')?.loseContext();
      else (device as WebGPUDevice).gpu.destroy();
      const info = await device.lost;
      assert(device.isLost, `lost (${info.reason})`);
      await device.beginFrame(); // settles
      const calls: Array<[string, () => unknown]> = [
        ['createBuffer', () => device.createBuffer({ size: 4, usage: BufferUsage.VERTEX })],
        ['createCommandEncoder', () => device.createCommandEncoder()],
        ['writeBuffer', () => device.queue.writeBuffer(buffer, 0, new Float32Array(4))],
        ['submit', () => device.queue.submit([finished])],
        ['buffer.read', () => buffer.read()],
        ['texture.read', () => texture.read()],
        ['particles.step', () => ps.step(1 / 60)],
      ];
      for (const [name, call] of calls)
        await assertThrows(call, DeviceLostError, /lost/, `${name} after loss`);
      // the loss was reported once
      assertEqual(
        errors.filter((e) => e instanceof DeviceLostError).length,
        info.reason === 'destroyed' ? 0 : 1,
        'loss reports',
      );
      ps.destroy();
      device.destroy();
    },
  },
  'churn: 2,000 frames creating and destroying resources and systems leave device.stats() at its baseline':
    {
      async run({ device }) {
        const before = device.stats();
        let seed = 12345;
        const random = (n: number): number => {
          seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
          return seed % n;
        };
        for (let frame = 0; frame < 2000; frame++) {
          const b = device.createBuffer({
            size: 4 * (1 + random(4096)),
            usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
          });
          const t = device.createTexture({
            size: { width: 1 + random(64), height: 1 + random(64) },
            format: random(2) === 0 ? 'rgba8unorm' : 'rgba16float',
            usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
          });
          const encoder = device.createCommandEncoder();
          device.queue.submit([encoder.finish()]);
          if (frame % 250 === 0) {
            const p = pipelineWithModules(device);
            const ps = await createParticleSystem(device, { count: 1 + random(5000) });
            ps.step(1 / 60);
            ps.destroy();
            p.pipeline.destroy();
            for (const m of p.modules) m.destroy();
          }
          b.destroy();
          t.destroy();
        }
        await device.queue.onSubmittedWorkDone();
        const after = device.stats();
        for (const kind of Object.keys(before) as Array<keyof typeof before>)
          assertEqual(
            `${after[kind].count}/${after[kind].bytes}`,
            `${before[kind].count}/${before[kind].bytes}`,
            `${kind} (count/bytes) after the churn`,
          );
      },
    },
});
