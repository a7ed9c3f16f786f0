import { BackendError, DeviceLostError } from '../core/errors.js';

/**
 * Non-blocking GPU completion in WebGL2: a `fenceSync` polled with `clientWaitSync(…, 0)` from
 * timers. `gl.finish()` returns at once in Chromium and proves nothing; a synchronous
 * `getBufferSubData` before the fence signals would stall the frame, so it is only called after.
 */
export function waitForFence(gl: WebGL2RenderingContext): Promise<void> {
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  if (!sync) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      if (gl.isContextLost()) {
        gl.deleteSync(sync);
        reject(
          new DeviceLostError(
            'context-lost',
            'the WebGL2 context was lost while waiting for the GPU',
          ),
        );
        return;
      }
      const status = gl.clientWaitSync(sync, 0, 0);
      if (status === gl.WAIT_FAILED) {
        gl.deleteSync(sync);
        reject(new BackendError('clientWaitSync returned WAIT_FAILED while waiting for the GPU'));
      } else if (status === gl.TIMEOUT_EXPIRED) {
        setTimeout(poll, 0);
      } else {
        gl.deleteSync(sync);
        resolve();
      }
    };
    setTimeout(poll, 0);
  });
}

/**
 * A pool of GL buffers that readbacks copy into (a pixel-pack buffer for textures,
 * copyBufferSubData for buffers) so the source can change again at once.
 */
const MAX_FREE = 8;

export class ReadbackPool {
  readonly #free: Array<{ buffer: WebGLBuffer; size: number }> = [];
  created = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /** Staging buffers waiting in the pool now (at most 8). */
  get free(): number {
    return this.#free.length;
  }

  acquire(size: number): { buffer: WebGLBuffer; size: number } {
    const i = this.#free.findIndex((b) => b.size >= size && b.size <= size * 4);
    if (i >= 0) return this.#free.splice(i, 1)[0] as { buffer: WebGLBuffer; size: number };
    const gl = this.gl;
    const rounded = Math.max(256, 2 ** Math.ceil(Math.log2(size)));
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, buffer);
    gl.bufferData(gl.COPY_WRITE_BUFFER, rounded, gl.STREAM_READ);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
    this.created++;
    return { buffer, size: rounded };
  }

  /** After the fence: copies `size` bytes out and returns the buffer to the pool. */
  finish(entry: { buffer: WebGLBuffer; size: number }, size: number): ArrayBuffer {
    const gl = this.gl;
    const out = new Uint8Array(size);
    gl.bindBuffer(gl.COPY_READ_BUFFER, entry.buffer);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, out);
    gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    // keep a few for the next frames; a burst of concurrent reads must not pin memory forever
    if (this.#free.length < MAX_FREE) this.#free.push(entry);
    else gl.deleteBuffer(entry.buffer);
    return out.buffer;
  }

  destroy(): void {
    for (const b of this.#free.splice(0)) this.gl.deleteBuffer(b.buffer);
  }
}
