import { gpuCases } from './harness.js';

await gpuCases('render-bundles');
