/**
 * A value as an error message shows it: JSON where it can be, never a throw — a BigInt reads `4n`,
 * a function `a function`, a cycle `[cycle]`, undefined `undefined`. Error messages are built from
 * what callers pass, and a message builder that throws turns a typed error into an untyped one.
 */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  if (value === undefined) return 'undefined';
  const seen = new Set<unknown>();
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v === 'bigint') return `${v}n`;
        if (typeof v === 'function') return 'a function';
        if (v !== null && typeof v === 'object') {
          if (seen.has(v)) return '[cycle]';
          seen.add(v);
        }
        return v;
      }) ?? String(value)
    );
  } catch {
    return Object.prototype.toString.call(value);
  }
}
