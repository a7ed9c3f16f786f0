import { defineConfig } from 'vite';

// `npm run dev`: serves the demos (and the test pages) on 127.0.0.1.
export default defineConfig({
  root: '.',
  server: { host: '127.0.0.1', open: false },
});
