/**
 * Where things are in a WGSL source, for errors a person can act on: line and column of a
 * construct, the source line with a caret, where a parse really went wrong, a call cycle found in
 * the text; and the two places wgsl_reflect's parser needs help (`block`, constant expressions).
 */
import { KernelError } from '../kernel-error.js';
import type { AstNode } from './analyze.js';

/** Line and column of `token` on `line` of `code` (1-based); column 1 where it is not found. */
export function locate(code: string, line: number, token?: string, start?: number): string {
  const lines = code.split('\n');
  // word boundaries only where the token starts or ends with a word character (`&`, `*` have none)
  const pattern = token
    ? new RegExp(
        `${/^\w/.test(token) ? '\\b' : ''}${token.replace(/[^\w]/g, '\\$&')}${/\w$/.test(token) ? '\\b' : ''}`,
      )
    : null;
  const find = (text: string, from = 0): number => {
    if (!pattern) return -1;
    const at = text.slice(from).search(pattern);
    return at >= 0 ? at + from : -1;
  };
  if (start !== undefined && start >= 0) {
    const before = code.slice(0, start);
    const l = before.split('\n').length;
    const col = start - before.lastIndexOf('\n');
    // the parser's statement start can sit on the whitespace before the statement
    const text = lines[l - 1] ?? '';
    const first = text.search(/\S/);
    const begin = Math.max(col, first + 1);
    // the construct's own token on that line, where the statement names it
    const at = find(text, begin - 1);
    return `${l}:${at >= begin - 1 ? at + 1 : begin}`;
  }
  const text = lines[line - 1] ?? '';
  const at = find(text);
  return `${line}:${at >= 0 ? at + 1 : Math.max(1, text.search(/\S/) + 1)}`;
}

/** A WGSL construct the portable front end cannot run on every path, with its line and column. */
export class PortableKernelError extends KernelError {
  /** The source line and a caret under the column (`  5 | let v = i * 2u` / `    |           ^`). */
  readonly excerpt: string;

  constructor(
    readonly label: string,
    readonly construct: string,
    readonly line: number,
    readonly column: number,
    /** What is wrong, without the label and the place. */
    readonly detail: string,
    source?: string,
  ) {
    const message = detail;
    const excerpt = source === undefined ? '' : sourceExcerpt(source, line, column);
    super(label, `${message} (line ${line}, column ${column})${excerpt ? `\n${excerpt}` : ''}`);
    this.excerpt = excerpt;
  }
}

/** Line `line` of `source` with a caret under `column` (both 1-based), as compilers print them. */
export function sourceExcerpt(source: string, line: number, column: number): string {
  const text = source.split('\n')[line - 1];
  if (text === undefined) return '';
  const gutter = String(line);
  const shown = text.replace(/\t/g, ' ');
  return `${gutter} | ${shown}\n${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, column - 1))}^`;
}

/**
 * Where a parse stopped, from the parser's own tokens: for a missing `;` (or another token the
 * parser expected after a statement), just after the previous token — where the mistake is — not
 * at the next statement, where the parser noticed it.
 */
export function parsePosition(
  parser: unknown, // wgsl_reflect's WgslParser: its type stays out of the published declarations
  source: string,
  message: string,
): [number, number] {
  const tokens = (parser as unknown as { _tokens?: Array<{ start: number; end: number }> })._tokens;
  const current = (parser as unknown as { _current?: number })._current ?? 0;
  const token = tokens?.[Math.min(current, (tokens?.length ?? 1) - 1)];
  const previous = tokens?.[current - 1];
  const offset = /^Expected '[;,)\]}]'/.test(message) && previous ? previous.end : token?.start;
  if (offset === undefined || offset < 0) {
    const line = Number(/Line: (\d+)/.exec(message)?.[1] ?? 1);
    return [line, 1];
  }
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  return [line, offset - before.lastIndexOf('\n')];
}

/** A cycle of calls between the functions of `code` (found in the text), or null. */
export function recursionIn(code: string): string[] | null {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const calls = new Map<string, Set<string>>();
  const fns = [...text.matchAll(/\bfn\s+(\w+)\s*\(/g)];
  for (const f of fns) {
    const open = text.indexOf('{', f.index);
    let depth = 0;
    let end = open;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    const body = text.slice(open, end);
    calls.set(
      f[1] as string,
      new Set(
        fns.map((g) => g[1] as string).filter((g) => new RegExp(`\\b${g}\\s*\\(`).test(body)),
      ),
    );
  }
  const visit = (name: string, stack: string[]): string[] | null => {
    if (stack.includes(name)) return [...stack.slice(stack.indexOf(name)), name];
    for (const callee of calls.get(name) ?? []) {
      const c = visit(callee, [...stack, name]);
      if (c) return c;
    }
    return null;
  };
  for (const name of calls.keys()) {
    const c = visit(name, []);
    if (c) return c;
  }
  return null;
}

/**
 * `code` as wgsl_reflect can parse it. Its lexer keeps `block` as a keyword (an attribute of early
 * WGSL drafts), so a variable named `block` — valid WGSL, common in scans and sorts — does not
 * parse in an expression; it is renamed `blocK` (same length: positions stay those of the user's
 * source) unless that name is taken.
 */
export function parseable(code: string): string {
  if (!/\bblock\b/.test(code) || /\bblocK\b/.test(code)) return code;
  return code.replace(/(?<!@\s*)\bblock\b/g, 'blocK');
}

/** An integer constant expression (literals, constants by name, + - * / and parentheses), else undefined. */
export function evaluateInteger(
  e: AstNode,
  lookup: (name: string) => number | undefined,
): number | undefined {
  if (!e) return undefined;
  if (e.postfix) return undefined;
  switch (e.astNodeType) {
    case 'literalExpr':
      return Number(e.value?.data?.[0]);
    case 'varExpr':
      return lookup(e.name);
    case 'constExpr':
      return evaluateInteger(e.initializer, lookup);
    case 'binaryOp': {
      const l = evaluateInteger(e.left, lookup);
      const r = evaluateInteger(e.right, lookup);
      if (l === undefined || r === undefined) return undefined;
      if (e.operator === '+') return l + r;
      if (e.operator === '-') return l - r;
      if (e.operator === '*') return l * r;
      if (e.operator === '/') return r ? Math.trunc(l / r) : undefined;
      return undefined;
    }
    default:
      return undefined;
  }
}
