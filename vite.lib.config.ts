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
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'index.js' },
  },
});
