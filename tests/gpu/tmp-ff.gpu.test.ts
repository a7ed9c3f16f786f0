import { engineSuite } from './engine-suite.js';
await engineSuite('firefox', ['geometry']);
await engineSuite('webkit', ['geometry']);
