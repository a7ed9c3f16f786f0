import { Buffer } from '../core/buffer.js';
import { BufferUsage } from '../core/flags.js';
import type { BufferDescriptor } from '../core/descriptors.js';
import type { WebGL2Device } from './device.js';
import { waitForFence } from './readback.js';

/**
 * A GL buffer object. WebGL forbids an index buffer from ever being bound to another target, so
 * INDEX buffers live on ELEMENT_ARRAY_BUFFER and everything else on COPY_WRITE_BUFFER for uploads.
 */
export class WebGL2Buffer extends Buffer {
  readonly gl: WebGLBuffer;
  readonly target: number;
  readonly #device: WebGL2Device;

  constructor(device: WebGL2Device, desc: BufferDescriptor) {
    super(device, desc);
    this.#device = device;
    const gl = device.gl;
    this.gl = gl.createBuffer();
    this.target = desc.usage & BufferUsage.INDEX ? gl.ELEMENT_ARRAY_BUFFER : gl.COPY_WRITE_BUFFER;
    const hint =
      desc.usage & (BufferUsage.MAP_READ | BufferUsage.COPY_SRC)
        ? gl.DYNAMIC_COPY
        : gl.DYNAMIC_DRAW;
    this.#bindForUpload();
    gl.bufferData(this.target, desc.size, hint);
    this.#unbind();
    if (desc.mappedAtCreation) this.beginMappedAtCreation();
  }

  #bindForUpload(): void {
    const gl = this.#device.gl;
    if (this.target === gl.ELEMENT_ARRAY_BUFFER) this.#device.state.bindVertexArray(null);
    gl.bindBuffer(this.target, this.gl);
  }

  #unbind(): void {
    this.#device.gl.bindBuffer(this.target, null);
  }

  /** Uploads bytes at `offset` (writeBuffer and unmap of mappedAtCreation). */
  upload(offset: number, data: Uint8Array): void {
    this.#bindForUpload();
    this.#device.gl.bufferSubData(this.target, offset, data);
    this.#unbind();
  }

  protected uploadImpl(offset: number, data: Uint8Array): void {
    this.upload(offset, data);
  }

  protected async readImpl(offset: number, size: number): Promise<ArrayBuffer> {
    const gl = this.#device.gl;
    const pool = this.#device.readback;
    const staging = pool.acquire(size);
    gl.bindBuffer(gl.COPY_READ_BUFFER, this.gl);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, staging.buffer);
    gl.copyBufferSubData(gl.COPY_READ_BUFFER, gl.COPY_WRITE_BUFFER, offset, 0, size);
    gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
    await waitForFence(gl);
    return pool.finish(staging, size);
  }

  protected destroyImpl(): void {
    this.#device.vaos.evict(this.id);
    this.#device.gl.deleteBuffer(this.gl);
  }
}
