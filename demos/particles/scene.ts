// Opaque geometry for the particles to sit in: a floor and a pillar, drawn with depth before the
// particles, which then test against that depth without writing it (so the pillar hides the
// particles behind it, and the particles hide nothing). WGSL on WebGPU, GLSL ES 3.00 on WebGL2.
import { mat4 } from 'wgpu-matrix';
import {
  BufferUsage,
  TextureUsage,
  type Device,
  type RenderPass,
  type Texture,
  type TextureFormat,
} from '../../src/index.js';
import type { Camera } from '../../src/particles/index.js';

const WGSL = /* wgsl */ `
struct Scene { viewProjection: mat4x4f };
@group(0) @binding(0) var<uniform> scene: Scene;
struct Out { @builtin(position) position: vec4f, @location(0) color: vec3f };
@vertex fn vs(@location(0) p: vec3f, @location(1) c: vec3f) -> Out { return Out(scene.viewProjection * vec4f(p, 1.0), c); }
@fragment fn fs(in: Out) -> @location(0) vec4f { return vec4f(in.color, 1.0); }
`;
const GLSL_VS = `#version 300 es
layout(std140) uniform Scene { mat4 viewProjection; };
layout(location = 0) in vec3 p;
layout(location = 1) in vec3 c;
out vec3 vColor;
void main() { vColor = c; gl_Position = viewProjection * vec4(p, 1.0); }
`;
const GLSL_FS = `#version 300 es
precision highp float;
in vec3 vColor;
out vec4 color;
void main() { color = vec4(vColor, 1.0); }
`;

/** Triangles of an axis-aligned box, shaded by face so its shape reads without lighting. */
function box(
  min: [number, number, number],
  max: [number, number, number],
  color: [number, number, number],
): number[] {
  const [x0, y0, z0] = min;
  const [x1, y1, z1] = max;
  const faces: Array<[number[][], number]> = [
    [
      [
        [x0, y1, z0],
        [x1, y1, z0],
        [x1, y1, z1],
        [x0, y1, z1],
      ],
      1,
    ], // top
    [
      [
        [x0, y0, z1],
        [x1, y0, z1],
        [x1, y1, z1],
        [x0, y1, z1],
      ],
      0.8,
    ], // +z
    [
      [
        [x0, y0, z0],
        [x1, y0, z0],
        [x1, y1, z0],
        [x0, y1, z0],
      ],
      0.8,
    ], // -z
    [
      [
        [x1, y0, z0],
        [x1, y0, z1],
        [x1, y1, z1],
        [x1, y1, z0],
      ],
      0.6,
    ], // +x
    [
      [
        [x0, y0, z0],
        [x0, y0, z1],
        [x0, y1, z1],
        [x0, y1, z0],
      ],
      0.6,
    ], // -x
  ];
  return faces.flatMap(([q, shade]) =>
    [0, 1, 2, 0, 2, 3].flatMap((i) => [...(q[i] as number[]), ...color.map((c) => c * shade)]),
  );
}

export class Scenery {
  readonly #device: Device;
  readonly #pipeline;
  readonly #vertices;
  readonly #uniforms;
  readonly #count: number;
  #depth: Texture | null = null;

  constructor(device: Device, format: TextureFormat, floorY: number) {
    this.#device = device;
    const buffers = [
      {
        arrayStride: 24,
        attributes: [
          { format: 'float32x3' as const, offset: 0, shaderLocation: 0 },
          { format: 'float32x3' as const, offset: 12, shaderLocation: 1 },
        ],
      },
    ];
    const depthStencil = {
      format: 'depth24plus' as const,
      depthWriteEnabled: true,
      depthCompare: 'less' as const,
    };
    if (device.caps.shaderLanguage === 'glsl') {
      this.#pipeline = device.createRenderPipeline({
        label: 'scenery',
        vertex: {
          module: device.createShaderModule({
            label: 'scenery.vert',
            code: GLSL_VS,
            stage: 'vertex',
          }),
          buffers,
        },
        fragment: {
          module: device.createShaderModule({
            label: 'scenery.frag',
            code: GLSL_FS,
            stage: 'fragment',
          }),
          targets: [{ format }],
        },
        depthStencil,
        bindings: [{ binding: 0, type: 'uniform', name: 'Scene' }],
      });
    } else {
      const module = device.createShaderModule({ label: 'scenery.wgsl', code: WGSL });
      this.#pipeline = device.createRenderPipeline({
        label: 'scenery',
        vertex: { module, entryPoint: 'vs', buffers },
        fragment: { module, entryPoint: 'fs', targets: [{ format }] },
        depthStencil,
      });
    }
    const data = new Float32Array([
      ...box([-12, floorY - 0.2, -12], [12, floorY, 12], [0.12, 0.12, 0.15]), // the floor
      ...box([0.9, floorY, 2], [1.7, -4, 2.8], [0.25, 0.22, 0.2]), // a pillar in front of the fountain
    ]);
    this.#count = data.length / 6;
    this.#vertices = device.createBuffer({
      label: 'scenery vertices',
      size: data.byteLength,
      usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.#vertices, 0, data);
    this.#uniforms = device.createBuffer({
      label: 'scenery camera',
      size: 64,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
  }

  /** The depth attachment for a target of this size (recreated when the canvas is resized). */
  depthFor(width: number, height: number): Texture {
    if (this.#depth && this.#depth.width === width && this.#depth.height === height)
      return this.#depth;
    this.#depth?.destroy();
    this.#depth = this.#device.createTexture({
      label: 'scene depth',
      size: { width, height },
      format: 'depth24plus',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    return this.#depth;
  }

  draw(pass: RenderPass, camera: Camera): void {
    this.#device.queue.writeBuffer(
      this.#uniforms,
      0,
      mat4.multiply(camera.projection, camera.view) as Float32Array,
    );
    pass.setPipeline(this.#pipeline);
    pass.setUniformBuffer(0, this.#uniforms);
    pass.setVertexBuffer(0, this.#vertices);
    pass.draw(this.#count);
  }
}
