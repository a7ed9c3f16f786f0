// The scene-effects demo's torus as the app draws it: lit in the view, and into the light's shadow
// map every frame (it turns), which the lit particles (the shards and the terrain) receive through
// `light.shadow`. What an app with a shadow-casting scene does: the particles are handed the depth
// texture and the matrix that rendered it. WGSL on WebGPU, GLSL ES 3.00 on WebGL2.
import { mat4 } from 'wgpu-matrix';
import {
  BufferUsage,
  TextureUsage,
  type Buffer,
  type CommandEncoder,
  type Device,
  type RenderPass,
  type RenderPipeline,
  type Texture,
  type TextureFormat,
} from '../../src/index.js';
import type { Camera } from '../../src/particles/index.js';

const WGSL = /* wgsl */ `
struct Torus { viewProjection: mat4x4f, model: mat4x4f, light: vec4f, color: vec4f, ambient: vec4f };
@group(0) @binding(0) var<uniform> torus: Torus;
struct Out { @builtin(position) position: vec4f, @location(0) normal: vec3f };
@vertex fn vs(@location(0) p: vec3f, @location(1) n: vec3f) -> Out {
  return Out(torus.viewProjection * torus.model * vec4f(p, 1.0), (torus.model * vec4f(n, 0.0)).xyz);
}
@fragment fn fs(in: Out) -> @location(0) vec4f {
  let lit = torus.ambient.rgb + max(dot(normalize(in.normal), torus.light.xyz), 0.0);
  return vec4f(torus.color.rgb * lit, 1.0);
}
`;
const GLSL_VS = `#version 300 es
layout(std140) uniform Torus { mat4 viewProjection; mat4 model; vec4 light; vec4 color; vec4 ambient; };
layout(location = 0) in vec3 p;
layout(location = 1) in vec3 n;
out vec3 vNormal;
void main() { vNormal = (model * vec4(n, 0.0)).xyz; gl_Position = viewProjection * model * vec4(p, 1.0); }
`;
const GLSL_FS = `#version 300 es
precision highp float;
layout(std140) uniform Torus { mat4 viewProjection; mat4 model; vec4 light; vec4 color; vec4 ambient; };
in vec3 vNormal;
out vec4 outColor;
void main() { outColor = vec4(color.rgb * (ambient.rgb + max(dot(normalize(vNormal), light.xyz), 0.0)), 1.0); }
`;
/** The shadow pass draws depth only (GLSL needs a fragment stage that writes nothing). */
const GLSL_FS_DEPTH = '#version 300 es\nprecision highp float;\nvoid main() {}\n';

const SHADOW_SIZE = 1024;

export interface TorusDraw {
  /** The light's depth (depth32float, SHADOW_SIZE²): what `light.shadow.depth` reads. */
  readonly shadowMap: Texture;
  /** The light's view-projection that renders it: `light.shadow.matrix`. */
  readonly lightMatrix: Float32Array;
  /** Draws the torus at `model` into the shadow map (its own pass in `encoder`). */
  shadow(encoder: CommandEncoder, model: Float32Array): void;
  /** Draws the torus at `model` lit, into `pass` (with depth24plus), seen through `camera`. */
  draw(pass: RenderPass, camera: Camera, model: Float32Array): void;
  destroy(): void;
}

/**
 * The torus mesh (`positions`, `indices`: the same as the particles are born on; its ring of
 * radius `ring` about the y axis) drawn lit by a light travelling along `direction`, and into a
 * shadow map covering the `extent`-unit square about `center` as that light sees it.
 */
export function createTorusDraw(
  device: Device,
  format: TextureFormat,
  mesh: { positions: readonly number[]; indices: readonly number[]; ring: number },
  light: {
    direction: readonly [number, number, number];
    center: readonly number[];
    extent: number;
  },
): TorusDraw {
  // position and normal per vertex: the normal points from the tube's centre line
  const vertices = new Float32Array((mesh.positions.length / 3) * 6);
  for (let v = 0; v < mesh.positions.length / 3; v++) {
    const [x, y, z] = mesh.positions.slice(3 * v, 3 * v + 3) as [number, number, number];
    const out = Math.hypot(x, z);
    const n = [x - (mesh.ring * x) / out, y, z - (mesh.ring * z) / out];
    const l = Math.hypot(n[0]!, n[1]!, n[2]!);
    vertices.set([x, y, z, n[0]! / l, n[1]! / l, n[2]! / l], 6 * v);
  }
  const vertexBuffer = device.createBuffer({
    label: 'torus vertices',
    size: vertices.byteLength,
    usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(vertexBuffer, 0, vertices);
  const indices = new Uint32Array(mesh.indices);
  const indexBuffer = device.createBuffer({
    label: 'torus indices',
    size: indices.byteLength,
    usage: BufferUsage.INDEX | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(indexBuffer, 0, indices);
  // one uniform buffer per pass: each is written before the frame's submit
  const uniform = (label: string): Buffer =>
    device.createBuffer({ label, size: 256, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
  const shadowUniforms = uniform('torus shadow uniforms');
  const viewUniforms = uniform('torus view uniforms');

  const [dx, dy, dz] = light.direction;
  const length = Math.hypot(dx, dy, dz);
  const towards = [-dx / length, -dy / length, -dz / length];
  const half = light.extent / 2;
  const eye = light.center.map((c, i) => c + towards[i]! * 3 * half);
  const lightMatrix = mat4.multiply(
    mat4.ortho(-half, half, -half, half, 0.1, 6 * half),
    mat4.lookAt(eye, light.center, [0, 0, 1]),
  ) as Float32Array;
  const shadowMap = device.createTexture({
    label: 'torus shadow map',
    size: { width: SHADOW_SIZE, height: SHADOW_SIZE },
    format: 'depth32float',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
  });

  const buffers = [
    {
      arrayStride: 24,
      attributes: [
        { format: 'float32x3' as const, offset: 0, shaderLocation: 0 },
        { format: 'float32x3' as const, offset: 12, shaderLocation: 1 },
      ],
    },
  ];
  const pipeline = (
    depthFormat: 'depth24plus' | 'depth32float',
    colour: boolean,
  ): RenderPipeline => {
    const depthStencil = {
      format: depthFormat,
      depthWriteEnabled: true,
      depthCompare: 'less' as const,
    };
    if (device.caps.shaderLanguage === 'glsl')
      return device.createRenderPipeline({
        label: colour ? 'torus' : 'torus shadow',
        vertex: {
          module: device.createShaderModule({
            label: 'torus.vert',
            code: GLSL_VS,
            stage: 'vertex',
          }),
          buffers,
        },
        fragment: {
          module: device.createShaderModule({
            label: 'torus.frag',
            code: colour ? GLSL_FS : GLSL_FS_DEPTH,
            stage: 'fragment',
          }),
          targets: colour ? [{ format }] : [],
        },
        depthStencil,
        bindings: [{ binding: 0, type: 'uniform', name: 'Torus' }],
      });
    const module = device.createShaderModule({ label: 'torus.wgsl', code: WGSL });
    return device.createRenderPipeline({
      label: colour ? 'torus' : 'torus shadow',
      vertex: { module, entryPoint: 'vs', buffers },
      ...(colour ? { fragment: { module, entryPoint: 'fs', targets: [{ format }] } } : {}),
      depthStencil,
    });
  };
  const lit = pipeline('depth24plus', true);
  const caster = pipeline('depth32float', false);

  // the uniforms' scratch, made once: the light, colour and ambient never change; the matrices
  // are written in place each frame
  const data = new Float32Array(44);
  data.set([...towards, 0], 32);
  data.set([0.55, 0.5, 0.48, 1], 36);
  data.set([0.25, 0.25, 0.3, 0], 40);
  const viewProjection = new Float32Array(16);
  const write = (buffer: Buffer, matrix: Float32Array, model: Float32Array): void => {
    data.set(matrix, 0);
    data.set(model, 16);
    device.queue.writeBuffer(buffer, 0, data);
  };
  const record = (pass: RenderPass, pipe: RenderPipeline, uniforms: Buffer): void => {
    pass.setPipeline(pipe);
    pass.setUniformBuffer(0, uniforms);
    pass.setVertexBuffer(0, vertexBuffer);
    pass.setIndexBuffer(indexBuffer, 'uint32');
    pass.drawIndexed(indices.length);
  };
  return {
    shadowMap,
    lightMatrix,
    shadow(encoder, model) {
      write(shadowUniforms, lightMatrix, model);
      const pass = encoder.beginRenderPass({
        label: 'torus shadow',
        colorAttachments: [],
        depthStencilAttachment: {
          texture: shadowMap,
          depthClearValue: 1,
          depthLoadOp: 'clear',
          depthStoreOp: 'store',
        },
      });
      record(pass, caster, shadowUniforms);
      pass.end();
    },
    draw(pass, camera, model) {
      mat4.multiply(camera.projection, camera.view, viewProjection);
      write(viewUniforms, viewProjection, model);
      record(pass, lit, viewUniforms);
    },
    destroy() {
      for (const b of [vertexBuffer, indexBuffer, shadowUniforms, viewUniforms]) b.destroy();
      shadowMap.destroy();
    },
  };
}
