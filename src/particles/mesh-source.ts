/**
 * The `mesh` module's triangle table on the system's path (modules/mesh.ts): a runner of one
 * element per triangle that is never stepped — its state is the table, which the update kernel
 * reads as its source (`ignisSource(k)`: storage buffers, textures or arrays, as the path keeps
 * state). Written again after a device restore.
 */
import type { Device } from '../rhi/core/device.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { defineKernel, type Kernel } from '../compute/kernel.js';
import type { KernelSource } from '../compute/paths/path.js';
import type { ParticleMesh, ParticlePath } from './options.js';
import { MESH_SOURCE, meshTable } from './modules/mesh.js';

let kernel: Kernel | null = null;

/** The table's kernel: three attributes, a step that leaves them as they are (it never runs). */
function tableKernel(): Kernel {
  return (kernel ??= defineKernel({
    label: 'particles mesh',
    attributes: [...MESH_SOURCE],
    body: 'meshA = meshA;',
  }));
}

export class MeshSource {
  readonly mesh: ParticleMesh;
  readonly #runner: ElementwiseRunner;
  readonly #stopRestore: () => void;

  constructor(device: Device, mesh: ParticleMesh, path: ParticlePath) {
    this.mesh = mesh;
    const table = meshTable(mesh);
    this.#runner = new ElementwiseRunner(device, tableKernel(), {
      count: table.triangles,
      mode: path,
      label: 'particles mesh',
    });
    this.#write();
    this.#stopRestore = device.onRestored(() => this.#write());
  }

  #write(): void {
    const table = meshTable(this.mesh);
    for (const name of MESH_SOURCE) this.#runner.write(name, table[name]);
  }

  /** The table as the update kernel reads it. */
  get source(): KernelSource {
    return this.#runner.source;
  }

  destroy(): void {
    this.#stopRestore();
    this.#runner.destroy();
  }
}
