import { ValidationError } from '../errors.js';
import type { Buffer } from '../buffer.js';
import type { RecordedCommand } from '../commands.js';

/** A resource a command uses: alive, and a buffer unmapped (WebGPU refuses a mapped one). */
function usable(r: { assertAlive(op: string): void; readonly kind: string }, op: string): void {
  r.assertAlive(op);
  if (r.kind === 'buffer' && (r as Buffer).mapState === 'mapped')
    throw new ValidationError(
      'submit-mapped-buffer',
      `${op === 'submit' ? 'queue.submit' : op} uses buffer "${(r as Buffer).label}", which is still mapped (mappedAtCreation); unmap() it first`,
      (r as Buffer).label,
    );
}

/**
 * Checks that no resource a command references was destroyed since it was recorded (`op`: the call
 * that checks, 'submit' or 'executeBundles'). A plain switch: it runs for every command of a frame
 * where something was destroyed, so it allocates nothing.
 */
export function assertCommandAlive(c: RecordedCommand, op: string): void {
  switch (c.type) {
    case 'beginRenderPass':
      for (const a of c.pass.colorAttachments) {
        a.texture.assertAlive(op);
        a.resolveTarget?.assertAlive(op);
      }
      c.pass.depthStencilAttachment?.texture.assertAlive(op);
      break;
    case 'setRenderPipeline':
    case 'setComputePipeline':
      c.pipeline.assertAlive(op);
      break;
    case 'setBinding': {
      const r = c.resource;
      usable(
        r.kind === 'sampler'
          ? r.sampler
          : r.kind === 'texture' || r.kind === 'storage-texture'
            ? r.texture
            : r.buffer,
        op,
      );
      break;
    }
    case 'setUniformSlice':
      usable(c.resource.buffer, op);
      break;
    case 'drawRun':
      usable(c.slice.resource.buffer, op);
      break;
    case 'setVertexBuffer':
    case 'setIndexBuffer':
    case 'dispatchIndirect':
    case 'drawIndirect':
    case 'drawIndexedIndirect':
      usable(c.buffer, op);
      break;
    case 'copyBufferToBuffer':
    case 'copyBufferToTexture':
    case 'copyTextureToBuffer':
    case 'copyTextureToTexture':
      usable(c.src, op);
      usable(c.dst, op);
      break;
    case 'executeBundles':
      for (const b of c.bundles)
        for (const chunk of b.chunks)
          for (let k = 0; k < chunk.length; k++)
            assertCommandAlive(chunk[k] as RecordedCommand, op);
      break;
    default:
      break;
  }
}
