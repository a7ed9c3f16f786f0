/**
 * Sizes of WGSL types in the uniform and storage address spaces (the WGSL specification's
 * "Alignment and Size" table: vec3 aligns to 16, a matrix is an array of column vectors, a struct
 * aligns to its largest member and rounds its size up to that), for the structs a module declares.
 * Used to check that a uniform binding holds the struct the shader reads (WebGPU's
 * `minBindingSize` from the shader). Unknown types give `undefined`: no check rather than a wrong one.
 */
interface Layout {
  size: number;
  align: number;
}

const roundUp = (k: number, n: number): number => Math.ceil(n / k) * k;

const SCALARS: Record<string, Layout> = {
  f32: { size: 4, align: 4 },
  i32: { size: 4, align: 4 },
  u32: { size: 4, align: 4 },
  f16: { size: 2, align: 2 },
  bool: { size: 4, align: 4 },
};
const SUFFIX: Record<string, string> = { f: 'f32', i: 'i32', u: 'u32', h: 'f16' };

function vector(n: number, scalar: Layout): Layout {
  return { size: n * scalar.size, align: (n === 3 ? 4 : n) * scalar.size };
}

/** The structs of `code`, by name: member type strings in order. */
function structs(code: string): Map<string, string[]> {
  const src = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const out = new Map<string, string[]>();
  for (const m of src.matchAll(/\bstruct\s+(\w+)\s*\{([^}]*)\}/g)) {
    const members: string[] = [];
    // split on commas outside <…>
    let depth = 0;
    let current = '';
    for (const ch of m[2] as string) {
      if (ch === '<') depth++;
      if (ch === '>') depth--;
      if ((ch === ',' || ch === ';') && depth === 0) {
        members.push(current);
        current = '';
      } else current += ch;
    }
    members.push(current);
    out.set(
      m[1] as string,
      members
        .map((x) => x.replace(/@\w+(\([^)]*\))?/g, '').trim())
        .filter(Boolean)
        .map((x) => x.slice(x.indexOf(':') + 1).trim()),
    );
  }
  return out;
}

function layoutOf(type: string, defs: Map<string, string[]>, depth = 0): Layout | undefined {
  if (depth > 16) return undefined;
  const t = type.replace(/\s/g, '');
  if (SCALARS[t]) return SCALARS[t];
  const atomic = /^atomic<(\w+)>$/.exec(t);
  if (atomic) return SCALARS[atomic[1] as string];
  let m = /^vec([234])([fiuh])$/.exec(t) ?? /^vec([234])<(\w+)>$/.exec(t);
  if (m) {
    const scalar = SCALARS[SUFFIX[m[2] as string] ?? (m[2] as string)];
    return scalar ? vector(Number(m[1]), scalar) : undefined;
  }
  m = /^mat([234])x([234])([fh])$/.exec(t) ?? /^mat([234])x([234])<(\w+)>$/.exec(t);
  if (m) {
    const scalar = SCALARS[SUFFIX[m[3] as string] ?? (m[3] as string)];
    if (!scalar) return undefined;
    const column = vector(Number(m[2]), scalar);
    return { size: Number(m[1]) * roundUp(column.align, column.size), align: column.align };
  }
  m = /^array<(.+?)(?:,(\d+)u?)?>$/.exec(t);
  if (m) {
    const element = layoutOf(m[1] as string, defs, depth + 1);
    if (!element) return undefined;
    const stride = roundUp(element.align, element.size);
    // a runtime-sized array holds at least one element
    return { size: stride * (m[2] ? Number(m[2]) : 1), align: element.align };
  }
  const members = defs.get(t);
  if (!members) return undefined;
  let offset = 0;
  let align = 1;
  for (const member of members) {
    const l = layoutOf(member, defs, depth + 1);
    if (!l) return undefined;
    offset = roundUp(l.align, offset) + l.size;
    align = Math.max(align, l.align);
  }
  return { size: roundUp(align, offset), align };
}

/** Bytes of WGSL type `type` as declared in `code` (structs resolved), or undefined when unknown. */
export function wgslTypeSize(code: string, type: string): number | undefined {
  return layoutOf(type, structs(code))?.size;
}
