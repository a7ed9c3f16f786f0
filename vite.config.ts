import { defineConfig } from 'vite';

// `npm run dev`: serves the demos on 127.0.0.1; the URL Vite prints opens the demo index
// (demos/index.html: a thumbnail and a line per demo). Demos import the library from ../src.
export default defineConfig({
  root: 'demos',
  server: { host: '127.0.0.1', open: false, fs: { allow: ['..'] } },
});
