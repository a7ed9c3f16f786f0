// Render bundles on both backends: eight columns drawn from one bundle, each with its own slice of
// one uniform buffer and the pipeline switching inside the bundle. The pixels say that the bundle
// draws what the same calls draw directly, that it reads the buffer as it is when the pass runs
// (written again between frames), that the pass draws on after it, and that it survives a debug
// device's replay and a device restore.
import {
  BufferUsage,
  createDevice,
  type BindingLayoutEntry,
  type Buffer,
  type Device,
  type RenderBundle,
  type RenderPass,
  type RenderPipeline,
  type WebGL2Device,
  type WebGPUDevice,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { loseAndRestore } from '../page/loss.js';
import { assert, assertEqual } from '../page/assert.js';
import { pixel, renderScene, SIZE } from '../page/scenes.js';

const COLUMNS = 8;

/** The columns' vertex stage (WGSL): the rectangle of uniform `d` (a `Draw`), six vertices. */
const COLUMNS_VS = /* wgsl */ `
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let k = vec2f(f32(i == 1u || i == 4u || i == 5u), f32(i == 2u || i == 3u || i == 5u));
  return vec4f(mix(d.rect.x, d.rect.y, k.x), mix(-1.0, 1.0, k.y), 0.0, 1.0);
}
`;

const WGSL = (tint: string) => /* wgsl */ `
struct Draw { rect: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> d: Draw;
${COLUMNS_VS}
@fragment fn fs() -> @location(0) vec4f { return d.color * vec4f(${tint}, ${tint}, ${tint}, 1.0); }
`;
const GLSL_VS = `#version 300 es
layout(std140) uniform Draw { vec4 rect; vec4 color; };
void main() {
  int i = gl_VertexID;
  vec2 k = vec2(i == 1 || i == 4 || i == 5 ? 1.0 : 0.0, i == 2 || i == 3 || i == 5 ? 1.0 : 0.0);
  gl_Position = vec4(mix(rect.x, rect.y, k.x), mix(-1.0, 1.0, k.y), 0.0, 1.0);
}`;
const GLSL_FS = (tint: string) => `#version 300 es
precision highp float;
layout(std140) uniform Draw { vec4 rect; vec4 color; };
out vec4 outColor;
void main() { outColor = color * vec4(${tint}, ${tint}, ${tint}, 1.0); }`;

/**
 * A pipeline of the columns' vertex stage and a fragment stage of its own: `wgsl` (both stages) on
 * WebGPU, the GLSL vertex stage with `glslFragment` and its uniform blocks `bindings` on WebGL2.
 */
function columnsPipeline(
  device: Device,
  label: string,
  wgsl: string,
  glslFragment: string,
  bindings: BindingLayoutEntry[],
): RenderPipeline {
  const targets = [{ format: 'rgba8unorm' as const }];
  if (device.caps.shaderLanguage === 'wgsl') {
    const module = device.createShaderModule({ code: wgsl });
    return device.createRenderPipeline({
      label,
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets },
    });
  }
  return device.createRenderPipeline({
    label,
    vertex: { module: device.createShaderModule({ code: GLSL_VS, stage: 'vertex' }) },
    fragment: {
      module: device.createShaderModule({ code: glslFragment, stage: 'fragment' }),
      targets,
    },
    bindings,
  });
}

/** A pipeline drawing the rectangle of its uniform in its colour times `tint`. */
function pipeline(device: Device, tint: number): RenderPipeline {
  const t = tint.toFixed(1);
  return columnsPipeline(device, `tint ${t}`, WGSL(t), GLSL_FS(t), [
    { binding: 0, type: 'uniform', name: 'Draw' },
  ]);
}

/** Column i's slice: its rectangle in clip space, and `color(i)`. */
function writeColumns(device: Device, buffer: Buffer, color: (i: number) => number[]): void {
  const data = new Float32Array(64 * COLUMNS);
  for (let i = 0; i < COLUMNS; i++)
    data.set([-1 + (2 * i) / COLUMNS, -1 + (2 * (i + 1)) / COLUMNS, 0, 0, ...color(i)], 64 * i);
  device.queue.writeBuffer(buffer, 0, data);
}

/** The scene: the columns' buffer, the two pipelines, and the draws (into a pass or a bundle). */
function scene(device: Device) {
  const buffer = device.createBuffer({
    label: 'columns',
    size: 256 * COLUMNS,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  const full = pipeline(device, 1);
  const half = pipeline(device, 0.5);
  // the first four columns at full colour, the rest at half: the pipeline changes in the bundle
  const draw = (r: {
    setPipeline(p: RenderPipeline): void;
    setUniformBuffer(slot: number, b: Buffer, offset: number, size: number): void;
    draw(n: number): void;
  }) => {
    for (let i = 0; i < COLUMNS; i++) {
      if (i % 4 === 0) r.setPipeline(i < 4 ? full : half);
      r.setUniformBuffer(0, buffer, 256 * i, 32);
      r.draw(6);
    }
  };
  const record = (): RenderBundle => {
    const encoder = device.createRenderBundleEncoder({
      label: 'columns',
      colorFormats: ['rgba8unorm'],
    });
    draw(encoder);
    return encoder.finish();
  };
  return { buffer, full, draw, record };
}

const columnOf = (i: number) => Math.floor((i + 0.5) * (SIZE / COLUMNS));

/** Each column's colour in `pixels` (the middle row). */
const colors = (pixels: Uint8Array): string[] =>
  Array.from({ length: COLUMNS }, (_, i) => pixel(pixels, columnOf(i), SIZE / 2).join());

/** What column i must be: `rgb(i)` (0–1), halved from column 4 on. */
function expected(rgb: (i: number) => number[]): string[] {
  return Array.from({ length: COLUMNS }, (_, i) =>
    [
      ...rgb(i)
        .slice(0, 3)
        .map((v) => Math.round(v * (i < 4 ? 1 : 0.5) * 255)),
      255,
    ].join(),
  );
}

function assertColumns(got: string[], want: string[], what: string): void {
  for (let i = 0; i < COLUMNS; i++) {
    const g = (got[i] as string).split(',').map(Number);
    const w = (want[i] as string).split(',').map(Number);
    assert(
      g.every((v, k) => Math.abs(v - (w[k] as number)) <= 1),
      `${what}: column ${i} is ${got[i]}, expected ${want[i]}`,
    );
  }
}

const reds = (i: number) => [(i + 1) / 10, 0, 0, 1];
const greens = (i: number) => [0, (i + 1) / 10, 0, 1];

/** Column i's rectangle and colour at slot 0, times a tint at slot 1 (and `scale`). */
const TINTED_WGSL = (scale: string) => /* wgsl */ `
struct Draw { rect: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> d: Draw;
@group(0) @binding(1) var<uniform> tint: vec4f;
${COLUMNS_VS}
@fragment fn fs() -> @location(0) vec4f { return d.color * tint * vec4f(${scale}, ${scale}, ${scale}, 1.0); }
`;
const TINTED_GLSL_FS = (scale: string) => `#version 300 es
precision highp float;
layout(std140) uniform Draw { vec4 rect; vec4 color; };
layout(std140) uniform Tint { vec4 tint; };
out vec4 outColor;
void main() { outColor = color * tint * vec4(${scale}, ${scale}, ${scale}, 1.0); }`;

function tintedPipeline(device: Device, scale: number): RenderPipeline {
  const t = scale.toFixed(1);
  return columnsPipeline(device, `tinted ${t}`, TINTED_WGSL(t), TINTED_GLSL_FS(t), [
    { binding: 0, type: 'uniform', name: 'Draw' },
    { binding: 1, type: 'uniform', name: 'Tint' },
  ]);
}

/**
 * Runs of draws in a pass that only move the slice of slot 0 (the WebGL2 queue replays the second
 * and later draws of a run as their slice's bind and the draw call), broken by what must break
 * them: a binding of another slot, a different draw, a pipeline. Column i's colour, as drawn.
 */
function drawRuns(device: Device) {
  const buffer = device.createBuffer({
    label: 'columns',
    size: 256 * COLUMNS,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  writeColumns(device, buffer, reds);
  // two tints, slices of one buffer: white at 0, half at 256
  const tints = device.createBuffer({
    label: 'tints',
    size: 512,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(tints, 0, new Float32Array([1, 1, 1, 1]));
  device.queue.writeBuffer(tints, 256, new Float32Array([0.5, 0.5, 0.5, 1]));
  const one = tintedPipeline(device, 1);
  const halved = tintedPipeline(device, 0.5);
  const draw = (pass: RenderPass) => {
    const column = (i: number, vertices = 6) => {
      pass.setUniformBuffer(0, buffer, 256 * i, 32);
      pass.draw(vertices);
    };
    pass.setPipeline(one);
    pass.setUniformBuffer(1, tints, 0, 16);
    column(0);
    column(1);
    column(2);
    // another slot's slice between two draws of the run: the next draw must see it
    pass.setUniformBuffer(1, tints, 256, 16);
    column(3);
    // a different draw (the lower-left triangle of the column)
    column(4, 3);
    column(5);
    // another slot's slice, and the run's draw again right after it (column 5 drawn again, white)
    pass.setUniformBuffer(1, tints, 0, 16);
    pass.draw(6);
    // a pipeline between
    pass.setPipeline(halved);
    column(6);
    column(7);
  };
  // column i's rgb: red(i), times the tint (half in columns 3 and 4), times the pipeline's 0.5
  // from column 6
  const want = Array.from({ length: COLUMNS }, (_, i) => {
    const scale = (i === 3 || i === 4 ? 0.5 : 1) * (i >= 6 ? 0.5 : 1);
    return [Math.round(((i + 1) / 10) * scale * 255), 0, 0, 255].join();
  });
  return { draw, want };
}

/** Column i's rectangle and colour at slot 0, times a material's tint in `@group(1)`. */
const MATERIAL_WGSL = /* wgsl */ `
struct Draw { rect: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> d: Draw;
@group(1) @binding(0) var<uniform> material: vec4f;
${COLUMNS_VS}
@fragment fn fs() -> @location(0) vec4f { return d.color * material; }
`;
const MATERIAL_GLSL_FS = `#version 300 es
precision highp float;
layout(std140) uniform Draw { vec4 rect; vec4 color; };
layout(std140) uniform Material { vec4 material; };
out vec4 outColor;
void main() { outColor = color * material; }`;

function materialPipeline(device: Device): RenderPipeline {
  return columnsPipeline(device, 'material', MATERIAL_WGSL, MATERIAL_GLSL_FS, [
    { binding: 0, type: 'uniform', name: 'Draw' },
    { group: 1, binding: 0, type: 'uniform', name: 'Material' },
  ]);
}

export const cases = defineCases({
  "a pass's runs of uniform slices: each draw sees its own slice, and a binding, a draw or a pipeline between two draws of a run ends it":
    {
      async run({ device, backend, open }) {
        const { draw, want } = drawRuns(device);
        // WebGL2: a draw replayed in full binds its vertex array (through the state cache); one of
        // a run binds only its slice. Counted: the runs' draws are columns 2 and 7 of 9 draws
        // (column 0 binds the buffer, column 1 moves it to a slice and draws in full, which starts
        // the run; column 5's second draw follows another slot's slice)
        let full = -1;
        const state = backend === 'webgl2' ? (device as WebGL2Device).state : null;
        const bindVertexArray = state?.bindVertexArray;
        if (state && bindVertexArray) {
          full = 0;
          state.bindVertexArray = (vao) => {
            full++;
            bindVertexArray.call(state, vao);
          };
        }
        let pixels: Uint8Array;
        try {
          pixels = await renderScene(device, [0, 0, 0, 1], draw);
        } finally {
          if (state) delete (state as Partial<typeof state>).bindVertexArray;
        }
        // column 4 is a triangle: its lower-left half lit in the column's colour, its upper-right not
        const quarter = SIZE / COLUMNS / 4;
        const left = pixel(pixels, Math.floor(4 * (SIZE / COLUMNS) + quarter), SIZE / 2);
        const right = pixel(pixels, Math.floor(5 * (SIZE / COLUMNS) - quarter), SIZE / 2);
        const got = colors(pixels);
        got[4] = left.join();
        assertColumns(got, want, 'the columns (column 4: its lower-left quarter)');
        assertEqual(right.join(), '0,0,0,255', "column 4's upper-right quarter");
        if (state) assertEqual(full, 7, 'draws replayed in full (9 draws, 2 of them in runs)');
        // a debug device replays every draw in full, each checked for GL errors: the same image
        const debug = await open(backend, { debug: true });
        const errors: unknown[] = [];
        debug.onError((e) => errors.push(e));
        const d = drawRuns(debug);
        const replayed = await renderScene(debug, [0, 0, 0, 1], d.draw);
        assertEqual(colors(replayed).join(' '), colors(pixels).join(' '), 'on a debug device');
        assertEqual(
          errors.length,
          0,
          `errors on the debug device: ${errors.map(String).join('; ')}`,
        );
      },
    },
  "a pass's runs of uniform slices beside a material's bind group with a uniform of its own (@group(1)): each draw sees its slice and the material bound, and a run sets only the slice's group":
    {
      async run({ device, backend }) {
        const buffer = device.createBuffer({
          label: 'columns',
          size: 256 * COLUMNS,
          usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
        });
        writeColumns(device, buffer, reds);
        const pipeline = materialPipeline(device);
        const material = (label: string, tint: number[]) => {
          const b = device.createBuffer({
            label,
            size: 16,
            usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
          });
          device.queue.writeBuffer(b, 0, new Float32Array(tint));
          return device.createBindGroup({
            label,
            layout: pipeline.getBindGroupLayout(1),
            entries: [{ binding: 0, resource: b }],
          });
        };
        const whole = material('whole', [1, 1, 1, 1]);
        const half = material('half', [0.5, 0.5, 0.5, 1]);
        // WebGPU: each setBindGroup of the pass counted. Both groups hold a uniform, so both take
        // dynamic offsets; a run's draw sets the slice's group alone (it set both, every draw,
        // while a pipeline with two such groups took the full path)
        let sets = 0;
        const proto = backend === 'webgpu' ? GPURenderPassEncoder.prototype : null;
        const setBindGroup = proto?.setBindGroup;
        if (proto && setBindGroup)
          proto.setBindGroup = function (this: GPURenderPassEncoder, ...a: unknown[]) {
            sets++;
            return (setBindGroup as (...a: unknown[]) => undefined).apply(this, a);
          };
        let pixels: Uint8Array;
        try {
          pixels = await renderScene(device, [0, 0, 0, 1], (pass) => {
            pass.setPipeline(pipeline);
            for (let i = 0; i < COLUMNS; i++) {
              // the material changes halfway: the run ends there and starts again
              if (i === 0 || i === COLUMNS / 2) pass.setBindGroup(1, i === 0 ? whole : half);
              pass.setUniformBuffer(0, buffer, 256 * i, 32);
              pass.draw(6);
            }
          });
        } finally {
          if (proto && setBindGroup) proto.setBindGroup = setBindGroup;
        }
        // columns 0-3 red(i), 4-7 red(i) halved (expected() halves from column 4)
        assertColumns(colors(pixels), expected(reds), 'the columns');
        if (proto)
          assertEqual(
            sets,
            10,
            "setBindGroup calls: both groups at each run's first draw (columns 0 and 4), the slice's group at the 6 others",
          );
      },
    },
  'render bundles: 8 columns from one bundle draw what the same calls draw directly, read the buffer as written before each frame, and the pass draws on after them':
    {
      async run({ device, backend, open }) {
        const s = scene(device);
        writeColumns(device, s.buffer, reds);
        const direct = await renderScene(device, [0, 0, 0, 1], (pass) => s.draw(pass));
        const bundle = s.record();
        const first = await renderScene(device, [0, 0, 0, 1], (pass) =>
          pass.executeBundles([bundle]),
        );
        assertColumns(colors(direct), expected(reds), 'drawn directly');
        assertEqual(
          colors(first).join(' '),
          colors(direct).join(' '),
          'the bundle drew what the same calls drew directly',
        );
        // the bundle reads the buffer when the pass runs: written again, the frame is green
        writeColumns(device, s.buffer, greens);
        const second = await renderScene(device, [0, 0, 0, 1], (pass) => {
          pass.executeBundles([bundle]);
          // and the pass goes on: no pipeline or binding is left from the bundle, set them again
          pass.setPipeline(s.full);
          pass.setUniformBuffer(0, s.buffer, 0, 32);
          pass.draw(6);
        });
        assertColumns(colors(second), expected(greens), 'second frame, the buffer rewritten');
        // a debug device replays the command list at the submit (WebGPU in an error scope; WebGL2
        // checking getError after each command): the bundle there too
        const debug = await open(backend, { debug: true });
        const errors: unknown[] = [];
        debug.onError((e) => errors.push(e));
        const d = scene(debug);
        writeColumns(debug, d.buffer, reds);
        const debugBundle = d.record();
        const replayed = await renderScene(debug, [0, 0, 0, 1], (pass) =>
          pass.executeBundles([debugBundle, debugBundle]),
        );
        assertColumns(colors(replayed), expected(reds), 'on a debug device');
        assertEqual(
          errors.length,
          0,
          `errors on the debug device: ${errors.map(String).join('; ')}`,
        );
      },
    },
  'render bundles: made for the backend at finish(), not by the first frame that executes them': {
    async run({ device, backend }) {
      const s = scene(device);
      writeColumns(device, s.buffer, reds);
      // what the backend makes of a bundle: WebGPU a GPURenderBundle (its encoder counted), WebGL2
      // the bundle cut into runs (the queue's cache: each call and what it handed back)
      const made: unknown[] = [];
      let undo: () => void;
      if (backend === 'webgpu') {
        const gpu = (device as WebGPUDevice).gpu;
        const create = gpu.createRenderBundleEncoder.bind(gpu);
        gpu.createRenderBundleEncoder = (desc) => {
          const encoder = create(desc);
          made.push(encoder);
          return encoder;
        };
        undo = () => delete (gpu as Partial<GPUDevice>).createRenderBundleEncoder;
      } else {
        const queue = (device as WebGL2Device).queue;
        const compiled = queue.compiled.bind(queue);
        const calls: unknown[] = [];
        queue.compiled = (bundle) => {
          const c = compiled(bundle);
          calls.push(c);
          if (!made.includes(c)) made.push(c);
          return c;
        };
        undo = () => {
          delete (queue as Partial<WebGL2Device['queue']>).compiled;
          assert(
            calls.length === 2,
            `the cut bundle was asked for ${calls.length} times, not twice`,
          );
        };
      }
      const bundle = s.record();
      assertEqual(made.length, 1, 'backend objects made by finish()');
      const frame = await renderScene(device, [0, 0, 0, 1], (pass) =>
        pass.executeBundles([bundle]),
      );
      assertEqual(
        made.length,
        1,
        'backend objects made by finish() and the frame that executed it',
      );
      undo();
      assertColumns(colors(frame), expected(reds), 'the bundle made at finish()');
    },
  },
  'render bundles: a bundle recorded before a device loss draws after restore()': {
    async run({ backend }) {
      const canvas = document.createElement('canvas');
      const device = await createDevice({ backend, canvas });
      device.onError(() => {}); // the loss is reported there; this case looks at the image
      const s = scene(device);
      writeColumns(device, s.buffer, reds);
      const bundle = s.record();
      const before = await renderScene(device, [0, 0, 0, 1], (p) => p.executeBundles([bundle]));
      assertColumns(colors(before), expected(reds), 'before the loss');
      await loseAndRestore(device);
      // (WebGPU: the GPURenderBundle belonged to the lost GPUDevice; it is encoded again)
      writeColumns(device, s.buffer, greens);
      const after = await renderScene(device, [0, 0, 0, 1], (p) => p.executeBundles([bundle]));
      assertColumns(colors(after), expected(greens), 'after restore()');
      device.destroy();
    },
  },
});
