import { TextureUsage } from '../flags.js';
import { ValidationError } from '../errors.js';
import { isDepthFormat } from '../formats.js';
import { requireTextureUsage } from './texture.js';
import type { Limits } from '../caps.js';
import type { RenderPassDescriptor } from '../descriptors.js';
import type { ResolvedRenderPass } from '../commands.js';
import type { Texture } from '../texture.js';

/**
 * Checks a render pass descriptor — attachment count within `maxColorAttachments`, every
 * attachment alive, RENDER_ATTACHMENT, of one size and sample count, colour formats for colour
 * slots and a depth format for the depth slot, resolve targets single-sampled and matching — and
 * returns it with every default filled in.
 */
export function resolveRenderPass(desc: RenderPassDescriptor, label: string, limits: Limits): ResolvedRenderPass {
  if (desc.colorAttachments.length > limits.maxColorAttachments) {
    throw new ValidationError(
      'pass-color-attachments',
      `${desc.colorAttachments.length} color attachments exceed limits.maxColorAttachments (${limits.maxColorAttachments})`,
      label,
      {
        count: desc.colorAttachments.length,
        maximum: limits.maxColorAttachments,
      },
    );
  }
  let width = -1;
  let height = -1;
  let sampleCount = -1;
  const checkSize = (t: Texture, what: string): void => {
    t.assertAlive(`beginRenderPass (${what})`);
    requireTextureUsage(t.usage, TextureUsage.RENDER_ATTACHMENT, `${what} of a render pass`, t.label);
    if (width < 0) {
      width = t.width;
      height = t.height;
      sampleCount = t.sampleCount;
    } else if (t.width !== width || t.height !== height || t.sampleCount !== sampleCount) {
      throw new ValidationError(
        'pass-attachment-size',
        `${what} "${t.label}" is ${t.width}x${t.height}x${t.sampleCount}, the pass is ${width}x${height}x${sampleCount}`,
        label,
        {
          width: t.width,
          height: t.height,
        },
      );
    }
  };
  const colorAttachments = desc.colorAttachments.map((a, i) => {
    checkSize(a.texture, `color attachment ${i}`);
    if (isDepthFormat(a.texture.format)) {
      throw new ValidationError('pass-color-format', `Color attachment ${i} has depth format ${a.texture.format}`, label, { format: a.texture.format });
    }
    if (a.resolveTarget) {
      const r = a.resolveTarget;
      r.assertAlive('beginRenderPass (resolveTarget)');
      requireTextureUsage(r.usage, TextureUsage.RENDER_ATTACHMENT, 'resolveTarget of a render pass', r.label);
      if (a.texture.sampleCount === 1 || r.sampleCount !== 1 || r.width !== a.texture.width || r.height !== a.texture.height || r.format !== a.texture.format) {
        throw new ValidationError(
          'pass-resolve-target',
          `resolveTarget "${r.label}" (${r.width}x${r.height} ${r.format}, ${r.sampleCount} samples) must be single-sampled and match the multisampled attachment "${a.texture.label}" (${a.texture.width}x${a.texture.height} ${a.texture.format}, ${a.texture.sampleCount} samples)`,
          label,
          {},
        );
      }
    }
    const clear = a.clearValue ?? [0, 0, 0, 0];
    return {
      texture: a.texture,
      resolveTarget: a.resolveTarget,
      loadOp: a.loadOp ?? 'clear',
      storeOp: a.storeOp ?? 'store',
      clearValue: [clear[0], clear[1], clear[2], clear[3]] as const,
    };
  });
  const ds = desc.depthStencilAttachment;
  if (ds) {
    checkSize(ds.texture, 'depth attachment');
    if (!isDepthFormat(ds.texture.format)) {
      throw new ValidationError('pass-depth-format', `Depth attachment has color format ${ds.texture.format}`, label, { format: ds.texture.format });
    }
  }
  return {
    label,
    colorAttachments,
    depthStencilAttachment: ds
      ? { texture: ds.texture, depthLoadOp: ds.depthLoadOp ?? 'clear', depthStoreOp: ds.depthStoreOp ?? 'store', depthClearValue: ds.depthClearValue ?? 1 }
      : undefined,
    timestampWrites: desc.timestampWrites,
    width,
    height,
    sampleCount,
  };
}
