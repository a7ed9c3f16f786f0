// The GPU cases in WebKitGTK: WebGL2 on Mesa llvmpipe (no WebGPU on Linux: those cases are
// skipped, saying so). Which modules, and why: docs/testing.md, "Three engines".
import { engineSuite } from './engine-suite.js';
import { ENGINE_MODULES } from './engine-modules.js';

await engineSuite('webkit', ENGINE_MODULES.webkit);
