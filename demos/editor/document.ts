// The editor's document: an effect file edited by JSON pointer, its undo history, and the URL
// that holds it (base64url of its JSON after `#effect=`, so a link opens the same effect).
import { stringifyEffect, type EffectFile } from '../../src/effects/index.js';

/** A deep copy of plain JSON data. */
export const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The tokens of a JSON pointer (`/systems/0/modules/2/gravity/1` → systems, 0, modules, …). */
const tokens = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

/** The value at `pointer` in `doc`. */
export function getAt(doc: unknown, pointer: string): unknown {
  let v = doc as Record<string, unknown>;
  for (const t of tokens(pointer)) v = v?.[t] as Record<string, unknown>;
  return v;
}

/** A copy of `doc` with `value` at `pointer` (undefined removes it). */
export function setAt<T>(doc: T, pointer: string, value: unknown): T {
  const out = copy(doc);
  const path = tokens(pointer);
  let v = out as Record<string, unknown>;
  for (const t of path.slice(0, -1)) v = v[t] as Record<string, unknown>;
  const last = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(v)) v.splice(Number(last), 1);
    else delete v[last];
  } else v[last] = copy(value);
  return out;
}

/** The URL hash that holds `doc`. */
export function hashOf(doc: EffectFile): string {
  const bytes = new TextEncoder().encode(JSON.stringify(doc));
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return `#effect=${btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/** The effect a URL hash holds, or null. */
export function docOfHash(hash: string): unknown {
  const m = /^#effect=([\w-]+)$/.exec(hash);
  if (!m) return null;
  const text = atob(m[1]!.replaceAll('-', '+').replaceAll('_', '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
}

/** Saves `doc` as a file the browser downloads (its name from the effect's). */
export function download(doc: EffectFile): void {
  const blob = new Blob([stringifyEffect(doc)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${(doc.name ?? 'effect').replace(/[^\w-]+/g, '-')}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
