/**
 * Everything in one module, internals included, for the repository's own tests and benchmarks
 * (demos import the public entry points, as users do). Not published: package.json "exports" names the curated entry points (src/index.ts and
 * the subpaths), and api/report.md lists what they export.
 */
export * from './rhi/index.js';
export * from './compute/index.js';
export * from './compute/portable/index.js';
export * from './particles/index.js';
export * from './postfx/index.js';
export * from './testing.js';
export { toWgsl, GLSL_PRELUDE } from './compute/kernel.js';
