/**
 * A table the update kernel reads as its source (`ignisSource(k)`): the `mesh` module's triangles,
 * the `colliders` module's heightfield, the `field` module's grid. A runner of one element per row that is never stepped — its
 * state is the table, on the system's path (storage buffers, textures or arrays, as the path keeps
 * state: what a sub-emitter reads its parent through). Written again after a device restore.
 */
import type { Device } from '../rhi/core/device.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { defineKernel, type Kernel } from '../compute/kernel.js';
import type { KernelSource } from '../compute/paths/path.js';
import type { ParticleOptions, ParticlePath } from './options.js';
import { MESH_SOURCE, meshTable } from './modules/mesh.js';
import { HEIGHT_SOURCE, heightTable, heightfieldOf } from './modules/colliders.js';
import { FIELD_SOURCE, fieldOf } from './modules/field.js';

/** A table's columns (one vec4f each) and rows. */
export interface Table {
  readonly rows: number;
  readonly columns: Readonly<Record<string, Float32Array>>;
}

const KERNELS = new Map<string, Kernel>();

/** A table's kernel: its attributes, a step that leaves them as they are (it never runs). */
function tableKernel(attributes: readonly string[]): Kernel {
  const key = attributes.join(',');
  let k = KERNELS.get(key);
  if (!k)
    KERNELS.set(
      key,
      (k = defineKernel({
        label: 'particles table',
        attributes: [...attributes],
        body: `${attributes[0]} = ${attributes[0]};`,
      })),
    );
  return k;
}

/** The table a stack reads, and what it is made from (the same object: the same table). */
export function tableOf(o: ParticleOptions): { from: object; table: Table } | null {
  if (o.mesh) {
    const t = meshTable(o.mesh);
    return {
      // the vertices: a mesh moved by a new transform keeps its table
      from: o.mesh.positions,
      table: {
        rows: t.triangles,
        columns: Object.fromEntries(MESH_SOURCE.map((n) => [n, t[n]])),
      },
    };
  }
  const field = heightfieldOf(o);
  if (field)
    return {
      from: field,
      table: { rows: field.heights.length, columns: { [HEIGHT_SOURCE]: heightTable(field) } },
    };
  const grid = fieldOf(o);
  if (grid?.table)
    return {
      from: grid.table,
      table: { rows: grid.table.length / 4, columns: { [FIELD_SOURCE]: grid.table } },
    };
  return null;
}

export class TableSource {
  /** What the table was made from (a mesh, a heightfield). */
  readonly from: object;
  readonly #table: Table;
  readonly #runner: ElementwiseRunner;
  readonly #stopRestore: () => void;

  constructor(device: Device, made: { from: object; table: Table }, path: ParticlePath) {
    this.from = made.from;
    this.#table = made.table;
    this.#runner = new ElementwiseRunner(device, tableKernel(Object.keys(made.table.columns)), {
      count: made.table.rows,
      mode: path,
      label: 'particles table',
    });
    this.#write();
    this.#stopRestore = device.onRestored(() => this.#write());
  }

  #write(): void {
    for (const [name, data] of Object.entries(this.#table.columns)) this.#runner.write(name, data);
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
