import { describe, expect, it } from 'vitest';
import {
  BufferUsage,
  DeviceLostError,
  DestroyedResourceError,
  TextureUsage,
  NullDevice,
  type Buffer,
  createDevice,
  traceCommands,
  type Command,
} from '../../src/all.js';

/** A 4×4 render target labelled 'rt' and a pipeline of `code`'s vs and fs drawing into it. */
function drawSetup(d: NullDevice, code: string) {
  const rt = d.createTexture({
    label: 'rt',
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  const module = d.createShaderModule({ code });
  const pipeline = d.createRenderPipeline({
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  });
  return { rt, pipeline };
}

describe('null backend', () => {
  it('is reachable through createDevice and says what it is', async () => {
    const d = await createDevice({ backend: 'null' });
    expect(d.caps.backend).toBe('null');
    expect(d.caps.features.timestampQuery).toBe(false);
  });

  it('writeBuffer, mappedAtCreation, copies and read move real bytes', async () => {
    const d = new NullDevice();
    const a = d.createBuffer({
      size: 16,
      usage: BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      mappedAtCreation: true,
    });
    new Uint32Array(a.getMappedRange()).set([1, 2, 3, 4]);
    a.unmap();
    const b = d.createBuffer({ size: 16, usage: BufferUsage.COPY_SRC | BufferUsage.COPY_DST });
    d.queue.writeBuffer(b, 0, new Uint32Array([9, 9, 9, 9]));
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(a, 4, b, 8, 8);
    d.queue.submit([enc.finish()]);
    expect(Array.from(new Uint32Array(await b.read()))).toEqual([9, 9, 2, 3]);
  });

  it('uniform slices of one buffer are recorded as one command per run with each offset logged, and listed as setBindings', () => {
    const d = new NullDevice();
    const { rt, pipeline } = drawSetup(
      d,
      '@group(0) @binding(0) var<uniform> u: vec4f;\n@vertex fn vs() -> @builtin(position) vec4f { return u; }\n@fragment fn fs() -> @location(0) vec4f { return u; }',
    );
    const slices = d.createBuffer({ size: 256 * 4, usage: BufferUsage.UNIFORM });
    const other = d.createBuffer({ size: 16, usage: BufferUsage.UNIFORM });
    const enc = d.createCommandEncoder();
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
    pass.setPipeline(pipeline);
    // a run of slices, a full bind of another buffer, and a second run
    for (const [buffer, offset] of [
      [slices, 0],
      [slices, 256],
      [slices, 512],
      [other, 0],
      [slices, 768],
      [slices, 256],
    ] as const) {
      pass.setUniformBuffer(0, buffer, offset, 16);
      pass.draw(3);
    }
    pass.end();
    const bound = (list: readonly Command[]) =>
      list.flatMap((c) =>
        c.type === 'setBinding' && c.resource.kind === 'uniform'
          ? [`${c.resource.buffer === slices ? 'slices' : 'other'}@${c.resource.offset}`]
          : [],
      );
    const want = ['slices@0', 'slices@256', 'slices@512', 'other@0', 'slices@768', 'slices@256'];
    expect(bound(enc.commands)).toEqual(want);
    const cb = enc.finish();
    // recorded: the first slice as a setBinding, the next two sharing one slice command (the
    // second with its draw folded into a run of the pair before it), the other buffer, a
    // setBinding again (the slot held another buffer), then a new run
    const recorded = cb.chunks.flat();
    const runs = new Set(recorded.filter((c) => c.type === 'setUniformSlice'));
    expect(recorded.filter((c) => c.type === 'setUniformSlice').length).toBe(2);
    expect(runs.size).toBe(2);
    expect(recorded.flatMap((c) => (c.type === 'drawRun' ? [c.count] : []))).toEqual([1]);
    expect(cb.sliceOffsets).toEqual([256, 512, 256]);
    d.queue.submit([cb]);
    expect(bound(d.queue.submissions[0] ?? [])).toEqual(want);
  });

  it('draws that each move a uniform slice fold into runs after their first pair, listed and submitted as every draw (issue 33)', () => {
    // the same calls on a debug device (which folds nothing: it replays each draw apart) give the
    // plain list; the folding device's list, flattened and as submitted, must equal it, across
    // chunk boundaries and whatever breaks a run
    const code =
      '@group(0) @binding(0) var<uniform> a: vec4f;\n@group(0) @binding(1) var<uniform> b: vec4f;\n@vertex fn vs() -> @builtin(position) vec4f { return a + b; }\n@fragment fn fs() -> @location(0) vec4f { return a; }';
    /** A pass of `d` with the pipeline set and both slots bound to slices of one buffer. */
    const open = (d: NullDevice) => {
      const { rt, pipeline } = drawSetup(d, code);
      const slices = d.createBuffer({ size: 256 * 64, usage: BufferUsage.UNIFORM });
      const enc = d.createCommandEncoder();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
      pass.setPipeline(pipeline);
      pass.setUniformBuffer(0, slices, 0, 16);
      pass.setUniformBuffer(1, slices, 0, 16);
      return { enc, pass, pipeline, slices };
    };
    const record = (d: NullDevice, prefix: number) => {
      const { enc, pass, pipeline, slices } = open(d);
      // plain draws first, so that the runs' slices land on each side of a chunk's end
      for (let i = 0; i < prefix; i++) pass.draw(3, 1, i);
      for (let i = 0; i < 300; i++) {
        if (i % 100 === 0) pass.setPipeline(pipeline);
        if (i % 37 === 5) pass.setUniformBuffer(1, slices, 256 * (i % 64), 16); // the other slot
        pass.setUniformBuffer(0, slices, 256 * ((i * 7) % 64), 16);
        if (i % 53 === 9) pass.setUniformBuffer(0, slices, 256 * (i % 64), 16); // set twice
        pass.draw(i % 41 === 20 ? 6 : 3); // another draw breaks the run
      }
      pass.end();
      const commands = enc.commands;
      d.queue.submit([enc.finish()]);
      return commands;
    };
    const show = (list: readonly Command[]) =>
      list.map((c) =>
        c.type === 'setBinding' && c.resource.kind === 'uniform'
          ? `bind ${c.slot}@${c.resource.offset}/${c.resource.size}`
          : c.type === 'draw'
            ? `draw ${c.vertexCount} ${c.firstVertex}`
            : c.type,
      );
    for (const prefix of [0, 1016, 1019, 1020, 1021, 1022, 1023, 2044]) {
      const plain = new NullDevice({ debug: true });
      const folding = new NullDevice();
      const want = show(record(plain, prefix));
      expect(show(record(folding, prefix))).toEqual(want);
      expect(show(folding.queue.submissions[0] ?? [])).toEqual(want);
      expect(show(plain.queue.submissions[0] ?? [])).toEqual(want);
    }
    // and it folded: the 300 draws are a few dozen entries, most of them runs
    const { enc, pass, pipeline, slices } = open(new NullDevice());
    for (let i = 0; i < 300; i++) {
      if (i % 100 === 0) pass.setPipeline(pipeline);
      pass.setUniformBuffer(0, slices, 256 * (i % 64), 16);
      pass.draw(3);
    }
    pass.end();
    const recorded = enc.finish().chunks.flat();
    const runs = recorded.flatMap((c) => (c.type === 'drawRun' ? [c.count] : []));
    // per pipeline change: the pair in full, then a run of the other 99
    expect(runs).toEqual([99, 99, 99]);
    expect(recorded.length).toBeLessThan(20);
  });

  it('a run of slices ends when its slot is bound any other way: the next slice binds what the call names (issue 33)', () => {
    // the slot table takes a call for the last slice's slot, buffer and size as the run's next
    // slice and checks only its offset; a storage buffer or a bind group in that slot since must
    // end the run, or the slot would still hold the storage buffer and the draw be refused
    const code = `@group(0) @binding(0) var<uniform> a: vec4f;
       @vertex fn vs() -> @builtin(position) vec4f { return a; }
       @fragment fn fs() -> @location(0) vec4f { return a; }`;
    for (const rebind of ['storage', 'group', 'other buffer'] as const) {
      const d = new NullDevice();
      const { rt, pipeline } = drawSetup(d, code);
      const slices = d.createBuffer({ label: 'slices', size: 1024, usage: BufferUsage.UNIFORM });
      const other = d.createBuffer({ label: 'other', size: 1024, usage: BufferUsage.UNIFORM });
      const storage = d.createBuffer({ label: 'storage', size: 256, usage: BufferUsage.STORAGE });
      const enc = d.createCommandEncoder();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
      pass.setPipeline(pipeline);
      for (const offset of [0, 256]) {
        pass.setUniformBuffer(0, slices, offset, 16);
        pass.draw(3);
      }
      if (rebind === 'storage') pass.setStorageBuffer(0, storage);
      else if (rebind === 'group')
        pass.setBindGroup(
          0,
          d.createBindGroup({
            // (its binding 1: the group empties slot 0 without binding it)
            layout: d.createBindGroupLayout({ entries: [{ binding: 1, type: 'storage' }] }),
            entries: [{ binding: 1, resource: storage }],
          }),
        );
      else {
        pass.setUniformBuffer(0, other, 0, 16);
        pass.draw(3);
      }
      pass.setUniformBuffer(0, slices, 512, 16);
      pass.draw(3);
      pass.setUniformBuffer(0, slices, 768, 16);
      pass.draw(3);
      pass.end();
      const bound = enc.commands.flatMap((c) =>
        c.type === 'setBinding' && (c.resource.kind === 'uniform' || c.resource.kind === 'storage')
          ? [`${c.resource.kind} ${c.resource.buffer.label}@${c.resource.offset}`]
          : [],
      );
      const between = rebind === 'other buffer' ? ['uniform other@0'] : ['storage storage@0'];
      expect(bound, rebind).toEqual([
        'uniform slices@0',
        'uniform slices@256',
        ...between,
        'uniform slices@512',
        'uniform slices@768',
      ]);
    }
  });

  it('a slice held back for the fold stays in order when a barrier goes in at its draw and when the list is read before that draw (issue 33)', () => {
    // FoldingCommandList holds a slice back until the next command says whether it joins a run;
    // a barrier inserted by that draw's check, and a read of the list between the slice and its
    // draw, must each find the slice where it was recorded
    const code = `@group(0) @binding(0) var<uniform> a: vec4f;
       @vertex fn vs() -> @builtin(position) vec4f { return a; }
       @fragment fn fs() -> @location(0) vec4f { return a; }`;
    const samplingCode = `@group(0) @binding(0) var<uniform> a: vec4f;
       @group(0) @binding(1) var t: texture_2d<f32>;
       @vertex fn vs() -> @builtin(position) vec4f { return a; }
       @fragment fn fs() -> @location(0) vec4f { return textureLoad(t, vec2i(0), 0) + a; }`;
    const record = (d: NullDevice) => {
      const { rt, pipeline } = drawSetup(d, code);
      const sampling = drawSetup(d, samplingCode).pipeline;
      const sampled = d.createTexture({
        label: 'sampled',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
      });
      const slices = d.createBuffer({ size: 256 * 8, usage: BufferUsage.UNIFORM });
      const enc = d.createCommandEncoder();
      enc.beginRenderPass({ colorAttachments: [{ texture: sampled }] }).end();
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
      pass.setPipeline(pipeline);
      pass.setUniformBuffer(0, slices, 0, 16);
      pass.draw(3);
      // the next slice is held back when the draw after it, the first to read what the first pass
      // wrote, inserts a barrier
      pass.setPipeline(sampling);
      pass.setTexture(1, sampled);
      const lengths: number[] = [];
      for (let i = 1; i < 8; i++) {
        pass.setUniformBuffer(0, slices, 256 * i, 16);
        if (i === 4) lengths.push(enc.commands.length); // read between a slice of a run and its draw
        pass.draw(3);
      }
      pass.end();
      const cb = enc.finish();
      d.queue.submit([cb]);
      return { list: cb.commands, lengths, recorded: cb.chunks.flat().length };
    };
    const show = (list: readonly Command[]) =>
      list.map((c) =>
        c.type === 'setBinding' && c.resource.kind === 'uniform'
          ? `bind ${c.slot}@${c.resource.offset}`
          : c.type,
      );
    const plain = record(new NullDevice({ debug: true }));
    const folding = new NullDevice();
    const folded = record(folding);
    expect(show(plain.list).slice(0, 12)).toEqual([
      'beginRenderPass',
      'endRenderPass',
      'barrier',
      'beginRenderPass',
      'setRenderPipeline',
      'bind 0@0',
      'draw',
      'setRenderPipeline',
      'setBinding',
      'bind 0@256',
      'draw',
      'bind 0@512',
    ]);
    expect(show(folded.list)).toEqual(show(plain.list));
    expect(show(folding.queue.submissions[0] ?? [])).toEqual(show(plain.list));
    expect(folded.lengths).toEqual(plain.lengths);
    // (reading the list mid-pass starts the fold again; the draws after the read folded too)
    expect(folded.recorded).toBeLessThan(plain.recorded);
  });

  it('keeps every command of a pass longer than a chunk in order, a barrier inserted before it and commands read while recording', () => {
    // CommandList fills chunks of 1,024 by index and cuts the last to its commands when read:
    // reading mid-recording, recording on, and a barrier inserted into an earlier chunk must all
    // leave the list exactly as recorded
    const d = new NullDevice();
    const sampled = d.createTexture({
      label: 'sampled',
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
    });
    const { rt, pipeline } = drawSetup(
      d,
      `@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }
       @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`,
    );
    const module = d.createShaderModule({
      code: `@group(0) @binding(0) var t: texture_2d<f32>;
       @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }
       @fragment fn fs() -> @location(0) vec4f { return textureLoad(t, vec2i(0), 0); }`,
    });
    const sampling = d.createRenderPipeline({
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const enc = d.createCommandEncoder();
    const first = enc.beginRenderPass({ colorAttachments: [{ texture: sampled }] });
    first.setPipeline(pipeline);
    first.draw(3);
    first.end();
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: rt }] });
    pass.setPipeline(pipeline);
    const DRAWS = 1500;
    for (let i = 0; i < DRAWS; i++) pass.draw(3, 1, i);
    expect(enc.commands.length).toBe(4 + 2 + DRAWS); // read while recording
    // reading `sampled` written by the first pass: a barrier goes in before this pass's begin
    pass.setPipeline(sampling);
    pass.setTexture(0, sampled);
    for (let i = 0; i < DRAWS; i++) pass.draw(3, 1, DRAWS + i);
    pass.end();
    const list = enc.finish().chunks.flat();
    expect(list.length).toBe(4 + 1 + 2 + DRAWS + 2 + DRAWS + 1);
    expect(list.slice(0, 6).map((c) => c.type)).toEqual([
      'beginRenderPass',
      'setRenderPipeline',
      'draw',
      'endRenderPass',
      'barrier',
      'beginRenderPass',
    ]);
    const draws = list.flatMap((c) => (c.type === 'draw' ? [c.firstVertex] : []));
    expect(draws).toEqual([0, ...Array.from({ length: 2 * DRAWS }, (_, i) => i)]);
    expect(list.every((c) => c !== undefined)).toBe(true);
    expect(list.at(-1)?.type).toBe('endRenderPass');
  });

  it('texture copies through a padded buffer round-trip', async () => {
    const d = new NullDevice();
    const t = d.createTexture({
      size: { width: 3, height: 2 },
      format: 'rgba8unorm',
      usage: TextureUsage.COPY_SRC | TextureUsage.COPY_DST,
    });
    const data = new Uint8Array(24).map((_, i) => i + 1);
    d.queue.writeTexture({ texture: t }, data, { bytesPerRow: 12 }, { width: 3, height: 2 });
    const buf = d.createBuffer({ size: 512, usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC });
    const enc = d.createCommandEncoder();
    enc.copyTextureToBuffer(
      { texture: t },
      { buffer: buf, bytesPerRow: 256 },
      { width: 3, height: 2 },
    );
    d.queue.submit([enc.finish()]);
    const bytes = new Uint8Array(await buf.read());
    expect(Array.from(bytes.subarray(256, 268))).toEqual(Array.from(data.subarray(12, 24)));
    expect(
      Array.from(
        (await t.read({ origin: { x: 1, y: 1 }, size: { width: 2, height: 1 } })) as Uint8Array,
      ),
    ).toEqual(Array.from(data.subarray(16, 24)));
  });

  it('records passes as plain data', () => {
    const d = new NullDevice();
    const { rt, pipeline } = drawSetup(
      d,
      '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
    );
    const enc = d.createCommandEncoder();
    const pass = enc.beginRenderPass({
      label: 'main',
      colorAttachments: [{ texture: rt, clearValue: [0, 0, 0, 1] }],
    });
    pass.setPipeline(pipeline);
    pass.draw(3, 2);
    pass.end();
    d.queue.submit([enc.finish()]);
    const submitted = d.queue.submissions[0] ?? [];
    expect(submitted.map((c) => c.type)).toEqual([
      'beginRenderPass',
      'setRenderPipeline',
      'draw',
      'endRenderPass',
    ]);
    expect(traceCommands(submitted)).toEqual([
      'beginRenderPass "main" 4x4',
      'setRenderPipeline',
      'draw 3 x2',
      'endRenderPass',
    ]);
  });

  it('an indirect draw after the compute pass that wrote its arguments gets a barrier, recorded as data', () => {
    const d = new NullDevice();
    const rt = d.createTexture({
      label: 'rt',
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const args = d.createBuffer({
      label: 'args',
      size: 16,
      usage: BufferUsage.INDIRECT | BufferUsage.STORAGE,
    });
    const writer = d.createComputePipeline({
      compute: {
        module: d.createShaderModule({
          code: '@group(0) @binding(0) var<storage, read_write> a: array<u32, 4>; @compute @workgroup_size(1) fn main() { a[0] = 3u; a[1] = 1u; }',
        }),
      },
    });
    const module = d.createShaderModule({
      code: '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
    });
    const pipeline = d.createRenderPipeline({
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
    const enc = d.createCommandEncoder();
    const c = enc.beginComputePass({ label: 'count' });
    c.setPipeline(writer);
    c.setStorageBuffer(0, args);
    c.dispatch(1);
    c.end();
    const pass = enc.beginRenderPass({
      label: 'main',
      colorAttachments: [{ texture: rt, clearValue: [0, 0, 0, 1] }],
    });
    pass.setPipeline(pipeline);
    pass.drawIndirect(args, 0);
    pass.end();
    expect(enc.trace()).toContain('barrier compute-write -> indirect-read [args] (inserted)');
    d.queue.submit([enc.finish()]);
    const submitted = d.queue.submissions[0] ?? [];
    expect(submitted.find((cmd) => cmd.type === 'drawIndirect')).toEqual({
      type: 'drawIndirect',
      buffer: args,
      offset: 0,
    });
  });
});

describe('a submission that can never complete (regression: unhandled rejections after context loss)', () => {
  it('still counts as finished: beginFrame() resolves and nothing is left unhandled', async () => {
    const d = new NullDevice({ maxFramesInFlight: 1 });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // what a lost WebGL2 context or a destroyed GPUDevice does to pending completion promises
      d.queue.onSubmittedWorkDone = () => Promise.reject(new Error('lost while waiting'));
      d.queue.submit([d.createCommandEncoder().finish()]);
      await d.beginFrame(); // fences the submit (1 in flight), then waits below maxFramesInFlight
      expect(d.queue.inFlight).toBe(0);
      await d.beginFrame();
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('frames in flight without a GPU wait per submit (regression: Deno stalls in onSubmittedWorkDone)', () => {
  it('submits fence nothing; beginFrame() fences each frame once, and only a frame that submitted', async () => {
    const d = new NullDevice({ maxFramesInFlight: 2 });
    let fences = 0;
    const resolvers: Array<() => void> = [];
    d.queue.onSubmittedWorkDone = () => {
      fences++;
      return new Promise<void>((r) => resolvers.push(r));
    };
    for (let i = 0; i < 5; i++) d.queue.submit([d.createCommandEncoder().finish()]);
    expect(fences).toBe(0);
    await d.beginFrame(); // frame 1 (five submits) fenced, one frame in flight: no wait
    expect([fences, d.queue.inFlight]).toEqual([1, 1]);
    await d.beginFrame(); // nothing submitted since: no new fence
    expect([fences, d.queue.inFlight]).toEqual([1, 1]);
    d.queue.submit([d.createCommandEncoder().finish()]);
    let began = false;
    const third = d.beginFrame().then(() => (began = true)); // two in flight: waits
    await new Promise((r) => setTimeout(r, 5));
    expect([fences, d.queue.inFlight, began]).toEqual([2, 2, false]);
    resolvers[0]!();
    await third;
    expect([d.queue.inFlight, began]).toEqual([1, true]);
  });
});

describe('after loss, every call says so (DeviceLostError), and every promise settles', () => {
  it('creating, writing, recording, submitting, reading: DeviceLostError; beginFrame() resolves', async () => {
    const d = new NullDevice();
    const b = d.createBuffer({ size: 16, usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC });
    const t = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const recorded = d.createCommandEncoder().finish();
    d.queue.submit([d.createCommandEncoder().finish()]);
    d.destroy();
    await expect(d.lost).resolves.toMatchObject({ reason: 'destroyed' });
    const calls: Array<[string, () => unknown]> = [
      ['createBuffer', () => d.createBuffer({ size: 4, usage: BufferUsage.VERTEX })],
      ['createCommandEncoder', () => d.createCommandEncoder()],
      ['writeBuffer', () => d.queue.writeBuffer(b, 0, new Float32Array(4))],
      ['submit', () => d.queue.submit([recorded])],
      ['buffer.read', () => b.read()],
      ['texture.read', () => t.read()],
    ];
    for (const [name, call] of calls) {
      let error: unknown = null;
      try {
        await call();
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(DeviceLostError);
    }
    await d.beginFrame(); // settles
  });
});

describe('one way to record commands', () => {
  it('the encoder has no public door for pass commands: passes record through a private recorder', () => {
    const d = new NullDevice();
    const enc = d.createCommandEncoder();
    for (const door of ['record', 'endPass', 'trackRead', 'trackWrite'])
      expect(door in enc, `encoder.${door}`).toBe(false);
  });
  it('a pass records only while open, and only into the encoder that began it', () => {
    const d = new NullDevice();
    const enc = d.createCommandEncoder();
    const pass = enc.beginComputePass({ label: 'p' });
    pass.end();
    expect(() => pass.dispatch(1)).toThrow(/dispatch after pass.end\(\)/);
    expect(enc.commands.map((c) => c.type)).toEqual(['beginComputePass', 'endComputePass']);
  });
});

describe('device.cacheStats()', () => {
  it('is empty on the null backend (it caches nothing) and a fresh object each call', () => {
    const d = new NullDevice();
    const a = d.cacheStats();
    expect(a).toEqual({});
    expect(d.cacheStats()).not.toBe(a);
  });
});

describe('submit skips its per-command check only when nothing could have changed (issue 33)', () => {
  const copyBetween = (d: NullDevice, a: Buffer, b: Buffer) => {
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(a, 0, b, 0, 16);
    return enc.finish();
  };
  const buffer = (d: NullDevice, label: string, mappedAtCreation = false) =>
    d.createBuffer({
      label,
      size: 16,
      usage: BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      mappedAtCreation,
    });

  it('a resource destroyed after recording is found, whichever resource the count moved for', () => {
    const d = new NullDevice();
    const [a, b, other] = [buffer(d, 'a'), buffer(d, 'b'), buffer(d, 'other')];
    const fine = copyBetween(d, a, b);
    other.destroy(); // the count moved: the check runs, and finds a and b alive
    d.queue.submit([fine]);
    const stale = copyBetween(d, a, b);
    b.destroy();
    expect(() => d.queue.submit([stale])).toThrow(DestroyedResourceError);
    expect(() => d.queue.submit([stale])).toThrow(/\[b\] buffer used in submit after destroy/);
  });

  it('a buffer mapped at creation and recorded is refused until unmapped, and destroying it while mapped ends the mapping', () => {
    const d = new NullDevice();
    const mapped = buffer(d, 'mapped', true);
    const b = buffer(d, 'b');
    expect(d.mappedBuffers).toBe(1);
    expect(() => d.queue.submit([copyBetween(d, mapped, b)])).toThrow(
      /"mapped", which is still mapped/,
    );
    mapped.unmap();
    expect(d.mappedBuffers).toBe(0);
    d.queue.submit([copyBetween(d, mapped, b)]);
    const gone = buffer(d, 'gone', true);
    gone.destroy();
    expect(gone.mapState).toBe('unmapped');
    expect(d.mappedBuffers).toBe(0);
  });

  it('a restore keeps the count of mapped buffers (the buffers made again are stand-ins)', async () => {
    class LosableDevice extends NullDevice {
      lose(): void {
        this.markLost({ reason: 'unknown', message: 'lost for the test' });
      }
      // the null backend has nothing to get back: its resources are made again as on a GPU
      protected override async restoreImpl(): Promise<void> {}
    }
    const d = new LosableDevice();
    d.onError(() => {}); // the loss is reported there
    const was = buffer(d, 'was mapped', true);
    was.unmap();
    const still = buffer(d, 'still mapped', true);
    expect(d.mappedBuffers).toBe(1);
    d.lose();
    await d.restore();
    expect(d.mappedBuffers).toBe(1);
    expect(still.mapState).toBe('mapped');
    still.unmap();
    expect(d.mappedBuffers).toBe(0);
  });

  it('a steady frame is submitted without the per-command check, and still executes', async () => {
    const d = new NullDevice();
    const [a, b] = [buffer(d, 'a'), buffer(d, 'b')];
    d.queue.writeBuffer(a, 0, new Uint32Array([1, 2, 3, 4]));
    const frame = copyBetween(d, a, b);
    // what the per-command check calls, counted during the submit only
    let asked = 0;
    const assertAlive = a.assertAlive.bind(a);
    a.assertAlive = (op: string) => {
      asked++;
      assertAlive(op);
    };
    d.queue.submit([frame]);
    expect(asked, 'a was not asked again: recording had checked it').toBe(0);
    expect([...new Uint32Array(await b.read())]).toEqual([1, 2, 3, 4]);
    // after any destroy the check runs again
    buffer(d, 'c').destroy();
    d.queue.submit([copyBetween(d, a, b)]);
    expect(asked).toBeGreaterThan(0);
  });
});
