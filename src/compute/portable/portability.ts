/**
 * WebGPU never refuses valid WGSL: a compute shader the portable front end cannot translate still
 * runs on the compute path, as written. What could not be translated is kept as the kernel's
 * `portability` report — the construct, its line and column — and only limits the fallback paths:
 * a device without compute, or an explicit `path: 'pingpong' | 'cpu'`, turns it into the
 * `PortableKernelError` it is. The compute path then binds what WebGPU's reflection of the entry
 * point finds (wgsl_reflect), by name, as the analysed path does.
 */
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { KernelError } from '../kernel-error.js';
import type { PortableKernelError } from './analyze.js';

/** A buffer binding of the entry point: what the compute path needs to bind it by name. */
export interface BufferBinding {
  readonly name: string;
  readonly group: number;
  readonly binding: number;
  readonly space: 'uniform' | 'storage';
  readonly access: 'read' | 'read_write' | 'write';
}

/** Whether a kernel runs on every path, and if not, what keeps it on compute. */
export type Portability =
  | { readonly portable: true }
  | {
      readonly portable: false;
      /** The construct that cannot run on WebGL2 or the CPU, with its line, column and excerpt. */
      readonly error: PortableKernelError;
    };

// wgsl_reflect's ResourceType
const UNIFORM = 0;
const STORAGE = 1;

/**
 * The buffer bindings `entryPoint` uses, from WGSL reflection (no portability analysis). A
 * texture, sampler or storage texture is a `KernelError`: portable kernels bind buffers by name.
 */
export function reflectBufferBindings(
  label: string,
  code: string,
  entryPoint: string,
): { bindings: BufferBinding[]; declared: string[] } {
  const reflect = new WgslReflect(code);
  const entry = reflect.entry.compute.find((e) => e.name === entryPoint);
  if (!entry)
    throw new KernelError(
      label,
      `entry point "${entryPoint}" is not a @compute function of the shader (compute entry points: ${reflect.entry.compute.map((e) => e.name).join(', ') || 'none'})`,
    );
  const bindings: BufferBinding[] = [];
  for (const r of entry.resources) {
    if (r.resourceType !== UNIFORM && r.resourceType !== STORAGE)
      throw new KernelError(
        label,
        `${r.name} (@group(${r.group}) @binding(${r.binding})) is a texture or sampler; createPortableCompute binds buffers only`,
      );
    bindings.push({
      name: r.name,
      group: r.group,
      binding: r.binding,
      space: r.resourceType === UNIFORM ? 'uniform' : 'storage',
      access:
        r.resourceType === UNIFORM ? 'read' : ((r.access || 'read') as BufferBinding['access']),
    });
  }
  bindings.sort((a, b) => a.group - b.group || a.binding - b.binding);
  const declared = [...reflect.uniforms, ...reflect.storage].map((v) => v.name);
  return { bindings, declared };
}
