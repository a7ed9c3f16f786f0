import { gpuCases } from './harness.js';

await gpuCases('vertex-formats');
