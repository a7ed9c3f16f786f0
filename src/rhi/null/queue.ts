import { Queue } from '../core/queue.js';
import { outsidePass, unreachable, type Command } from '../core/commands.js';
import type { CommandBuffer } from '../core/command-buffer.js';
import type { Buffer } from '../core/buffer.js';
import type { Texture } from '../core/texture.js';
import type { Extent2D } from '../core/descriptors.js';
import type { NullBuffer } from './buffer.js';
import type { NullTexture } from './texture.js';

export class NullQueue extends Queue {
  /** Every submitted command list, in order, as plain data. */
  readonly submissions: Command[][] = [];

  protected writeBufferImpl(buffer: Buffer, offset: number, data: Uint8Array): void {
    (buffer as NullBuffer).bytes.set(data, offset);
  }

  protected writeTextureImpl(
    texture: Texture,
    mipLevel: number,
    x: number,
    y: number,
    data: Uint8Array,
    offset: number,
    bytesPerRow: number,
    size: Extent2D,
  ): void {
    (texture as NullTexture).writeRegion(
      mipLevel,
      x,
      y,
      size.width,
      size.height,
      data,
      offset,
      bytesPerRow,
    );
  }

  protected submitImpl(commandBuffers: readonly CommandBuffer[]): void {
    for (const cb of commandBuffers) {
      this.submissions.push([...cb.commands]);
      for (const c of cb.commands) this.#execute(c);
    }
  }

  #inPass = false;

  /** Transfers run; passes are only recorded (a pass command outside a pass is a bug, reported). */
  #execute(c: Command): void {
    switch (c.type) {
      case 'copyBufferToBuffer': {
        const src = (c.src as NullBuffer).bytes;
        (c.dst as NullBuffer).bytes.set(
          src.subarray(c.srcOffset, c.srcOffset + c.size),
          c.dstOffset,
        );
        return;
      }
      case 'copyBufferToTexture':
        (c.dst as NullTexture).writeRegion(
          c.mipLevel,
          c.x,
          c.y,
          c.size.width,
          c.size.height,
          (c.src as NullBuffer).bytes,
          c.offset,
          c.bytesPerRow,
        );
        return;
      case 'copyTextureToBuffer':
        (c.src as NullTexture).readRegion(
          c.mipLevel,
          c.x,
          c.y,
          c.size.width,
          c.size.height,
          (c.dst as NullBuffer).bytes,
          c.offset,
          c.bytesPerRow,
        );
        return;
      case 'copyTextureToTexture': {
        const src = c.src as NullTexture;
        const rowBytes = c.size.width * src.bytesPerTexel;
        const tmp = new Uint8Array(rowBytes * c.size.height);
        src.readRegion(c.srcMip, c.srcX, c.srcY, c.size.width, c.size.height, tmp, 0, rowBytes);
        (c.dst as NullTexture).writeRegion(
          c.dstMip,
          c.dstX,
          c.dstY,
          c.size.width,
          c.size.height,
          tmp,
          0,
          rowBytes,
        );
        return;
      }
      case 'beginRenderPass':
      case 'beginComputePass':
        this.#inPass = true;
        return;
      case 'endRenderPass':
      case 'endComputePass':
        if (!this.#inPass) outsidePass(c);
        this.#inPass = false;
        return;
      case 'setRenderPipeline':
      case 'setComputePipeline':
      case 'setBinding':
      case 'setVertexBuffer':
      case 'setIndexBuffer':
      case 'setViewport':
      case 'setScissorRect':
      case 'draw':
      case 'drawIndexed':
      case 'drawIndirect':
      case 'drawIndexedIndirect':
      case 'executeBundles':
      case 'dispatch':
      case 'dispatchIndirect':
        if (!this.#inPass) outsidePass(c);
        return;
      case 'pushDebugGroup':
      case 'popDebugGroup':
      case 'barrier':
        return;
      default:
        unreachable(c);
    }
  }

  onSubmittedWorkDone(): Promise<void> {
    return Promise.resolve();
  }
}
