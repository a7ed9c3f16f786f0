import { defineConfig } from 'vite';

// `npm run build`: the library as ES modules in dist/ (shader sources inlined as strings), importable
// from a plain <script type="module"> with no bundler. Type declarations come from tsc.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    // the root and the subpath entries (package.json "exports"); code they share lands in chunks
    lib: {
      entry: {
        index: 'src/index.ts',
        compute: 'src/compute/index.ts',
        portable: 'src/compute/portable/index.ts',
        particles: 'src/particles/index.ts',
        postfx: 'src/postfx/index.ts',
        testing: 'src/testing.ts',
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
  },
});
