import { Queue } from '../core/queue.js';
import type { CommandBuffer } from '../core/command-buffer.js';
import type { Buffer } from '../core/buffer.js';
import type { Texture } from '../core/texture.js';
import type { Extent2D } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';
import type { WebGPUBuffer } from './buffer.js';
import type { WebGPUTexture } from './texture.js';
import { WebGPUCommandEncoder } from './command-encoder.js';

const gpuBuffer = (b: Buffer): GPUBuffer => (b as WebGPUBuffer).gpu;
const gpuTexture = (t: Texture): GPUTexture => (t as WebGPUTexture).gpu;

/** Uploads, and submits what `WebGPUCommandEncoder` encoded (while recording, or as a replay). */
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
      this.device.gpu.queue.submit(commandBuffers.map((cb) => this.#encoded(cb)));
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

  /** What was encoded while recording, or a replay (with `debug`, or recorded before a restore). */
  #encoded(cb: CommandBuffer): GPUCommandBuffer {
    const sink = cb.encoded;
    return sink instanceof WebGPUCommandEncoder && sink.gpuDevice === this.device.gpu
      ? sink.commandBuffer
      : WebGPUCommandEncoder.replay(this.device, cb);
  }
}
