import { openBenchPage } from './bench-page.mjs';
const { page, close } = await openBenchPage('chromium', 'glcount');
try {
  const out = await page.evaluate(async () => {
    const lib = await import('/src/all.ts');
    const df = await import('/bench/page/draw-frames.ts');
    const { rawWebGL2Frames } = await import('/bench/page/draws.ts');
    const device = await lib.createDevice({ backend: 'webgl2' });
    const n = 300;
    const data = df.drawData(n);
    const flags = { BufferUsage: lib.BufferUsage, TextureUsage: lib.TextureUsage };
    const gl = device.gl;
    const log = [];
    let on = false;
    const proto = Object.getPrototypeOf(gl);
    for (const k of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, k);
      if (typeof d.value !== 'function') continue;
      const f = d.value;
      gl[k] = function (...a) { if (on) log.push(k); return f.apply(gl, a); };
    }
    const c = { raw: rawWebGL2Frames(device, n, data), bundle: df.ignisFrames(device, n, data, flags, { bundle: true }), pass: df.ignisFrames(device, n, data, flags) };
    const res = {};
    for (const [k, f] of Object.entries(c)) {
      f.frame(n); await f.idle(); f.frame(n); await f.idle();
      log.length = 0; on = true; f.frame(n); on = false;
      const counts = {};
      for (const x of log) counts[x] = (counts[x] ?? 0) + 1;
      res[k] = { total: log.length, counts, first: log.slice(0, 14).join(' '), last: log.slice(-10).join(' ') };
      await f.idle();
    }
    return res;
  });
  console.log(JSON.stringify(out, null, 1));
} finally { await close(); }
