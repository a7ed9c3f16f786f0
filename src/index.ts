/// <reference types="@webgpu/types" preserve="true" />
/** Ignis: one API over WebGPU and WebGL2, extended with compute. */
export * from './rhi/index.js';
export * from './compute/index.js';
export * from './particles/index.js';
export * from './postfx/index.js';
