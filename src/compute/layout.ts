/**
 * Uniform struct layout shared by WGSL's uniform address space and GLSL's std140 for the types
 * kernels may use: scalars 4-byte aligned, vec2 8, vec3 and vec4 16, a scalar may fill a vec3's
 * fourth slot, the struct rounded up to 16 bytes. The same bytes feed both languages.
 */
export type UniformType = 'f32' | 'u32' | 'i32' | 'vec2f' | 'vec3f' | 'vec4f';

const INFO: Record<UniformType, { size: number; align: number }> = {
  f32: { size: 4, align: 4 },
  u32: { size: 4, align: 4 },
  i32: { size: 4, align: 4 },
  vec2f: { size: 8, align: 8 },
  vec3f: { size: 12, align: 16 },
  vec4f: { size: 16, align: 16 },
};

export const UNIFORM_TYPES = Object.keys(INFO) as UniformType[];

export interface UniformField {
  readonly name: string;
  readonly type: UniformType;
  /** Byte offset in the struct. */
  readonly offset: number;
}

/** A std140-style uniform block layout: each field's byte offset and the block size. */
export interface UniformLayout {
  readonly fields: readonly UniformField[];
  /** Struct size in bytes, a multiple of 16. */
  readonly size: number;
}

/** Lays out uniform fields in declaration order with WGSL/std140 alignment. */
export function uniformLayout(
  fields: ReadonlyArray<readonly [string, UniformType]>,
): UniformLayout {
  let offset = 0;
  const out: UniformField[] = [];
  for (const [name, type] of fields) {
    const { size, align } = INFO[type];
    offset = Math.ceil(offset / align) * align;
    out.push({ name, type, offset });
    offset += size;
  }
  return { fields: out, size: Math.max(16, Math.ceil(offset / 16) * 16) };
}

/** A uniform field's value: a scalar or a vector/array of numbers. */
export type UniformValue = number | readonly number[];

/** Writes values into a struct-sized ArrayBuffer by the layout; integers go in as u32/i32 bits. */
export function packUniforms(
  layout: UniformLayout,
  values: Readonly<Record<string, UniformValue>>,
  into?: ArrayBuffer,
): ArrayBuffer {
  const packer = new UniformPacker(layout, into);
  packer.write(values);
  return packer.buffer;
}

/**
 * A reusable struct buffer for a layout: `clear()` then `write()` each use, and hand `buffer` to
 * `queue.writeBuffer` (which copies it). Nothing is allocated per use.
 */
export class UniformPacker {
  readonly buffer: ArrayBuffer;
  readonly #f32: Float32Array;
  readonly #u32: Uint32Array;
  readonly #i32: Int32Array;

  constructor(
    readonly layout: UniformLayout,
    into?: ArrayBuffer,
  ) {
    this.buffer = into ?? new ArrayBuffer(layout.size);
    this.#f32 = new Float32Array(this.buffer);
    this.#u32 = new Uint32Array(this.buffer);
    this.#i32 = new Int32Array(this.buffer);
  }

  clear(): void {
    this.#u32.fill(0);
  }

  /** Writes the given fields (others keep their bytes). */
  write(values: Readonly<Record<string, UniformValue>>): void {
    for (const field of this.layout.fields) {
      const v = values[field.name];
      if (v === undefined) continue;
      const at = field.offset / 4;
      if (field.type === 'u32') this.#u32[at] = Number(v) >>> 0;
      else if (field.type === 'i32') this.#i32[at] = Number(v) | 0;
      else if (typeof v === 'number') this.#f32[at] = v;
      else this.#f32.set(v, at);
    }
  }
}
