/**
 * Usage flags, bit-identical to WebGPU's `GPUBufferUsage` / `GPUTextureUsage`, so the WebGPU
 * backend passes them through unchanged and the other backends read the same bits.
 */
export const BufferUsage = {
  /** The CPU may map the buffer for reading. Only legal together with COPY_DST. */
  MAP_READ: 0x0001,
  /** The CPU may map the buffer for writing. Only legal together with COPY_SRC. */
  MAP_WRITE: 0x0002,
  /** Source of a copy; also what `buffer.read()` needs. */
  COPY_SRC: 0x0004,
  /** Destination of a copy or of `queue.writeBuffer`. */
  COPY_DST: 0x0008,
  /** Index buffer of `drawIndexed`. */
  INDEX: 0x0010,
  /** Vertex or instance data of a draw. */
  VERTEX: 0x0020,
  /** Uniform block. */
  UNIFORM: 0x0040,
  /** Read or read-write storage buffer of a compute (or fragment) stage. WebGL2 lacks it. */
  STORAGE: 0x0080,
  /** Arguments of `dispatchIndirect` / indirect draws. WebGL2 lacks it. */
  INDIRECT: 0x0100,
  /** Destination of `resolveQuerySet`. */
  QUERY_RESOLVE: 0x0200,
} as const;
/** A combination of `BufferUsage` bits. */
export type BufferUsageFlags = number;

/** Texture usage bits (the same values as `GPUTextureUsage`). */
export const TextureUsage = {
  /** Source of a copy; also what `texture.read()` needs. */
  COPY_SRC: 0x01,
  /** Destination of a copy or of `queue.writeTexture`. */
  COPY_DST: 0x02,
  /** Sampled or loaded in a shader. */
  TEXTURE_BINDING: 0x04,
  /** Written as a storage texture by compute. WebGL2 lacks it. */
  STORAGE_BINDING: 0x08,
  /** Color or depth attachment of a render pass. */
  RENDER_ATTACHMENT: 0x10,
} as const;
/** A combination of `TextureUsage` bits. */
export type TextureUsageFlags = number;

export const ALL_BUFFER_USAGE_BITS = 0x03ff;
export const ALL_TEXTURE_USAGE_BITS = 0x1f;

/** Names of the bits set in `flags`, for error messages: `COPY_SRC|VERTEX`. */
export function usageNames(flags: number, table: Record<string, number>): string {
  const names = Object.entries(table)
    .filter(([, bit]) => (flags & bit) !== 0)
    .map(([name]) => name);
  return names.length > 0 ? names.join('|') : '0';
}
