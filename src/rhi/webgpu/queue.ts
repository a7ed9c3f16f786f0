import { Queue } from '../core/queue.js';
import { outsidePass, unreachable, type BoundResource, type Command } from '../core/commands.js';
import type { CommandBuffer } from '../core/command-buffer.js';
import type { Buffer } from '../core/buffer.js';
import type { Texture } from '../core/texture.js';
import type { Extent2D, PassTimestampWrites } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { WebGPUBuffer } from './buffer.js';
import type { WebGPUTexture } from './texture.js';
import type { WebGPURenderPipeline } from './render-pipeline.js';
import type { WebGPUComputePipeline } from './compute-pipeline.js';
import type { WebGPUQuerySet } from './query-set.js';

const gpuBuffer = (b: Buffer): GPUBuffer => (b as WebGPUBuffer).gpu;
const gpuTexture = (t: Texture): GPUTexture => (t as WebGPUTexture).gpu;

function timestamps(t: PassTimestampWrites | undefined): GPURenderPassTimestampWrites | undefined {
  if (!t) return undefined;
  return {
    querySet: (t.querySet as WebGPUQuerySet).gpu,
    beginningOfPassWriteIndex: t.beginningOfPassWriteIndex,
    endOfPassWriteIndex: t.endOfPassWriteIndex,
  };
}

/** The open pass encoder of a replay; a pass command outside one is a bug (no closure: this runs per command). */
function within<T>(pass: T | null, c: Command): T {
  return pass ?? outsidePass(c);
}

/** Replays recorded commands into a GPUCommandEncoder: one exhaustive switch. */
export class WebGPUQueue extends Queue {
  constructor(private readonly device: WebGPUDevice) {
    super(device);
  }

  protected writeBufferImpl(buffer: Buffer, offset: number, data: Uint8Array): void {
    this.device.gpu.queue.writeBuffer(gpuBuffer(buffer), offset, data as Uint8Array<ArrayBuffer>);
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
    this.device.gpu.queue.writeTexture(
      { texture: gpuTexture(texture), mipLevel, origin: [x, y] },
      data as Uint8Array<ArrayBuffer>,
      { offset, bytesPerRow },
      [size.width, size.height],
    );
  }

  onSubmittedWorkDone(): Promise<void> {
    return this.device.gpu.queue.onSubmittedWorkDone();
  }

  protected submitImpl(commandBuffers: readonly CommandBuffer[]): void {
    const submit = (): void =>
      this.device.gpu.queue.submit(commandBuffers.map((cb) => this.#encode(cb)));
    // an error scope per submit costs a promise and two binding calls per frame (measurable in
    // Deno, bench/deno/cpu-probe.ts): only with `debug`; otherwise what Dawn rejects arrives as an
    // uncaptured error (a BackendError without the call)
    if (!this.device.debug) return submit();
    const labels = commandBuffers
      .map((cb) => cb.label)
      .filter(Boolean)
      .join(', ');
    this.device.scoped('queue.submit', labels || undefined, submit);
  }

  #encode(cb: CommandBuffer): GPUCommandBuffer {
    const encoder = this.device.gpu.createCommandEncoder({ label: cb.label });
    const debug = this.device.debug;
    let render: GPURenderPassEncoder | null = null;
    let compute: GPUComputePassEncoder | null = null;
    let pipeline: WebGPURenderPipeline | WebGPUComputePipeline | null = null;
    const slots = new Map<number, BoundResource>();
    let dirty = true;
    const flush = (): void => {
      if (!dirty || !pipeline) return;
      const pass = render ?? compute;
      for (const g of pipeline.layout.groups)
        pass?.setBindGroup(g.index, this.device.bindGroups.get(g, slots));
      dirty = false;
    };
    for (const c of cb.commands) {
      switch (c.type) {
        case 'beginRenderPass': {
          const p = c.pass;
          render = encoder.beginRenderPass({
            label: p.label,
            colorAttachments: p.colorAttachments.map((a) => ({
              view: (a.texture as WebGPUTexture).view,
              resolveTarget: a.resolveTarget ? (a.resolveTarget as WebGPUTexture).view : undefined,
              loadOp: a.loadOp,
              storeOp: a.storeOp,
              clearValue: a.clearValue,
            })),
            depthStencilAttachment: p.depthStencilAttachment
              ? {
                  view: (p.depthStencilAttachment.texture as WebGPUTexture).view,
                  depthLoadOp: p.depthStencilAttachment.depthLoadOp,
                  depthStoreOp: p.depthStencilAttachment.depthStoreOp,
                  depthClearValue: p.depthStencilAttachment.depthClearValue,
                }
              : undefined,
            timestampWrites: timestamps(p.timestampWrites),
          });
          slots.clear();
          pipeline = null;
          dirty = true;
          break;
        }
        case 'endRenderPass':
          within(render, c).end();
          render = null;
          break;
        case 'beginComputePass':
          compute = encoder.beginComputePass({
            label: c.label,
            timestampWrites: timestamps(c.timestampWrites),
          });
          slots.clear();
          pipeline = null;
          dirty = true;
          break;
        case 'endComputePass':
          within(compute, c).end();
          compute = null;
          break;
        case 'setRenderPipeline': {
          const next = c.pipeline as WebGPURenderPipeline;
          within(render, c).setPipeline(next.gpu);
          if (!pipeline || pipeline.layout.key !== next.layout.key) dirty = true;
          pipeline = next;
          break;
        }
        case 'setComputePipeline': {
          const next = c.pipeline as WebGPUComputePipeline;
          within(compute, c).setPipeline(next.gpu);
          if (!pipeline || pipeline.layout.key !== next.layout.key) dirty = true;
          pipeline = next;
          break;
        }
        case 'setBinding':
          if (!render && !compute) outsidePass(c);
          slots.set(c.slot, c.resource);
          dirty = true;
          break;
        case 'setVertexBuffer':
          within(render, c).setVertexBuffer(c.slot, gpuBuffer(c.buffer), c.offset);
          break;
        case 'setIndexBuffer':
          within(render, c).setIndexBuffer(gpuBuffer(c.buffer), c.format, c.offset);
          break;
        case 'setViewport':
          within(render, c).setViewport(c.x, c.y, c.width, c.height, c.minDepth, c.maxDepth);
          break;
        case 'setScissorRect':
          within(render, c).setScissorRect(c.x, c.y, c.width, c.height);
          break;
        case 'draw':
          flush();
          within(render, c).draw(c.vertexCount, c.instanceCount, c.firstVertex, c.firstInstance);
          break;
        case 'drawIndexed':
          flush();
          within(render, c).drawIndexed(
            c.indexCount,
            c.instanceCount,
            c.firstIndex,
            c.baseVertex,
            c.firstInstance,
          );
          break;
        case 'dispatch':
          flush();
          within(compute, c).dispatchWorkgroups(c.x, c.y, c.z);
          break;
        case 'dispatchIndirect':
          flush();
          within(compute, c).dispatchWorkgroupsIndirect(gpuBuffer(c.buffer), c.offset);
          break;
        case 'copyBufferToBuffer':
          encoder.copyBufferToBuffer(
            gpuBuffer(c.src),
            c.srcOffset,
            gpuBuffer(c.dst),
            c.dstOffset,
            c.size,
          );
          break;
        case 'copyBufferToTexture':
          encoder.copyBufferToTexture(
            { buffer: gpuBuffer(c.src), offset: c.offset, bytesPerRow: c.bytesPerRow },
            { texture: gpuTexture(c.dst), mipLevel: c.mipLevel, origin: [c.x, c.y] },
            [c.size.width, c.size.height],
          );
          break;
        case 'copyTextureToBuffer':
          encoder.copyTextureToBuffer(
            { texture: gpuTexture(c.src), mipLevel: c.mipLevel, origin: [c.x, c.y] },
            { buffer: gpuBuffer(c.dst), offset: c.offset, bytesPerRow: c.bytesPerRow },
            [c.size.width, c.size.height],
          );
          break;
        case 'copyTextureToTexture':
          encoder.copyTextureToTexture(
            { texture: gpuTexture(c.src), mipLevel: c.srcMip, origin: [c.srcX, c.srcY] },
            { texture: gpuTexture(c.dst), mipLevel: c.dstMip, origin: [c.dstX, c.dstY] },
            [c.size.width, c.size.height],
          );
          break;
        case 'pushDebugGroup':
          encoder.pushDebugGroup(c.label);
          break;
        case 'popDebugGroup':
          encoder.popDebugGroup();
          break;
        case 'barrier':
          // WebGPU orders passes itself. With `debug`, the barrier is a marker for captures; by
          // default nothing (a marker per barrier is a call across the binding: Deno pays ~10 µs)
          if (debug) encoder.insertDebugMarker(`barrier ${c.from} -> ${c.to}`);
          break;
        default:
          unreachable(c);
      }
    }
    return encoder.finish();
  }
}
