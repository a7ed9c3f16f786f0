import { gpuCases } from './harness.js';

await gpuCases('bind-groups');
