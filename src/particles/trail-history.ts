/**
 * The trail module's history: each particle's last `length` positions, a ring of `length` copies of
 * the position state, one written after every update step. It lives where the draw reads the
 * state (ribbon.ts):
 *
 * - state in buffers (compute; the CPU path on WebGPU): one buffer, copy k at elements
 *   [k · count, (k + 1) · count), written by `copyBufferToBuffer` (the CPU path: `writeBuffer`);
 * - state in textures (ping-pong; the CPU path on WebGL2): one texture `length` state textures
 *   tall, copy k at rows [k · h, (k + 1) · h), written by `copyTextureToTexture` (the CPU path:
 *   `writeTexture`).
 *
 * A copy is all the recording there is, so the history is exactly the states the update made, on
 * every path: the reference is the reference's positions, step after step. A sample's w is the
 * particle's age, which is how the ribbon knows where one life ends and the next begins (a birth
 * restarts the age at 0, so a segment joins two samples only when the newer one is older in age).
 */
import { LimitExceededError } from '../rhi/core/errors.js';
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { ElementwiseRunner } from '../compute/elementwise.js';
import { fromHalfs, padToTexels } from '../compute/pack.js';

export class TrailHistory {
  readonly length: number;
  readonly count: number;
  /** Buffers: the ring in one buffer (null when it is a texture). */
  readonly buffer: Buffer | null;
  /** Textures: the ring as `length` state textures stacked (null when it is a buffer). */
  readonly texture: Texture | null;
  /** The copy the last record wrote. */
  head: number;
  /** Copies recorded since the last reset, at most `length` (the ribbon draws no older ones). */
  filled = 0;
  /** The simulation's time (seconds) when each ring slot was recorded. */
  readonly times: Float64Array;
  readonly #device: Device;
  readonly #runner: ElementwiseRunner;

  constructor(device: Device, runner: ElementwiseRunner, length: number) {
    this.#device = device;
    this.#runner = runner;
    this.length = length;
    this.count = runner.count;
    this.head = length - 1;
    this.times = new Float64Array(length);
    const position = runner.buffers['position'];
    if (position) {
      const size = 16 * runner.count * length;
      if (size > device.caps.limits.maxStorageBufferBindingSize)
        throw new LimitExceededError(
          'maxStorageBufferBindingSize',
          size,
          device.caps.limits.maxStorageBufferBindingSize,
          `particle trails (${runner.count} particles × ${length} positions × 16 bytes)`,
        );
      this.buffer = device.createBuffer({
        label: `particles trail (${length} positions)`,
        size,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      this.texture = null;
    } else {
      const state = runner.textures['position'] as Texture;
      const height = runner.size.height * length;
      const max = device.caps.limits.maxTextureDimension2D;
      if (height > max)
        throw new LimitExceededError(
          'maxTextureDimension2D',
          height,
          max,
          `particle trails (${length} copies of a ${runner.size.width}x${runner.size.height} state texture, stacked)`,
        );
      this.texture = device.createTexture({
        label: `particles trail (${length} positions)`,
        size: { width: runner.size.width, height },
        format: state.format,
        usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST | TextureUsage.COPY_SRC,
      });
      this.buffer = null;
    }
  }

  /** GPU bytes per particle. */
  get bytesPerParticle(): number {
    return this.buffer
      ? 16 * this.length
      : (this.texture!.format === 'rgba16float' ? 8 : 16) * this.length;
  }

  /** Copies the position state the last step wrote (at simulation time `time`) into the next slot. */
  record(encoder: CommandEncoder, time: number): void {
    const next = (this.head + 1) % this.length;
    const runner = this.#runner;
    const host = runner.host;
    if (this.buffer) {
      if (host) {
        // the CPU path: its arrays go straight to the slot (the queue orders the writes)
        this.#device.queue.writeBuffer(this.buffer, 16 * this.count * next, host['position']!);
      } else {
        const position = runner.buffers['position'] as Buffer;
        encoder.barrier({ from: 'compute-write', to: 'copy-read', resources: [position] });
        encoder.copyBufferToBuffer(
          position,
          0,
          this.buffer,
          16 * this.count * next,
          16 * this.count,
        );
        encoder.barrier({ from: 'copy-write', to: 'vertex-read', resources: [this.buffer] });
      }
    } else {
      const texture = this.texture as Texture;
      const { width, height } = runner.size;
      if (host) {
        this.#device.queue.writeTexture(
          { texture, origin: { x: 0, y: height * next } },
          padToTexels(host['position']!, runner.size),
          { bytesPerRow: 16 * width },
          { width, height },
        );
      } else {
        const position = runner.textures['position'] as Texture;
        encoder.barrier({ from: 'render-write', to: 'copy-read', resources: [position] });
        encoder.copyTextureToTexture(
          { texture: position },
          { texture, origin: { x: 0, y: height * next } },
          { width, height },
        );
        encoder.barrier({ from: 'copy-write', to: 'vertex-read', resources: [texture] });
      }
    }
    this.head = next;
    this.times[next] = time;
    this.filled = Math.min(this.filled + 1, this.length);
  }

  /** Forgets what was recorded (a reset, a re-seed, a restored device): the ribbons start again. */
  reset(): void {
    this.head = this.length - 1;
    this.filled = 0;
  }

  /**
   * The recorded positions, newest first: `length` × count × 4 floats, copy k (k steps ago) at
   * [4 · count · k, 4 · count · (k + 1)); copies not yet recorded are zeros. For tests and tools.
   */
  async read(): Promise<Float32Array> {
    const out = new Float32Array(4 * this.count * this.length);
    let ring: Float32Array;
    if (this.buffer) ring = new Float32Array(await this.buffer.read());
    else {
      const texels = await (this.texture as Texture).read();
      ring = texels instanceof Uint16Array ? fromHalfs(texels) : (texels as Float32Array);
    }
    const per = 4 * (this.buffer ? this.count : this.#runner.size.width * this.#runner.size.height);
    for (let k = 0; k < this.filled; k++) {
      const slot = (this.head - k + this.length) % this.length;
      out.set(ring.subarray(per * slot, per * slot + 4 * this.count), 4 * this.count * k);
    }
    return out;
  }

  destroy(): void {
    this.buffer?.destroy();
    this.texture?.destroy();
  }
}
