// What the portable-compute tests in Node share: a null device with host copies, buffers, the
// rejection a kernel gets, and wgsl_reflect's WGSL interpreter as an independent oracle.
import { expect } from 'vitest';
import { WgslExec, WgslParser } from 'wgsl_reflect/wgsl_reflect.module.js';
import { BufferUsage, NullDevice, type Buffer } from '../../src/all.js';
import {
  PortableKernelError,
  analyzeKernel,
  createPortableCompute,
  type AnalyzeOptions,
} from '../../src/compute/portable/index.js';

export function device(): NullDevice {
  return new NullDevice({ hostShadows: true });
}

export function storage(d: NullDevice, bytes: ArrayBufferView, label: string): Buffer {
  const b = d.createBuffer({
    label,
    size: Math.ceil(bytes.byteLength / 16) * 16,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
  });
  d.queue.writeBuffer(b, 0, bytes);
  return b;
}

export function uniform(d: NullDevice, bytes: ArrayBufferView): Buffer {
  const b = d.createBuffer({
    size: bytes.byteLength,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  d.queue.writeBuffer(b, 0, bytes);
  return b;
}

/** The PortableKernelError `analyzeKernel` throws for `code` (the test fails if it throws another or none). */
export function rejection(code: string, options: AnalyzeOptions = {}): PortableKernelError {
  let error: unknown;
  try {
    analyzeKernel('k', code, 'main', options);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(PortableKernelError);
  return error as PortableKernelError;
}

/** `code` is refused with a PortableKernelError naming `construct` on `line`, its message matching. */
export function expectRejected(
  code: string,
  construct: string,
  line: number,
  message: RegExp,
  options: AnalyzeOptions = {},
): void {
  const k = rejection(code, options);
  expect([k.construct, k.line]).toEqual([construct, line]);
  expect(k.column).toBeGreaterThanOrEqual(1);
  expect(k.message).toMatch(message);
}

/** Runs `code` through the interpreter over copies of `groups` (binding → words); returns them. */
export function interpret(
  code: string,
  workgroups: number | [number, number, number],
  bindings: Record<number, Uint32Array>,
): Record<number, Uint32Array> {
  const copies = Object.fromEntries(Object.entries(bindings).map(([k, v]) => [k, v.slice()]));
  new WgslExec(new WgslParser().parse(code)).dispatchWorkgroups(
    'main',
    Array.isArray(workgroups) ? workgroups : [workgroups, 1, 1],
    {
      0: copies,
    },
  );
  return copies;
}

/** Runs `code` on the CPU path over `buffers` (name → words); returns the buffers' words after. */
export function cpu(code: string, count: number, buffers: Record<string, Uint32Array>) {
  const d = device();
  const bound = Object.fromEntries(
    Object.entries(buffers).map(([name, words]) => [name, storage(d, words, name)]),
  );
  createPortableCompute(d, { code, count, buffers: bound, path: 'cpu' }).dispatch(
    d.createCommandEncoder(),
  );
  return Object.fromEntries(
    Object.entries(bound).map(([name, b]) => [
      name,
      new Uint32Array((b.hostShadow?.bytes.buffer as ArrayBuffer).slice(0)),
    ]),
  );
}
