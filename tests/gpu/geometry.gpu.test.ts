import { gpuCases } from './harness.js';

await gpuCases('geometry');
