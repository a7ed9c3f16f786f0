// The mesh module's front door and reference: each bad mesh a ParticleOptionError naming it; the
// kernel reads the triangle table as its source on every language; the reference spawns on the
// surface, uniformly by area (χ² over triangles of areas 1 : 2 : 3 : 4), about the normal.
import { describe, expect, it, beforeAll } from 'vitest';
import { loadFrontEnd } from '../../src/compute/front-end.js';
import { resolveOptions } from '../../src/particles/resolve.js';
import { ParticleOptionError } from '../../src/particles/errors.js';
import { particleKernel } from '../../src/particles/kernel.js';
import { EmissionSchedule } from '../../src/particles/emission.js';
import { createState, stepState } from '../../src/particles/reference.js';
import { NullDevice } from '../../src/rhi/null/device.js';
import { BufferUsage } from '../../src/rhi/core/flags.js';
import { createParticleSystem } from '../../src/particles/system.js';
import { meshTable, sampleMap } from '../../src/particles/modules/mesh.js';

/** Four right triangles in the plane y = 0, legs √(2k) (areas k = 1…4), 10 units apart along x. */
export function fourTriangles(): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  for (let k = 1; k <= 4; k++) {
    const leg = Math.sqrt(2 * k);
    const x = 10 * k;
    positions.push(x, 0, 0, x, 0, leg, x + leg, 0, 0);
  }
  return { positions, indices: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
}

/** A burst of `count` on `mesh` at (0, 1, 0), speed 1 along the normal, no forces: one step. */
function bornOn(mesh: Record<string, unknown>, count: number, seed: number) {
  const o = resolveOptions({
    count,
    seed,
    mesh: mesh as never,
    emitter: { shape: 'box', position: [0, 1, 0], radius: 0, angle: 0 },
    bursts: [{ time: 0, count }],
    speedMin: 1,
    speedMax: 1,
    spread: 0,
    gravity: [0, 0, 0],
  });
  return { o, state: referenceStep(o) };
}

/** The reference's state after one step of `o`. */
function referenceStep(o: ReturnType<typeof resolveOptions>) {
  const ref = createState(o);
  stepState(o, 1, 1 / 60, ref, new EmissionSchedule().advance(o, 1 / 60));
  return ref;
}

/**
 * A burst of `count` on `mesh` at (0, 1, 0) run for one step by a system on the CPU path (the
 * kernel translated to JavaScript), beside the reference's step of the same options.
 */
async function cpuBurst(mesh: Record<string, unknown>, count: number, seed: number) {
  const input = {
    count,
    seed,
    mesh: mesh as never,
    emitter: {
      shape: 'box' as const,
      position: [0, 1, 0] as [number, number, number],
      radius: 0,
      angle: 0,
    },
    bursts: [{ time: 0, count }],
    lifeMin: 5,
    lifeMax: 5,
    path: 'cpu' as const,
  };
  const ps = await createParticleSystem(new NullDevice(), input);
  ps.step(1 / 60);
  return { input, ps, s: await ps.read(), ref: referenceStep(ps.options) };
}

// the kernels' GLSL and CPU forms are translated by the WGSL front end, loaded on demand
beforeAll(() => loadFrontEnd());
describe('mesh emission', () => {
  const bad: Array<[unknown, RegExp]> = [
    [{ positions: [0, 0, 0] }, /mesh\.positions = 3 numbers must be x, y, z per vertex/],
    [{ positions: 'abc' }, /mesh\.positions = abc must be an array of numbers/],
    [{ positions: [0, 0, 0, 1, 0, 0, 0, 1, NaN] }, /mesh\.positions\[8\] = NaN must be a finite/],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 3] },
      /mesh\.indices\[2\] = 3 must be a vertex index from 0 to 2/,
    ],
    [{ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1] }, /mesh\.indices = 2 indices/],
    [{ positions: [0, 0, 0, 1, 0, 0, 2, 0, 0] }, /mesh = 1 triangles has no area/],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], normals: [] },
      /mesh\.normals = \[\] is not a mesh option/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0] },
      /mesh\.transform = 12 numbers must be a 4×4 matrix/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2],
      },
      /mesh\.transform = a last row of 0, 0, 0, 2 must be affine/,
    ],
    [
      // stretched along x only: births would crowd the stretched triangles' mesh-space areas
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        transform: [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
      },
      /mesh\.transform = a matrix that scales unevenly.*rotation, a uniform scale and a translation/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, Infinity, 0, 1],
      },
      /mesh\.transform\[13\] = Infinity must be a finite number/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], velocity: [1, 2] },
      /mesh\.velocity = \[1,2\] must be an array of 3/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], angularVelocity: [0, 'fast', 0] },
      /mesh\.angularVelocity\[1\] = fast must be a finite/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], colors: [1, 0, 0, 1, 0, 0] },
      /mesh\.colors = 6 numbers must be 3 \(r, g, b\) or 4 \(r, g, b, a\) per vertex: 9 or 12 for 3 vertices/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], colors: [1, 0, 0, 1, 0, 0, 0, 2, 0] },
      /mesh\.colors\[7\] = 2 must be a number from 0 to 1/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], colors: [1, 0, 0, 1, 0, 0, 0, NaN, 0] },
      /mesh\.colors\[7\] = NaN must be a number from 0 to 1/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], colors: 'red' },
      /mesh\.colors = red must be an array of numbers/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], uvs: [0, 0, 1, 0, 0, 1] },
      /mesh\.colorMap = undefined must be given with mesh\.uvs/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        colorMap: { width: 1, height: 1, data: [255, 0, 0, 255] },
      },
      /mesh\.uvs = undefined must be given with mesh\.colorMap/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        uvs: [0, 0, 1, 0],
        colorMap: { width: 1, height: 1, data: [255, 0, 0, 255] },
      },
      /mesh\.uvs = 4 numbers must be u, v per vertex: 6 for 3 vertices/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        uvs: [0, 0, 1, 0, 0, NaN],
        colorMap: { width: 1, height: 1, data: [255, 0, 0, 255] },
      },
      /mesh\.uvs\[5\] = NaN must be a finite number/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        uvs: [0, 0, 1, 0, 0, 1],
        colorMap: { width: 0, height: 1, data: [] },
      },
      /mesh\.colorMap\.width = 0 must be a whole number of texels/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        uvs: [0, 0, 1, 0, 0, 1],
        colorMap: { width: 1024, height: 512, data: [] },
      },
      /mesh\.colorMap = 1024 × 512 texels must have at most 262144 texels/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        uvs: [0, 0, 1, 0, 0, 1],
        colorMap: { width: 1, height: 1, data: [255, 0, 0, 256] },
      },
      /mesh\.colorMap\.data = \[255,0,0,256\] must be rgba8 pixels/,
    ],
    [
      {
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
        uvs: [0, 0, 1, 0, 0, 1],
        colorMap: { width: 2, height: 1, data: [255, 0, 0, 255] },
      },
      /mesh\.colorMap\.data = 4 bytes must be r, g, b, a per texel: 8 for 2 × 1/,
    ],
    [
      { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], uvs: [0, 0, 1, 0, 0, 1], colorMap: 'texture.png' },
      /mesh\.colorMap = texture\.png must be \{ width, height, data \}/,
    ],
  ];
  for (const [mesh, message] of bad)
    it(`refuses ${JSON.stringify(mesh).slice(0, 70)}`, () => {
      let error: unknown;
      try {
        resolveOptions({ mesh: mesh as never });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParticleOptionError);
      expect(String(error)).toMatch(message);
    });

  it('reads the triangle table as the kernel source, and keeps one resolved mesh per object', () => {
    const given = fourTriangles();
    const o = resolveOptions({ mesh: given });
    const k = particleKernel(o);
    expect(k.descriptor.source).toEqual(['meshA', 'meshB', 'meshC']);
    expect(k.glslFragment).toContain('meshA');
    expect(resolveOptions({ ...o, mesh: o.mesh }).mesh).toBe(o.mesh);
    expect(resolveOptions({ mesh: given }).mesh).toBe(o.mesh);
  });

  it('a new transform with the same vertex arrays keeps the triangle table; changed vertices make another', () => {
    const given = fourTriangles();
    const a = resolveOptions({ mesh: given }).mesh!;
    const moved = resolveOptions({
      mesh: { ...given, transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1] },
    }).mesh!;
    expect(moved).not.toBe(a);
    expect(moved.positions).toBe(a.positions);
    expect(Array.from(moved.transform.subarray(12))).toEqual([4, 5, 6, 1]);
    // a pose written into the same array is other vertices
    given.positions[0] = 0.5;
    const posed = resolveOptions({ mesh: { ...given } }).mesh!;
    expect(posed.positions).not.toBe(a.positions);
    expect(posed.positions[0]).toBe(0.5);
  });

  it('the reference places the mesh by its transform: on the turned, scaled, moved triangles, still uniform by area', () => {
    // a quarter turn about z (x → y, y → −x), twice the size, moved up 5: the plane y = 0 becomes
    // x = 0, the normal +y becomes −x, triangle k's x = 10k becomes y = 20k + 5 (+1 the emitter)
    const { o, state } = bornOn(
      { ...fourTriangles(), transform: [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0, 5, 0, 1] },
      4000,
      12,
    );
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < o.count; i++) {
      const [x, y] = state.position.subarray(4 * i, 4 * i + 2);
      expect(Math.abs(x!)).toBeLessThan(1e-5);
      counts[Math.round((y! - 6) / 20) - 1]!++;
      expect(Math.abs(state.velocity[4 * i]! + 1)).toBeLessThan(1e-5);
    }
    const expected = [1, 2, 3, 4].map((a) => (o.count * a) / 10);
    const chi2 = counts.reduce((s, c, i) => s + (c - expected[i]!) ** 2 / expected[i]!, 0);
    expect(chi2, `counts ${counts.join(', ')}`).toBeLessThan(16.27);
  });

  it("the reference adds the mesh's motion at the birth point: velocity + angularVelocity × (point − origin)", () => {
    const { o, state } = bornOn(
      {
        ...fourTriangles(),
        transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -20, 1],
        velocity: [0, 0, 3],
        angularVelocity: [0, 2, 0],
      },
      500,
      13,
    );
    let worst = 0;
    for (let i = 0; i < o.count; i++) {
      const [px, , pz] = state.position.subarray(4 * i, 4 * i + 3);
      // the point about the transform's origin (0, 0, −20), the emitter's offset aside
      const [rx, rz] = [px!, pz! + 20];
      const expected = [2 * rz, 1, 3 - 2 * rx];
      for (let d = 0; d < 3; d++)
        worst = Math.max(
          worst,
          Math.abs(state.velocity[4 * i + d]! - expected[d]!) / (1 + Math.abs(expected[d]!)),
        );
    }
    expect(worst).toBeLessThan(1e-5);
  });

  it('the reference spawns on the surface, uniformly by area, the velocity about the normal', () => {
    const { o, state } = bornOn(fourTriangles(), 4000, 11);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < o.count; i++) {
      const [x, y, ,] = state.position.subarray(4 * i, 4 * i + 4);
      // born on the plane y = 1 (the mesh at the emitter's position), moving along +y (the normal)
      expect(Math.abs(y! - 1)).toBeLessThan(1e-6);
      counts[Math.round(x! / 10) - 1]!++;
      expect(Math.abs(state.velocity[4 * i + 1]! - 1)).toBeLessThan(1e-5);
    }
    const expected = [1, 2, 3, 4].map((a) => (o.count * a) / 10);
    const chi2 = counts.reduce((s, c, i) => s + (c - expected[i]!) ** 2 / expected[i]!, 0);
    // 3 degrees of freedom: 16.27 at p = 0.001
    expect(chi2, `counts ${counts.join(', ')}`).toBeLessThan(16.27);
  });

  it('vertex colours: packed at 8 bits a channel in a fourth column; the tint of a birth is its corners weighted as its position; same numbers keep the table, new ones make another', () => {
    const given = {
      // one triangle: red, green and blue corners, alphas 1, 0.5, 0 (rgba), and a second, grey (rgb)
      positions: [0, 0, 0, 1, 0, 0, 0, 0, 1, 5, 0, 0, 6, 0, 0, 5, 0, 1],
      colors: [
        1, 0, 0, 1, 0, 1, 0, 0.5, 0, 0, 1, 0, 0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1,
      ],
    };
    const o = resolveOptions({ mesh: given });
    const t = meshTable(o.mesh!);
    expect(Array.from(t.meshColor!.subarray(0, 4))).toEqual([
      255,
      255 * 256,
      255 * 65536,
      255 + 128 * 256,
    ]);
    expect(particleKernel(o).descriptor.source).toEqual(['meshA', 'meshB', 'meshC', 'meshColor']);
    expect(resolveOptions({ mesh: { ...given } }).mesh!.positions).toBe(o.mesh!.positions);
    const recoloured = resolveOptions({
      mesh: { ...given, colors: given.colors.map((c) => c / 2) },
    });
    expect(recoloured.mesh!.positions).not.toBe(o.mesh!.positions);
    expect(meshTable(recoloured.mesh!).meshColor![0]).toBe(128);
    // three corner colours as rgb only: alpha 1
    expect(
      resolveOptions({
        mesh: { positions: given.positions.slice(0, 9), colors: [1, 0, 0, 0, 1, 0, 0, 0, 1] },
      }).mesh!.colors![3],
    ).toBe(1);

    const { state } = bornOn(given, 2000, 5);
    let worst = 0;
    for (let i = 0; i < 2000; i++) {
      const [x, , z] = state.position.subarray(4 * i, 4 * i + 3) as unknown as number[];
      const tint = state.attributes!['tint']!.subarray(4 * i, 4 * i + 4);
      // the weights are the birth point's barycentric coordinates (a at 0, b at +x, c at +z)
      const expected =
        x! < 3
          ? [1 - x! - z!, x!, z!, 1 - x! - z! + (128 / 255) * x!]
          : [128 / 255, 128 / 255, 128 / 255, 1];
      for (let k = 0; k < 4; k++) worst = Math.max(worst, Math.abs(tint[k]! - expected[k]!));
    }
    expect(worst).toBeLessThan(1e-5);
  });

  it('vertex colours on the CPU path (the kernel translated to JavaScript): the tint attribute bit for bit as the reference', async () => {
    const { ps, s, ref } = await cpuBurst(
      {
        ...fourTriangles(),
        colors: Array.from({ length: 48 }, (_, i) => ((i * 37) % 101) / 100),
      },
      600,
      3,
    );
    expect(s.attributes!['tint']).toEqual(ref.attributes!['tint']);
    expect(Array.from(ref.attributes!['tint']!).some((x) => x > 0)).toBe(true);
    ps.destroy();
  });

  it('a colour map: bilinear between texel centres with repeat, v = 0 the first row (the sampler alone)', () => {
    // 2 × 2: red, green on the first row; blue, white on the second
    const data = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255];
    const { mesh } = resolveOptions({
      mesh: {
        positions: [0, 0, 0, 1, 0, 0, 0, 0, 1],
        uvs: [0, 0, 1, 0, 0, 1],
        colorMap: { width: 2, height: 2, data },
      },
    });
    const map = mesh!.colorMap!;
    const near = (uv: [number, number], rgba: number[]): void =>
      sampleMap(map, uv).forEach((x, i) => expect(x).toBeCloseTo(rgba[i]!, 6));
    near([0.25, 0.25], [1, 0, 0, 1]); // a texel's centre: its colour
    near([0.75, 0.25], [0, 1, 0, 1]);
    near([0.25, 0.75], [0, 0, 1, 1]);
    near([0.5, 0.25], [0.5, 0.5, 0, 1]); // between red and green
    near([0, 0.25], [0.5, 0.5, 0, 1]); // the edge: between green (wrapped) and red
    near([1.25, -0.75], [1, 0, 0, 1]); // repeats
    near([0.5, 0.5], [0.5, 0.5, 0.5, 1]); // the four's mean
  });

  it('a colour map on the CPU path (the kernel translated to JavaScript): each tint the vertex colour times the map at the birth coordinates, as the reference; new pixels make another table', async () => {
    const width = 5;
    const height = 3;
    const data = Uint8Array.from({ length: 4 * width * height }, (_, i) => (i * 53) % 256);
    const mesh = {
      ...fourTriangles(),
      colors: Array.from({ length: 48 }, (_, i) => ((i * 37) % 101) / 100),
      // coordinates beyond 0…1 and below: the map repeats
      uvs: Array.from({ length: 24 }, (_, i) => ((i * 29) % 17) / 5 - 1.3),
      colorMap: { width, height, data },
    };
    const { input, ps, s, ref } = await cpuBurst(mesh, 800, 9);
    expect(particleKernel(ps.options).descriptor.source).toEqual([
      'meshA',
      'meshB',
      'meshC',
      'meshColor',
      'meshUV',
      'meshTexel',
    ]);
    // the same pixels again keep the resolved mesh (so its table); others (in place) make another
    const again = resolveOptions({ ...input, mesh: { ...mesh } });
    expect(again.mesh!.colorMap).toBe(ps.options.mesh!.colorMap);
    const tint = s.attributes!['tint']!;
    const want = ref.attributes!['tint']!;
    let worst = 0;
    for (let i = 0; i < tint.length; i++) worst = Math.max(worst, Math.abs(tint[i]! - want[i]!));
    expect(worst).toBeLessThan(1e-5);
    // the map matters: without it the tints are the vertex colours alone, far from these
    const plain = referenceStep(
      resolveOptions({ ...input, mesh: { ...mesh, uvs: null, colorMap: null } }),
    ).attributes!['tint']!;
    let apart = 0;
    for (let i = 0; i < tint.length; i++) apart = Math.max(apart, Math.abs(tint[i]! - plain[i]!));
    expect(apart).toBeGreaterThan(0.2);
    data[0] = (data[0]! + 1) % 256;
    const repainted = resolveOptions({ ...input, mesh: { ...mesh } });
    expect(repainted.mesh!.colorMap).not.toBe(ps.options.mesh!.colorMap);
    expect(repainted.mesh!.colorMap!.texels[0]).toBeCloseTo(data[0]! / 255, 6);
    ps.destroy();
  });

  it("vertex colours and a colour map on the compute path of a device binding 8 storage buffers a stage: a LimitExceededError naming the step's 9 (the step would not run)", async () => {
    const device = new NullDevice();
    const mesh = {
      positions: [0, 0, 0, 1, 0, 0, 0, 0, 1],
      colors: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      uvs: [0, 0, 1, 0, 0, 1],
      colorMap: { width: 1, height: 1, data: [255, 255, 255, 255] },
    };
    await expect(
      createParticleSystem(device, { count: 64, mesh, path: 'compute' }),
    ).rejects.toThrow(
      /Storage buffers of the step \(attributes position, velocity, tint; source meshA, meshB, meshC, meshColor, meshUV, meshTexel\): 9 exceeds limits\.maxStorageBuffersPerShaderStage \(8\)/,
    );
    // either alone is 8: it runs
    const { colors: _colors, ...mapped } = mesh;
    (await createParticleSystem(device, { count: 64, mesh: mapped, path: 'compute' })).destroy();
  });

  it('a skinned mesh posed on the GPU: positions a STORAGE buffer with restPositions its bind pose; each mistake named; the compute path only', async () => {
    const device = new NullDevice();
    const rest = [0, 0, 0, 1, 0, 0, 0, 0, 1];
    const storage = device.createBuffer({
      size: 36,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
    const named = (mesh: Record<string, unknown>, option: string, message: RegExp): void => {
      let error: unknown;
      try {
        resolveOptions({ mesh: mesh as never });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParticleOptionError);
      expect((error as ParticleOptionError).option).toBe(option);
      expect(String(error)).toMatch(message);
    };
    named({ positions: storage }, 'mesh.restPositions', /must be the bind pose/);
    named(
      { positions: rest, restPositions: rest },
      'mesh.restPositions',
      /give positions as a Buffer/,
    );
    named(
      {
        positions: device.createBuffer({ size: 36, usage: BufferUsage.VERTEX }),
        restPositions: rest,
      },
      'mesh.positions',
      /a buffer of usage VERTEX must have STORAGE usage/,
    );
    named(
      {
        positions: device.createBuffer({ size: 24, usage: BufferUsage.STORAGE }),
        restPositions: rest,
      },
      'mesh.positions',
      /a buffer of 24 bytes must hold x, y, z \(float32\) for each of the 3 vertices of restPositions: 36 bytes/,
    );
    named(
      { positions: storage, restPositions: [0, 0, 0, 1] },
      'mesh.restPositions',
      /4 numbers must be x, y, z per vertex/,
    );
    const o = resolveOptions({ mesh: { positions: storage, restPositions: rest } });
    expect(o.mesh!.posed).toBe(storage);
    expect(Array.from(o.mesh!.positions)).toEqual(rest);
    // the update reads the buffer on the compute path: the other paths are told so at creation
    const mesh = { positions: storage, restPositions: rest };
    await expect(createParticleSystem(device, { count: 8, path: 'cpu', mesh })).rejects.toThrow(
      /mesh\.positions = a GPU buffer is read by the update on the compute path and this system runs on 'cpu'/,
    );
    await expect(
      createParticleSystem(new NullDevice(), { count: 8, path: 'cpu', mesh }),
    ).rejects.toThrow(
      /mesh\.positions = a buffer of another device must be a buffer of this device/,
    );
  });
});
