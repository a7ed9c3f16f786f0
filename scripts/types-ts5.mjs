// After `tsc -p tsconfig.build.json`: declarations for TypeScript before 6, which has no WebGPU in
// its DOM library. TypeScript 6 and 7 declare WebGPU in lib.dom, where @webgpu/types then
// conflicts (182 TS2403/TS2300 errors in a strict consumer): so dist/*.d.ts reference nothing,
// and each entry gets a dist/ts5/<entry>.d.ts that references @webgpu/types and re-exports it.
// package.json "exports" points `types@<6` at those (TypeScript's versioned types condition).
// Node built-ins only.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** `{ subpath, types, ts5 }` for every export whose declarations live in dist/. */
export function typeEntries(exportsField = pkg.exports) {
  return Object.entries(exportsField)
    .filter(([, e]) => e.types?.startsWith('./dist/'))
    .map(([subpath, e]) => ({ subpath, types: e.types, ts5: e['types@<6'] }));
}

export function writeTs5Declarations() {
  for (const { subpath, types, ts5 } of typeEntries()) {
    if (!ts5) throw new Error(`package.json exports["${subpath}"] has no "types@<6" declarations`);
    const file = path.join(ROOT, ts5);
    const target = path
      .relative(path.dirname(file), path.join(ROOT, types))
      .replace(/\.d\.ts$/, '.js');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      `/// <reference types="@webgpu/types" preserve="true" />\n// TypeScript < 6: WebGPU's types come from @webgpu/types (scripts/types-ts5.mjs)\nexport * from '${target.startsWith('.') ? target : `./${target}`}';\n`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  writeTs5Declarations();
