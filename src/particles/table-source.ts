/**
 * A table the update kernel reads as its source (`ignisSource(k)`): the `mesh` module's triangles,
 * (and a coloured mesh's corner colours), the `colliders` module's heightfield and baked SDF, the `field` module's grid, side by side. A runner of one element per row that is never stepped — its
 * state is the table, on the system's path (storage buffers, textures or arrays, as the path keeps
 * state: what a sub-emitter reads its parent through). Written again after a device restore.
 */
import type { Device } from '../rhi/core/device.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { kernelSource, type Kernel } from '../compute/kernel.js';
import type { KernelSource } from '../compute/paths/path.js';
import type { ParticleOptions, ParticlePath } from './options.js';
import { MESH_COLOR, MESH_SOURCE, meshTable } from './modules/mesh.js';
import { HEIGHT_SOURCE, heightTable, heightfieldOf, sdfGridOf } from './modules/colliders.js';
import { SDF_SOURCE, sdfTable } from './modules/sdf-grid.js';
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
      (k = kernelSource({
        label: 'particles table',
        attributes: [...attributes],
        body: `${attributes[0]} = ${attributes[0]};`,
      })),
    );
  return k;
}

/**
 * The table a stack reads — the columns of every module that has one (a mesh's triangles, a
 * heightfield's heights, a field's grid) side by side, as many rows as the longest (the shorter
 * padded with zeros: each module reads its own rows only) — and what it is made from (the same
 * objects: the same table). A sub-emitter reads its parent instead (the modules refuse a table
 * beside it).
 */
export function tableOf(o: ParticleOptions): { from: readonly object[]; make(): Table } | null {
  const parts: Array<{ from: object; rows: number; columns: () => Record<string, Float32Array> }> =
    [];
  if (o.mesh) {
    const mesh = o.mesh;
    parts.push({
      // the vertices: a mesh moved by a new transform keeps its table
      from: mesh.positions,
      rows: meshTable(mesh).triangles,
      columns: () => {
        const t = meshTable(mesh);
        const columns: Record<string, Float32Array> = Object.fromEntries(
          MESH_SOURCE.map((n) => [n, t[n]]),
        );
        // a coloured mesh's corner colours (the tint at a birth)
        if (t.meshColor) columns[MESH_COLOR] = t.meshColor;
        return columns;
      },
    });
  }
  const field = heightfieldOf(o);
  if (field)
    parts.push({
      from: field,
      rows: field.heights.length,
      columns: () => ({ [HEIGHT_SOURCE]: heightTable(field) }),
    });
  const baked = sdfGridOf(o);
  if (baked)
    parts.push({
      from: baked,
      rows: baked.distances.length,
      columns: () => ({ [SDF_SOURCE]: sdfTable(baked) }),
    });
  const grid = fieldOf(o);
  if (grid?.table) {
    const table = grid.table;
    parts.push({ from: table, rows: table.length / 4, columns: () => ({ [FIELD_SOURCE]: table }) });
  }
  if (parts.length === 0) return null;
  return {
    from: parts.map((p) => p.from),
    make() {
      const rows = Math.max(...parts.map((p) => p.rows));
      const columns: Record<string, Float32Array> = {};
      for (const part of parts)
        for (const [name, data] of Object.entries(part.columns())) {
          if (data.length === 4 * rows) columns[name] = data;
          else {
            const padded = new Float32Array(4 * rows);
            padded.set(data);
            columns[name] = padded;
          }
        }
      return { rows, columns };
    },
  };
}

/** Whether two tables' sources are the same objects (the same table). */
export function sameTable(a: readonly object[] | null, b: readonly object[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class TableSource {
  /** What the table was made from (a mesh's vertices, a heightfield, a field's grid). */
  readonly from: readonly object[];
  readonly #table: Table;
  readonly #runner: ElementwiseRunner;
  readonly #stopRestore: () => void;

  constructor(
    device: Device,
    made: { from: readonly object[]; make(): Table },
    path: ParticlePath,
  ) {
    this.from = made.from;
    this.#table = made.make();
    this.#runner = new ElementwiseRunner(device, tableKernel(Object.keys(this.#table.columns)), {
      count: this.#table.rows,
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
