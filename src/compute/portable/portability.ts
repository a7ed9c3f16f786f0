/**
 * WebGPU never refuses valid WGSL: a compute shader the portable front end cannot translate still
 * runs on the compute path, as written. What could not be translated is kept as the kernel's
 * `portability` report — the construct, its line and column — and only limits the fallback paths:
 * a device without compute, or an explicit `path: 'pingpong' | 'cpu'`, turns it into the
 * `PortableKernelError` it is. The compute path then binds what WebGPU's reflection of the entry
 * point finds (the RHI's reflection, which needs no parse), by name, as the analysed path does.
 */
import { reflectWgslBindings, wgslStaticUse } from '../../rhi/core/reflect.js';
import { KernelError } from '../kernel-error.js';
import type { PortableKernelError } from './analyze.js';
import type { TextureFormat } from '../../rhi/core/formats.js';

/** A buffer binding of the entry point: what the compute path needs to bind it by name. */
export interface BufferBinding {
  readonly name: string;
  readonly group: number;
  readonly binding: number;
  readonly space: 'uniform' | 'storage' | 'texture' | 'storage-texture' | 'sampler';
  readonly access: 'read' | 'read_write' | 'write';
  /** A storage texture's format, as declared. */
  readonly format?: TextureFormat;
}

/** Whether a kernel runs on every path, and if not, what keeps it on compute. */
export type Portability =
  | {
      readonly portable: true;
      /**
       * Where only the CPU path runs it among the fallbacks (workgroup memory, barriers, atomics…):
       * what the ping-pong path cannot run, with its line and column.
       */
      readonly pingpong?: PortableKernelError;
    }
  | {
      readonly portable: false;
      /** The construct that cannot run on WebGL2 or the CPU, with its line, column and excerpt. */
      readonly error: PortableKernelError;
    };

/**
 * The buffer bindings `entryPoint` uses, found as the RHI finds them for any WGSL (its declarations
 * and the entry point's static use), with no parse of its own: the compute path runs shaders the
 * portable front end cannot parse. A comparison sampler is a `KernelError`: portable kernels bind
 * buffers, textures and samplers by name.
 */
export function reflectBufferBindings(
  label: string,
  code: string,
  entryPoint: string,
): { bindings: BufferBinding[]; declared: string[] } {
  const all = reflectWgslBindings(code);
  const used = wgslStaticUse(code, entryPoint);
  const bindings: BufferBinding[] = [];
  for (const r of all) {
    if (used && !used.has(r.name)) continue;
    const space =
      r.type === 'uniform'
        ? 'uniform'
        : r.type === 'storage' || r.type === 'read-only-storage'
          ? 'storage'
          : r.type === 'texture' || r.type === 'storage-texture'
            ? r.type
            : r.type === 'sampler' && !/comparison/.test(r.wgslType)
              ? 'sampler'
              : null;
    if (!space)
      throw new KernelError(
        label,
        `${r.name} (@group(${r.group}) @binding(${r.binding})) is a ${r.wgslType}; createPortableCompute binds buffers, sampled and storage textures and samplers (no comparison samplers)`,
      );
    bindings.push({
      name: r.name,
      group: r.group,
      binding: r.binding,
      space,
      access: r.type === 'storage' ? 'read_write' : r.type === 'storage-texture' ? 'write' : 'read',
      ...(space === 'storage-texture'
        ? { format: /<\s*(\w+)/.exec(r.wgslType)?.[1] as TextureFormat }
        : {}),
    });
  }
  bindings.sort((a, b) => a.group - b.group || a.binding - b.binding);
  return { bindings, declared: all.map((r) => r.name) };
}
