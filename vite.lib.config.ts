import { defineConfig } from 'vite';
import { LIB_ENTRIES } from './scripts/entries.mjs';

// `npm run build`: the library as ES modules in dist/ (shader sources inlined as strings), importable
// from a plain <script type="module"> with no bundler. Type declarations come from tsc.
export default defineConfig({
  // the bundled dependencies (fast-png, fflate in ignis-rhi/effects) are named by their path in
  // comments: through node_modules as linked, not where the links point, so that a build of a copy
  // whose node_modules links here (the pack test) gives the same bytes as a build here
  resolve: { preserveSymlinks: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    rolldownOptions: { output: { keepNames: true, minify: true } },
    target: 'es2022',
    // the root and the subpath entries (package.json "exports"); code they share lands in chunks
    lib: {
      entry: LIB_ENTRIES,
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
  },
});
