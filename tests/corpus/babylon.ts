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
    what: 'point splatting: depth-sorted keys by atomicMin into an image',
    wgsl: withIncludes(gpsSplatComputeShaderWGSL.shader),
    cpuOnly: { construct: 'atomic', line: 56, column: 190 },
  },
  {
    file: 'gpsResolve.compute.js',
    what: 'splat resolve: reads and clears the atomic image',
    wgsl: withIncludes(gpsResolveComputeShaderWGSL.shader),
    cpuOnly: { construct: 'atomic', line: 64, column: 222 },
  },
  {
    file: 'iblCopyVoxelBufferToGrid.compute.js',
    what: 'copies voxel bytes into a 3-D storage texture',
    wgsl: iblCopyVoxelBufferToGridComputeShaderWGSL.shader,
    refused: { construct: 'texture_storage_3d', line: 1, column: 115 },
  },
];
