/**
 * The WGSL types a portable kernel may use, their memory layout (the WGSL specification's
 * "Alignment and Size" rules, which the storage buffers and the uniform blocks follow) and how each
 * is spelled in GLSL ES 3.00. f16 and storage textures are not portable, the analysis rejects them
 * before a type is built; an atomic is a type of its own (only the CPU path runs it); a pointer
 * parameter is typed as what it points to.
 */
export type Scalar = 'f32' | 'i32' | 'u32' | 'bool';

export interface StructMember {
  readonly name: string;
  readonly type: WType;
  /** Byte offset in the storage / uniform layout. */
  readonly offset: number;
}

export type WType =
  | { readonly kind: 'scalar'; readonly scalar: Scalar }
  /** A literal without suffix (`1`, `-3`): its type comes from where it is used (i32 by default). */
  | { readonly kind: 'abstract-int' }
  | { readonly kind: 'vec'; readonly n: 2 | 3 | 4; readonly scalar: Scalar }
  /** `matCxR<f32>`: `cols` column vectors of `rows` floats (column-major, as WGSL and GLSL). */
  | { readonly kind: 'mat'; readonly cols: 2 | 3 | 4; readonly rows: 2 | 3 | 4 }
  | {
      readonly kind: 'struct';
      readonly name: string;
      readonly members: readonly StructMember[];
      readonly size: number;
      readonly align: number;
    }
  /** `count` 0: a runtime-sized array (the last thing in a storage buffer). */
  | {
      readonly kind: 'array';
      readonly element: WType;
      readonly count: number;
      readonly stride: number;
    }
  /** `atomic<u32>` / `atomic<i32>`: read and written only through the atomic built-ins. */
  | { readonly kind: 'atomic'; readonly scalar: 'u32' | 'i32' }
  | { readonly kind: 'void' };

export const F32: WType = { kind: 'scalar', scalar: 'f32' };
export const I32: WType = { kind: 'scalar', scalar: 'i32' };
export const U32: WType = { kind: 'scalar', scalar: 'u32' };
export const BOOL: WType = { kind: 'scalar', scalar: 'bool' };
export const ABSTRACT_INT: WType = { kind: 'abstract-int' };
export const VOID: WType = { kind: 'void' };

export const scalar = (s: Scalar): WType => ({ kind: 'scalar', scalar: s });
export const vec = (n: 2 | 3 | 4, s: Scalar): WType => ({ kind: 'vec', n, scalar: s });
export const mat = (cols: 2 | 3 | 4, rows: 2 | 3 | 4): WType => ({ kind: 'mat', cols, rows });
/** Bytes from one column of a matrix to the next (a column is aligned as a vector of its rows). */
export const columnStride = (rows: 2 | 3 | 4): number => (rows === 2 ? 8 : 16);

const roundUp = (k: number, n: number): number => Math.ceil(n / k) * k;

export function alignOf(t: WType): number {
  switch (t.kind) {
    case 'scalar':
    case 'abstract-int':
    case 'atomic':
      return 4;
    case 'vec':
      return t.n === 2 ? 8 : 16;
    case 'mat':
      return columnStride(t.rows);
    case 'struct':
      return t.align;
    case 'array':
      return alignOf(t.element);
    case 'void':
      return 1;
  }
}

export function sizeOf(t: WType): number {
  switch (t.kind) {
    case 'scalar':
    case 'abstract-int':
    case 'atomic':
      return 4;
    case 'vec':
      return 4 * t.n;
    case 'mat':
      return t.cols * columnStride(t.rows);
    case 'struct':
      return t.size;
    case 'array':
      return t.count * t.stride;
    case 'void':
      return 0;
  }
}

/** A struct with WGSL's offsets: each member at the next multiple of its alignment. */
export function makeStruct(name: string, members: ReadonlyArray<[string, WType]>): WType {
  let offset = 0;
  let align = 1;
  const out: StructMember[] = [];
  for (const [n, type] of members) {
    const a = alignOf(type);
    offset = roundUp(a, offset);
    out.push({ name: n, type, offset });
    offset += sizeOf(type);
    align = Math.max(align, a);
  }
  return { kind: 'struct', name, members: out, size: roundUp(align, offset), align };
}

export function makeArray(element: WType, count: number): WType {
  return { kind: 'array', element, count, stride: roundUp(alignOf(element), sizeOf(element)) };
}

/** How many elements an index into `t` can reach (an array's, a vector's, a matrix's columns); 0 for a runtime-sized array or anything else. */
export function indexBound(t: WType): number {
  return t.kind === 'array' ? t.count : t.kind === 'vec' ? t.n : t.kind === 'mat' ? t.cols : 0;
}

/** The scalar a value of `t` is made of (the component type of a vector). */
/** Whether a value of `t` is or holds an atomic (WGSL loads, stores and builds none of them). */
export function holdsAtomic(t: WType): boolean {
  if (t.kind === 'atomic') return true;
  if (t.kind === 'struct') return t.members.some((m) => holdsAtomic(m.type));
  if (t.kind === 'array') return holdsAtomic(t.element);
  return false;
}

export function scalarOf(t: WType): Scalar | undefined {
  if (t.kind === 'scalar' || t.kind === 'vec') return t.scalar;
  if (t.kind === 'abstract-int') return 'i32';
  if (t.kind === 'atomic') return t.scalar;
  if (t.kind === 'mat') return 'f32';
  return undefined;
}

export function isNumeric(t: WType): boolean {
  return (t.kind === 'scalar' || t.kind === 'vec') && t.scalar !== 'bool';
}

export function sameType(a: WType, b: WType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'scalar':
      return a.scalar === (b as typeof a).scalar;
    case 'vec':
      return a.n === (b as typeof a).n && a.scalar === (b as typeof a).scalar;
    case 'mat':
      return a.cols === (b as typeof a).cols && a.rows === (b as typeof a).rows;
    case 'struct':
      return a.name === (b as typeof a).name;
    case 'array':
      return a.count === (b as typeof a).count && sameType(a.element, (b as typeof a).element);
    case 'atomic':
      return a.scalar === (b as typeof a).scalar;
    default:
      return true;
  }
}

/** The WGSL spelling, for messages. */
export function wgslName(t: WType): string {
  switch (t.kind) {
    case 'scalar':
      return t.scalar;
    case 'abstract-int':
      return 'abstract-int';
    case 'atomic':
      return `atomic<${t.scalar}>`;
    case 'vec':
      return `vec${t.n}<${t.scalar}>`;
    case 'mat':
      return `mat${t.cols}x${t.rows}<f32>`;
    case 'struct':
      return t.name;
    case 'array':
      return t.count
        ? `array<${wgslName(t.element)}, ${t.count}>`
        : `array<${wgslName(t.element)}>`;
    case 'void':
      return 'void';
  }
}

const GLSL_SCALAR: Record<Scalar, string> = { f32: 'float', i32: 'int', u32: 'uint', bool: 'bool' };
const GLSL_VEC_PREFIX: Record<Scalar, string> = { f32: '', i32: 'i', u32: 'u', bool: 'b' };

/** The GLSL ES 3.00 spelling (arrays as `T[n]`). */
export function glslName(t: WType): string {
  switch (t.kind) {
    case 'scalar':
      return GLSL_SCALAR[t.scalar];
    case 'abstract-int':
      return 'int';
    case 'atomic':
      throw new Error('internal: atomics have no GLSL form (the ping-pong path refuses them)');
    case 'vec':
      return `${GLSL_VEC_PREFIX[t.scalar]}vec${t.n}`;
    case 'mat':
      return t.cols === t.rows ? `mat${t.cols}` : `mat${t.cols}x${t.rows}`;
    case 'struct':
      return t.name;
    case 'array':
      return `${glslName(t.element)}[${t.count}]`;
    case 'void':
      return 'void';
  }
}

/** The 32-bit words of a value of `t` in memory, in order, as [byte offset, scalar] (padding skipped). */
export function wordsOf(
  t: WType,
  base = 0,
  member: (name: string) => string = (n) => n,
): Array<[number, Scalar, string]> {
  switch (t.kind) {
    case 'scalar':
    case 'abstract-int':
    case 'atomic':
      return [[base, scalarOf(t) as Scalar, '']];
    case 'vec':
      return Array.from({ length: t.n }, (_, i) => [
        base + 4 * i,
        t.scalar,
        `.${'xyzw'[i] as string}`,
      ]);
    case 'mat':
      return Array.from({ length: t.cols * t.rows }, (_, k) => {
        const [c, r] = [Math.floor(k / t.rows), k % t.rows];
        return [base + c * columnStride(t.rows) + 4 * r, 'f32', `[${c}][${r}]`];
      });
    case 'struct':
      return t.members.flatMap((m) =>
        wordsOf(m.type, base + m.offset, member).map(
          ([o, s, path]) => [o, s, `.${member(m.name)}${path}`] as [number, Scalar, string],
        ),
      );
    case 'array':
      return Array.from({ length: t.count }, (_, i) =>
        wordsOf(t.element, base + i * t.stride, member).map(
          ([o, s, path]) => [o, s, `[${i}]${path}`] as [number, Scalar, string],
        ),
      ).flat();
    case 'void':
      return [];
  }
}
