import {
  BufferUsage,
  TextureUsage,
  EncoderStateError,
  UnsupportedFeatureError,
  DestroyedResourceError,
  ValidationError,
  UsageError,
  ShaderCompileError,
  DeviceLostError,
  WebGPUDevice,
  WebGL2Device,
  createDevice,
  type RhiError,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import {
  assert,
  assertArrayEqual,
  assertClose,
  assertEqual,
  assertThrows,
} from '../page/assert.js';
import {
  createScenePipeline,
  pixel,
  renderScene,
  target,
  vertexBuffer,
  TRIANGLE,
} from '../page/scenes.js';

export const cases = defineCases({
  'a triangle rendered offscreen reads back red inside and clear colour outside': {
    async run({ device }) {
      const pipeline = createScenePipeline(device, { program: 'color' });
      const vb = vertexBuffer(device, TRIANGLE);
      const img = await renderScene(device, [0, 0, 1, 1], (pass) => {
        pass.setPipeline(pipeline);
        pass.setVertexBuffer(0, vb);
        pass.draw(3);
      });
      assertArrayEqual(pixel(img, 4, 4), [255, 0, 0, 255], 'top-left (inside)');
      assertArrayEqual(pixel(img, 60, 2), [255, 0, 0, 255], 'top-right corner (inside)');
      assertArrayEqual(pixel(img, 2, 60), [255, 0, 0, 255], 'bottom-left corner (inside)');
      assertArrayEqual(pixel(img, 60, 60), [0, 0, 255, 255], 'bottom-right (outside)');
      assertArrayEqual(pixel(img, 40, 40), [0, 0, 255, 255], 'below the diagonal (outside)');
    },
  },
  'a steady frame creates no bind groups, VAOs or framebuffers after the first': {
    async run({ device }) {
      const pipeline = createScenePipeline(device, { program: 'textured' });
      const vb = vertexBuffer(device, [-1, -1, 1, -1, 1, 1]);
      const t = target(device);
      const tex = target(device, 'rgba8unorm', 1, 'sampled');
      const sampler = device.createSampler();
      const ubo = device.createBuffer({
        size: 16,
        usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
      });
      const count = (): number =>
        device instanceof WebGPUDevice
          ? device.bindGroups.created
          : device instanceof WebGL2Device
            ? device.vaos.created + device.framebuffers.created
            : 0;
      const run = (): void => {
        const enc = device.createCommandEncoder();
        const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t, loadOp: 'clear' }] });
        pass.setPipeline(pipeline);
        pass.setVertexBuffer(0, vb);
        pass.setTexture(0, tex);
        pass.setSampler(1, sampler);
        pass.setUniformBuffer(2, ubo);
        pass.draw(3);
        pass.draw(3);
        pass.end();
        device.queue.submit([enc.finish()]);
      };
      run();
      const after1 = count();
      assert(after1 > 0, `the first frame creates its objects (count ${after1})`);
      for (let i = 0; i < 5; i++) run();
      assertEqual(count(), after1, 'objects created after 5 more identical frames');
      await device.queue.onSubmittedWorkDone();
    },
  },
  'encoder misuse is a typed error before the GPU sees it': {
    async run({ device }) {
      const t = target(device);
      const enc = device.createCommandEncoder({ label: 'misuse' });
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
      await assertThrows(
        () => enc.beginRenderPass({ colorAttachments: [{ texture: t }] }),
        EncoderStateError,
        /\[misuse\] beginRenderPass while a pass is open/,
        'nested pass',
      );
      await assertThrows(
        () => enc.finish(),
        EncoderStateError,
        /finish\(\) while a pass is open/,
        'finish with pass open',
      );
      await assertThrows(
        () => pass.draw(3),
        EncoderStateError,
        /draw without a pipeline/,
        'draw without pipeline',
      );
      pass.end();
      await assertThrows(
        () => pass.end(),
        EncoderStateError,
        /end after pass.end\(\)/,
        'end twice',
      );
      const cb = enc.finish();
      device.queue.submit([cb]);
      await assertThrows(
        () => device.queue.submit([cb]),
        EncoderStateError,
        /\[misuse\] Command buffer submitted twice/,
        'double submit',
      );
      const vb = device.createBuffer({ label: 'gone', size: 64, usage: BufferUsage.VERTEX });
      const enc2 = device.createCommandEncoder();
      const p2 = enc2.beginRenderPass({ colorAttachments: [{ texture: t }] });
      p2.setVertexBuffer(0, vb);
      p2.end();
      const cb2 = enc2.finish();
      vb.destroy();
      await assertThrows(
        () => device.queue.submit([cb2]),
        DestroyedResourceError,
        /\[gone\] buffer used in submit after destroy/,
        'destroyed before submit',
      );
      await assertThrows(
        () =>
          device.queue.writeBuffer(
            device.createBuffer({ label: 'w', size: 16, usage: BufferUsage.COPY_DST }),
            6,
            new Uint8Array(4),
          ),
        ValidationError,
        /writeBuffer offset 6 must be a non-negative multiple of 4/,
        'writeBuffer offset',
      );
    },
  },
  'compute on a device without compute names caps.features.compute and the fallback': {
    async run({ device }) {
      if (device.caps.features.compute) {
        const enc = device.createCommandEncoder();
        enc.beginComputePass().end();
        enc.finish();
        return;
      }
      await assertThrows(
        () => device.createCommandEncoder().beginComputePass(),
        UnsupportedFeatureError,
        /caps\.features\.compute is false on the webgl2 backend; .*ping-pong/,
        'beginComputePass',
      );
      await assertThrows(
        () =>
          device.createComputePipeline({
            compute: {
              module: device.createShaderModule({ code: 'void main(){}', stage: 'vertex' }),
            },
          }),
        UnsupportedFeatureError,
        /caps\.features\.compute/,
        'createComputePipeline',
      );
    },
  },
  'shader compile errors are typed, with the label, the line and the source line': {
    async run({ device }) {
      if (device.caps.shaderLanguage === 'glsl') {
        const code =
          '#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() {\n  o = vec4(undefinedThing);\n}\n';
        const e = (await assertThrows(
          () => device.createShaderModule({ label: 'broken.frag', code, stage: 'fragment' }),
          ShaderCompileError,
          /\[broken\.frag\] fragment shader failed to compile at line 5: .*undefinedThing/,
          'GLSL',
        )) as ShaderCompileError;
        assertEqual(
          e.diagnostics[0]?.sourceLine.trim(),
          'o = vec4(undefinedThing);',
          'source line',
        );
        return;
      }
      const errors: RhiError[] = [];
      device.onError((err) => errors.push(err));
      const module = device.createShaderModule({
        label: 'broken.wgsl',
        code: '@fragment fn fs() -> @location(0) vec4f {\n  return vec4f(undefinedThing);\n}\n',
      });
      const e = await module.compilation();
      assert(e instanceof ShaderCompileError, 'WGSL compile error reported');
      assertEqual(e?.diagnostics[0]?.line, 2, 'line');
      assert(
        /\[broken\.wgsl\] wgsl shader failed to compile at line 2/.test(e?.message ?? ''),
        `message: ${e?.message}`,
      );
      assert(errors.includes(e as ShaderCompileError), 'the error also reached device.onError');
      // reported once: Dawn's own (untyped) copy of the same failure is not passed on
      await device.queue.onSubmittedWorkDone();
      await new Promise((r) => setTimeout(r, 50));
      assertEqual(
        errors.map((x) => x.name).join(', '),
        'ShaderCompileError',
        'errors reported for one broken module',
      );
    },
  },
  // Regression: a device on a canvas whose context was already lost read every limit as 0 and
  // failed later with an unrelated texture-size error.
  'a new WebGL2 device on a canvas whose context is lost is a typed error saying so': {
    cross: true,
    async run() {
      const backend = 'webgl2';
      const canvas = document.createElement('canvas');
      const first = await createDevice({ backend, canvas });
      assert(first instanceof WebGL2Device, 'a WebGL2 device');
      const heard: RhiError[] = [];
      first.onError((e) => heard.push(e));
      first.gl.getExtension('WEBGL_lose_context')?.loseContext();
      await first.lost;
      assert(heard[0] instanceof DeviceLostError, 'the first device reported its loss');
      await assertThrows(
        () => createDevice({ backend, canvas }),
        DeviceLostError,
        /the canvas's WebGL2 context is lost/,
        'createDevice on a lost canvas',
      );
    },
  },
  'the canvas surface: resize gives a texture of the new size that draws and reads back; a size out of range or an empty canvas is a typed error naming it':
    {
      async run({ backend }) {
        const canvas = document.createElement('canvas');
        const device = await createDevice({ backend, canvas });
        const heard: RhiError[] = [];
        device.onError((e) => heard.push(e));
        const surface = device.surface;
        assert(surface !== null, 'a device made with a canvas has a surface');
        surface.resize(24, 10);
        assertEqual(`${canvas.width}×${canvas.height}`, '24×10', 'the canvas took the size');
        const texture = surface.getCurrentTexture();
        assertEqual(`${texture.width}×${texture.height}`, '24×10', "the frame's texture");
        const enc = device.createCommandEncoder();
        enc
          .beginRenderPass({
            colorAttachments: [{ texture, loadOp: 'clear', clearValue: [0, 1, 0, 1] }],
          })
          .end();
        device.queue.submit([enc.finish()]);
        const pixels = (await texture.read()) as Uint8Array;
        // green is green in bgra too
        assertEqual(
          Array.from(pixels.subarray(pixels.length - 4)).join(),
          '0,255,0,255',
          'the last texel of the resized frame was cleared',
        );
        for (const [w, h, named] of [
          [-1, 10, 'width'],
          [24, 1.5, 'height'],
          [device.caps.limits.maxTextureDimension2D + 1, 1, 'width'],
          [Number.NaN, 1, 'width'],
        ] as const)
          await assertThrows(
            () => surface.resize(w, h),
            ValidationError,
            new RegExp(`surface.resize: ${named} must be an integer`),
            `resize(${w}, ${h})`,
          );
        assertEqual(`${canvas.width}×${canvas.height}`, '24×10', 'a refused size left the canvas');
        surface.resize(0, 0); // a hidden canvas: allowed, but there is nothing to draw into
        await assertThrows(
          () => surface.getCurrentTexture(),
          ValidationError,
          /the canvas is 0×0, and a texture needs at least 1×1/,
          'getCurrentTexture of a 0×0 canvas',
        );
        surface.resize(3, 2);
        const again = surface.getCurrentTexture();
        assertEqual(`${again.width}×${again.height}`, '3×2', 'drawable again after a resize');
        await device.queue.onSubmittedWorkDone();
        assertEqual(heard.map((e) => e.message).join('; '), '', 'nothing reported to the device');
        device.destroy();
      },
    },
  'device loss reaches device.lost and the error sink': {
    async run({ backend }) {
      const canvas = document.createElement('canvas');
      const device = await createDevice({ backend, canvas });
      const errors: RhiError[] = [];
      device.onError((e) => errors.push(e));
      if (device instanceof WebGL2Device) {
        device.gl.getExtension('WEBGL_lose_context')?.loseContext();
        const info = await device.lost;
        assertEqual(info.reason, 'context-lost', 'reason');
        assert(
          errors.some((e) => e instanceof DeviceLostError),
          'DeviceLostError reported',
        );
      } else {
        (device as WebGPUDevice).gpu.destroy();
        const info = await device.lost;
        assertEqual(info.reason, 'destroyed', 'reason');
      }
      assert(device.isLost, 'isLost');
      await assertThrows(
        () => device.createBuffer({ size: 4, usage: BufferUsage.VERTEX }),
        DeviceLostError,
        /createBuffer on a lost device/,
        'use after loss',
      );
    },
  },
  'WebGPU validation errors the GPU reports reach device.onError; a submit opens an error scope only with debug, which then names queue.submit':
    {
      cross: true,
      async run(ctx) {
        const errorsOf = async (debug: boolean) => {
          const device = (await ctx.open('webgpu', { debug })) as WebGPUDevice;
          const errors: RhiError[] = [];
          device.onError((e) => errors.push(e));
          const module = device.createShaderModule({
            code: '@group(0) @binding(0) var t: texture_2d<u32>; @compute @workgroup_size(1) fn main() { _ = textureLoad(t, vec2i(0), 0); }',
          });
          const pipeline = device.createComputePipeline({ compute: { module } });
          // a texture binding with a sample type the texture cannot satisfy: only the GPU sees it
          const tex = device.createTexture({
            size: { width: 1, height: 1 },
            format: 'rgba8unorm',
            usage: TextureUsage.TEXTURE_BINDING,
          });
          const gpu = device.gpu;
          const push = gpu.pushErrorScope.bind(gpu);
          let scopes = 0;
          gpu.pushErrorScope = (filter) => {
            scopes++;
            push(filter);
          };
          const enc = device.createCommandEncoder({ label: 'bad sample type' });
          const pass = enc.beginComputePass();
          pass.setPipeline(pipeline);
          pass.setTexture(0, tex);
          pass.dispatch(1);
          pass.end();
          device.queue.submit([enc.finish()]);
          await device.queue.onSubmittedWorkDone();
          await new Promise((r) => setTimeout(r, 50));
          return { scopes, errors };
        };
        const plain = await errorsOf(false);
        assert(plain.scopes === 0, `no error scope per submit without debug (saw ${plain.scopes})`);
        assert(
          plain.errors.length >= 1 && plain.errors.every((e) => e.code === 'backend'),
          `the rejected submit still reaches onError (${plain.errors.map((e) => e.message).join('; ')})`,
        );
        const debug = await errorsOf(true);
        assert(debug.scopes === 1, `one error scope per submit with debug (saw ${debug.scopes})`);
        assert(
          debug.errors.length === 1 &&
            /queue\.submit "bad sample type": /.test(debug.errors[0]?.message ?? ''),
          `with debug the error names the call and the label (${debug.errors.map((e) => e.message).join('; ')})`,
        );
      },
    },
  'WebGPU encodes commands as they are recorded (a submit only submits); with debug, and on WebGL2, nothing reaches the GPU before the submit':
    {
      cross: true,
      async run(ctx) {
        /** Backend calls made while recording one draw, and after its submit; the image's pixel. */
        const frame = async (
          backend: 'webgpu' | 'webgl2',
          debug: boolean,
        ): Promise<{ recording: number; submitted: number; inside: number[] }> => {
          const device = await ctx.open(backend, { debug });
          const proto = (backend === 'webgpu'
            ? GPURenderPassEncoder.prototype
            : WebGL2RenderingContext.prototype) as unknown as Record<string, unknown>;
          // (one instance: WebGL2's plain drawArrays)
          const name = backend === 'webgpu' ? 'draw' : 'drawArrays';
          const original = proto[name] as (...a: unknown[]) => unknown;
          let calls = 0;
          proto[name] = function (this: unknown, ...a: unknown[]) {
            calls++;
            return original.apply(this, a);
          };
          try {
            const pipeline = createScenePipeline(device, { program: 'color' });
            const vb = vertexBuffer(device, TRIANGLE);
            const t = target(device);
            const enc = device.createCommandEncoder();
            const pass = enc.beginRenderPass({
              colorAttachments: [{ texture: t, loadOp: 'clear', clearValue: [0, 0, 1, 1] }],
            });
            pass.setPipeline(pipeline);
            pass.setVertexBuffer(0, vb);
            pass.draw(3);
            pass.end();
            const cb = enc.finish();
            const recording = calls;
            device.queue.submit([cb]);
            const submitted = calls;
            const inside = pixel((await t.read()) as Uint8Array, 4, 4);
            return { recording, submitted, inside };
          } finally {
            proto[name] = original;
          }
        };
        const immediate = await frame('webgpu', false);
        assertEqual(immediate.recording, 1, 'WebGPU: the draw was encoded when it was recorded');
        assertEqual(immediate.submitted, 1, 'WebGPU: the submit encodes nothing again');
        assertArrayEqual(immediate.inside, [255, 0, 0, 255], 'WebGPU: the triangle is drawn');
        const replayed = await frame('webgpu', true);
        assertEqual(replayed.recording, 0, 'WebGPU with debug: nothing encoded while recording');
        assertEqual(replayed.submitted, 1, 'WebGPU with debug: encoded at the submit');
        assertArrayEqual(replayed.inside, [255, 0, 0, 255], 'WebGPU with debug: the triangle');
        const gl = await frame('webgl2', false);
        assertEqual(gl.recording, 0, 'WebGL2: no GL call while recording');
        assertEqual(gl.submitted, 1, 'WebGL2: the draw runs at the submit');
        assertArrayEqual(gl.inside, [255, 0, 0, 255], 'WebGL2: the triangle is drawn');
      },
    },
  'beginFrame() keeps at most maxFramesInFlight submissions on the GPU': {
    async run({ device }) {
      const pipeline = createScenePipeline(device, { program: 'color' });
      const vb = vertexBuffer(device, TRIANGLE);
      const t = target(device);
      let most = 0;
      for (let i = 0; i < 12; i++) {
        await device.beginFrame();
        const enc = device.createCommandEncoder();
        const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
        pass.setPipeline(pipeline);
        pass.setVertexBuffer(0, vb);
        pass.draw(3, 2000);
        pass.end();
        device.queue.submit([enc.finish()]);
        most = Math.max(most, device.queue.inFlight);
      }
      assert(
        most <= device.maxFramesInFlight,
        `at most ${device.maxFramesInFlight} in flight, saw ${most}`,
      );
      assert(most >= 1, 'submissions were tracked');
    },
  },
  'a GPUDevice owned by the host can be wrapped (WebGPU)': {
    cross: true,
    async run() {
      const adapter = await navigator.gpu.requestAdapter();
      const gpu = await (adapter as GPUAdapter).requestDevice();
      const device = await createDevice({ backend: 'webgpu', gpuDevice: gpu });
      assert((device as WebGPUDevice).gpu === gpu, 'the same GPUDevice');
      const b = device.createBuffer({
        size: 8,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      device.queue.writeBuffer(b, 0, new Uint32Array([7, 9]));
      assertArrayEqual(new Uint32Array(await b.read()), [7, 9], 'round trip');
      device.destroy();
    },
  },
  'WebGL2: what GL would reject silently is reported (a short uniform block; debug getError)': {
    cross: true,
    async run(ctx) {
      const device = await ctx.open('webgl2', { debug: true });
      const errors: RhiError[] = [];
      device.onError((e) => errors.push(e));
      const vs = device.createShaderModule({
        code: '#version 300 es\nlayout(std140) uniform Params { vec4 a; vec4 b; };\nvoid main() { gl_Position = a + b; }\n',
        stage: 'vertex',
      });
      const fs = device.createShaderModule({
        code: '#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n',
        stage: 'fragment',
      });
      const pipeline = device.createRenderPipeline({
        label: 'needs32',
        vertex: { module: vs },
        fragment: { module: fs, targets: [{ format: 'rgba8unorm' }] },
        bindings: [{ binding: 0, type: 'uniform', name: 'Params' }],
      });
      const small = device.createBuffer({ label: 'small', size: 16, usage: BufferUsage.UNIFORM });
      const t = target(device);
      for (let frame = 0; frame < 3; frame++) {
        const enc = device.createCommandEncoder();
        const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
        pass.setPipeline(pipeline);
        pass.setUniformBuffer(0, small);
        pass.draw(3);
        pass.end();
        device.queue.submit([enc.finish()]);
      }
      const sizes = errors.filter((e) =>
        /uniform block "Params" at slot 0 needs 32 bytes but 16 are bound \("small"\)/.test(
          e.message,
        ),
      );
      assertEqual(
        sizes.length,
        1,
        `the short block is reported once (errors: ${errors.map((e) => e.message).join(' | ')})`,
      );
      assert(
        errors.some((e) => /GL INVALID_OPERATION after command \d+ \(draw\)/.test(e.message)),
        `debug mode names the draw GL rejected (errors: ${errors.map((e) => e.message).join(' | ')})`,
      );
    },
  },
  'a vertex input no buffer provides is rejected at pipeline creation': {
    async run({ device }) {
      const buffers = [
        {
          arrayStride: 8,
          attributes: [{ format: 'float32x2' as const, offset: 0, shaderLocation: 0 }],
        },
      ];
      const create = (): unknown => {
        if (device.caps.shaderLanguage === 'glsl') {
          const vs = device.createShaderModule({
            code: '#version 300 es\nlayout(location = 0) in vec2 p;\nlayout(location = 3) in vec4 tint;\nout vec4 c;\nvoid main() { c = tint; gl_Position = vec4(p, 0.0, 1.0); }\n',
            stage: 'vertex',
          });
          const fs = device.createShaderModule({
            code: '#version 300 es\nprecision highp float;\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n',
            stage: 'fragment',
          });
          return device.createRenderPipeline({
            label: 'missing-input',
            vertex: { module: vs, buffers },
            fragment: { module: fs, targets: [{ format: 'rgba8unorm' }] },
          });
        }
        const module = device.createShaderModule({
          code: '@vertex fn vs(@location(0) p: vec2f, @location(3) tint: vec4f) -> @builtin(position) vec4f { return vec4f(p, tint.x, 1.0); } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
        });
        return device.createRenderPipeline({
          label: 'missing-input',
          vertex: { module, entryPoint: 'vs', buffers },
          fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
        });
      };
      if (device.caps.shaderLanguage === 'glsl') {
        await assertThrows(
          create,
          ValidationError,
          /\[missing-input\] Vertex input "tint" \(location 3\) has no attribute in vertex.buffers/,
          'GLSL',
        );
        return;
      }
      // WGSL: core reads the entry point's inputs and refuses before the GPU (WebGPU's rule)
      await assertThrows(
        create,
        ValidationError,
        /\[missing-input\] the vertex shader reads @location\(3\) tint: vec4f, and no attribute of vertex\.buffers has shaderLocation 3/,
        'WGSL',
      );
    },
  },
  'timestamp queries measure a render pass': {
    needs: ['timestampQuery'],
    async run({ device }) {
      const qs = device.createQuerySet({ type: 'timestamp', count: 2 });
      const pipeline = createScenePipeline(device, { program: 'color' });
      const vb = vertexBuffer(device, TRIANGLE);
      const t = target(device);
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: [{ texture: t }],
        timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
      });
      pass.setPipeline(pipeline);
      pass.setVertexBuffer(0, vb);
      pass.draw(3, 50);
      pass.end();
      device.queue.submit([enc.finish()]);
      const ts = await qs.readTimestamps();
      const elapsed = (ts[1] as number) - (ts[0] as number);
      // WebGL2's timer extension may report a disjoint interval (NaN): then nothing is claimed
      if (!Number.isNaN(elapsed))
        assert(elapsed >= 0, `end timestamp precedes begin: ${ts[0]} .. ${ts[1]}`);
      if (device.caps.backend === 'webgpu')
        assert(elapsed > 0, `WebGPU pass time is positive (${elapsed} ns)`);
    },
  },
  // Regression: WebGPU read 0 for queries never written, where the contract (core/query-set.ts) says NaN.
  'timestamp queries that were never written read NaN; written ones read a time': {
    needs: ['timestampQuery'],
    async run({ device }) {
      const qs = device.createQuerySet({ label: 'sparse', type: 'timestamp', count: 6 });
      const t = target(device);
      const enc = device.createCommandEncoder();
      // writes 1 and 2 only
      enc
        .beginRenderPass({
          colorAttachments: [{ texture: t }],
          timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 1, endOfPassWriteIndex: 2 },
        })
        .end();
      device.queue.submit([enc.finish()]);
      const ts = await qs.readTimestamps();
      for (const i of [0, 3, 4, 5])
        assert(Number.isNaN(ts[i]), `query ${i} was never written but reads ${ts[i]}`);
      // WebGL2's timer extension may report a disjoint interval, which makes the whole set NaN
      if (device.caps.backend === 'webgpu')
        for (const i of [1, 2])
          assert((ts[i] as number) > 0, `query ${i} was written but reads ${ts[i]}`);
    },
  },
  'per-target blend states: each target blends as declared, or a typed error where caps.features.independentBlend is false':
    {
      async run({ device }) {
        const additive = {
          color: { srcFactor: 'one', dstFactor: 'one' },
          alpha: { srcFactor: 'one', dstFactor: 'one' },
        } as const;
        const make = (): ReturnType<typeof createScenePipeline> =>
          createScenePipeline(device, {
            program: 'mrt',
            formats: ['rgba8unorm', 'rgba8unorm'],
            blends: [additive, undefined],
          });
        if (!device.caps.features.independentBlend) {
          await assertThrows(
            make,
            UnsupportedFeatureError,
            /independentBlend is false on the webgl2 backend; color target 1 has a different blend state/,
            'per-target blend',
          );
          return;
        }
        const pipeline = make();
        const a = target(device, 'rgba8unorm', 1, 'a');
        const b = target(device, 'rgba8unorm', 1, 'b');
        const enc = device.createCommandEncoder();
        const pass = enc.beginRenderPass({
          colorAttachments: [
            { texture: a, loadOp: 'clear', clearValue: [0.2, 0.2, 0.2, 0.2] },
            { texture: b, loadOp: 'clear', clearValue: [0.2, 0.2, 0.2, 0.2] },
          ],
        });
        pass.setPipeline(pipeline);
        // a full-screen triangle of colour (0.4, 0, 0.2, 0.2): target 0 adds it, target 1 writes 1 - colour.bgra
        pass.setVertexBuffer(
          0,
          vertexBuffer(
            device,
            [-1, -1, 0.4, 0, 0.2, 0.2, 3, -1, 0.4, 0, 0.2, 0.2, -1, 3, 0.4, 0, 0.2, 0.2],
          ),
        );
        pass.draw(3);
        pass.end();
        device.queue.submit([enc.finish()]);
        assertArrayEqual(
          pixel((await a.read()) as Uint8Array, 10, 10),
          [153, 51, 102, 102],
          'target 0: additive over the clear colour',
        );
        assertArrayEqual(
          pixel((await b.read()) as Uint8Array, 10, 10),
          [204, 255, 153, 204],
          'target 1: replaced, no blending',
        );
      },
    },
  'blend factor src-alpha-saturated: min(source alpha, 1 − destination alpha) on both backends': {
    async run({ device }) {
      // colour (1, 0, 0, 0.8) over a clear of alpha 0.5: the factor is min(0.8, 0.5) = 0.5
      const pipeline = createScenePipeline(device, {
        program: 'color',
        blend: {
          color: { srcFactor: 'src-alpha-saturated', dstFactor: 'one' },
          alpha: { srcFactor: 'one', dstFactor: 'zero' },
        },
      });
      const t = target(device, 'rgba8unorm', 1, 'saturated');
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: [{ texture: t, loadOp: 'clear', clearValue: [0, 0, 0.2, 0.5] }],
      });
      pass.setPipeline(pipeline);
      pass.setVertexBuffer(
        0,
        vertexBuffer(device, [-1, -1, 1, 0, 0, 0.8, 3, -1, 1, 0, 0, 0.8, -1, 3, 1, 0, 0, 0.8]),
      );
      pass.draw(3);
      pass.end();
      device.queue.submit([enc.finish()]);
      const [r, g, b, a] = pixel((await t.read()) as Uint8Array, 10, 10);
      assertClose(r as number, 128, 1.5, 'red: 1 × min(0.8, 1 − 0.5) + 0');
      assertArrayEqual([g, b, a], [0, 51, 204], 'green 0, blue the clear, alpha the source');
    },
  },
  'drawIndirect and drawIndexedIndirect draw the counts a compute pass wrote (0 instances draw nothing); without caps.features.indirect, a typed error':
    {
      async run({ device }) {
        const pipeline = createScenePipeline(device, { program: 'color' });
        const vb = vertexBuffer(device, TRIANGLE);
        // a pass drawing the triangle's pipeline, for the calls that must be refused
        const openPass = () => {
          const pass = device.createCommandEncoder().beginRenderPass({
            colorAttachments: [
              { texture: target(device), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
            ],
          });
          pass.setPipeline(pipeline);
          pass.setVertexBuffer(0, vb);
          return pass;
        };
        if (!device.caps.features.indirect) {
          const args = device.createBuffer({
            label: 'args',
            size: 16,
            usage: BufferUsage.INDIRECT | BufferUsage.COPY_DST,
          });
          const pass = openPass();
          await assertThrows(
            () => pass.drawIndirect(args),
            UnsupportedFeatureError,
            /caps.features.indirect is false on the webgl2 backend; read the counts back and call draw\(\)/,
            'drawIndirect on WebGL2',
          );
          pass.end();
          return;
        }
        const indices = device.createBuffer({
          label: 'indices',
          size: 8,
          usage: BufferUsage.INDEX | BufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(indices, 0, new Uint16Array([0, 1, 2, 0]));
        // the arguments come from the GPU: (3, n, 0, 0) for draw at 0, (3, n, 0, 0, 0) indexed at 16
        const args = device.createBuffer({
          label: 'args',
          size: 36,
          usage: BufferUsage.INDIRECT | BufferUsage.STORAGE,
        });
        const writer = device.createComputePipeline({
          compute: {
            module: device.createShaderModule({
              code: `@group(0) @binding(0) var<uniform> n: vec4u;
@group(0) @binding(1) var<storage, read_write> args: array<u32, 9>;
@compute @workgroup_size(1) fn main() {
  args = array<u32, 9>(3u, n.x, 0u, 0u, 3u, n.x, 0u, 0u, 0u);
}`,
            }),
          },
        });
        const params = device.createBuffer({
          label: 'n',
          size: 16,
          usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
        });
        const drawWith = async (
          instances: number,
          draw: (pass: Parameters<Parameters<typeof renderScene>[2]>[0]) => void,
        ): Promise<Uint8Array> => {
          device.queue.writeBuffer(params, 0, new Uint32Array([instances, 0, 0, 0]));
          const enc = device.createCommandEncoder();
          const c = enc.beginComputePass({ label: 'write args' });
          c.setPipeline(writer);
          c.setUniformBuffer(0, params);
          c.setStorageBuffer(1, args);
          c.dispatch(1);
          c.end();
          device.queue.submit([enc.finish()]);
          return renderScene(device, [0, 0, 1, 1], (pass) => {
            pass.setPipeline(pipeline);
            pass.setVertexBuffer(0, vb);
            draw(pass);
          });
        };
        const direct = await renderScene(device, [0, 0, 1, 1], (pass) => {
          pass.setPipeline(pipeline);
          pass.setVertexBuffer(0, vb);
          pass.draw(3);
        });
        assertArrayEqual(pixel(direct, 4, 4), [255, 0, 0, 255], 'draw(3): inside');
        const indirect = await drawWith(1, (pass) => pass.drawIndirect(args, 0));
        assertArrayEqual(Array.from(indirect), Array.from(direct), 'drawIndirect = draw(3)');
        const indexed = await drawWith(1, (pass) => {
          pass.setIndexBuffer(indices, 'uint16');
          pass.drawIndexedIndirect(args, 16);
        });
        assertArrayEqual(Array.from(indexed), Array.from(direct), 'drawIndexedIndirect = draw(3)');
        const none = await drawWith(0, (pass) => pass.drawIndirect(args, 0));
        assertArrayEqual(pixel(none, 4, 4), [0, 0, 255, 255], '0 instances: the clear colour');
        const noneIndexed = await drawWith(0, (pass) => {
          pass.setIndexBuffer(indices, 'uint16');
          pass.drawIndexedIndirect(args, 16);
        });
        assertArrayEqual(pixel(noneIndexed, 4, 4), [0, 0, 255, 255], 'indexed, 0 instances');
        // arguments past the end, no index buffer, a buffer without INDIRECT usage: typed, before the GPU
        const pass = openPass();
        await assertThrows(
          () => pass.drawIndirect(args, 24),
          ValidationError,
          /drawIndirect offset 24 must be a multiple of 4 with 16 bytes after it in the 36-byte buffer "args"/,
          'past the end',
        );
        await assertThrows(
          () => pass.drawIndexedIndirect(args, 0),
          EncoderStateError,
          /drawIndexedIndirect without an index buffer/,
          'no index buffer',
        );
        await assertThrows(
          () => pass.drawIndirect(vb, 0),
          UsageError,
          /drawIndirect.*INDIRECT/,
          'no INDIRECT usage',
        );
        pass.end();
      },
    },
});
