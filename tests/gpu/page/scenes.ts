// Scenes rendered identically on every backend (WGSL for WebGPU, GLSL ES 3.00 for WebGL2), read
// back as RGBA8 pixels: the material of the render tests and of the cross-backend equality suite.
import {
  BufferUsage,
  TextureUsage,
  type Device,
  type RenderPass,
  type RenderPipeline,
  type Texture,
  type BlendState,
  type TextureFormat,
} from '../../../src/all.js';

export const SIZE = 64;

const WGSL_COLOR = /* wgsl */ `
struct Out { @builtin(position) pos: vec4f, @location(0) color: vec4f };
@vertex fn vs(@location(0) p: vec2f, @location(1) c: vec4f) -> Out { return Out(vec4f(p, 0.0, 1.0), c); }
@fragment fn fs(in: Out) -> @location(0) vec4f { return in.color; }
`;
const GLSL_COLOR_VS = `#version 300 es
layout(location = 0) in vec2 p;
layout(location = 1) in vec4 c;
out vec4 vColor;
void main() { vColor = c; gl_Position = vec4(p, 0.0, 1.0); }
`;
const GLSL_COLOR_FS = `#version 300 es
precision highp float;
in vec4 vColor;
out vec4 outColor;
void main() { outColor = vColor; }
`;

const WGSL_COLOR3 = /* wgsl */ `
struct Out { @builtin(position) pos: vec4f, @location(0) color: vec4f };
@vertex fn vs(@location(0) p: vec3f, @location(1) c: vec4f) -> Out { return Out(vec4f(p, 1.0), c); }
@fragment fn fs(in: Out) -> @location(0) vec4f { return in.color; }
`;
const GLSL_COLOR3_VS = `#version 300 es
layout(location = 0) in vec3 p;
layout(location = 1) in vec4 c;
out vec4 vColor;
void main() { vColor = c; gl_Position = vec4(p, 1.0); }
`;

const WGSL_INSTANCED = /* wgsl */ `
struct Out { @builtin(position) pos: vec4f, @location(0) color: vec4f };
@vertex fn vs(@location(0) p: vec2f, @location(1) offset: vec2f, @location(2) c: vec4f) -> Out {
  return Out(vec4f(p + offset, 0.0, 1.0), c);
}
@fragment fn fs(in: Out) -> @location(0) vec4f { return in.color; }
`;
const GLSL_INSTANCED_VS = `#version 300 es
layout(location = 0) in vec2 p;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec4 c;
out vec4 vColor;
void main() { vColor = c; gl_Position = vec4(p + offset, 0.0, 1.0); }
`;

const WGSL_TEXTURED = /* wgsl */ `
struct Params { uvScale: vec4f };
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@group(0) @binding(2) var<uniform> params: Params;
struct Out { @builtin(position) pos: vec4f, @location(0) uv: vec2f };
@vertex fn vs(@location(0) p: vec2f) -> Out {
  let uv = vec2f(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5) * params.uvScale.xy + params.uvScale.zw;
  return Out(vec4f(p, 0.0, 1.0), uv);
}
@fragment fn fs(in: Out) -> @location(0) vec4f { return textureSample(tex, samp, in.uv); }
`;
const GLSL_TEXTURED_VS = `#version 300 es
layout(location = 0) in vec2 p;
layout(std140) uniform Params { vec4 uvScale; };
out vec2 vUv;
void main() {
  vUv = vec2(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5) * uvScale.xy + uvScale.zw;
  gl_Position = vec4(p, 0.0, 1.0);
}
`;
const GLSL_TEXTURED_FS = `#version 300 es
precision highp float;
uniform highp sampler2D tex;
in vec2 vUv;
out vec4 outColor;
void main() { outColor = texture(tex, vUv); }
`;

const WGSL_MRT = /* wgsl */ `
struct Out { @builtin(position) pos: vec4f, @location(0) color: vec4f };
struct Targets { @location(0) a: vec4f, @location(1) b: vec4f };
@vertex fn vs(@location(0) p: vec2f, @location(1) c: vec4f) -> Out { return Out(vec4f(p, 0.0, 1.0), c); }
@fragment fn fs(in: Out) -> Targets { return Targets(in.color, vec4f(1.0) - in.color.bgra); }
`;
const GLSL_MRT_FS = `#version 300 es
precision highp float;
in vec4 vColor;
layout(location = 0) out vec4 a;
layout(location = 1) out vec4 b;
void main() { a = vColor; b = vec4(1.0) - vColor.bgra; }
`;

type Program = 'color' | 'color3d' | 'instanced' | 'textured' | 'mrt';

export interface PipelineOptions {
  program: Program;
  formats?: TextureFormat[];
  blend?: BlendState;
  /** Per-target blend states (override `blend`). */
  blends?: Array<BlendState | undefined>;
  sampleCount?: number;
  topology?: 'triangle-list' | 'triangle-strip';
  /** A depth24plus attachment with this compare function. */
  depthCompare?: 'less' | 'greater';
}

export function createScenePipeline(device: Device, o: PipelineOptions): RenderPipeline {
  const glsl = device.caps.shaderLanguage === 'glsl';
  const formats = o.formats ?? ['rgba8unorm'];
  const targets = formats.map((format, i) => ({ format, blend: o.blends ? o.blends[i] : o.blend }));
  const colorLayout = [
    {
      arrayStride: 24,
      attributes: [
        { format: 'float32x2' as const, offset: 0, shaderLocation: 0 },
        { format: 'float32x4' as const, offset: 8, shaderLocation: 1 },
      ],
    },
  ];
  const positionOnly = [
    {
      arrayStride: 8,
      attributes: [{ format: 'float32x2' as const, offset: 0, shaderLocation: 0 }],
    },
  ];
  const instanced = [
    positionOnly[0] as (typeof positionOnly)[0],
    {
      arrayStride: 24,
      stepMode: 'instance' as const,
      attributes: [
        { format: 'float32x2' as const, offset: 0, shaderLocation: 1 },
        { format: 'float32x4' as const, offset: 8, shaderLocation: 2 },
      ],
    },
  ];
  const color3d = [
    {
      arrayStride: 28,
      attributes: [
        { format: 'float32x3' as const, offset: 0, shaderLocation: 0 },
        { format: 'float32x4' as const, offset: 12, shaderLocation: 1 },
      ],
    },
  ];
  const buffers =
    o.program === 'instanced'
      ? instanced
      : o.program === 'textured'
        ? positionOnly
        : o.program === 'color3d'
          ? color3d
          : colorLayout;
  const common = {
    label: `scene-${o.program}`,
    primitive: { topology: o.topology ?? ('triangle-list' as const) },
    multisample: { count: o.sampleCount ?? 1 },
    depthStencil: o.depthCompare
      ? { format: 'depth24plus' as const, depthWriteEnabled: true, depthCompare: o.depthCompare }
      : undefined,
  };
  if (glsl) {
    const vsCode =
      o.program === 'instanced'
        ? GLSL_INSTANCED_VS
        : o.program === 'textured'
          ? GLSL_TEXTURED_VS
          : o.program === 'color3d'
            ? GLSL_COLOR3_VS
            : GLSL_COLOR_VS;
    const fsCode =
      o.program === 'textured'
        ? GLSL_TEXTURED_FS
        : o.program === 'mrt'
          ? GLSL_MRT_FS
          : GLSL_COLOR_FS;
    const vs = device.createShaderModule({
      label: `${o.program}.vert`,
      code: vsCode,
      stage: 'vertex',
    });
    const fs = device.createShaderModule({
      label: `${o.program}.frag`,
      code: fsCode,
      stage: 'fragment',
    });
    return device.createRenderPipeline({
      ...common,
      vertex: { module: vs, buffers },
      fragment: { module: fs, targets },
      bindings:
        o.program === 'textured'
          ? [
              { binding: 0, type: 'texture', name: 'tex', samplerBinding: 1 },
              { binding: 1, type: 'sampler', name: 'samp' },
              { binding: 2, type: 'uniform', name: 'Params' },
            ]
          : [],
    });
  }
  const code =
    o.program === 'instanced'
      ? WGSL_INSTANCED
      : o.program === 'textured'
        ? WGSL_TEXTURED
        : o.program === 'mrt'
          ? WGSL_MRT
          : o.program === 'color3d'
            ? WGSL_COLOR3
            : WGSL_COLOR;
  const module = device.createShaderModule({ label: `${o.program}.wgsl`, code });
  return device.createRenderPipeline({
    ...common,
    vertex: { module, entryPoint: 'vs', buffers },
    fragment: { module, entryPoint: 'fs', targets },
  });
}

/**
 * Draws `vertices` (color3d: clip-space xyz + rgba, 6 a quad) into the depth attachment `depth`
 * (cleared to 1) and `color` (cleared): a scene depth for particles to read.
 */
export function drawDepth(
  device: Device,
  depth: Texture,
  color: Texture,
  vertices: number[],
): void {
  const pipeline = createScenePipeline(device, { program: 'color3d', depthCompare: 'less' });
  const buffer = vertexBuffer(device, vertices);
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: color, loadOp: 'clear' }],
    depthStencilAttachment: { texture: depth, depthLoadOp: 'clear', depthClearValue: 1 },
  });
  pass.setPipeline(pipeline);
  pass.setVertexBuffer(0, buffer);
  pass.draw(vertices.length / 7);
  pass.end();
  device.queue.submit([enc.finish()]);
  buffer.destroy();
}

export function vertexBuffer(
  device: Device,
  data: number[],
  label = 'vertices',
): ReturnType<Device['createBuffer']> {
  const b = device.createBuffer({
    label,
    size: data.length * 4,
    usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(b, 0, new Float32Array(data));
  return b;
}

export function target(
  device: Device,
  format: TextureFormat = 'rgba8unorm',
  sampleCount = 1,
  label = 'target',
): Texture {
  return device.createTexture({
    label,
    size: { width: SIZE, height: SIZE },
    format,
    usage:
      sampleCount > 1
        ? TextureUsage.RENDER_ATTACHMENT
        : TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC | TextureUsage.TEXTURE_BINDING,
    sampleCount,
  });
}

/** Renders one pass into a fresh 64×64 rgba8unorm target and reads it back. */
export async function renderScene(
  device: Device,
  clear: [number, number, number, number],
  draw: (pass: RenderPass) => void,
): Promise<Uint8Array> {
  const t = target(device);
  const enc = device.createCommandEncoder({ label: 'scene' });
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: t, loadOp: 'clear', clearValue: clear }],
  });
  draw(pass);
  pass.end();
  device.queue.submit([enc.finish()]);
  return (await t.read()) as Uint8Array;
}

/** RGBA of pixel (x, y), y from the top. */
export function pixel(
  data: Uint8Array,
  x: number,
  y: number,
  width = SIZE,
): [number, number, number, number] {
  const i = (y * width + x) * 4;
  return [data[i] as number, data[i + 1] as number, data[i + 2] as number, data[i + 3] as number];
}

/** A triangle covering the upper-left half: (-1,1), (1,1), (-1,-1), red. */
export const TRIANGLE = [-1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, -1, -1, 1, 0, 0, 1];
