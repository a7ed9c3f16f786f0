// Bind groups beside slot binding, on both backends: a pipeline reading @group(0) (filled slot by
// slot, or by a bind group), @group(1) (a uniform per material, switched between draws) and
// @group(2) (a texture and its sampler); the pixels say which resources each draw saw. And a draw
// per object, each with its own slice of one uniform buffer (WebGPU binds those slices with
// dynamic offsets, at most 8 a pipeline; the rest with a bind group per slice).
import {
  BufferUsage,
  TextureUsage,
  type Device,
  type RenderPipeline,
  ValidationError,
  type RenderPass,
  type WebGPUDevice,
} from '../../../src/all.js';
import { defineCases, type Case } from '../page/case.js';
import { assert, assertEqual, assertThrows } from '../page/assert.js';
import { pixel, renderScene, SIZE, target } from '../page/scenes.js';
import { loseAndRestore } from '../page/loss.js';

const WGSL = /* wgsl */ `
struct Color { value: vec4f };
@group(0) @binding(0) var<uniform> tint: Color;
@group(1) @binding(0) var<uniform> material: Color;
@group(2) @binding(0) var tex: texture_2d<f32>;
@group(2) @binding(1) var samp: sampler;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
  return vec4f(p[i], 0.0, 1.0);
}

@fragment fn fs() -> @location(0) vec4f {
  return tint.value * material.value + textureSampleLevel(tex, samp, vec2f(0.5), 0.0);
}
`;

const GLSL_VS = `#version 300 es
void main() {
  gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0);
}`;

const GLSL_FS = `#version 300 es
precision highp float;
uniform Tint { vec4 tint; };
uniform Material { vec4 material; };
uniform highp sampler2D tex;
out vec4 color;
void main() { color = tint * material + texture(tex, vec2(0.5)); }`;

function pipelineOf(device: Device): RenderPipeline {
  const targets = [{ format: 'rgba8unorm' as const }];
  if (device.caps.shaderLanguage === 'wgsl') {
    const module = device.createShaderModule({ label: 'groups.wgsl', code: WGSL });
    return device.createRenderPipeline({
      label: 'groups',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets },
    });
  }
  return device.createRenderPipeline({
    label: 'groups',
    vertex: { module: device.createShaderModule({ code: GLSL_VS, stage: 'vertex' }) },
    fragment: {
      module: device.createShaderModule({ code: GLSL_FS, stage: 'fragment' }),
      targets,
    },
    // GLSL has no @group: the layout says which group each block and sampler belongs to
    bindings: [
      { binding: 0, type: 'uniform', name: 'Tint' },
      { group: 1, binding: 0, type: 'uniform', name: 'Material' },
      { group: 2, binding: 0, type: 'texture', name: 'tex', samplerBinding: 1 },
      { group: 2, binding: 1, type: 'sampler', name: 'samp' },
    ],
  });
}

function colorBuffer(device: Device, rgba: number[], label: string) {
  const b = device.createBuffer({
    label,
    size: 16,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(b, 0, new Float32Array(rgba));
  return b;
}

const near = (a: readonly number[], b: readonly number[]): boolean =>
  a.every((v, i) => Math.abs(v - (b[i] as number)) <= 1);

/** Nine uniforms (one more than WebGPU's 8 dynamic ones): the colour is their sum. */
const SLICES_WGSL = /* wgsl */ `
${Array.from({ length: 9 }, (_, k) => `@group(0) @binding(${k}) var<uniform> u${k}: vec4f;`).join('\n')}
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
  return vec4f(p[i], 0.0, 1.0);
}
@fragment fn nine() -> @location(0) vec4f { return u0 + u1 + u2 + u3 + u4 + u5 + u6 + u7 + u8; }
@fragment fn one() -> @location(0) vec4f { return vec4f(u0.x, 0.0, 0.5, 1.0); }
`;
const SLICES_GLSL_FS = (body: string, blocks: number) => `#version 300 es
precision highp float;
${Array.from({ length: blocks }, (_, k) => `uniform U${k} { vec4 u${k}; };`).join('\n')}
out vec4 color;
void main() { color = ${body}; }`;

function slicePipelines(device: Device): { nine: RenderPipeline; one: RenderPipeline } {
  const targets = [{ format: 'rgba8unorm' as const }];
  if (device.caps.shaderLanguage === 'wgsl') {
    const module = device.createShaderModule({ label: 'slices.wgsl', code: SLICES_WGSL });
    const make = (entryPoint: string) =>
      device.createRenderPipeline({
        label: entryPoint,
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint, targets },
      });
    return { nine: make('nine'), one: make('one') };
  }
  const vertex = { module: device.createShaderModule({ code: GLSL_VS, stage: 'vertex' }) };
  const make = (label: string, body: string, blocks: number) =>
    device.createRenderPipeline({
      label,
      vertex,
      fragment: {
        module: device.createShaderModule({
          code: SLICES_GLSL_FS(body, blocks),
          stage: 'fragment',
        }),
        targets,
      },
      bindings: Array.from({ length: blocks }, (_, k) => ({
        binding: k,
        type: 'uniform' as const,
        name: `U${k}`,
      })),
    });
  return {
    nine: make('nine', Array.from({ length: 9 }, (_, k) => `u${k}`).join(' + '), 9),
    one: make('one', 'vec4(u0.x, 0.0, 0.5, 1.0)', 1),
  };
}

/**
 * Draws 8 columns, each with its own slices (uniform slices are recorded without allocating: one
 * command per run, each slice's offset in a log — UniformSliceCommand) and checks every column's
 * colour. Returns the draw, to draw the frame again.
 */
async function drawSlices(device: Device): Promise<(pass: RenderPass) => void> {
  const { nine, one } = slicePipelines(device);
  const slices = (label: string, slice: (i: number) => number[]) => {
    const b = device.createBuffer({
      label,
      size: 256 * 8,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    const data = new Float32Array(64 * 8);
    for (let i = 0; i < 8; i++) data.set(slice(i), 64 * i);
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const reds = slices('reds', (i) => [(i + 1) / 10, 0, 0, 1]);
  const greens = slices('greens', (i) => [0, (i + 1) / 10, 0, 0]);
  const zero = colorBuffer(device, [0, 0, 0, 0], 'zero');
  const draw = (pass: RenderPass) => {
    for (let i = 0; i < 8; i++) {
      pass.setPipeline(i % 2 === 0 ? nine : one);
      pass.setUniformBuffer(0, reds, 256 * i, 16);
      if (i % 2 === 0) {
        for (let k = 1; k < 8; k++) pass.setUniformBuffer(k, zero);
        pass.setUniformBuffer(8, greens, 256 * (7 - i), 16);
      }
      pass.setViewport(8 * i, 0, 8, SIZE);
      pass.draw(3);
    }
  };
  const data = await renderScene(device, [0, 0, 0, 1], draw);
  for (let i = 0; i < 8; i++) {
    const got = pixel(data, 8 * i + 4, 32);
    const red = Math.round(((i + 1) / 10) * 255);
    const want = i % 2 === 0 ? [red, Math.round(((8 - i) / 10) * 255), 0, 255] : [red, 0, 128, 255];
    assert(
      near(got, want),
      `column ${i} (${i % 2 === 0 ? 'nine uniforms' : 'one uniform'}): ${got.join(',')}, expected ${want.join(',')}`,
    );
  }
  return draw;
}

const uniformSlices: Case = {
  async run({ device, backend, open }) {
    const before = device.cacheStats().bindGroups ?? 0;
    const draw = await drawSlices(device);
    // a debug device replays the recorded list at the submit (WebGPU: in an error scope; WebGL2
    // checks getError after each command), the slices' offsets taken from the log
    const debug = await open(backend, { debug: true });
    const errors: unknown[] = [];
    debug.onError((e) => errors.push(e));
    await drawSlices(debug);
    assertEqual(errors.length, 0, `errors on the debug device: ${errors.map(String).join('; ')}`);
    if (device.caps.backend === 'webgpu') {
      // the slices of slot 0 ride as dynamic offsets: drawing the frame again (all offsets seen)
      // makes no bind group, and the first frame made one per slice of slot 8 (static), not one
      // per slice of slot 0 as well
      const made = (device.cacheStats().bindGroups ?? 0) - before;
      assert(
        made <= 5,
        `the first frame made ${made} bind groups (expected 5: a group per slice at slot 8, one for the one-uniform pipeline)`,
      );
      const again = device.cacheStats().bindGroups ?? 0;
      // and the offsets go as the engine takes them fastest: a reused array in Firefox, a
      // Uint32Array range elsewhere (WebGPUDevice.offsetsAsArrays)
      const proto = GPURenderPassEncoder.prototype;
      const setBindGroup = proto.setBindGroup;
      const kinds = new Set<string>();
      proto.setBindGroup = function (this: GPURenderPassEncoder, ...args: unknown[]) {
        if (args[2] !== undefined) kinds.add(Array.isArray(args[2]) ? 'array' : 'typed');
        (setBindGroup as (...a: unknown[]) => void).apply(this, args);
      } as typeof setBindGroup;
      try {
        await renderScene(device, [0, 0, 0, 1], draw);
      } finally {
        proto.setBindGroup = setBindGroup;
      }
      const more = (device.cacheStats().bindGroups ?? 0) - again;
      assert(more === 0, `drawing the same slices again made ${more} bind groups`);
      const want = /\bFirefox\//.test(navigator.userAgent) ? 'array' : 'typed';
      assert(
        kinds.size === 1 && kinds.has(want),
        `dynamic offsets were passed as ${[...kinds].join(' and ') || 'nothing'}, expected ${want} in ${navigator.userAgent}`,
      );
    }
  },
};

const COLUMNS = 32;
const COLUMN_WGSL = /* wgsl */ `
struct Column { rect: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> c: Column;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var q = array(vec2f(0.0, 0.0), vec2f(1.0, 0.0), vec2f(0.0, 1.0), vec2f(0.0, 1.0), vec2f(1.0, 0.0), vec2f(1.0, 1.0));
  return vec4f(c.rect.xy + q[i] * c.rect.zw, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return c.color; }
`;
/** The same with a static buffer in the slice's group: a storage buffer of zeros, added. */
const COLUMN_STORAGE_WGSL = COLUMN_WGSL.replace(
  '@fragment fn fs() -> @location(0) vec4f { return c.color; }',
  `@group(0) @binding(1) var<storage, read> zero: vec4f;
@fragment fn fs() -> @location(0) vec4f { return c.color + zero; }`,
);
const COLUMN_GLSL_VS = `#version 300 es
layout(std140) uniform Column { vec4 rect; vec4 color; };
const vec2 Q[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0));
void main() { gl_Position = vec4(rect.xy + Q[gl_VertexID] * rect.zw, 0.0, 1.0); }`;
const COLUMN_GLSL_FS = `#version 300 es
precision highp float;
layout(std140) uniform Column { vec4 rect; vec4 color; };
out vec4 outColor;
void main() { outColor = color; }`;

/**
 * 32 columns of a 64×64 target, each drawn by its own draw with its own 256-byte slice of one
 * uniform buffer (its rectangle and colour), in a shuffled order, the pipeline set again every 8
 * draws: a command encoder folds such draws into runs (DrawRunCommand). `check` reads a target
 * and says which columns are wrong.
 */
function columns(device: Device, { storage = false } = {}) {
  const targets = [{ format: 'rgba8unorm' as const }];
  const pipeline = () => {
    if (device.caps.shaderLanguage === 'wgsl') {
      const module = device.createShaderModule({
        label: 'columns.wgsl',
        code: storage ? COLUMN_STORAGE_WGSL : COLUMN_WGSL,
      });
      return device.createRenderPipeline({
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets },
      });
    }
    return device.createRenderPipeline({
      vertex: { module: device.createShaderModule({ code: COLUMN_GLSL_VS, stage: 'vertex' }) },
      fragment: {
        module: device.createShaderModule({ code: COLUMN_GLSL_FS, stage: 'fragment' }),
        targets,
      },
      bindings: [{ binding: 0, type: 'uniform', name: 'Column' }],
    });
  };
  const pipelines = [pipeline(), pipeline()];
  const uniforms = device.createBuffer({
    label: 'columns',
    size: 256 * COLUMNS,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  const data = new Float32Array(64 * COLUMNS);
  for (let i = 0; i < COLUMNS; i++)
    data.set([-1 + (2 * i) / COLUMNS, -1, 2 / COLUMNS, 2, ((i + 1) * 7) / 255, 0.5, 0, 1], 64 * i);
  const upload = () => device.queue.writeBuffer(uniforms, 0, data);
  upload();
  const zero = storage
    ? device.createBuffer({ label: 'zero', size: 16, usage: BufferUsage.STORAGE })
    : null;
  const draw = (pass: RenderPass) => {
    for (let k = 0; k < COLUMNS; k++) {
      if (k % 8 === 0) pass.setPipeline(pipelines[(k / 8) % 2] as RenderPipeline);
      if (zero && k % 8 === 0) pass.setStorageBuffer(1, zero);
      pass.setUniformBuffer(0, uniforms, 256 * ((k * 7) % COLUMNS), 32);
      pass.draw(6);
    }
  };
  const check = (rgba: Uint8Array): string[] => {
    const wrong: string[] = [];
    for (let i = 0; i < COLUMNS; i++)
      for (const x of [2 * i, 2 * i + 1]) {
        const got = pixel(rgba, x, SIZE / 2);
        if (!near(got, [(i + 1) * 7, 128, 0, 255])) wrong.push(`x ${x}: ${got.join(',')}`);
      }
    return wrong;
  };
  return { upload, draw, check };
}

const drawRuns: Case = {
  async run({ device, backend, open }) {
    const plain = columns(device);
    const drawn = plain.check(await renderScene(device, [0, 0, 0, 1], plain.draw));
    assertEqual(drawn.join('; '), '', 'columns drawn as recorded (in runs)');
    // a debug device replays every draw apart (no runs): the same columns
    const debug = await open(backend, { debug: true });
    const apart = columns(debug);
    const replayed = apart.check(await renderScene(debug, [0, 0, 0, 1], apart.draw));
    assertEqual(replayed.join('; '), '', 'columns drawn on a debug device (each draw apart)');
    // a command buffer recorded before a loss is replayed, runs and all, on the restored device
    // (WebGPU encoded it into the lost GPUDevice while recording)
    const canvas = document.createElement('canvas');
    const restored = await open(backend, { canvas });
    restored.onError(() => {}); // the loss is reported there; this case looks at the image
    const later = columns(restored);
    const t = target(restored);
    const enc = restored.createCommandEncoder({ label: 'columns recorded before the loss' });
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: t, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    later.draw(pass);
    pass.end();
    const cb = enc.finish();
    await loseAndRestore(restored);
    later.upload(); // (a restored buffer starts empty)
    restored.queue.submit([cb]);
    const after = later.check((await t.read()) as Uint8Array);
    assertEqual(
      after.join('; '),
      '',
      'columns drawn after restore() from the list recorded before',
    );
    if (device.caps.backend !== 'webgpu') return;
    // WebGPU: a static buffer in the slice's group (a storage buffer) keeps the runs — a draw of a
    // run sets the bound group again with its new offset, without looking the group up again
    const withStorage = columns(device, { storage: true });
    const cache = (device as WebGPUDevice).bindGroups;
    const get = cache.get;
    let lookups = 0;
    cache.get = function (this: typeof cache, ...args: Parameters<typeof get>) {
      lookups++;
      return get.apply(this, args);
    };
    let rgba: Uint8Array;
    try {
      rgba = await renderScene(device, [0, 0, 0, 1], withStorage.draw);
    } finally {
      cache.get = get;
    }
    assertEqual(withStorage.check(rgba).join('; '), '', 'columns with a static storage buffer');
    assert(
      lookups <= COLUMNS / 8 + 1,
      `${lookups} bind group lookups for ${COLUMNS} draws in runs of 8 (expected one a run, and one for the first run's second draw: the first slice after a full bind draws in full)`,
    );
  },
};

export const cases = defineCases({
  'bind groups: @group(1) switched between draws, @group(2) texture + sampler, @group(0) by slot or by group':
    {
      async run({ device }) {
        const pipeline = pipelineOf(device);
        const tint = colorBuffer(device, [1, 0.5, 1, 1], 'tint');
        const half = colorBuffer(device, [0.5, 0.5, 0.5, 1], 'half tint');
        const red = colorBuffer(device, [0.5, 0.5, 0, 1], 'material red');
        const blue = colorBuffer(device, [0, 0.25, 0.5, 1], 'material blue');
        const tex = device.createTexture({
          label: 'texel',
          size: { width: 1, height: 1 },
          format: 'rgba8unorm',
          usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
        });
        device.queue.writeTexture(
          { texture: tex },
          new Uint8Array([0, 0, 64, 0]),
          { bytesPerRow: 4 },
          {
            width: 1,
            height: 1,
          },
        );
        const sampler = device.createSampler({ label: 'nearest' });
        const material = (buffer: typeof red) =>
          device.createBindGroup({
            label: buffer.label,
            layout: pipeline.getBindGroupLayout(1),
            entries: [{ binding: 0, resource: buffer }],
          });
        // a layout made by hand, equal to the pipeline's group 2: its groups fit the pipeline
        const textureLayout = device.createBindGroupLayout({
          label: 'texture + sampler',
          entries: pipeline.getBindGroupLayout(2).entries.map((e) => ({ ...e })),
        });
        const textured = device.createBindGroup({
          label: 'textured',
          layout: textureLayout,
          entries: [
            { binding: 0, resource: tex },
            { binding: 1, resource: sampler },
          ],
        });
        const group0 = device.createBindGroup({
          label: 'group 0 by group',
          layout: pipeline.getBindGroupLayout(0),
          entries: [{ binding: 0, resource: { buffer: half, offset: 0, size: 16 } }],
        });
        const data = await renderScene(device, [0, 0, 0, 1], (pass) => {
          pass.setPipeline(pipeline);
          pass.setUniformBuffer(0, tint);
          pass.setBindGroup(2, textured);
          pass.setBindGroup(1, material(red));
          pass.setViewport(0, 0, SIZE / 2, SIZE);
          pass.draw(3);
          pass.setBindGroup(1, material(blue));
          pass.setBindGroup(0, group0);
          pass.setViewport(SIZE / 2, 0, SIZE / 2, SIZE);
          pass.draw(3);
        });
        // left: tint × red + texel = (0.5, 0.25, 0.25); right: half × blue + texel = (0, 0.125, 0.5)
        const left = pixel(data, 8, 32);
        const right = pixel(data, 56, 32);
        assert(
          near(left, [128, 64, 64, 255]),
          `left half drew with group 1 = red: ${left.join(',')}`,
        );
        assert(
          near(right, [0, 32, 128, 255]),
          `right half drew with group 1 = blue and group 0 from a bind group: ${right.join(',')}`,
        );
        // a draw with group 2 unset is a typed error naming the slot and the call that fills it
        const enc = device.createCommandEncoder();
        const t = device.createTexture({
          size: { width: 4, height: 4 },
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT,
        });
        const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
        pass.setPipeline(pipeline);
        pass.setUniformBuffer(0, tint);
        pass.setBindGroup(1, material(red));
        await assertThrows(
          () => pass.draw(3),
          ValidationError,
          /Slot @group\(2\) @binding\(0\) \(texture "tex"\) of pipeline "groups" has nothing bound \(setBindGroup\(2, …\)\)/,
          'group 2 unset',
        );
      },
    },
  'uniform slices per draw: 8 columns, each its own slice at slots 0 and 8 (the ninth uniform: no dynamic offset left), the pipeline switching layouts between them':
    uniformSlices,
  'runs of draws, each its own uniform slice: 32 columns as recorded, on a debug device (each draw apart), replayed after restore(), and on WebGPU beside a static storage buffer':
    drawRuns,
});
