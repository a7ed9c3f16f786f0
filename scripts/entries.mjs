// The package's entry points: the subpath users import (package.json "exports"), the source file
// it is built from (vite.lib.config.ts) and the built file in dist/. The scene kit aliases
// `ignis-rhi…` imports to the sources in the repository and to dist/ in an installed package.
// Node built-ins only.
import path from 'node:path';

/** subpath ('' for the root) → [source in the repository, name of the built file in dist/] */
export const ENTRIES = {
  '': ['src/index.ts', 'index'],
  compute: ['src/compute/index.ts', 'compute'],
  portable: ['src/compute/portable/index.ts', 'portable'],
  particles: ['src/particles/index.ts', 'particles'],
  postfx: ['src/postfx/index.ts', 'postfx'],
  effects: ['src/effects/index.ts', 'effects'],
  testing: ['src/testing.ts', 'testing'],
};

/** The build's entries for vite's `build.lib.entry`: built name → source. */
export const LIB_ENTRIES = Object.fromEntries(
  Object.values(ENTRIES).map(([source, built]) => [built, source]),
);

/**
 * Vite aliases for `ignis-rhi` and its subpaths, so a page and the code it imports share one copy
 * of the library: the sources under `root`, or the built files when `built` (an installed package).
 */
export function libraryAliases(root, built = false) {
  return Object.entries(ENTRIES).map(([subpath, [source, file]]) => ({
    find: new RegExp(`^ignis-rhi${subpath ? `/${subpath}` : ''}$`),
    replacement: path.join(root, built ? `dist/${file}.js` : source),
  }));
}
