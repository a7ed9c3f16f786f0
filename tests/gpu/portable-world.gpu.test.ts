import { gpuCases } from './harness.js';

await gpuCases('portable-world');
