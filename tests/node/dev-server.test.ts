// `npm run dev` prints a URL; that URL's root must be the demo index, and a demo's module (which
// imports the library from ../src) must be served from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
let server: ViteDevServer;
let base = '';

beforeAll(async () => {
  server = await createServer({
    configFile: path.join(ROOT, 'vite.config.ts'),
    root: undefined,
    logLevel: 'silent',
    server: { port: 0, hmr: false, watch: null },
  });
  await server.listen();
  base = server.resolvedUrls?.local[0] ?? '';
});
afterAll(async () => {
  await server?.close();
});

describe('npm run dev', () => {
  it('serves the demo index at the root of the URL it prints', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const html = await (await fetch(base)).text();
    expect(html).toContain('<title>Ignis demos</title>');
    expect(html).toContain('index.ts');
  });

  it('serves each demo and the library it imports from outside the demos folder', async () => {
    for (const demo of ['particles', 'hello-triangle', 'compute-boids']) {
      const res = await fetch(`${base}${demo}/main.ts`);
      expect(res.status, demo).toBe(200);
      expect(await res.text()).toMatch(/src\/(\w+\/)?index\.(js|ts)/);
    }
    const thumb = await fetch(`${base}particles/thumbnail.png`);
    expect(thumb.headers.get('content-type')).toBe('image/png');
  });
});
