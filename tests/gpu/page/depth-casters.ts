// A depth map as an app renders its shadow casters: a depth32float texture cleared to 1, with the
// columns left of clip x = `right` (of the whole height) at depth `z`, drawn by a quad through a
// depth-only pipeline (WGSL, or GLSL ES 3.00 with an empty fragment stage). Shared by the
// comparison-sampler test (textures.ts) and the received-shadow tests (light.ts).
import { TextureUsage, type Device, type Texture } from '../../../src/all.js';

export function depthCasters(
  device: Device,
  size: number,
  cover: { right: number; z: number } | null,
): Texture {
  const depth = device.createTexture({
    label: 'depth casters',
    size: { width: size, height: size },
    format: 'depth32float',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [],
    depthStencilAttachment: {
      texture: depth,
      depthClearValue: 1,
      depthLoadOp: 'clear',
      depthStoreOp: 'store',
    },
  });
  if (cover) {
    const [right, z] = [cover.right.toFixed(6), cover.z.toFixed(6)];
    const depthStencil = {
      format: 'depth32float' as const,
      depthWriteEnabled: true,
      depthCompare: 'always' as const,
    };
    const corners = '(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)';
    pass.setPipeline(
      device.caps.shaderLanguage === 'glsl'
        ? device.createRenderPipeline({
            label: 'casters',
            vertex: {
              module: device.createShaderModule({
                code: `#version 300 es\nconst vec2 C[6] = vec2[6](${corners.replaceAll('(', 'vec2(')});\nvoid main() { vec2 c = C[gl_VertexID]; gl_Position = vec4(mix(-1.0, ${right}, c.x), c.y * 2.0 - 1.0, ${z}, 1.0); }`,
                stage: 'vertex',
              }),
            },
            fragment: {
              module: device.createShaderModule({
                code: '#version 300 es\nprecision highp float;\nvoid main() {}',
                stage: 'fragment',
              }),
              targets: [],
            },
            depthStencil,
          })
        : device.createRenderPipeline({
            label: 'casters',
            vertex: {
              module: device.createShaderModule({
                code: `@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { var corners = array<vec2f, 6>(${corners.replaceAll('(', 'vec2f(')}); let c = corners[i]; return vec4f(mix(-1.0, ${right}, c.x), c.y * 2.0 - 1.0, ${z}, 1.0); }\n@fragment fn fs() {}`,
              }),
            },
            depthStencil,
          }),
    );
    pass.draw(6);
  }
  pass.end();
  device.queue.submit([enc.finish()]);
  return depth;
}
