import { Buffer } from '../core/buffer.js';
import type { BufferDescriptor } from '../core/descriptors.js';
import type { NullDevice } from './device.js';

export class NullBuffer extends Buffer {
  /** The buffer's contents. */
  readonly bytes: Uint8Array;
  constructor(device: NullDevice, desc: BufferDescriptor) {
    super(device, desc);
    this.bytes = new Uint8Array(desc.size);
    if (desc.mappedAtCreation) this.beginMappedAtCreation();
  }
  protected uploadImpl(offset: number, data: Uint8Array): void {
    this.bytes.set(data, offset);
  }
  protected readImpl(offset: number, size: number): Promise<ArrayBuffer> {
    return Promise.resolve(this.bytes.slice(offset, offset + size).buffer);
  }
  protected destroyImpl(): void {}
}
