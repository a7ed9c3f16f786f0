// Emission from a mesh (src/particles/modules/mesh.ts): on every path the particles are born on
// the triangles uniformly by area (χ² over triangles of areas 1 : 2 : 3 : 4), where and as fast as
// the reference says, moving along the surface's normal; another mesh given to setOptions (a
// skinned mesh's new pose) is where the next ones are born; a mesh placed by its transform and
// moving (velocity, angular velocity) gives its births that placement and motion, as the reference;
// a mesh's vertex colours tint its births (the `tint` attribute as the reference) and the picture;
// a skinned mesh posed on the GPU (a buffer the app writes) gives births on its pose of the moment.
import {
  BufferUsage,
  EmissionSchedule,
  LimitExceededError,
  createDevice,
  type Device,
  type WebGPUDevice,
  createParticleSystem,
  createState,
  stepState,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { IMAGE, drawImage, pathsOf } from '../page/particle-helpers.js';

const DT = 1 / 60;

/** Four right triangles in the plane y = 0, legs √(2k) (areas k = 1…4), 10 units apart along x. */
function fourTriangles(): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  for (let k = 1; k <= 4; k++) {
    const leg = Math.sqrt(2 * k);
    const x = 10 * k;
    positions.push(x, 0, 0, x, 0, leg, x + leg, 0, 0);
  }
  return { positions, indices: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
}

const BURST: ParticleOptionsInput = {
  count: 4000,
  seed: 11,
  emitter: { shape: 'box', position: [0, 1, 0], radius: 0, angle: 0 },
  bursts: [{ time: 0, count: 4000 }],
  speedMin: 1,
  speedMax: 2,
  spread: 0,
  gravity: [0, 0, 0],
  drag: 0,
  lifeMin: 5,
  lifeMax: 5,
};

export const cases = defineCases({
  'mesh: particles are born on the triangles uniformly by area and along the normal, as the reference says, on every path':
    {
      async run({ device }) {
        const input = { ...BURST, mesh: fourTriangles() };
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...input, path });
          const { s, ref } = await firstStep(device, ps);
          const o = ps.options;
          const counts = [0, 0, 0, 0];
          let worst = 0;
          let offPlane = 0;
          let offNormal = 0;
          for (let i = 0; i < o.count; i++) {
            const p = s.position.subarray(4 * i, 4 * i + 3);
            const v = s.velocity.subarray(4 * i, 4 * i + 3);
            counts[Math.round((p[0] as number) / 10) - 1]!++;
            offPlane = Math.max(offPlane, Math.abs((p[1] as number) - 1));
            offNormal = Math.max(offNormal, Math.abs(v[0] as number), Math.abs(v[2] as number));
            for (let k = 0; k < 4; k++)
              worst = Math.max(
                worst,
                Math.abs((s.position[4 * i + k] as number) - (ref.position[4 * i + k] as number)),
                Math.abs((s.velocity[4 * i + k] as number) - (ref.velocity[4 * i + k] as number)),
              );
          }
          const expected = [1, 2, 3, 4].map((a) => (o.count * a) / 10);
          const chi2 = counts.reduce(
            (sum, c, i) => sum + (c - expected[i]!) ** 2 / expected[i]!,
            0,
          );
          const how = `${path}: per triangle ${counts.join(', ')} (χ² ${chi2.toFixed(2)}), ${offPlane} off the plane, ${offNormal} off the normal, worst ${worst.toExponential(1)} from the reference`;
          // 3 degrees of freedom: 16.27 at p = 0.001
          assert(chi2 < 16.27, `${how}: uniform by area`);
          assert(offPlane < 1e-5 && offNormal < 1e-5, `${how}: on the surface, along its normal`);
          assert(worst < 1e-4, `${how}: as the reference`);
          ps.destroy();
        }
      },
    },
  'mesh: placed by its transform (turned, scaled, moved) and moving (velocity, angular velocity), births as the reference says on every path; a new transform moves the next births':
    {
      async run({ device }) {
        const geometry = fourTriangles();
        // a quarter turn about z, twice the size, up 5: the plane y = 0 becomes x = 0
        const turned = [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0, 5, 0, 1];
        const input: ParticleOptionsInput = {
          ...BURST,
          count: 2000,
          bursts: [
            { time: 0, count: 1000 },
            { time: 0.05, count: 1000 },
          ],
          mesh: { ...geometry, transform: turned, velocity: [0, 0, 3], angularVelocity: [0, 2, 0] },
        };
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...input, path });
          const step = (): void => {
            const enc = device.createCommandEncoder();
            ps.update(enc, DT);
            device.queue.submit([enc.finish()]);
          };
          const { s, ref } = await firstStep(device, ps, step);
          let worst = 0;
          for (let i = 0; i < 1000; i++)
            for (let k = 0; k < 4; k++)
              for (const [a, b] of [
                [s.position[4 * i + k]!, ref.position[4 * i + k]!],
                [s.velocity[4 * i + k]!, ref.velocity[4 * i + k]!],
              ] as const)
                worst = Math.max(worst, Math.abs(a - b) / (1e-4 + 1e-5 * Math.abs(b)));
          assert(
            worst < 1,
            `${path}: the placed, moving births as the reference (worst ${worst.toFixed(3)} of the tolerance 1e-4 + 1e-5·|x|)`,
          );
          let spun = 0;
          for (let i = 0; i < 1000; i++) {
            // born on x = 0, and the angular velocity about y turns a point at z into +x speed
            const age = s.position[4 * i + 3]!;
            const x0 = s.position[4 * i]! - s.velocity[4 * i]! * age;
            assert(
              Math.abs(x0) < 1e-3,
              `${path}: particle ${i} born on the turned plane x = 0 (${x0})`,
            );
            if (Math.abs(s.velocity[4 * i + 2]! - 3) < 1e-3) spun++;
          }
          assert(
            spun === 1000,
            `${path}: every birth carries the mesh's velocity along z (${spun})`,
          );
          // the same vertex arrays, another transform: 30 along z, still
          ps.setOptions({
            mesh: { ...geometry, transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 30, 1] },
          });
          for (let n = 0; n < 3; n++) step();
          const t = await ps.read();
          let moved = 0;
          for (let i = 1000; i < 2000; i++) {
            const age = t.position[4 * i + 3]!;
            const y0 = t.position[4 * i + 1]! - t.velocity[4 * i + 1]! * age;
            const z0 = t.position[4 * i + 2]! - t.velocity[4 * i + 2]! * age;
            if (t.velocity[4 * i + 3]! > 0 && Math.abs(y0 - 1) < 1e-3 && z0 > 30 - 1e-3 && z0 < 33)
              moved++;
          }
          assert(
            moved === 1000,
            `${path}: the second burst born on the mesh moved to z = 30 (${moved} of 1000)`,
          );
          ps.destroy();
        }
      },
    },
  "mesh: the velocity is about each triangle's own normal, and setOptions with another mesh moves the births, on every path":
    {
      async run({ device }) {
        // one triangle facing +x at x = 0
        const wall = { positions: [0, 0, 0, 0, 2, 0, 0, 0, 2] };
        // the same, moved to x = 5 (a new pose)
        const moved = { positions: [5, 0, 0, 5, 2, 0, 5, 0, 2] };
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, {
            ...BURST,
            count: 256,
            bursts: [
              { time: 0, count: 128 },
              { time: 0.05, count: 128 },
            ],
            emitter: { shape: 'box', position: [0, 0, 0], radius: 0, angle: 0 },
            mesh: wall,
            path,
          });
          const step = (): void => {
            const enc = device.createCommandEncoder();
            ps.update(enc, DT);
            device.queue.submit([enc.finish()]);
          };
          step();
          ps.setOptions({ mesh: moved });
          for (let n = 0; n < 5; n++) step();
          const s = await ps.read();
          let first = 0;
          let second = 0;
          for (let i = 0; i < 256; i++) {
            const life = s.velocity[4 * i + 3] as number;
            if (life <= 0) continue;
            const vx = s.velocity[4 * i] as number;
            const x0 = (s.position[4 * i] as number) - vx * (s.position[4 * i + 3] as number);
            assert(vx >= 1 - 1e-4, `${path}: particle ${i} moves along +x (the normal), vx ${vx}`);
            if (Math.abs(x0) < 1e-3) first++;
            else if (Math.abs(x0 - 5) < 1e-3) second++;
          }
          assert(
            first === 128 && second === 128,
            `${path}: 128 born on the first pose, 128 on the second (${first}, ${second})`,
          );
          ps.destroy();
        }
      },
    },
  'mesh: vertex colours tint each birth as the reference on every path, and the particles drawn take them (red on the left triangle, blue on the right) in each raster mode':
    {
      async run({ device }) {
        // two triangles facing the camera at y = -2: left red, right blue, and a third across the
        // middle with red, green and blue corners (the tint a blend of them)
        const positions = [
          -4, -3, 0, -2, -3, 0, -3, -1, 0, 2, -3, 0, 4, -3, 0, 3, -1, 0, -1, -3, 0, 1, -3, 0, 0, -1,
          0,
        ];
        const red = [1, 0, 0, 1];
        const blue = [0, 0, 1, 1];
        const colors = [
          ...red,
          ...red,
          ...red,
          ...blue,
          ...blue,
          ...blue,
          1,
          0,
          0,
          1,
          0,
          1,
          0,
          1,
          0,
          0,
          1,
          0.5,
        ];
        await tintedOnEveryPath(device, { positions, colors });
      },
    },
  'mesh: a colour map (uvs and rgba8 pixels) tints each birth by the map at its coordinates, as the reference on every path, and the particles drawn take it (red on the left of the map, blue on the right) in each raster mode':
    {
      async run({ device }) {
        // one quad facing the camera across x −4…4, y −3…−1; u from 0.125 to 0.875 across it on a
        // 4 × 1 map red, red, blue, blue (bilinear: red up to u = 0.375, blue from 0.625)
        const positions = [-4, -3, 0, 4, -3, 0, 4, -1, 0, -4, -1, 0];
        const indices = [0, 1, 2, 0, 2, 3];
        const uvs = [0.125, 1, 0.875, 1, 0.875, 0, 0.125, 0];
        const red = [255, 0, 0, 255];
        const blue = [0, 0, 255, 255];
        const data = Uint8Array.from([...red, ...red, ...blue, ...blue]);
        await tintedOnEveryPath(device, {
          positions,
          indices,
          uvs,
          colorMap: { width: 4, height: 1, data },
        });
        if (!device.caps.features.compute) return;
        // vertex colours and the map together: 9 storage buffers in the compute step — it runs
        // where the device binds that many (the adapter's maximum is asked for), and is refused
        // by name where it does not
        const colors = [1, 1, 1, 0.5, 0.5, 0.5, 1, 0, 0, 1, 1, 0];
        const both: ParticleOptionsInput = {
          ...BURST,
          count: 300,
          bursts: [{ time: 0, count: 300 }],
          path: 'compute',
          mesh: { positions, indices, uvs, colors, colorMap: { width: 4, height: 1, data } },
        };
        const limit = device.caps.limits.maxStorageBuffersPerShaderStage;
        if (limit < 9) {
          let error: unknown;
          await createParticleSystem(device, both).catch((e: unknown) => (error = e));
          assert(
            error instanceof LimitExceededError &&
              error.limit === 'maxStorageBuffersPerShaderStage',
            `a device binding ${limit} storage buffers refuses the 9 by name (${String(error)})`,
          );
          return;
        }
        const ps = await createParticleSystem(device, both);
        const { s, ref } = await firstStep(device, ps);
        const worst = largest(s.attributes!['tint']!, ref.attributes!['tint']!);
        assert(
          worst < 1e-5,
          `colours and a map (a device binding ${limit}): every tint as the reference (worst ${worst.toExponential(1)})`,
        );
        ps.destroy();
      },
    },
  'mesh: a skinned mesh posed on the GPU (positions a buffer the app writes, restPositions its bind pose): births on the pose of the moment, each where the reference puts it on the bind pose moved as the pose is':
    {
      needs: ['compute'],
      async run({ device }) {
        const { positions: rest } = fourTriangles();
        // two poses of the same areas: the bind pose moved by a vector (so the reference's birth
        // on the bind pose, moved by it, is where the GPU's must be)
        const moved = (by: readonly number[]): Float32Array =>
          Float32Array.from(rest, (x, i) => x + (by[i % 3] as number));
        const first = [0, 4, 0];
        const second = [0, -3, 20];
        const { ps, posed, step } = await posedBursts(device, 2000, moved(first));
        const { s, ref } = await firstStep(device, ps, step);
        let worst = 0;
        for (let i = 0; i < 1000; i++)
          for (let k = 0; k < 3; k++) {
            worst = Math.max(
              worst,
              Math.abs(s.position[4 * i + k]! - (ref.position[4 * i + k]! + first[k]!)),
              Math.abs(s.velocity[4 * i + k]! - ref.velocity[4 * i + k]!),
            );
          }
        assert(
          worst < 1e-4,
          `births on the first pose: worst ${worst.toExponential(1)} from the reference's moved by it`,
        );
        // the app poses the mesh again (a queue write here; a skinning pass alike): the second
        // burst is born on the new pose
        device.queue.writeBuffer(posed, 0, moved(second));
        for (let n = 0; n < 3; n++) step();
        const t = await ps.read();
        let onSecond = 0;
        for (let i = 1000; i < 2000; i++) {
          const age = t.position[4 * i + 3]!;
          const y0 = t.position[4 * i + 1]! - t.velocity[4 * i + 1]! * age;
          const z0 = t.position[4 * i + 2]! - t.velocity[4 * i + 2]! * age;
          // the emitter is at y = 1; the triangles lie at y = 0 of the pose, z from 0 to √8
          if (
            t.velocity[4 * i + 3]! > 0 &&
            Math.abs(y0 - (1 + second[1]!)) < 1e-3 &&
            z0 >= second[2]! - 1e-3 &&
            z0 <= second[2]! + 3
          )
            onSecond++;
        }
        assert(onSecond === 1000, `the second burst born on the second pose (${onSecond} of 1000)`);
        ps.destroy();
        posed.destroy();
      },
    },
  "mesh: a skinned mesh posed on the GPU is born on uniformly by the area of the pose of the moment (summed on the GPU), not by the bind pose's":
    {
      needs: ['compute'],
      async run({ device }) {
        // the bind pose: four groups of 150 copies of a triangle (600 triangles, so each of the
        // scan's 256 threads sums a run of them), the groups' areas 1 : 2 : 3 : 4; the pose scales
        // each triangle about its first corner to the same area (a total of 8 × 150, the bind
        // pose's 10 × 150): births must spread evenly over the four groups
        const copies = 150;
        const one = fourTriangles().positions;
        const rest = Array.from({ length: 4 * copies }, (_, t) => {
          const k = Math.floor(t / copies);
          return one.slice(9 * k, 9 * k + 9);
        }).flat();
        const pose = Float32Array.from(rest);
        for (let t = 0; t < 4 * copies; t++) {
          const s = Math.sqrt(2 / (Math.floor(t / copies) + 1));
          for (let v = 1; v < 3; v++)
            for (let d = 0; d < 3; d++)
              pose[9 * t + 3 * v + d] =
                rest[9 * t + d]! + s * (rest[9 * t + 3 * v + d]! - rest[9 * t + d]!);
        }
        const { ps, posed, step } = await posedBursts(device, 8000, pose, { rest });
        step();
        const s = await ps.read();
        const counts = [0, 0, 0, 0];
        for (let i = 0; i < 4000; i++) counts[Math.round(s.position[4 * i]! / 10) - 1]!++;
        const chi2 = (weights: number[]): number => {
          const total = weights.reduce((a, b) => a + b, 0);
          return counts.reduce((sum, c, k) => {
            const e = (4000 * weights[k]!) / total;
            return sum + (c - e) ** 2 / e;
          }, 0);
        };
        // 3 degrees of freedom: 16.27 at p = 0.001
        assert(
          chi2([1, 1, 1, 1]) < 16.27 && chi2([1, 2, 3, 4]) > 100,
          `births per triangle ${counts.join(', ')}: χ² ${chi2([1, 1, 1, 1]).toFixed(1)} against the pose's equal areas (< 16.27), ${chi2([1, 2, 3, 4]).toFixed(1)} against the bind pose's 1 : 2 : 3 : 4 (> 100)`,
        );
        ps.destroy();
        posed.destroy();
      },
    },
  'mesh: a skinned mesh posed on the GPU after a device loss and restore: the app writes its pose again and the births are on it (the corners written again)':
    {
      needs: ['compute'],
      async run({ backend }) {
        // a device of its own, without host shadows: buffers come back zeroed, as in an application
        const device = await createDevice({ backend, canvas: document.createElement('canvas') });
        device.onError(() => {}); // the loss is reported here
        const { positions: rest } = fourTriangles();
        const pose = (dz: number): Float32Array =>
          Float32Array.from(rest, (x, i) => (i % 3 === 2 ? x + dz : x));
        const { ps, posed, step } = await posedBursts(device, 1000, pose(0));
        step();
        await ps.read();
        (device as WebGPUDevice).gpu.destroy();
        await device.lost;
        await device.restore();
        // the app's skinning writes the pose every frame: after the restore too
        device.queue.writeBuffer(posed, 0, pose(30));
        for (let n = 0; n < 3; n++) step();
        const t = await ps.read();
        const counts = [0, 0, 0, 0];
        let off = 0;
        for (let i = 500; i < 1000; i++) {
          if (!(t.velocity[4 * i + 3]! > 0)) continue;
          const age = t.position[4 * i + 3]!;
          const x0 = t.position[4 * i]! - t.velocity[4 * i]! * age;
          const z0 = t.position[4 * i + 2]! - t.velocity[4 * i + 2]! * age;
          if (z0 < 30 - 1e-3 || z0 > 33) off++;
          else counts[Math.round(x0 / 10) - 1]!++;
        }
        assert(
          off === 0 && counts.every((c) => c > 20),
          `after the restore the second burst is born over all four triangles of the new pose (per triangle ${counts.join(', ')}, ${off} elsewhere)`,
        );
        ps.destroy();
        device.destroy();
      },
    },
});

/**
 * A skinned mesh posed on the GPU: fourTriangles() (or `mesh`) as the bind pose, `pose` written into a STORAGE
 * buffer the system is born on (compute path), two bursts of half of `count` at 0 and 0.05 s.
 */
async function posedBursts(
  device: Device,
  count: number,
  pose: Float32Array,
  mesh: { rest: number[]; indices?: number[] } = {
    rest: fourTriangles().positions,
    indices: fourTriangles().indices,
  },
) {
  const { rest, indices } = mesh;
  const posed = device.createBuffer({
    label: 'posed vertices',
    size: 4 * rest.length,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(posed, 0, pose);
  const ps = await createParticleSystem(device, {
    ...BURST,
    count,
    bursts: [
      { time: 0, count: count / 2 },
      { time: 0.05, count: count / 2 },
    ],
    path: 'compute',
    mesh: { positions: posed, restPositions: rest, ...(indices ? { indices } : {}) },
  });
  const step = (): void => {
    const enc = device.createCommandEncoder();
    ps.update(enc, DT);
    device.queue.submit([enc.finish()]);
  };
  return { ps, posed, step };
}

/**
 * A burst of 600 still particles on `mesh` (tinted: vertex colours or a colour map), on every path
 * and raster mode: each tint as the reference's, and the picture's left third red, its right blue.
 */
async function tintedOnEveryPath(
  device: Device,
  mesh: NonNullable<ParticleOptionsInput['mesh']>,
): Promise<void> {
  const input: ParticleOptionsInput = {
    ...BURST,
    count: 600,
    bursts: [{ time: 0, count: 600 }],
    emitter: { shape: 'box', position: [0, 0, 0], radius: 0, angle: 0 },
    speedMin: 0,
    speedMax: 0,
    colors: [
      [1, 1, 1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1],
    ],
    mesh,
  };
  for (const path of pathsOf(device)) {
    const modes: Array<'instanced' | 'pulled' | 'splat'> = [
      'instanced',
      'pulled',
      ...(path === 'compute' ? (['splat'] as const) : []),
    ];
    for (const drawMode of modes) {
      const ps = await createParticleSystem(device, {
        ...input,
        path,
        drawMode,
        ...(drawMode === 'splat' ? { blend: 'additive' as const } : {}),
      });
      const { s, ref } = await firstStep(device, ps);
      const tint = s.attributes?.['tint'];
      assert(tint !== undefined, `${path}: the system keeps a tint attribute`);
      const worst = largest(tint, ref.attributes!['tint']!);
      assert(
        worst < 1e-5,
        `${path}: every tint as the reference (worst ${worst.toExponential(1)})`,
      );
      const img = await drawImage(device, ps);
      // the lit pixels' colour sums in the left and right thirds of the picture
      const third = (from: number): number[] => {
        const sum = [0, 0, 0, 0];
        for (let y = 0; y < IMAGE; y++)
          for (let x = from; x < Math.min(IMAGE, from + IMAGE / 3); x++) {
            const at = 4 * (y * IMAGE + x);
            if (img[at]! + img[at + 1]! + img[at + 2]! === 0) continue;
            for (let k = 0; k < 3; k++) sum[k]! += img[at + k]!;
            sum[3]!++;
          }
        return sum;
      };
      const [left, right] = [third(0), third(Math.ceil((2 * IMAGE) / 3))] as [number[], number[]];
      const how = `${path} ${drawMode}: left ${left.join(', ')}, right ${right.join(', ')} (r, g, b sums, pixels)`;
      assert(left[3]! > 20 && right[3]! > 20, `${how}: both triangles' particles drawn`);
      assert(left[0]! > 10 * (left[1]! + left[2]! + 1), `${how}: the left ones red`);
      assert(right[2]! > 10 * (right[0]! + right[1]! + 1), `${how}: the right ones blue`);
      ps.destroy();
    }
  }
}

/**
 * One update of `ps` (by `step`, or one of DT), read back, beside the reference's state after its
 * first step of the same options.
 */
async function firstStep(device: Device, ps: ParticleSystem, step?: () => void) {
  if (step) step();
  else {
    const enc = device.createCommandEncoder();
    ps.update(enc, DT);
    device.queue.submit([enc.finish()]);
  }
  const s = await ps.read();
  const ref = createState(ps.options);
  stepState(ps.options, 1, DT, ref, new EmissionSchedule().advance(ps.options, DT));
  return { s, ref };
}

/** The largest absolute difference between two arrays of the same length. */
function largest(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = a.length === b.length ? 0 : Infinity;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}
