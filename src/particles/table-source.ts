/**
 * A table the update kernel reads as its source (`ignisSource(k)`): the `mesh` module's triangles
 * (and a coloured mesh's corner colours, a textured one's coordinates and colour map's texels), the `colliders` module's heightfield and baked SDF, the `field` module's grid, side by side. A runner of one element per row that is never stepped — its
 * state is the table, on the system's path (storage buffers, textures or arrays, as the path keeps
 * state: what a sub-emitter reads its parent through). Written again after a device restore.
 */
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import type { ComputePass } from '../rhi/core/compute-pass.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import { BufferUsage } from '../rhi/core/flags.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { kernelSource, type Kernel } from '../compute/kernel.js';
import type { KernelSource } from '../compute/paths/path.js';
import type { ParticleOptions, ParticlePath } from './options.js';
import { MESH_COLOR, MESH_SOURCE, MESH_TEXEL, MESH_UV, meshTable } from './modules/mesh.js';
import { HEIGHT_SOURCE, heightTable, heightfieldOf, sdfGridOf } from './modules/colliders.js';
import { SDF_SOURCE, sdfTable } from './modules/sdf-grid.js';
import { FIELD_SOURCE, fieldOf } from './modules/field.js';

/** A table's columns (one vec4f each) and rows. */
export interface Table {
  readonly rows: number;
  readonly columns: Readonly<Record<string, Float32Array>>;
}

const KERNELS = new Map<string, Kernel>();

/**
 * A posed mesh's triangles into the table: `gather` copies triangle k's corners from the app's
 * buffer (x, y, z float32 per vertex), keeping each row's w (b's and c's hold a textured mesh's
 * third coordinates); `scan` then sums the posed triangles' areas — meshA's w each triangle's
 * running sum before it, the row after the last (the sentinel) the total the spawn scales its
 * first random number by — so births are uniform by the area of the pose of the moment. One
 * workgroup: each thread sums a run of triangles, thread 0 scans the 256 runs, each thread writes
 * its run's sums (O(triangles / 256) a thread; a frame's skinned mesh is thousands, not millions).
 */
const GATHER_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> corners: array<u32>;
@group(0) @binding(1) var<storage, read> posed: array<f32>;
@group(0) @binding(2) var<storage, read_write> meshA: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> meshB: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> meshC: array<vec4f>;
fn vertexAt(i: u32) -> vec3f {
  return vec3f(posed[3u * i], posed[3u * i + 1u], posed[3u * i + 2u]);
}
@compute @workgroup_size(64)
fn gather(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let k = id.x + id.y * groups.x * 64u;
  if (k >= arrayLength(&corners) / 3u) {
    return;
  }
  meshA[k] = vec4f(vertexAt(corners[3u * k]), meshA[k].w);
  meshB[k] = vec4f(vertexAt(corners[3u * k + 1u]), meshB[k].w);
  meshC[k] = vec4f(vertexAt(corners[3u * k + 2u]), meshC[k].w);
}
fn areaOf(k: u32) -> f32 {
  let a = meshA[k].xyz;
  return 0.5 * length(cross(meshB[k].xyz - a, meshC[k].xyz - a));
}
var<workgroup> runs: array<f32, 256>;
@compute @workgroup_size(256)
fn scan(@builtin(local_invocation_index) t: u32) {
  let n = arrayLength(&corners) / 3u;
  let per = (n + 255u) / 256u;
  let start = min(t * per, n);
  let end = min(start + per, n);
  var sum = 0.0;
  for (var k = start; k < end; k++) {
    sum += areaOf(k);
  }
  runs[t] = sum;
  workgroupBarrier();
  if (t == 0u) {
    var before = 0.0;
    for (var i = 0u; i < 256u; i++) {
      let run = runs[i];
      runs[i] = before;
      before += run;
    }
    meshA[n] = vec4f(0.0, 0.0, 0.0, before);
  }
  workgroupBarrier();
  var before = runs[t];
  for (var k = start; k < end; k++) {
    let area = areaOf(k);
    meshA[k].w = before;
    before += area;
  }
}
`;

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
/** A skinned mesh posed on the GPU: its buffer and its triangles' corners, gathered each step. */
export interface PosedMesh {
  readonly posed: Buffer;
  /** Three vertex indices per triangle. */
  readonly corners: Uint32Array;
}

export function tableOf(
  o: ParticleOptions,
): { from: readonly object[]; posed: PosedMesh | null; make(): Table } | null {
  const parts: Array<{ from: object; rows: number; columns: () => Record<string, Float32Array> }> =
    [];
  if (o.mesh) {
    const mesh = o.mesh;
    parts.push({
      // the vertices: a mesh moved by a new transform keeps its table
      from: mesh.positions,
      // a mesh posed on the GPU: one row more, whose meshA.w is the posed total area
      rows: meshTable(mesh).triangles + (mesh.posed ? 1 : 0),
      columns: () => {
        const t = meshTable(mesh);
        const columns: Record<string, Float32Array> = Object.fromEntries(
          MESH_SOURCE.map((n) => [n, t[n]]),
        );
        if (mesh.posed) {
          const a = new Float32Array(4 * (t.triangles + 1));
          a.set(t.meshA);
          a[4 * t.triangles + 3] = t.area;
          columns['meshA'] = a;
        }
        // a coloured mesh's corner colours (the tint at a birth)
        if (t.meshColor) columns[MESH_COLOR] = t.meshColor;
        // a textured mesh's corner coordinates (where its colour map is sampled at a birth)
        if (t.meshUV) columns[MESH_UV] = t.meshUV;
        return columns;
      },
    });
    const map = mesh.colorMap;
    if (map)
      parts.push({
        from: map,
        rows: map.width * map.height,
        columns: () => ({ [MESH_TEXEL]: map.texels }),
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
  const mesh = o.mesh;
  return {
    from: parts.map((p) => p.from),
    posed: mesh?.posed
      ? {
          posed: mesh.posed,
          corners:
            mesh.indices ?? Uint32Array.from({ length: mesh.positions.length / 3 }, (_, i) => i),
        }
      : null,
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

  readonly #device: Device;
  readonly #posed: PosedMesh | null;
  /** The posed mesh's gather and scan: pipelines, module, the corners' buffer (made at first use). */
  #gather: {
    pipeline: ComputePipeline;
    scan: ComputePipeline;
    module: ShaderModule;
    corners: Buffer;
  } | null = null;

  constructor(
    device: Device,
    made: { from: readonly object[]; posed: PosedMesh | null; make(): Table },
    path: ParticlePath,
  ) {
    this.#device = device;
    this.#posed = made.posed;
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
    // a posed mesh's corners (after a restore: the buffer is made again, empty)
    if (this.#gather && this.#posed)
      this.#device.queue.writeBuffer(this.#gather.corners, 0, this.#posed.corners);
  }

  /**
   * A skinned mesh posed on the GPU: its triangles' corners read from the app's buffer into the
   * table (a, b, c; the areas stay the bind pose's), in a compute pass before the step. Nothing
   * for other tables.
   */
  gather(encoder: CommandEncoder): void {
    const posed = this.#posed;
    if (!posed) return;
    if (!this.#gather) {
      const module = this.#device.createShaderModule({ label: 'mesh gather', code: GATHER_WGSL });
      const corners = this.#device.createBuffer({
        label: 'particles mesh corners',
        size: posed.corners.byteLength,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
      });
      this.#device.queue.writeBuffer(corners, 0, posed.corners);
      this.#gather = {
        module,
        corners,
        pipeline: this.#device.createComputePipeline({
          label: 'particles mesh gather',
          compute: { module, entryPoint: 'gather' },
        }),
        scan: this.#device.createComputePipeline({
          label: 'particles mesh areas',
          compute: { module, entryPoint: 'scan' },
        }),
      };
    }
    const { pipeline, scan, corners } = this.#gather;
    const buffers = this.#runner.buffers;
    const table = ['meshA', 'meshB', 'meshC'].map((n) => buffers[n] as Buffer);
    const run = (
      label: string,
      p: ComputePipeline,
      dispatch: (pass: ComputePass) => void,
    ): void => {
      const pass = encoder.beginComputePass({ label });
      pass.setPipeline(p);
      pass.setStorageBuffer(0, corners, { access: 'read' });
      pass.setStorageBuffer(1, posed.posed, { access: 'read' });
      table.forEach((b, i) => pass.setStorageBuffer(2 + i, b));
      dispatch(pass);
      pass.end();
      // the next pass (the scan, then the step) reads what this one wrote
      encoder.barrier({ from: 'compute-write', to: 'compute-read', resources: table });
    };
    run('particles mesh gather', pipeline, (pass) =>
      pass.dispatchThreads(posed.corners.length / 3, 64),
    );
    run('particles mesh areas', scan, (pass) => pass.dispatch(1));
  }

  /** The table as the update kernel reads it. */
  get source(): KernelSource {
    return this.#runner.source;
  }

  destroy(): void {
    this.#stopRestore();
    this.#runner.destroy();
    this.#gather?.pipeline.destroy();
    this.#gather?.scan.destroy();
    this.#gather?.module.destroy();
    this.#gather?.corners.destroy();
  }
}
