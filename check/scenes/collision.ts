// Particles raining onto a slope and bouncing off it through the scene's depth (options.collision):
// the slope is drawn with depth every frame, and the next update collides with that depth (one
// frame late, as screen-space collisions are). On the GPU rungs the particles read the depth
// texture; on the CPU rung the same slope's depth as an array, computed from the camera. Each
// bounce is a 'collision' event, and a second system splashes from them (a sub-emitter: three
// droplets per bounce), so splashes on the scene's depth are compared across rungs too.
// ?params: count, seed.
import { BufferUsage, TextureUsage, type Device } from 'ignis-rhi';
import { createParticleSystem, orbitCamera } from 'ignis-rhi/particles';
import type { Scene, SceneParams } from 'ignis-rhi/testing';
import { mat4, vec4 } from 'wgpu-matrix';

/** The slope: y = SLOPE_Y + 0.35·x over x, z in [−5, 5]. */
const SLOPE_Y = -6;
// prettier-ignore
const CORNERS = [[-5, -5], [5, -5], [5, 5], [-5, -5], [5, 5], [-5, 5]];
const heightAt = (x: number): number => SLOPE_Y + 0.35 * x;

const WGSL = /* wgsl */ `
@group(0) @binding(0) var<uniform> vp: mat4x4f;
@vertex fn vs(@location(0) p: vec3f) -> @builtin(position) vec4f { return vp * vec4f(p, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(0.16, 0.17, 0.2, 1.0); }`;
const VS = `#version 300 es
layout(std140) uniform Camera { mat4 vp; };
in vec3 p;
void main() { gl_Position = vp * vec4(p, 1.0); }`;
const FS = `#version 300 es
precision highp float;
out vec4 color;
void main() { color = vec4(0.16, 0.17, 0.2, 1.0); }`;

export async function create(
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
): Promise<Scene> {
  const surface = device.surface!;
  const { width, height } = canvas;
  const camera = orbitCamera({ aspect: width / height, distance: 16, pitch: 0.35 });
  const viewProjection = mat4.multiply(camera.projection, camera.view);
  const depth = device.createTexture({
    label: 'scene depth',
    size: { width, height },
    format: 'depth24plus',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
  });
  const ps0 = await createParticleSystem(device, { count: 1 });
  const onCpu = ps0.path === 'cpu'; // the rung's path: the CPU reads the depth from an array
  ps0.destroy();
  const ps = await createParticleSystem(device, {
    count: Number(params['count'] ?? 3000),
    seed: Number(params['seed'] ?? 1),
    drawMode: 'instanced',
    emitter: { shape: 'box', position: [0, 3, 0], radius: 2.5 },
    spread: 0.2,
    speedMin: 0,
    speedMax: 0.5,
    lifeMin: 2.5,
    lifeMax: 3.5,
    gravity: [0, -9.8, 0],
    floorY: -20,
    size: 0.12,
    sizeOverLife: [1, 1],
    colors: [
      [0.6, 0.8, 1, 1],
      [0.5, 0.7, 1, 1],
      [0.4, 0.6, 1, 0.8],
      [0.3, 0.4, 0.9, 0],
    ],
    collision: {
      depth: onCpu ? slopeDepth(viewProjection, width, height) : depth,
      camera,
      restitution: 0.45,
      friction: 0.2,
    },
    events: 'collision',
  });
  // splashes: three droplets thrown up and out where a drop bounces, with a fifth of its velocity
  const splash = await createParticleSystem(device, {
    seed: Number(params['seed'] ?? 1) + 1,
    drawMode: 'instanced',
    subEmitter: { parent: ps, count: 3, inherit: 0.2 },
    emitter: { shape: 'cone', position: [0, 0, 0], radius: 0, angle: 0.8 },
    speedMin: 1.5,
    speedMax: 3,
    lifeMin: 0.25,
    lifeMax: 0.5,
    gravity: [0, -9.8, 0],
    floorY: -20,
    size: 0.07,
    sizeOverLife: [1, 0.4],
    colors: [
      [0.9, 0.95, 1, 1],
      [0.8, 0.9, 1, 0.9],
      [0.7, 0.8, 1, 0.5],
      [0.6, 0.7, 1, 0],
    ],
  });
  const uniforms = device.createBuffer({
    label: 'slope camera',
    size: 64,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(uniforms, 0, viewProjection);
  const vertices = device.createBuffer({
    label: 'slope',
    size: 4 * 3 * CORNERS.length,
    usage: BufferUsage.VERTEX | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(
    vertices,
    0,
    new Float32Array(CORNERS.flatMap(([x, z]) => [x!, heightAt(x!), z!])),
  );
  const buffers = [
    {
      arrayStride: 12,
      attributes: [{ format: 'float32x3' as const, offset: 0, shaderLocation: 0 }],
    },
  ];
  const depthStencil = {
    format: 'depth24plus' as const,
    depthWriteEnabled: true,
    depthCompare: 'less' as const,
  };
  const targets = [{ format: surface.format }];
  const pipeline =
    device.caps.shaderLanguage === 'wgsl'
      ? (() => {
          const module = device.createShaderModule({ code: WGSL });
          return device.createRenderPipeline({
            vertex: { module, entryPoint: 'vs', buffers },
            fragment: { module, entryPoint: 'fs', targets },
            depthStencil,
          });
        })()
      : device.createRenderPipeline({
          vertex: { module: device.createShaderModule({ code: VS, stage: 'vertex' }), buffers },
          fragment: {
            module: device.createShaderModule({ code: FS, stage: 'fragment' }),
            targets,
          },
          depthStencil,
          bindings: [{ binding: 0, type: 'uniform', name: 'Camera' }],
        });
  const drawSlope = (encoder: ReturnType<Device['createCommandEncoder']>): void => {
    const pass = encoder.beginRenderPass({
      colorAttachments: [
        { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
      ],
      depthStencilAttachment: { texture: depth, depthLoadOp: 'clear', depthClearValue: 1 },
    });
    pass.setPipeline(pipeline);
    pass.setUniformBuffer(0, uniforms);
    pass.setVertexBuffer(0, vertices);
    pass.draw(CORNERS.length);
    return void pass.end();
  };
  // the slope's depth before the first update reads it
  const first = device.createCommandEncoder();
  drawSlope(first);
  device.queue.submit([first.finish()]);
  return {
    frame(dt) {
      const encoder = device.createCommandEncoder();
      // the parent first: the splashes read the bounces its step recorded
      ps.update(encoder, dt);
      splash.update(encoder, dt);
      drawSlope(encoder);
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: surface.getCurrentTexture(), loadOp: 'load' }],
        depthStencilAttachment: { texture: depth, depthLoadOp: 'load' },
      });
      ps.draw(pass, camera);
      splash.draw(pass, camera);
      pass.end();
      device.queue.submit([encoder.finish()]);
    },
    destroy() {
      splash.destroy();
      ps.destroy();
      depth.destroy();
      vertices.destroy();
      uniforms.destroy();
    },
    // the drops and the splashes, one after the other
    read: async () => {
      const [drops, splashes] = [(await ps.read()).position, (await splash.read()).position];
      const both = new Float32Array(drops.length + splashes.length);
      both.set(drops);
      both.set(splashes, drops.length);
      return both;
    },
  };
}

/** The slope's depth at every pixel centre, for the CPU path (0 near … 1 far, 1 where it is not). */
function slopeDepth(
  viewProjection: Float32Array,
  width: number,
  height: number,
): { data: Float32Array; width: number; height: number } {
  const inverse = mat4.inverse(viewProjection);
  const data = new Float32Array(width * height).fill(1);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const ndc = [((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2] as const;
      const a = vec4.transformMat4([ndc[0], ndc[1], 0, 1], inverse);
      const b = vec4.transformMat4([ndc[0], ndc[1], 1, 1], inverse);
      const near = [a[0]! / a[3]!, a[1]! / a[3]!, a[2]! / a[3]!];
      const far = [b[0]! / b[3]!, b[1]! / b[3]!, b[2]! / b[3]!];
      // where the ray meets y = SLOPE_Y + 0.35 x
      const f = (t: number): number =>
        near[1]! + t * (far[1]! - near[1]!) - heightAt(near[0]! + t * (far[0]! - near[0]!));
      const t = f(0) / (f(0) - f(1));
      if (!(t > 0 && t < 1)) continue;
      const hit = [0, 1, 2].map((i) => near[i]! + t * (far[i]! - near[i]!));
      if (Math.abs(hit[0]!) > 5 || Math.abs(hit[2]!) > 5) continue;
      const c = vec4.transformMat4([hit[0]!, hit[1]!, hit[2]!, 1], viewProjection);
      data[y * width + x] = c[2]! / c[3]!;
    }
  return { data, width, height };
}
