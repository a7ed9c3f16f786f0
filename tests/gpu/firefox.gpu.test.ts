// The GPU cases in Firefox: WebGPU on wgpu (Mesa lavapipe here), WebGL2 on Mesa llvmpipe.
// Which modules, and why: docs/testing.md, "Three engines".
import { engineSuite } from './engine-suite.js';
import { ENGINE_MODULES } from './engine-modules.js';

await engineSuite('firefox', ENGINE_MODULES.firefox);
