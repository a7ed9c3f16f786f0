/**
 * A pool of MAP_READ | COPY_DST buffers for readback. `read()` encodes a copy into a free staging
 * buffer, submits it behind the work already queued, maps it when the GPU is done and gives the
 * bytes back; the buffer returns to the pool. Nothing waits synchronously.
 */
const MAX_FREE = 8;

export class ReadbackPool {
  readonly #free: GPUBuffer[] = [];
  #created = 0;

  constructor(private readonly device: GPUDevice) {}

  /** Staging buffers created so far (a steady readback loop stops growing it). */
  get created(): number {
    return this.#created;
  }

  /** Staging buffers waiting in the pool now (at most 8). */
  get free(): number {
    return this.#free.length;
  }

  #acquire(size: number): GPUBuffer {
    const i = this.#free.findIndex((b) => b.size >= size && b.size <= size * 4);
    if (i >= 0) return this.#free.splice(i, 1)[0] as GPUBuffer;
    this.#created++;
    const rounded = Math.max(256, 2 ** Math.ceil(Math.log2(size)));
    return this.device.createBuffer({
      label: 'ignis staging',
      size: rounded,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  async read(
    size: number,
    encode: (encoder: GPUCommandEncoder, staging: GPUBuffer) => void,
  ): Promise<ArrayBuffer> {
    const staging = this.#acquire(size);
    const encoder = this.device.createCommandEncoder({ label: 'ignis readback' });
    encode(encoder, staging);
    this.device.queue.submit([encoder.finish()]);
    try {
      await staging.mapAsync(GPUMapMode.READ, 0, size);
      const out = staging.getMappedRange(0, size).slice(0);
      staging.unmap();
      // keep a few for the next frames; a burst of concurrent reads must not pin memory forever
      if (this.#free.length < MAX_FREE) this.#free.push(staging);
      else staging.destroy();
      return out;
    } catch (e) {
      staging.destroy();
      throw e;
    }
  }

  destroy(): void {
    for (const b of this.#free.splice(0)) b.destroy();
  }
}
