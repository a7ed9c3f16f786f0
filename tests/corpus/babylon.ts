/**
 * Public compute shaders run unchanged: the WGSL compute shaders Babylon.js ships in
 * `@babylonjs/core` (Apache-2.0, pinned in package.json), read from the installed package at test
 * time — nothing of them is copied into this repository. README.md beside this file says which,
 * from where, and what each does. A shader that pulls in one of Babylon's include files
 * (`#include<name>`) gets that file's text in its place, as Babylon's shader processor does; the
 * shaders with `#if`/`#ifdef` blocks (Babylon fills those per material) are not in the corpus.
 */
import { gpsHiZBuildComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsHiZBuild.compute.js';
import { gpsPartitionComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsPartition.compute.js';
import { gpsResolveComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsResolve.compute.js';
import { gpsScanAddComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsScanAdd.compute.js';
import { gpsScanBlocksComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsScanBlocks.compute.js';
import { gpsScanSumsComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsScanSums.compute.js';
import { gpsSplatComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gpsSplat.compute.js';
import { gsSortCountComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortCount.compute.js';
import { gsSortOutputComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortOutput.compute.js';
import { gsSortScanLocalComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortScanLocal.compute.js';
import { gsSortScanSumsComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortScanSums.compute.js';
import { gsSortScatterComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortScatter.compute.js';
import { iblCopyVoxelBufferToGridComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/iblCopyVoxelBufferToGrid.compute.js';
import { gaussianPointSplattingWGSL } from '@babylonjs/core/ShadersWGSL/ShadersInclude/gaussianPointSplatting.js';
import { gaussianPointSplattingScanWGSL } from '@babylonjs/core/ShadersWGSL/ShadersInclude/gaussianPointSplattingScan.js';

const INCLUDES: Record<string, string> = {
  [gaussianPointSplattingWGSL.name]: gaussianPointSplattingWGSL.shader,
  [gaussianPointSplattingScanWGSL.name]: gaussianPointSplattingScanWGSL.shader,
};

/** Babylon's `#include<name>`: the include file's text in place of the line. */
function withIncludes(shader: string): string {
  return shader.replace(/^#include<(\w+)>$/gm, (line, name: string) => {
    const text = INCLUDES[name];
    if (text === undefined) throw new Error(`corpus: no include ${name} (${line})`);
    return text;
  });
}

/** What a corpus shader's buffers hold before the first dispatch. */
export interface CorpusBuffer {
  readonly data: Uint32Array;
  /** Bound as a uniform (else storage). */
  readonly uniform?: boolean;
}

export interface CorpusShader {
  /** The file in `@babylonjs/core/ShadersWGSL/`. */
  readonly file: string;
  readonly what: string;
  readonly wgsl: string;
  /** Runs on every path, with its buffers and grid; or is refused for the fallbacks, naming why. */
  readonly runs?: {
    readonly count: number | [number, number] | [number, number, number];
    buffers(): Record<string, CorpusBuffer>;
    /** The buffers it writes (compared after each step). */
    readonly outputs: readonly string[];
    /** Words compared as f32 (else as integers, bit for bit). */
    readonly floats: boolean;
    /** Outputs of integers among float ones: compared bit for bit. */
    readonly exact?: readonly string[];
    /** Ulps float outputs may differ by (2 unless the shader says why not). */
    readonly ulps?: number;
  };
  /** Every path refuses it (compute runs it as written), naming the construct. */
  readonly refused?: { readonly construct: string; readonly line: number; readonly column: number };
  /**
   * It runs on compute and the CPU, and the ping-pong path refuses it at this construct (workgroup
   * memory, barriers, atomics: a fragment pass has no shared memory or order between fragments).
   */
  readonly cpuOnly?: { readonly construct: string; readonly line: number; readonly column: number };
}

/** The sort's parameters (GsSortPassParams): key count, blocks of 1024 keys, digit shift, chunks. */
const sortParams = (count: number, numBlocks: number, shift: number, chunkCount: number) => ({
  data: new Uint32Array([count, numBlocks, shift, chunkCount]),
});

/**
 * The sort's scatter inputs for `keys` at `shift`: per digit and block the offset of the block's
 * first key of that digit in the sorted output (sumTable, digit-major, one chunk: chunkSums 0), as
 * the count and scan passes leave them. The scatter writes every key where it belongs, so raw
 * WebGPU and every path write the same words (an inconsistent table would write out of range).
 */
function scatterTables(keys: Uint32Array, numBlocks: number, shift: number): Uint32Array {
  const table = new Uint32Array(16 * numBlocks);
  keys.forEach((k, i) => {
    const bin = ((k >>> shift) & 15) * numBlocks + Math.floor(i / 1024);
    table[bin] = (table[bin] as number) + 1;
  });
  let sum = 0;
  table.forEach((c, i) => {
    table[i] = sum;
    sum += c;
  });
  return table;
}

/** Deterministic words: a 32-bit hash of the index and a seed. */
export function hashWords(n: number, seed: number, mask = 0xffffffff): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => {
    let h = Math.imul(i ^ seed, 2654435761) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
    return (h ^ (h >>> 13)) & mask;
  });
}

const floats = (values: number[]): Uint32Array => new Uint32Array(new Float32Array(values).buffer);

/**
 * gpsSplat's inputs: 64 splats drawn as screen rectangles (GPS_FLAG_SCREEN_RECT, saturated:
 * opacity 1), 10 to 50 points each, on a 32×24 image. Where a point lands comes from a hash and
 * `mix` over the rectangle, its key from the splat's depth and dithered colour: integer and exact
 * float arithmetic, so every path must keep the same nearest key per pixel.
 */
function splatScene(): Record<string, CorpusBuffer> {
  const splats = 64;
  const [width, height] = [32, 24];
  const perSplat = hashWords(splats, 31, 0xffff).map((w) => 10 + (w % 41));
  const cdf = new Uint32Array(splats);
  let total = 0;
  perSplat.forEach((n, g) => {
    cdf[g] = total;
    total += n;
  });
  // partTable[b]: the splat holding the point where bucket b starts (gpsPartition's table)
  const splatOf = (p: number): number => {
    let g = 0;
    while (g + 1 < splats && (cdf[g + 1] as number) <= p) g++;
    return g;
  };
  const partTable = Uint32Array.from({ length: 65540 }, (_, b) =>
    splatOf(Math.floor((Math.min(b, 65536) * total) / 65536)),
  );
  const screen = new Uint32Array(16 * splats);
  const f = new Float32Array(screen.buffer);
  const h = hashWords(splats * 4, 32);
  for (let g = 0; g < splats; g++) {
    const x0 = (h[4 * g] as number) % 28;
    const y0 = (h[4 * g + 1] as number) % 20;
    const x1 = x0 + 1 + ((h[4 * g + 2] as number) % 4);
    const y1 = y0 + 1 + ((h[4 * g + 3] as number) % 4);
    f.set([(x0 + x1) / 2, (y0 + y1) / 2, 0, 0, 0, 0, 0, 0], 16 * g); // mean; conic 0
    f.set([((g * 7) % 11) / 10, ((g * 5) % 13) / 12, ((g * 3) % 7) / 6, 1], 16 * g + 8);
    screen.set([(h[4 * g] as number) & 0xfffe, 3, x0 | (y0 << 16), x1 | (y1 << 16)], 16 * g + 12);
  }
  const uniforms = new Float32Array(100);
  uniforms.set([width, height, 0.1, 100], 32); // resNearFar
  uniforms.set([splats, 0, 0, 7], 36); // params0: count, …, seed
  uniforms.set([0, 1, 1, 0], 96); // projectedDepth: z = 1 (no colour scale)
  return {
    cdf: { data: cdf },
    gsData: { data: screen },
    imageBuffer: { data: new Uint32Array(width * height).fill(0xffffffff) },
    uniforms: { data: new Uint32Array(uniforms.buffer), uniform: true },
    pointCount: { data: new Uint32Array([total, 0, 0, 0]) },
    partTable: { data: partTable },
  };
}

const RESOLVE_OUTPUTS = ['accumBuffer', 'imageBuffer', 'accumDepth', 'hiZ', 'accumCount'];

/**
 * gpsResolve's inputs: a 16×12 image of splat keys (one in five pixels empty) resolved into a
 * history of the same size: generation 3, blending by count, Hi-Z written.
 */
function resolveScene(): Record<string, CorpusBuffer> {
  const pixels = 16 * 12;
  const image = hashWords(pixels, 41).map((w, i) => (i % 5 === 2 ? 0xffffffff : w & 0xfffeffff));
  const params = new Float32Array(40);
  params.set([16, 12, 16, 12, 2, 30, 0, 1], 0); // resolution, outResolution, depthNorm, colorMask
  params.set([1, 0, 0, 3], 8); // upsample: n 1, generation 3
  params.set([6, 0, 0, 0], 12); // misc2: at most 6 frames of history
  params.set([1, 0, 0, 1], 16); // projZ: depth = view z
  params.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 20); // inverseProjection
  params.set([1, 0, 0, 0], 36); // occlusion on: Hi-Z written
  const counts = hashWords(pixels, 42).map((w) => ((2 + (w % 3)) << 16) | (w % 5));
  return {
    accumBuffer: { data: floats(Array.from({ length: 4 * pixels }, (_, i) => (i % 9) / 8)) },
    params: { data: new Uint32Array(params.buffer), uniform: true },
    imageBuffer: { data: image },
    accumDepth: { data: floats(Array.from({ length: pixels }, (_, i) => (i % 7) / 7)) },
    hiZ: { data: new Uint32Array(pixels) },
    accumCount: { data: counts },
  };
}

export const CORPUS: readonly CorpusShader[] = [
  {
    file: 'gpsHiZBuild.compute.js',
    what: 'Hi-Z mip reduction (max of 2×2 texels) on a 2-D grid, reading and writing one buffer',
    wgsl: gpsHiZBuildComputeShaderWGSL.shader,
    runs: {
      count: [8, 6],
      buffers: () => ({
        hiZ: {
          data: floats(Array.from({ length: 16 * 12 + 8 * 6 }, (_, i) => Math.sin(i * 1.3) * 50)),
        },
        params: { data: new Uint32Array([0, 16, 12, 0, 192, 8, 6, 0]), uniform: true },
      }),
      outputs: ['hiZ'],
      floats: true,
    },
  },
  {
    file: 'gsSortOutput.compute.js',
    what: 'sort output: indices as floats, padded; params as a struct in read-only storage, ids from workgroup and local ids',
    wgsl: gsSortOutputComputeShaderWGSL.shader,
    runs: {
      count: 512,
      buffers: () => {
        const params = new Uint32Array(20);
        params.set([300, 400, 448]);
        return {
          params: { data: params },
          vals: { data: hashWords(512, 7, 0xffff) },
          indexOut: { data: new Uint32Array(512).fill(0x7fc00000) },
        };
      },
      outputs: ['indexOut'],
      floats: true,
    },
  },
  {
    file: 'gpsScanAdd.compute.js',
    what: 'prefix sum, add block sums (saturating), index from a 2-D grid; its include holds a workgroup scan it does not reach',
    wgsl: withIncludes(gpsScanAddComputeShaderWGSL.shader),
    runs: {
      count: 1500,
      buffers: () => ({
        cdf: { data: hashWords(1500, 3, 0xfffffff) },
        blockSums: { data: hashWords(4, 11, 0xfffffff) },
      }),
      outputs: ['cdf'],
      floats: false,
    },
  },
  {
    file: 'gpsPartition.compute.js',
    what: 'partition table by binary search over a prefix sum; its include holds matrices it does not reach',
    wgsl: withIncludes(gpsPartitionComputeShaderWGSL.shader),
    runs: {
      count: 65537,
      buffers: () => {
        const cdf = new Uint32Array(1000);
        let total = 0;
        hashWords(1000, 5, 0xff).forEach((w, i) => {
          cdf[i] = total;
          total += w;
        });
        return {
          cdf: { data: cdf },
          pointCount: { data: new Uint32Array([total, 0, 0, 0]) },
          partTable: { data: new Uint32Array(65540) },
        };
      },
      outputs: ['partTable'],
      floats: false,
    },
  },
  {
    file: 'gsSortCount.compute.js',
    what: 'radix sort: digit histogram per block of 1024 keys in workgroup atomics',
    wgsl: gsSortCountComputeShaderWGSL.shader,
    runs: {
      count: 3 * 256,
      buffers: () => ({
        params: sortParams(2500, 3, 4, 1),
        keysIn: { data: hashWords(3 * 1024, 21) },
        sumTable: { data: new Uint32Array(48) },
      }),
      outputs: ['sumTable'],
      floats: false,
    },
    cpuOnly: { construct: 'var<workgroup>', line: 5, column: 199 },
  },
  {
    file: 'gsSortScanLocal.compute.js',
    what: 'radix sort: local scan of 1024 counts per workgroup, between barriers',
    wgsl: gsSortScanLocalComputeShaderWGSL.shader,
    runs: {
      count: 2 * 256,
      buffers: () => ({
        params: sortParams(0, 100, 0, 2),
        sumTable: { data: hashWords(1600, 22, 0xfff) },
        chunkSums: { data: new Uint32Array(256) },
      }),
      outputs: ['sumTable', 'chunkSums'],
      floats: false,
    },
    cpuOnly: { construct: 'var<workgroup>', line: 5, column: 208 },
  },
  {
    file: 'gsSortScanSums.compute.js',
    what: 'radix sort: exclusive scan of the chunk sums in one workgroup',
    wgsl: gsSortScanSumsComputeShaderWGSL.shader,
    runs: {
      count: 256,
      buffers: () => ({
        params: sortParams(0, 0, 0, 200),
        chunkSums: { data: hashWords(256, 23, 0xfffff) },
      }),
      outputs: ['chunkSums'],
      floats: false,
    },
    cpuOnly: { construct: 'var<workgroup>', line: 5, column: 140 },
  },
  {
    file: 'gsSortScatter.compute.js',
    what: 'radix sort: scatter by rank, counters and segment sums in workgroup memory',
    wgsl: gsSortScatterComputeShaderWGSL.shader,
    runs: {
      count: 3 * 256,
      buffers: () => {
        const keys = hashWords(3 * 1024, 24);
        return {
          params: sortParams(2500, 3, 8, 1),
          keysIn: { data: keys },
          valsIn: { data: Uint32Array.from({ length: 3 * 1024 }, (_, i) => i) },
          keysOut: { data: new Uint32Array(3 * 1024) },
          valsOut: { data: new Uint32Array(3 * 1024) },
          sumTable: { data: scatterTables(keys.subarray(0, 2500), 3, 8) },
          chunkSums: { data: new Uint32Array(4) },
        };
      },
      outputs: ['keysOut', 'valsOut'],
      floats: false,
    },
    cpuOnly: { construct: 'var<workgroup>', line: 8, column: 5 },
  },
  {
    file: 'gpsScanBlocks.compute.js',
    what: 'prefix sum per block of 512 (the include’s workgroup scan, its barriers in a helper)',
    wgsl: withIncludes(gpsScanBlocksComputeShaderWGSL.shader),
    runs: {
      count: 3 * 256,
      buffers: () => ({
        weights: { data: hashWords(1500, 25, 0xffff) },
        cdf: { data: new Uint32Array(1500) },
        blockSums: { data: new Uint32Array(4) },
      }),
      outputs: ['cdf', 'blockSums'],
      floats: false,
    },
    cpuOnly: { construct: 'var<workgroup>', line: 2, column: 5 },
  },
  {
    file: 'gpsScanSums.compute.js',
    what: 'prefix sum of block sums, one workgroup looping over chunks; indirect dispatch arguments',
    wgsl: withIncludes(gpsScanSumsComputeShaderWGSL.shader),
    runs: {
      count: 256,
      buffers: () => ({
        blockSums: { data: hashWords(700, 26, 0xfffff) },
        pointCount: { data: new Uint32Array(4) },
        indirectArgs: { data: new Uint32Array(4) },
      }),
      outputs: ['blockSums', 'pointCount', 'indirectArgs'],
      floats: false,
    },
    cpuOnly: { construct: 'var<workgroup>', line: 2, column: 5 },
  },
  {
    file: 'gpsSplat.compute.js',
    what: 'point splatting: each point finds its splat by binary search, keeps the nearest key per pixel by atomicMin',
    wgsl: withIncludes(gpsSplatComputeShaderWGSL.shader),
    runs: { count: 3328, buffers: splatScene, outputs: ['imageBuffer'], floats: false },
    cpuOnly: { construct: 'atomic', line: 56, column: 190 },
  },
  {
    file: 'gpsResolve.compute.js',
    what: 'splat resolve: reads and clears the atomic image, blends into the history (8×8 workgroups)',
    wgsl: withIncludes(gpsResolveComputeShaderWGSL.shader),
    runs: {
      count: [16, 12],
      buffers: resolveScene,
      outputs: RESOLVE_OUTPUTS,
      floats: true,
      exact: ['imageBuffer', 'accumCount'],
      // its history blend is mix(): WGSL's formula e1·(1−t) + e2·t on the CPU, e1 + t·(e2 − e1)
      // in SwiftShader — up to 8 ulp apart for small results; WGSL allows either
      ulps: 16,
    },
    cpuOnly: { construct: 'atomic', line: 64, column: 222 },
  },
  {
    file: 'iblCopyVoxelBufferToGrid.compute.js',
    what: 'copies voxel bytes into a 3-D storage texture',
    wgsl: iblCopyVoxelBufferToGridComputeShaderWGSL.shader,
    refused: { construct: 'texture_storage_3d', line: 1, column: 115 },
  },
];
