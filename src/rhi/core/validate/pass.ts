import { TextureUsage } from '../flags.js';
import { LimitExceededError, ValidationError } from '../errors.js';
import {
  colorBytesPerSample,
  isDepthFormat,
  isTextureFormat,
  type TextureFormat,
} from '../formats.js';
import { isNonNegativeInteger } from './buffer.js';
import { requireTextureUsage } from './texture.js';
import type { Device } from '../device.js';
import { requireResource } from './resource.js';
import type { Limits } from '../caps.js';
import type { RenderBundleEncoderDescriptor, RenderPassDescriptor } from '../descriptors.js';
import type { ResolvedRenderPass } from '../commands.js';
import type { Texture } from '../texture.js';
import type { Buffer } from '../buffer.js';
import type { RenderPipeline } from '../render-pipeline.js';
import { show } from '../show.js';

/**
 * Checks a render pass descriptor — attachment count within `maxColorAttachments`, every
 * attachment alive, RENDER_ATTACHMENT, of one size and sample count, colour formats for colour
 * slots and a depth format for the depth slot, resolve targets single-sampled and matching — and
 * returns it with every default filled in.
 */
/**
 * The texture of an attachment: Ignis's `texture`, or WebGPU's `view` (Ignis has no texture views:
 * a texture is its own full view, so `view: texture` works; both, and different, is an error).
 */
function attachmentTexture(
  a: { texture?: Texture; view?: Texture },
  what: string,
  label: string,
): Texture {
  if (a.texture !== undefined && a.view !== undefined && a.texture !== a.view)
    throw new ValidationError(
      'pass-attachment-view',
      `${what} names both texture and view, and they differ; give one (view is WebGPU's name for it)`,
      label,
    );
  return (a.texture ?? a.view) as Texture;
}

/** A clear colour as WebGPU takes it: [r, g, b, a] or { r, g, b, a }. */
function colorOf(
  c: readonly number[] | { r: number; g: number; b: number; a: number },
  what: string,
  label: string,
): readonly [number, number, number, number] {
  const v = Array.isArray(c)
    ? c
    : c && typeof c === 'object' && 'r' in c
      ? [c.r, c.g, c.b, c.a]
      : [];
  if (v.length !== 4 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
    throw new ValidationError(
      'pass-clear-value',
      `${what}.clearValue ${show(c)} must be [r, g, b, a] or { r, g, b, a } of finite numbers`,
      label,
    );
  return [v[0] as number, v[1] as number, v[2] as number, v[3] as number];
}

export function resolveRenderPass(
  desc: RenderPassDescriptor,
  label: string,
  limits: Limits,
  device?: Device,
): ResolvedRenderPass {
  if (!Array.isArray(desc.colorAttachments))
    throw new ValidationError(
      'pass-attachments',
      `colorAttachments must be an array, got ${String(desc.colorAttachments)}`,
      label,
    );
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
    requireResource(t, 'texture', `beginRenderPass (${what}.texture)`, device);
    requireTextureUsage(
      t.usage,
      TextureUsage.RENDER_ATTACHMENT,
      `${what} of a render pass`,
      t.label,
    );
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
    if (a === null || typeof a !== 'object')
      throw new ValidationError(
        'pass-attachment',
        `color attachment ${i} must be { texture, loadOp?, storeOp?, clearValue? }, got ${String(a)}`,
        label,
      );
    const texture = attachmentTexture(a, `color attachment ${i}`, label);
    checkSize(texture, `color attachment ${i}`);
    if (isDepthFormat(texture.format)) {
      throw new ValidationError(
        'pass-color-format',
        `Color attachment ${i} has depth format ${texture.format}`,
        label,
        { format: texture.format },
      );
    }
    if (a.resolveTarget) {
      const r = a.resolveTarget;
      requireResource(r, 'texture', 'beginRenderPass (resolveTarget)', device);
      requireTextureUsage(
        r.usage,
        TextureUsage.RENDER_ATTACHMENT,
        'resolveTarget of a render pass',
        r.label,
      );
      if (
        texture.sampleCount === 1 ||
        r.sampleCount !== 1 ||
        r.width !== texture.width ||
        r.height !== texture.height ||
        r.format !== texture.format
      ) {
        throw new ValidationError(
          'pass-resolve-target',
          `resolveTarget "${r.label}" (${r.width}x${r.height} ${r.format}, ${r.sampleCount} samples) must be single-sampled and match the multisampled attachment "${texture.label}" (${texture.width}x${texture.height} ${texture.format}, ${texture.sampleCount} samples)`,
          label,
          {},
        );
      }
    }
    const clear = colorOf(a.clearValue ?? [0, 0, 0, 0], `color attachment ${i}`, label);
    checkOps(`color attachment ${i}`, 'loadOp', a.loadOp, 'storeOp', a.storeOp, label);
    return {
      texture: texture,
      resolveTarget: a.resolveTarget,
      loadOp: a.loadOp ?? 'clear',
      storeOp: a.storeOp ?? 'store',
      clearValue: [clear[0], clear[1], clear[2], clear[3]] as const,
    };
  });
  const formats = colorAttachments.map((a) => a.texture.format);
  const bytes = colorBytesPerSample(formats);
  if (bytes > limits.maxColorAttachmentBytesPerSample)
    throw new LimitExceededError(
      'maxColorAttachmentBytesPerSample',
      bytes,
      limits.maxColorAttachmentBytesPerSample,
      `Color attachments (${formats.join(', ')}) bytes per sample`,
      label,
    );
  const ds = desc.depthStencilAttachment;
  const dsTexture = ds ? attachmentTexture(ds, 'depth attachment', label) : undefined;
  if (ds && dsTexture) {
    checkSize(dsTexture, 'depth attachment');
    if (!isDepthFormat(dsTexture.format)) {
      throw new ValidationError(
        'pass-depth-format',
        `Depth attachment has color format ${dsTexture.format}`,
        label,
        { format: dsTexture.format },
      );
    }
    checkOps(
      'depth attachment',
      'depthLoadOp',
      ds.depthLoadOp,
      'depthStoreOp',
      ds.depthStoreOp,
      label,
    );
    // WebGPU: a float (NaN and ±Infinity are TypeErrors), from 0 to 1 when the pass clears depth
    const v = ds.depthClearValue;
    if (
      v !== undefined &&
      (typeof v !== 'number' ||
        !Number.isFinite(v) ||
        ((ds.depthLoadOp ?? 'clear') === 'clear' && (v < 0 || v > 1)))
    )
      throw new ValidationError(
        'pass-depth-clear-value',
        `depth attachment depthClearValue ${show(v)} must be a number from 0 to 1`,
        label,
        { depthClearValue: v },
      );
  }
  return {
    label,
    colorAttachments,
    depthStencilAttachment: ds
      ? {
          texture: dsTexture as Texture,
          depthLoadOp: ds.depthLoadOp ?? 'clear',
          depthStoreOp: ds.depthStoreOp ?? 'store',
          depthClearValue: ds.depthClearValue ?? 1,
        }
      : undefined,
    timestampWrites: desc.timestampWrites,
    width,
    height,
    sampleCount,
  };
}

/** A pipeline set in a pass: a render pipeline whose targets, sample count and depth state match the pass. */
/** An attachment's load and store operations: WebGPU's enums, or left out (Ignis's defaults). */
function checkOps(
  what: string,
  loadName: string,
  load: unknown,
  storeName: string,
  store: unknown,
  label: string | undefined,
): void {
  if (load !== undefined && load !== 'load' && load !== 'clear')
    throw new ValidationError(
      'pass-load-store-op',
      `${what} ${loadName} ${show(load)} must be 'load' or 'clear'`,
      label,
      { [loadName]: load },
    );
  if (store !== undefined && store !== 'store' && store !== 'discard')
    throw new ValidationError(
      'pass-load-store-op',
      `${what} ${storeName} ${show(store)} must be 'store' or 'discard'`,
      label,
      { [storeName]: store },
    );
}

/** What a pipeline drawn into a pass or a render bundle must match. */
export interface DrawTargetFormats {
  readonly colorFormats: readonly TextureFormat[];
  readonly depthStencilFormat: TextureFormat | undefined;
  readonly sampleCount: number;
  /** 'pass' or 'render bundle', for the messages. */
  readonly what: string;
}

export function validatePipelineForPass(
  pipeline: RenderPipeline,
  pass: DrawTargetFormats,
  label: string,
): void {
  if (pipeline.kind !== 'render-pipeline') {
    throw new ValidationError(
      'pipeline-kind',
      `setPipeline on a ${pass.what} needs a render pipeline, got ${String((pipeline as { kind?: string }).kind)}`,
      label,
    );
  }
  const targets = pipeline.descriptor.fragment?.targets ?? [];
  const formats = pass.colorFormats;
  if (targets.length !== formats.length || targets.some((t, i) => t.format !== formats[i])) {
    throw new ValidationError(
      'pipeline-targets',
      `Pipeline "${pipeline.label}" targets [${targets.map((t) => t.format).join(', ')}] but the ${pass.what} has attachments [${formats.join(', ')}]`,
      label,
      { targets: targets.map((t) => t.format), attachments: formats },
    );
  }
  if (pipeline.sampleCount !== pass.sampleCount) {
    throw new ValidationError(
      'pipeline-sample-count',
      `Pipeline "${pipeline.label}" has ${pipeline.sampleCount} samples, the ${pass.what} ${pass.sampleCount}`,
      label,
      {},
    );
  }
  const hasDepth = pass.depthStencilFormat !== undefined;
  if (hasDepth !== (pipeline.descriptor.depthStencil !== undefined)) {
    throw new ValidationError(
      'pipeline-depth',
      `Pipeline "${pipeline.label}" ${hasDepth ? 'lacks' : 'has'} a depthStencil state but the ${pass.what} ${hasDepth ? 'has' : 'lacks'} a depth attachment`,
      label,
      {},
    );
  }
  const depthFormat = pass.depthStencilFormat;
  if (
    depthFormat &&
    pipeline.descriptor.depthStencil &&
    pipeline.descriptor.depthStencil.format !== depthFormat
  ) {
    throw new ValidationError(
      'pipeline-depth-format',
      `Pipeline "${pipeline.label}" has depth format ${pipeline.descriptor.depthStencil.format}, the ${pass.what}'s depth attachment is ${depthFormat}`,
      label,
      { pipeline: pipeline.descriptor.depthStencil.format, attachment: depthFormat },
    );
  }
}

/** `setViewport`: finite, non-negative size, 0 <= minDepth <= maxDepth <= 1. */
export function validateViewport(
  x: number,
  y: number,
  width: number,
  height: number,
  minDepth: number,
  maxDepth: number,
  label: string,
): void {
  if (
    ![x, y, width, height, minDepth, maxDepth].every(Number.isFinite) ||
    width < 0 ||
    height < 0 ||
    minDepth < 0 ||
    maxDepth > 1 ||
    minDepth > maxDepth
  ) {
    throw new ValidationError(
      'viewport',
      `Viewport (${x}, ${y}, ${width}, ${height}, ${minDepth}, ${maxDepth}) must be finite with non-negative size and 0 <= minDepth <= maxDepth <= 1`,
      label,
      {
        x,
        y,
        width,
        height,
      },
    );
  }
}

/** `setScissorRect`: non-negative integers inside the pass. */
export function validateScissorRect(
  x: number,
  y: number,
  width: number,
  height: number,
  passWidth: number,
  passHeight: number,
  label: string,
): void {
  if (
    ![x, y, width, height].every(isNonNegativeInteger) ||
    x + width > passWidth ||
    y + height > passHeight
  ) {
    throw new ValidationError(
      'scissor',
      `Scissor rect (${x}, ${y}, ${width}, ${height}) must be non-negative integers inside the ${passWidth}x${passHeight} pass`,
      label,
      {
        x,
        y,
        width,
        height,
      },
    );
  }
}

export function validateDrawArguments(
  vertexCount: number,
  instanceCount: number,
  firstVertex: number,
  firstInstance: number,
  label: string,
): void {
  // (no array of them: this runs for every draw)
  if (
    !isNonNegativeInteger(vertexCount) ||
    !isNonNegativeInteger(instanceCount) ||
    !isNonNegativeInteger(firstVertex) ||
    !isNonNegativeInteger(firstInstance)
  ) {
    throw new ValidationError(
      'draw-arguments',
      `draw(${vertexCount}, ${instanceCount}, ${firstVertex}, ${firstInstance}) needs non-negative integers`,
      label,
      {
        vertexCount,
        instanceCount,
      },
    );
  }
}

export function validateDrawIndexedArguments(
  indexCount: number,
  instanceCount: number,
  firstIndex: number,
  baseVertex: number,
  firstInstance: number,
  label: string,
): void {
  if (
    !isNonNegativeInteger(indexCount) ||
    !isNonNegativeInteger(instanceCount) ||
    !isNonNegativeInteger(firstIndex) ||
    !isNonNegativeInteger(firstInstance) ||
    !Number.isInteger(baseVertex)
  ) {
    throw new ValidationError(
      'draw-arguments',
      `drawIndexed(${indexCount}, ${instanceCount}, ${firstIndex}, ${baseVertex}, ${firstInstance}) needs integers`,
      label,
      {
        indexCount,
        instanceCount,
      },
    );
  }
}

/** Indices `firstIndex .. firstIndex + indexCount` lie inside the index buffer. */
export function validateIndexRange(
  buffer: Buffer,
  format: 'uint16' | 'uint32',
  firstIndex: number,
  indexCount: number,
  label: string,
  offset = 0,
): void {
  const bytes = format === 'uint16' ? 2 : 4;
  if (offset + (firstIndex + indexCount) * bytes > buffer.size) {
    throw new ValidationError(
      'draw-index-range',
      `drawIndexed reads indices ${firstIndex}..${firstIndex + indexCount} from byte ${offset}, past the ${buffer.size}-byte index buffer`,
      label,
      {
        firstIndex,
        indexCount,
      },
    );
  }
}

/**
 * The vertex buffer at `slot` holds element `last` (a vertex or an instance, -1 when the draw reads
 * none, undefined when unknown: indexed draws read vertices the CPU cannot see). WebGL would
 * otherwise fail the draw silently.
 */
export function validateVertexBufferRange(
  operation: string,
  pipeline: RenderPipeline,
  slot: number,
  bound: { buffer: Buffer; offset: number },
  last: number | undefined,
  label: string,
): void {
  const layout = (pipeline.descriptor.vertex.buffers ?? [])[slot];
  if (!layout) return;
  const { buffer, offset } = bound;
  if (last !== undefined && last >= 0) {
    const extent = pipeline.vertexBufferExtents[slot] ?? 0;
    const needed = offset + last * layout.arrayStride + extent;
    if (needed > buffer.size) {
      const unit = layout.stepMode === 'instance' ? 'instance' : 'vertex';
      throw new ValidationError(
        'vertex-buffer-range',
        `${operation} reads ${unit} ${last} of vertex buffer slot ${slot}, which needs ${needed} bytes, but "${buffer.label}" has ${buffer.size} (offset ${offset}, stride ${layout.arrayStride})`,
        label,
        { slot, needed, size: buffer.size },
      );
    }
  }
}

/**
 * `createRenderBundleEncoder`: known colour formats (no more than limits.maxColorAttachments), a
 * depth format where one is given, a sample count of 1 or 4, and at least one format.
 */
export function resolveRenderBundle(
  desc: RenderBundleEncoderDescriptor,
  limits: Limits,
): {
  label: string;
  colorFormats: TextureFormat[];
  depthStencilFormat: TextureFormat | undefined;
  sampleCount: number;
} {
  const label = desc.label ?? 'render bundle';
  const colors: unknown = desc.colorFormats;
  if (!Array.isArray(colors))
    throw new ValidationError(
      'render-bundle-formats',
      `createRenderBundleEncoder: colorFormats must be an array of texture formats, got ${show(colors)}`,
      label,
    );
  if (colors.length > limits.maxColorAttachments)
    throw new ValidationError(
      'render-bundle-formats',
      `createRenderBundleEncoder: ${colors.length} color formats exceed limits.maxColorAttachments (${limits.maxColorAttachments})`,
      label,
      { count: colors.length, maximum: limits.maxColorAttachments },
    );
  colors.forEach((f: unknown, i) => {
    if (!isTextureFormat(f) || isDepthFormat(f))
      throw new ValidationError(
        'render-bundle-formats',
        `createRenderBundleEncoder: colorFormats[${i}] ${show(f)} is not a color texture format`,
        label,
        { index: i },
      );
  });
  const depth: unknown = desc.depthStencilFormat;
  if (depth !== undefined && (!isTextureFormat(depth) || !isDepthFormat(depth)))
    throw new ValidationError(
      'render-bundle-formats',
      `createRenderBundleEncoder: depthStencilFormat ${show(depth)} is not a depth format`,
      label,
    );
  if (colors.length === 0 && depth === undefined)
    throw new ValidationError(
      'render-bundle-formats',
      'createRenderBundleEncoder needs a color format or a depth format',
      label,
    );
  const sampleCount: unknown = desc.sampleCount ?? 1;
  if (sampleCount !== 1 && sampleCount !== 4)
    throw new ValidationError(
      'render-bundle-sample-count',
      `createRenderBundleEncoder: sampleCount ${show(sampleCount)} must be 1 or 4`,
      label,
      { sampleCount: show(sampleCount) },
    );
  return {
    label,
    colorFormats: colors as TextureFormat[],
    depthStencilFormat: depth as TextureFormat | undefined,
    sampleCount,
  };
}
