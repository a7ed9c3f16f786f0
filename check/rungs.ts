// The fallback ladder as ignis-check walks it: each rung a backend and the features turned off, so
// one machine runs every path a user's hardware might take (docs/testing-your-scenes.md).
import type { FeatureRestrictions } from 'ignis-rhi';

export interface Rung {
  readonly name: string;
  readonly backend: 'webgpu' | 'webgl2';
  readonly restrict?: FeatureRestrictions;
  /** What the rung stands for, in the report. */
  readonly about: string;
}

export const RUNGS: readonly Rung[] = [
  { name: 'webgpu', backend: 'webgpu', about: 'WebGPU with everything the adapter has' },
  {
    name: 'webgpu-no-compute',
    backend: 'webgpu',
    restrict: { compute: false, storageBuffers: false, storageTextures: false, indirect: false },
    about: 'WebGPU without compute: the fragment paths',
  },
  { name: 'webgl2', backend: 'webgl2', about: 'WebGL2 with float render targets' },
  {
    name: 'webgl2-half-float',
    backend: 'webgl2',
    restrict: { floatRenderTargets: false },
    about: 'WebGL2 without float32 render targets: half-float ping-pong',
  },
  {
    name: 'cpu',
    backend: 'webgl2',
    restrict: { floatRenderTargets: false, halfFloatRenderTargets: false },
    about: 'WebGL2 without float render targets: the CPU paths',
  },
];
