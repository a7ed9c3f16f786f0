import { ALL_BUFFER_USAGE_BITS, BufferUsage, usageNames } from '../flags.js';
import { LimitExceededError, UsageError, ValidationError } from '../errors.js';
import type { Limits } from '../caps.js';
import type { BufferDescriptor } from '../descriptors.js';
import { show } from '../show.js';

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function validateBufferUsage(usage: unknown, label?: string): asserts usage is number {
  if (!isPositiveInteger(usage)) {
    throw new ValidationError(
      'buffer-usage-zero',
      `Buffer usage ${show(usage)} must be a non-zero set of BufferUsage bits`,
      label,
      { usage },
    );
  }
  if ((usage & ~ALL_BUFFER_USAGE_BITS) !== 0) {
    throw new ValidationError(
      'buffer-usage-unknown-bits',
      `Buffer usage 0x${usage.toString(16)} has bits outside BufferUsage`,
      label,
      { usage },
    );
  }
  const actual = usageNames(usage, BufferUsage);
  if (
    usage & BufferUsage.MAP_READ &&
    (usage & ~(BufferUsage.MAP_READ | BufferUsage.COPY_DST)) !== 0
  ) {
    throw new UsageError(
      `Buffer usage ${actual}: MAP_READ may only be combined with COPY_DST`,
      'MAP_READ|COPY_DST',
      actual,
      label,
    );
  }
  if (
    usage & BufferUsage.MAP_WRITE &&
    (usage & ~(BufferUsage.MAP_WRITE | BufferUsage.COPY_SRC)) !== 0
  ) {
    throw new UsageError(
      `Buffer usage ${actual}: MAP_WRITE may only be combined with COPY_SRC`,
      'MAP_WRITE|COPY_SRC',
      actual,
      label,
    );
  }
}

export function validateBufferDescriptor(desc: BufferDescriptor, limits: Limits): void {
  const { size, label } = desc;
  // WebGPU: any size from 0 to maxBufferSize; a multiple of 4 only when mapped at creation
  if (!isNonNegativeInteger(size)) {
    throw new ValidationError(
      'buffer-size-positive',
      `Buffer size ${show(size)} must be an integer ≥ 0 (bytes)`,
      label,
      { size },
    );
  }
  if (size > limits.maxBufferSize) {
    throw new LimitExceededError('maxBufferSize', size, limits.maxBufferSize, 'Buffer size', label);
  }
  validateBufferUsage(desc.usage, label);
  if (desc.mappedAtCreation === true && size % 4 !== 0) {
    throw new ValidationError(
      'buffer-size-alignment',
      `Buffer size ${size} must be a multiple of 4 when mappedAtCreation is true`,
      label,
      { size },
    );
  }
}

/** `queue.writeBuffer(buffer, offset, data)`: offset and byte size multiples of 4, in range. */
export function validateWriteBuffer(
  bufferSize: number,
  offset: number,
  byteLength: number,
  label?: string,
): void {
  if (!isNonNegativeInteger(offset) || offset % 4 !== 0) {
    throw new ValidationError(
      'write-buffer-offset',
      `writeBuffer offset ${String(offset)} must be a non-negative multiple of 4`,
      label,
      { offset },
    );
  }
  if (byteLength % 4 !== 0) {
    throw new ValidationError(
      'write-buffer-size',
      `writeBuffer data size ${byteLength} must be a multiple of 4`,
      label,
      { size: byteLength },
    );
  }
  if (offset + byteLength > bufferSize) {
    throw new ValidationError(
      'write-buffer-range',
      `writeBuffer of ${byteLength} bytes at offset ${offset} overruns the buffer of ${bufferSize} bytes`,
      label,
      { offset, size: byteLength, bufferSize },
    );
  }
}

/**
 * A range [offset, offset + size) of a buffer: multiples of 4 and inside it. A binding's range
 * (`binding`) may not be empty, and a uniform binding's size has no alignment (`sizeMultiple` 1):
 * WebGPU's createBindGroup rules.
 */
export function validateBufferRange(
  what: string,
  bufferSize: number,
  offset: number,
  size: number,
  label?: string,
  binding?: { sizeMultiple: number },
): void {
  if (!isNonNegativeInteger(offset) || offset % 4 !== 0) {
    throw new ValidationError(
      `${what}-offset`,
      `${what} offset ${show(offset)} must be a non-negative multiple of 4`,
      label,
      { offset },
    );
  }
  const multiple = binding?.sizeMultiple ?? 4;
  if (!isNonNegativeInteger(size) || size % multiple !== 0 || (binding && size === 0)) {
    throw new ValidationError(
      `${what}-size`,
      `${what} size ${show(size)} must be ${binding ? 'a positive' : 'a non-negative'} ${multiple === 1 ? 'integer' : `multiple of ${multiple}`}`,
      label,
      { size },
    );
  }
  if (offset + size > bufferSize) {
    throw new ValidationError(
      `${what}-range`,
      `${what} of ${size} bytes at offset ${offset} overruns the buffer of ${bufferSize} bytes`,
      label,
      {
        offset,
        size,
        bufferSize,
      },
    );
  }
}

export function requireBufferUsage(
  usage: number,
  bit: number,
  operation: string,
  label?: string,
): void {
  if ((usage & bit) === 0) {
    const required = usageNames(bit, BufferUsage);
    const actual = usageNames(usage, BufferUsage);
    throw new UsageError(
      `${operation} needs BufferUsage.${required}, but the buffer's usage is ${actual}`,
      required,
      actual,
      label,
    );
  }
}
