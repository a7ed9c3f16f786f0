import {
  TextureUsage,
  createDevice,
  createParticleSystem,
  createState,
  orbitCamera,
  resolveOptions,
  stepState,
  ParticleOptionError,
  ValidationError,
  type Device,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual, assertThrows } from '../page/assert.js';
import {
  CAMERA,
  IMAGE,
  coverage,
  drawImage,
  drawFloatImage,
  imageDiff,
  pathsOf,
  stepped,
  ONE_STILL_PARTICLE,
} from '../page/particle-helpers.js';
import { createScenePipeline, drawDepth, vertexBuffer } from '../page/scenes.js';

const COUNT = 10_000;
const STEPS = 60;
/**
 * Tolerance per component: 1e-3 · max(1, |value|). Every path computes in float32, but a GPU may
 * fuse a·b + c into one rounding where the reference rounds twice; over 60 steps such 1-ulp
 * differences (≤ 6e-8 relative each) stay far below 1e-3. A particle whose death test
 * (age ≥ life or y < floorY) flips through that rounding respawns a step early or late and
 * differs completely; those are counted and must stay below 0.1%.
 */
const TOLERANCE = 1e-3;

function mismatches(
  a: Float32Array,
  b: Float32Array,
  count: number,
): { diverged: number; worst: number } {
  let diverged = 0;
  let worst = 0;
  for (let i = 0; i < count; i++) {
    let bad = false;
    for (let c = 0; c < 4; c++) {
      const x = a[4 * i + c] as number;
      const y = b[4 * i + c] as number;
      const d = Math.abs(x - y) / Math.max(1, Math.abs(y));
      if (d > TOLERANCE || Number.isNaN(x)) bad = true;
      else worst = Math.max(worst, d);
    }
    if (bad) diverged++;
  }
  return { diverged, worst };
}

/** The first default: a 0.1-wide box at the origin, 2–4 m/s upwards (the motion tests below were written for it). */
const BOX_COLUMN = {
  emitter: { shape: 'box', position: [0, 0, 0], radius: 0.1 },
  speedMin: 2,
  speedMax: 4,
  lifeMin: 1.5,
  lifeMax: 3,
} as const;

/**
 * Splat against raster, both in rgba16float. The coverage rule is the same (pixel centres inside
 * the quad, the same falloff), but the rasteriser snaps vertices to its sub-pixel grid (1/16 to
 * 1/256 px) where the splat computes the centre exactly: for a particle a few pixels wide that
 * moves the falloff by a few percent at single pixels, in both directions (the centroid and the sum
 * stay put). So the check is what snapping cannot change: lit pixels within 1%, each channel's sum
 * over the image within 1%, and every 8×8 block's mean within 0.005 + 3% of the raster's.
 */
function compareSplat(
  raster: Float32Array,
  splat: Float32Array,
): { lit: number; litSplat: number; energy: number[]; blocks: number; worstBlock: number } {
  let lit = 0;
  let litSplat = 0;
  const sums = [0, 0, 0, 0];
  const sumsSplat = [0, 0, 0, 0];
  for (let i = 0; i < raster.length; i += 4) {
    if ((raster[i + 3] as number) > 1e-3) lit++;
    if ((splat[i + 3] as number) > 1e-3) litSplat++;
    for (let c = 0; c < 4; c++) {
      sums[c] = (sums[c] as number) + (raster[i + c] as number);
      sumsSplat[c] = (sumsSplat[c] as number) + (splat[i + c] as number);
    }
  }
  let blocks = 0;
  let worstBlock = 0;
  for (let by = 0; by < IMAGE; by += 8)
    for (let bx = 0; bx < IMAGE; bx += 8)
      for (let c = 0; c < 4; c++) {
        let r = 0;
        let s = 0;
        for (let y = by; y < by + 8; y++)
          for (let x = bx; x < bx + 8; x++) {
            r += raster[4 * (y * IMAGE + x) + c] as number;
            s += splat[4 * (y * IMAGE + x) + c] as number;
          }
        const d = Math.abs(r - s) / 64;
        worstBlock = Math.max(worstBlock, d);
        if (d > 0.005 + 0.03 * (r / 64)) blocks++;
      }
  return {
    lit,
    litSplat,
    energy: sums.map((v, c) => (sumsSplat[c] as number) / v),
    blocks,
    worstBlock,
  };
}

const pathCases = defineCases({
  'every path matches the TypeScript reference after 60 steps of 1/60 s (10,000 particles)': {
    async run({ device }) {
      const options = resolveOptions({ count: COUNT, seed: 1 });
      const reference = createState(options);
      for (let n = 1; n <= STEPS; n++) stepState(options, n, 1 / 60, reference);
      for (const path of pathsOf(device)) {
        const ps = await stepped(device, { count: COUNT, seed: 1, path }, STEPS);
        assertEqual(ps.path, path, 'path taken');
        const state = await ps.read();
        const p = mismatches(state.position, reference.position, COUNT);
        const v = mismatches(state.velocity, reference.velocity, COUNT);
        const diverged = Math.max(p.diverged, v.diverged);
        console.log(
          `${device.caps.backend}/${path}: ${diverged} of ${COUNT} particles diverged (${((100 * diverged) / COUNT).toFixed(3)}%), worst relative difference of the rest ${Math.max(p.worst, v.worst).toExponential(2)}`,
        );
        assert(
          diverged / COUNT < 0.001,
          `${path}: ${diverged} of ${COUNT} particles differ from the reference by more than ${TOLERANCE} (allowed < 0.1%)`,
        );
        const stats = await ps.stats();
        assertEqual(stats.alive, COUNT, `${path}: alive after an update`);
        let newborn = 0;
        for (let i = 0; i < COUNT; i++) if (reference.position[4 * i + 3] === 0) newborn++;
        assert(
          Math.abs(stats.newborn - newborn) <= Math.max(2, COUNT * 0.001),
          `${path}: newborn ${stats.newborn} vs reference ${newborn}`,
        );
        assert(newborn > 0, 'the reference respawned particles in the last step');
        ps.destroy();
      }
    },
  },
  'both draw modes give the same image of the same state': {
    async run({ device }) {
      for (const path of pathsOf(device)) {
        const a = await stepped(
          device,
          { count: 3000, path, drawMode: 'instanced', size: 0.15, spread: 2 },
          20,
        );
        const b = await stepped(
          device,
          { count: 3000, path, drawMode: 'pulled', size: 0.15, spread: 2 },
          20,
        );
        const ia = await drawImage(device, a);
        const ib = await drawImage(device, b);
        const d = imageDiff(ia, ib, 1);
        assert(
          coverage(ia).lit > 200,
          `${path}: particles visible (${coverage(ia).lit} pixels lit)`,
        );
        assert(
          d.differ === 0,
          `${path}: instanced and pulled differ in ${d.differ} pixels (worst ${d.worst}/255)`,
        );
        a.destroy();
        b.destroy();
      }
    },
  },
  'splat draws the raster image of the same state, identically run to run (additive)': {
    needs: ['compute'],
    async run({ device }) {
      const options = { count: 3000, size: 0.15, spread: 2 } as const;
      for (const path of ['compute', 'cpu'] as const) {
        const raster = await stepped(device, { ...options, path, drawMode: 'pulled' }, 20);
        const splat = await stepped(device, { ...options, path, drawMode: 'splat' }, 20);
        assertEqual(splat.drawMode, 'splat', 'mode');
        // compared in rgba16float, where blending keeps faint contributions (rgba8 rounds after
        // every blend, so a contribution under 0.5/255 is lost: dense pixels then differ by tens
        // of 1/255, and the splat, which rounds once, is the closer one)
        const fr = await drawFloatImage(device, raster);
        const fs = await drawFloatImage(device, splat);
        const c = compareSplat(fr, fs);
        console.log(
          `${path}: splat vs raster: lit ${c.litSplat} vs ${c.lit}; energy ratio ${c.energy.map((e) => e.toFixed(4)).join(' ')}; 8×8 blocks outside the tolerance ${c.blocks}, worst block difference ${c.worstBlock.toFixed(4)}`,
        );
        assert(c.lit > 200, `${path}: particles visible (${c.lit} pixels lit)`);
        assert(
          Math.abs(c.litSplat - c.lit) <= c.lit * 0.01,
          `${path}: splat lights ${c.litSplat} pixels, raster ${c.lit}`,
        );
        for (const [i, e] of c.energy.entries())
          assert(
            Math.abs(e - 1) < 0.01,
            `${path}: channel ${i} sums to ${e.toFixed(4)}× the raster's`,
          );
        assertEqual(c.blocks, 0, `${path}: 8×8 blocks outside the tolerance`);
        // and in the 8-bit canvas format: the same bytes run to run
        const is = await drawImage(device, splat);
        const again = await drawImage(device, splat);
        assertEqual(
          imageDiff(is, again, 0).differ,
          0,
          `${path}: splat pixels differing run to run`,
        );
        raster.destroy();
        splat.destroy();
      }
    },
  },
  'splat: a sum past 65,536 saturates to full intensity (not a wrapped, dark pixel), and the next frame starts clean':
    {
      needs: ['compute'],
      async run({ device }) {
        // 65,552 still white particles on one spot: the pixels near its centre get 65,552 adds of
        // exactly 1 (the falloff is flat inside half the radius), 16 past what 16.16 fixed point
        // holds — wrapped, they would read 16
        const count = 65_552;
        const away = orbitCamera({ aspect: 1, distance: 10, pitch: 0.1, target: [0, 60, 0] });
        for (const targetAlpha of ['blend', 'keep'] as const) {
          const ps = await stepped(
            device,
            {
              ...ONE_STILL_PARTICLE,
              count,
              bursts: [{ time: 0, count }],
              lifeMin: 100,
              lifeMax: 100,
              size: 0.5,
              drawMode: 'splat',
              path: 'compute',
              targetAlpha,
            },
            1,
          );
          const image = await drawFloatImage(device, ps);
          let full = 0;
          let wrapped = 0;
          let top = 0;
          for (let i = 0; i < image.length; i += 4) {
            const r = image[i] as number;
            top = Math.max(top, r);
            if (r >= 65_504) {
              full++;
              assertEqual(
                image[i + 3],
                targetAlpha === 'keep' ? 0 : r,
                `${targetAlpha}: alpha of a saturated pixel`,
              );
            }
            // a pixel whose neighbours saturated, itself at a few hundred or less: a wrapped sum
            else if (r > 0 && r < 1000 && i >= 4 && (image[i - 4] as number) >= 65_504) wrapped++;
          }
          assert(full >= 1, `${targetAlpha}: saturated pixels (${full}; the brightest ${top})`);
          assertEqual(wrapped, 0, `${targetAlpha}: wrapped pixels beside saturated ones`);
          // the same system, its particles out of view: nothing left of the last frame's sums or
          // saturation bits
          const after = await drawFloatImage(device, ps, away);
          let lit = 0;
          for (const v of after) if (v !== 0) lit++;
          assertEqual(
            lit,
            0,
            `${targetAlpha}: channels lit in the frame after, particles out of view`,
          );
          ps.destroy();
        }
      },
    },
  "targetAlpha 'keep': every draw mode and blending leaves the target's alpha as it was cleared and draws the colours 'blend' draws":
    {
      async run({ device }) {
        const clear: [number, number, number, number] = [0, 0, 0, 0.5];
        const options = { count: 2000, size: 0.15, spread: 2 } as const;
        for (const path of pathsOf(device)) {
          const modes: Array<'instanced' | 'pulled' | 'splat'> = [
            'instanced',
            'pulled',
            ...(device.caps.features.compute && path !== 'pingpong' ? (['splat'] as const) : []),
          ];
          for (const blending of ['additive', 'alpha'] as const)
            for (const drawMode of modes) {
              if (drawMode === 'splat' && blending === 'alpha') continue; // the splat adds
              const images = [];
              for (const targetAlpha of ['blend', 'keep'] as const) {
                const ps = await stepped(
                  device,
                  { ...options, path, drawMode, blending, targetAlpha },
                  20,
                );
                images.push(await drawImage(device, ps, clear));
                ps.destroy();
              }
              const [blended, kept] = images as [Uint8Array, Uint8Array];
              let rgbDiffer = 0;
              let alphaMoved = 0;
              let alphaKept = 0;
              for (let i = 0; i < kept.length; i += 4) {
                for (let c = 0; c < 3; c++)
                  if (kept[i + c] !== blended[i + c]) {
                    rgbDiffer++;
                    break;
                  }
                if (blended[i + 3] !== 128) alphaMoved++;
                if (kept[i + 3] === 128) alphaKept++;
              }
              const how = `${path} ${drawMode} ${blending}`;
              assert(
                coverage(kept).lit > 200,
                `${how}: particles visible (${coverage(kept).lit} lit)`,
              );
              assertEqual(rgbDiffer, 0, `${how}: pixels whose colour differs from 'blend'`);
              assertEqual(alphaKept, kept.length / 4, `${how}: pixels whose alpha stayed 128`);
              assert(alphaMoved > 200, `${how}: 'blend' changes the alpha (${alphaMoved} pixels)`);
            }
        }
      },
    },
  'splat misuse is a typed error: no prepareDraw, a pass of another size, a depth attachment, alpha blending':
    {
      needs: ['compute'],
      async run({ device }) {
        const ps = await createParticleSystem(device, { count: 100, drawMode: 'splat' });
        const target = (w: number, format: 'rgba8unorm' | 'depth24plus' = 'rgba8unorm') =>
          device.createTexture({
            size: { width: w, height: w },
            format,
            usage: TextureUsage.RENDER_ATTACHMENT,
          });
        const t = target(16);
        let enc = device.createCommandEncoder();
        let pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
        await assertThrows(
          () => ps.draw(pass, CAMERA),
          ValidationError,
          /prepareDraw\(encoder, camera, target\)/,
          'draw without prepareDraw',
        );
        pass.end();
        enc = device.createCommandEncoder();
        ps.prepareDraw(enc, CAMERA, { width: 32, height: 32 });
        pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
        await assertThrows(
          () => ps.draw(pass, CAMERA),
          ValidationError,
          /prepared for 32x32 but the pass is 16x16/,
          'another size',
        );
        pass.end();
        enc = device.createCommandEncoder();
        ps.prepareDraw(enc, CAMERA, t);
        pass = enc.beginRenderPass({
          colorAttachments: [{ texture: t }],
          depthStencilAttachment: { texture: target(16, 'depth24plus') },
        });
        await assertThrows(
          () => ps.draw(pass, CAMERA),
          ValidationError,
          /does not test against a depth attachment/,
          'depth',
        );
        pass.end();
        await assertThrows(
          () => ps.setOptions({ blending: 'alpha' }),
          ParticleOptionError,
          /needs blending 'additive'/,
          'alpha on a splat',
        );
        await assertThrows(
          () => ps.prepareDraw(device.createCommandEncoder(), CAMERA, { width: 0, height: 5 }),
          ValidationError,
          /got 0x5/,
          'target size',
        );
        ps.destroy();
        let error: unknown = null;
        await createParticleSystem(device, { drawMode: 'splat', blending: 'alpha' }).catch(
          (e: unknown) => (error = e),
        );
        assert(error instanceof ParticleOptionError, 'alpha splat is a ParticleOptionError');
      },
    },
  "drawMode 'auto' measures the candidates at the first draw and keeps drawing the same image": {
    async run({ device }) {
      const options = { count: 2000, size: 0.15, spread: 2 } as const;
      const auto = await stepped(device, { ...options, drawMode: 'auto' }, 20);
      const fixed = await stepped(device, { ...options, drawMode: 'pulled' }, 20);
      assert(
        /provisional/.test(auto.drawModeReason),
        `provisional at first: ${auto.drawModeReason}`,
      );
      const before = await drawFloatImage(device, auto);
      const mode = await auto.drawModeDecided;
      assertEqual(auto.drawModeReason.startsWith('measured'), true, auto.drawModeReason);
      const candidates = device.caps.features.compute
        ? ['instanced', 'pulled', 'splat']
        : ['instanced', 'pulled'];
      for (const m of candidates)
        assert(
          new RegExp(`${m} \\d+\\.\\d+ ms`).test(auto.drawModeReason),
          `${m} timed: ${auto.drawModeReason}`,
        );
      console.log(`${device.caps.backend}: auto → ${mode}: ${auto.drawModeReason}`);
      const after = await drawFloatImage(device, auto);
      assertEqual(auto.drawMode, mode, 'the measured mode is in use after the next frame');
      const reference = await drawFloatImage(device, fixed);
      // the splat test's tolerance (compareSplat); the raster modes agree exactly
      for (const [name, img] of [
        ['provisional', before],
        ['measured', after],
      ] as const) {
        const c = compareSplat(reference, img);
        assert(
          c.blocks === 0 && c.energy.every((e) => Math.abs(e - 1) < 0.01),
          `${name} frame (${mode}) differs from pulled: ${c.blocks} blocks, energy ${c.energy.join(' ')}`,
        );
      }
      auto.destroy();
      fixed.destroy();
    },
  },
  "drawMode 'auto' sets aside WebGL2 timestamps that time a small share of their own span": {
    async run({ device }) {
      // 10,000 particles at 480x270: one sample, the whole count; a draw takes milliseconds on
      // every software rasteriser here, so the wall clock can time it
      const width = 480;
      const height = 270;
      const camera = orbitCamera({ aspect: width / height });
      const options = { count: 10_000, size: 0.05, spread: 2, drawMode: 'auto' } as const;
      const target = device.createTexture({
        label: 'auto clock target',
        size: { width, height },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
      });
      /** The reason of an `auto` system measured at its first draw into the target. */
      const decide = async (): Promise<string> => {
        const ps = await stepped(device, options, 20);
        const enc = device.createCommandEncoder();
        ps.prepareDraw(enc, camera, target);
        const pass = enc.beginRenderPass({
          colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
        });
        ps.draw(pass, camera);
        pass.end();
        device.queue.submit([enc.finish()]);
        await ps.drawModeDecided;
        const reason = ps.drawModeReason;
        ps.destroy();
        return reason;
      };
      const clockOf = (reason: string): string | undefined =>
        /^measured \((GPU timestamps|submit to done)[ ,]/.exec(reason)?.[1];
      const setAside = (reason: string, share: string): boolean =>
        new RegExp(
          `^measured \\(submit to done \\(the GPU timestamps time ${share} of the \\d+\\.\\d ms their \\d+ runs spanned; the wait alone \\d+\\.\\d ms, subtracted\\), 10,000 of 10,000 particles`,
        ).test(reason);
      const timer = device.caps.features.timestampQuery;
      // as the device is: WebGPU keeps its timestamps, WebGL2 keeps them or sets them aside, saying
      // so (WebKit's timer on llvmpipe times 7–9% of its runs' span at such counts: set aside there)
      const reason = await decide();
      console.log(`${device.caps.backend}: ${reason}`);
      if (!timer) assertEqual(clockOf(reason), 'submit to done', reason);
      else if (device.caps.backend === 'webgpu')
        assertEqual(clockOf(reason), 'GPU timestamps', reason);
      else
        assert(
          reason.startsWith('measured (GPU timestamps, ') || setAside(reason, '\\d+%'),
          `a clock named: ${reason}`,
        );
      if (!timer) {
        target.destroy();
        return;
      }
      // a timer that reads a tenth of every pass, its start where it was, as WebKit's reads a
      // tenth or less of the draws (pairs of queries: a pass's start and its end)
      const createQuerySet = device.createQuerySet.bind(device);
      device.createQuerySet = (descriptor) => {
        const set = createQuerySet(descriptor);
        const read = set.readTimestamps.bind(set);
        set.readTimestamps = async () =>
          (await read()).map((t, i, all) =>
            i % 2 === 0 ? t : (all[i - 1] as number) + (t - (all[i - 1] as number)) / 10,
          );
        return set;
      };
      try {
        const tenth = await decide();
        console.log(`${device.caps.backend}, a timer reading a tenth: ${tenth}`);
        if (device.caps.backend === 'webgpu')
          assertEqual(clockOf(tenth), 'GPU timestamps', `WebGPU's timestamps are kept: ${tenth}`);
        else {
          // a tenth of what the real timer reads: ~11% where it times the draws (the last pass
          // ends earlier: a shorter span), less in WebKit
          const share = Number(/the GPU timestamps time (\d+)%/.exec(tenth)?.[1]);
          assert(setAside(tenth, '\\d+%') && share <= 12, `set aside at a tenth: ${tenth}`);
          // where the real timestamps were kept, the wall clock (draws batched, the wait
          // subtracted) reads what they read, within the wait's steps (Chromium's WebGL2 polls in
          // ~4 ms: its pulled draw read 8.7–10.8 ms against 10.7–11.0). This does not tell the
          // batching from one draw a run here; bench/deno/auto-clock.ts on a GPU does.
          if (clockOf(reason) === 'GPU timestamps') {
            const pulled = (r: string): number => Number(/[:,] pulled (\d+\.\d+) ms/.exec(r)?.[1]);
            const ratio = pulled(tenth) / pulled(reason);
            assert(
              ratio > 0.67 && ratio < 1.5,
              `a pulled draw on the wall clock ${pulled(tenth)} ms, by timestamps ${pulled(reason)} ms`,
            );
          }
        }
      } finally {
        device.createQuerySet = createQuerySet;
      }
      target.destroy();
    },
  },
  "drawMode 'auto' systems of one device measure in turn, not at once": {
    async run({ device }) {
      // three systems drawn in one frame start their measurements together; each measurement's
      // private target lives from its start to its end (calibrate.ts), so their lives must not
      // overlap: measured at once, each timed the others' runs with its own
      const width = 160;
      const height = 90;
      const camera = orbitCamera({ aspect: width / height });
      const lives: Array<{ start: number; end: number }> = [];
      const createTexture = device.createTexture.bind(device);
      device.createTexture = (descriptor) => {
        const texture = createTexture(descriptor);
        if (descriptor.label === 'particles draw-mode measurement') {
          const life = { start: performance.now(), end: Infinity };
          lives.push(life);
          const destroy = texture.destroy.bind(texture);
          texture.destroy = () => {
            life.end = performance.now();
            destroy();
          };
        }
        return texture;
      };
      const target = createTexture({
        label: 'auto turns target',
        size: { width, height },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
      });
      try {
        const systems = await Promise.all(
          [1, 2, 3].map((seed) =>
            stepped(device, { count: 2000, size: 0.1, spread: 2, seed, drawMode: 'auto' }, 5),
          ),
        );
        const enc = device.createCommandEncoder();
        for (const ps of systems) ps.prepareDraw(enc, camera, target);
        const pass = enc.beginRenderPass({
          colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
        });
        for (const ps of systems) ps.draw(pass, camera);
        pass.end();
        device.queue.submit([enc.finish()]);
        await Promise.all(systems.map((ps) => ps.drawModeDecided));
        for (const ps of systems) {
          assert(ps.drawModeReason.startsWith('measured'), ps.drawModeReason);
          ps.destroy();
        }
        assertEqual(lives.length, 3, 'one measurement a system');
        lives.sort((a, b) => a.start - b.start);
        for (let i = 1; i < lives.length; i++) {
          const before = lives[i - 1] as (typeof lives)[number];
          const life = lives[i] as (typeof lives)[number];
          assert(
            life.start >= before.end,
            `measurement ${i + 1} started at ${life.start.toFixed(1)} ms, before measurement ${i} ended (${before.end.toFixed(1)} ms)`,
          );
        }
      } finally {
        device.createTexture = createTexture;
        target.destroy();
      }
    },
  },
  'the same state drawn on WebGPU and WebGL2 agrees': {
    cross: true,
    async run(ctx) {
      const gpu = await ctx.open('webgpu');
      const gl = await ctx.open('webgl2');
      const a = await stepped(gpu, { count: 3000, path: 'compute', size: 0.15, spread: 2 }, 30);
      const b = await stepped(gl, { count: 3000, path: 'pingpong', size: 0.15, spread: 2 }, 30);
      const ia = await drawImage(gpu, a);
      const ib = await drawImage(gl, b);
      const d = imageDiff(ia, ib, 2);
      const lit = coverage(ia).lit;
      console.log(
        `WebGPU compute vs WebGL2 ping-pong image: ${d.differ} of ${lit} lit pixels differ by more than 2/255, worst ${d.worst}/255`,
      );
      assert(lit > 200, 'particles visible');
      // tolerance: identical state (bit-identical update paths) through two rasterisers; allow 1% of lit pixels to differ by more than 2/255
      assert(
        d.differ <= lit * 0.01,
        `${d.differ} pixels differ by more than 2/255 (allowed ${Math.floor(lit * 0.01)})`,
      );
    },
  },
  'an attractor pulls particles towards it': {
    async run({ device }) {
      const target: [number, number, number] = [3, 1, 0];
      const distance = (pos: Float32Array): number => {
        let sum = 0;
        for (let i = 0; i < pos.length / 4; i++)
          sum += Math.hypot(
            (pos[4 * i] as number) - target[0],
            (pos[4 * i + 1] as number) - target[1],
            (pos[4 * i + 2] as number) - target[2],
          );
        return sum / (pos.length / 4);
      };
      const free = await stepped(device, { ...BOX_COLUMN, count: 2000 }, 40);
      const pulled = await stepped(
        device,
        { ...BOX_COLUMN, count: 2000, attractors: [{ position: target, strength: 60 }] },
        40,
      );
      const d0 = distance((await free.read()).position);
      const d1 = distance((await pulled.read()).position);
      assert(
        d1 < d0 * 0.85,
        `mean distance to the attractor: ${d1.toFixed(3)} with it, ${d0.toFixed(3)} without`,
      );
    },
  },
  'curl-noise turbulence and emitter shapes change the motion': {
    async run({ device }) {
      const spreadX = (pos: Float32Array): number => {
        let s = 0;
        for (let i = 0; i < pos.length / 4; i++) s += Math.abs(pos[4 * i] as number);
        return s / (pos.length / 4);
      };
      const calm = spreadX(
        (await (await stepped(device, { ...BOX_COLUMN, count: 2000, spread: 0 }, 30)).read())
          .position,
      );
      const turbulent = spreadX(
        (
          await (
            await stepped(
              device,
              {
                ...BOX_COLUMN,
                count: 2000,
                spread: 0,
                turbulence: { strength: 8, frequency: 1.5 },
              },
              30,
            )
          ).read()
        ).position,
      );
      assert(
        turbulent > calm * 2,
        `turbulence widens the plume: mean |x| ${turbulent.toFixed(3)} vs ${calm.toFixed(3)}`,
      );
      for (const shape of ['point', 'sphere', 'cone'] as const) {
        const ps = await createParticleSystem(device, {
          count: 500,
          emitter: { shape, radius: 0.5, angle: 0.5 },
        });
        const ps2 = await stepped(
          device,
          { count: 500, emitter: { shape, radius: 0.5, angle: 0.5 } },
          5,
        );
        const s = await ps2.read();
        assert(
          s.position.every(Number.isFinite) && s.velocity.every(Number.isFinite),
          `${shape}: finite state`,
        );
        ps.destroy();
        ps2.destroy();
      }
    },
  },
  'billboard velocity: a rising particle is drawn as a streak along its motion, stretch times longer; camera-facing stays round':
    {
      async run({ device }) {
        /** Lit pixels' bounding box (width, height) of one particle rising at 3 units/s. */
        const extent = async (
          path: 'compute' | 'pingpong' | 'cpu',
          drawMode: 'instanced' | 'pulled',
          look: { billboard?: 'camera' | 'velocity'; stretch?: number },
        ): Promise<[number, number]> => {
          const ps = await stepped(
            device,
            {
              count: 1,
              path,
              drawMode,
              emitter: { shape: 'box', position: [0, -2, 0], radius: 0 },
              speedMin: 3,
              speedMax: 3,
              spread: 0,
              gravity: [0, 0, 0],
              drag: 0,
              lifeMin: 100,
              lifeMax: 100,
              size: 0.6,
              sizeOverLife: [1, 1],
              ...look,
            },
            1,
          );
          const img = await drawImage(device, ps);
          ps.destroy();
          let [x0, x1, y0, y1] = [IMAGE, -1, IMAGE, -1];
          for (let y = 0; y < IMAGE; y++)
            for (let x = 0; x < IMAGE; x++)
              if ((img[4 * (y * IMAGE + x)] as number) > 20) {
                x0 = Math.min(x0, x);
                x1 = Math.max(x1, x);
                y0 = Math.min(y0, y);
                y1 = Math.max(y1, y);
              }
          return [x1 - x0 + 1, y1 - y0 + 1];
        };
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const [w, h] = await extent(path, drawMode, {});
            const [ws, hs] = await extent(path, drawMode, { billboard: 'velocity', stretch: 1 });
            const [w0, h0] = await extent(path, drawMode, { billboard: 'velocity', stretch: 0 });
            console.log(
              `${path}/${drawMode}: camera ${w}×${h}, velocity stretch 1 ${ws}×${hs}, stretch 0 ${w0}×${h0}`,
            );
            assert(
              w > 3 && Math.abs(w - h) <= 2,
              `${path}/${drawMode}: a round particle, ${w}×${h}`,
            );
            // 1 + stretch · speed = 4 times as long, as wide as before
            assert(Math.abs(ws - w) <= 2, `${path}/${drawMode}: the streak's width ${ws} vs ${w}`);
            assert(
              hs >= 3 * h && hs <= 5 * h,
              `${path}/${drawMode}: the streak's length ${hs} vs ${h}`,
            );
            assert(
              Math.abs(w0 - w) <= 2 && Math.abs(h0 - h) <= 2,
              `${path}/${drawMode}: stretch 0`,
            );
          }
      },
    },
  'colour over life shows in pixels and size changes coverage': {
    async run({ device }) {
      const blue = [
        [0, 0, 1, 1],
        [0, 0, 1, 1],
        [0, 0, 1, 1],
        [0, 0, 1, 1],
      ] as const;
      const red = [
        [1, 0, 0, 1],
        [1, 0, 0, 1],
        [1, 0, 0, 1],
        [1, 0, 0, 1],
      ] as const;
      const b = coverage(
        await drawImage(device, await stepped(device, { count: 1500, colors: blue }, 10)),
      );
      const r = coverage(
        await drawImage(device, await stepped(device, { count: 1500, colors: red }, 10)),
      );
      assert(
        b.mean[2] > 50 && b.mean[0] === 0,
        `blue particles: mean ${b.mean.map((x) => x.toFixed(0))}`,
      );
      assert(
        r.mean[0] > 50 && r.mean[2] === 0,
        `red particles: mean ${r.mean.map((x) => x.toFixed(0))}`,
      );
      const small = coverage(
        await drawImage(device, await stepped(device, { count: 1500, size: 0.03 }, 10)),
      );
      const big = coverage(
        await drawImage(device, await stepped(device, { count: 1500, size: 0.2 }, 10)),
      );
      assert(
        big.lit > small.lit * 1.5,
        `size 0.2 covers ${big.lit} pixels, size 0.03 covers ${small.lit}`,
      );
    },
  },
  // the look's part of the draw's uniforms is packed only when it changes: a stale one would keep
  // the old colour and size here
  'colour and size set by setOptions show at the next draw, as a system made with them draws them':
    {
      async run({ device }) {
        const blue = [0, 0, 1, 1] as const;
        const red = [1, 0, 0, 1] as const;
        const ps = await stepped(device, { count: 1500, colors: [blue, blue, blue, blue] }, 10);
        const before = coverage(await drawImage(device, ps));
        ps.setOptions({ colors: [red, red, red, red], size: 0.2 });
        const after = await drawImage(device, ps);
        const made = await drawImage(
          device,
          await stepped(device, { count: 1500, colors: [red, red, red, red], size: 0.2 }, 10),
        );
        assert(
          before.mean[2] > 50 && before.mean[0] === 0,
          `blue before: mean ${before.mean.map((x) => x.toFixed(0))}`,
        );
        const a = coverage(after);
        assert(
          a.mean[0] > 50 && a.mean[2] === 0 && a.lit > before.lit,
          `red and bigger after setOptions: mean ${a.mean.map((x) => x.toFixed(0))}, ${a.lit} pixels lit (before: ${before.lit})`,
        );
        let differing = 0;
        for (let i = 0; i < after.length; i++) if (after[i] !== made[i]) differing++;
        assertEqual(differing, 0, 'bytes differing from a system made with the new options');
      },
    },
  '1,000,000 particles create, step and draw on the GPU path of each backend': {
    async run({ device }) {
      const t0 = performance.now();
      const ps = await stepped(device, { count: 1_000_000, size: 0.1, spread: 2 }, 3);
      assert(ps.path !== 'cpu', `a GPU path was taken (${ps.path})`);
      const img = await drawImage(device, ps);
      const stats = await ps.stats();
      assertEqual(stats.alive, 1_000_000, 'alive');
      // after 3 steps every particle is still near the emitter (creation spawns them all there and
      // only staggers their ages), so the image is a small bright blob
      assert(coverage(img).lit > 20, `particles visible (${coverage(img).lit} pixels)`);
      console.log(
        `${device.caps.backend}/${ps.path}: 1M particles created, 3 steps, one draw in ${(performance.now() - t0).toFixed(0)} ms`,
      );
      ps.destroy();
    },
  },
  'the fallback ladder runs on this hardware when features are restricted': {
    async run({ backend }) {
      const options = resolveOptions({ count: 3000, seed: 3 });
      const reference = createState(options);
      for (let n = 1; n <= STEPS; n++) stepState(options, n, 1 / 60, reference);
      const meanY = (pos: Float32Array): number => {
        let s = 0;
        for (let i = 0; i < pos.length / 4; i++) s += pos[4 * i + 1] as number;
        return s / (pos.length / 4);
      };
      const ladder: Array<{ restrict: Record<string, false>; path: string; precision: string }> = [
        ...(backend === 'webgpu'
          ? [{ restrict: { compute: false as const }, path: 'pingpong', precision: 'f32' }]
          : []),
        {
          restrict: { compute: false, floatRenderTargets: false },
          path: 'pingpong',
          precision: 'f16',
        },
        {
          restrict: { compute: false, floatRenderTargets: false, halfFloatRenderTargets: false },
          path: 'cpu',
          precision: 'f32',
        },
      ];
      for (const step of ladder) {
        const device = await createDevice({ backend, restrict: step.restrict });
        const ps = await stepped(device, { count: 3000, seed: 3 }, STEPS);
        const what = `${backend} restricted ${JSON.stringify(step.restrict)}`;
        assertEqual(ps.path, step.path, `${what}: path`);
        assertEqual(ps.precision, step.precision, `${what}: precision`);
        const state = await ps.read();
        assert(
          state.position.every(Number.isFinite) && state.velocity.every(Number.isFinite),
          `${what}: finite state`,
        );
        const alive = (await ps.stats()).alive;
        // stored as halfs, an age just below its life can round up to it: allow 1% there
        if (step.precision === 'f32') assertEqual(alive, 3000, `${what}: alive`);
        else assert(alive >= 2970, `${what}: alive ${alive}`);
        const diverged = mismatches(state.position, reference.position, 3000).diverged;
        const dy = Math.abs(meanY(state.position) - meanY(reference.position));
        console.log(
          `${what}: ${ps.path}/${ps.precision}, ${diverged} of 3000 particles beyond ${TOLERANCE}, mean y off by ${dy.toFixed(4)}`,
        );
        if (step.precision === 'f32')
          assert(diverged / 3000 < 0.001, `${what}: ${diverged} diverged`);
        // half floats keep ~3 significant digits: ages drift and some deaths move by a step, so
        // only the population is compared: its mean height within 0.05 of the reference (measured
        // here: 0.005, with 84% of particles individually beyond 1e-3)
        else assert(dy < 0.05, `${what}: mean height off by ${dy}`);
        ps.destroy();
        device.destroy();
      }
    },
  },
  'explicit barrier mode: updates and draws declare every barrier they need, on every path': {
    async run({ backend }) {
      const device = await createDevice({ backend, barriers: 'explicit' });
      try {
        for (const path of pathsOf(device)) {
          const modes = [
            'instanced',
            'pulled',
            ...(path !== 'pingpong' && device.caps.features.compute ? (['splat'] as const) : []),
          ] as const;
          for (const drawMode of modes) {
            const ps = await createParticleSystem(device, { count: 500, path, drawMode });
            // several updates and draws in one encoder: each pass reads what the previous wrote
            const img = await (async () => {
              const enc = device.createCommandEncoder();
              const t = device.createTexture({
                size: { width: 32, height: 32 },
                format: 'rgba8unorm',
                usage: 16 | 1,
              });
              for (let frame = 0; frame < 2; frame++) {
                for (let i = 0; i < 3; i++) ps.update(enc, 1 / 60);
                ps.prepareDraw(enc, CAMERA, t);
                const pass = enc.beginRenderPass({
                  colorAttachments: [{ texture: t, clearValue: [0, 0, 0, 1] }],
                });
                ps.draw(pass, CAMERA);
                pass.end();
              }
              // the CPU path uploads through the queue: no pass writes what the draw reads
              if (path !== 'cpu')
                assert(
                  enc.trace().some((l) => l.startsWith('barrier') && l.endsWith('(declared)')),
                  `${path}/${drawMode}: barriers declared`,
                );
              assert(
                !enc.trace().some((l) => l.endsWith('(inserted)')),
                `${path}/${drawMode}: nothing inserted in explicit mode`,
              );
              device.queue.submit([enc.finish()]);
              return (await t.read()) as Uint8Array;
            })();
            assert(img.length === 32 * 32 * 4, 'drawn');
            assertEqual((await ps.stats()).alive, 500, `${path}/${drawMode}: alive`);
            ps.destroy();
          }
        }
      } finally {
        device.destroy();
      }
    },
  },
  'a single particle works on every path': {
    async run({ device }) {
      const options = resolveOptions({ count: 1, seed: 7 });
      const reference = createState(options);
      for (let n = 1; n <= 30; n++) stepState(options, n, 1 / 60, reference);
      for (const path of pathsOf(device)) {
        const ps = await stepped(device, { count: 1, seed: 7, path }, 30);
        const s = await ps.read();
        assertEqual(s.position.length, 4, `${path}: one particle`);
        const m = mismatches(s.position, reference.position, 1);
        assertEqual(m.diverged, 0, `${path}: matches the reference`);
        assertEqual((await ps.stats()).alive, 1, `${path}: alive`);
        ps.destroy();
      }
    },
  },
  'a count beyond the device limits is a typed error naming count': {
    async run({ device }) {
      const e = (await assertThrows(
        // beyond every device here: WebGPU's storage binding limit, and a square state texture
        // (16384² in Firefox's and WebKit's llvmpipe WebGL2, 8192² in Chromium's ANGLE)
        () => createParticleSystem(device, { count: 1_000_000_000 }),
        ParticleOptionError,
        /Particle option count = 1000000000 exceeds what the/,
        'count',
      )) as ParticleOptionError;
      assertEqual(e.option, 'count', 'option');
      await assertThrows(
        () => createParticleSystem(device, { count: 10, lifeMin: 4, lifeMax: 2 }),
        ParticleOptionError,
        /lifeMin = 4 must not exceed lifeMax \(2\)/,
        'lifeMin > lifeMax',
      );
    },
  },
});

/**
 * Particles inside a scene with opaque geometry: a pass with a depth attachment. An occluder at the
 * near plane covers the left half before the particles draw; a quad at mid depth covers the right
 * half after them. Depth-tested particles leave the left half as the occluder drew it; particles
 * that do not write depth leave the late quad whole.
 */
/** Two triangles from x0 to x1 across the clip space's height at depth z, in colour c (color3d). */
// prettier-ignore
const quad = (x0: number, x1: number, z: number, c: number[]): number[] =>
  [[x0, -1], [x1, -1], [x1, 1], [x0, -1], [x1, 1], [x0, 1]].flatMap(([x, y]) => [x as number, y as number, z, ...c]);

async function sceneWithDepth(
  device: Device,
  ps: ParticleSystem,
  occluders: boolean,
): Promise<Uint8Array> {
  const size = { width: IMAGE, height: IMAGE };
  const color = device.createTexture({
    label: 'scene',
    size,
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const depth = device.createTexture({
    label: 'scene depth',
    size,
    format: 'depth24plus',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  const pipeline = createScenePipeline(device, { program: 'color3d', depthCompare: 'less' });
  const before = vertexBuffer(device, quad(-1, 0, 0, [0, 0, 0.5, 1]));
  const after = vertexBuffer(device, quad(0, 1, 0.5, [0, 0.5, 0, 1]));
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: color, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    depthStencilAttachment: { texture: depth, depthLoadOp: 'clear', depthClearValue: 1 },
  });
  if (occluders) {
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, before);
    pass.draw(6);
  }
  ps.draw(pass, CAMERA);
  if (occluders) {
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, after);
    pass.draw(6);
  }
  pass.end();
  device.queue.submit([enc.finish()]);
  const img = (await color.read()) as Uint8Array;
  for (const t of [color, depth]) t.destroy();
  return img;
}

function halves(
  img: Uint8Array,
  predicate: (rgba: number[]) => boolean,
): { left: number; right: number } {
  const out = { left: 0, right: 0 };
  for (let y = 0; y < IMAGE; y++)
    for (let x = 0; x < IMAGE; x++) {
      const i = (y * IMAGE + x) * 4;
      if (predicate(Array.from(img.subarray(i, i + 4)))) out[x < IMAGE / 2 ? 'left' : 'right']++;
    }
  return out;
}

const sceneCases = defineCases({
  // Regression: systems left their shader modules alive until the device was destroyed.
  'a particle system destroyed after stepping, drawing and counting leaves device.stats() as it found it (every path)':
    {
      async run({ device }) {
        for (const path of pathsOf(device)) {
          const before = device.stats();
          const ps = await stepped(device, { count: 500, path }, 3);
          await drawImage(device, ps);
          await ps.stats();
          ps.destroy();
          const after = device.stats();
          for (const kind of Object.keys(before) as Array<keyof typeof before>) {
            assertEqual(
              after[kind].count,
              before[kind].count,
              `${device.caps.backend}/${path}: live ${kind} resources after destroy`,
            );
          }
        }
      },
    },
  'particles in a pass with depth are hidden behind opaque geometry and do not write depth (every path, both draw modes)':
    {
      async run({ device }) {
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const ps = await stepped(
              device,
              { count: 4000, seed: 3, path, drawMode, emitter: { shape: 'sphere', radius: 3 } },
              30,
            );
            const what = `${device.caps.backend}/${path}/${drawMode}`;
            // without occluders the particles light both halves, so what follows is not vacuous
            const open = halves(
              await sceneWithDepth(device, ps, false),
              ([r, g, b]) => (r as number) + (g as number) + (b as number) > 0,
            );
            assert(
              open.left > 20 && open.right > 20,
              `${what}: particles light both halves without occluders (${open.left}, ${open.right})`,
            );
            const img = await sceneWithDepth(device, ps, true);
            const occluder = halves(img, ([r, g, b]) => r === 0 && g === 0 && b === 128);
            const late = halves(img, ([r, g, b]) => r === 0 && g === 128 && b === 0);
            assertEqual(
              occluder.left,
              (IMAGE * IMAGE) / 2,
              `${what}: left-half pixels still the occluder's colour (particles behind it must be hidden)`,
            );
            assertEqual(
              late.right,
              (IMAGE * IMAGE) / 2,
              `${what}: right-half pixels of the quad drawn after the particles (particles must not write depth)`,
            );
            ps.destroy();
          }
      },
    },
  'soft particles fade as they near the scene depth and vanish behind it (every path, both raster modes)':
    {
      async run({ device }) {
        const size = { width: IMAGE, height: IMAGE };
        const depth = device.createTexture({
          label: 'scene depth',
          size,
          format: 'depth24plus',
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.TEXTURE_BINDING,
        });
        const color = device.createTexture({
          label: 'scene colour',
          size,
          format: 'rgba8unorm',
          usage: TextureUsage.RENDER_ATTACHMENT,
        });
        // a wall across the view at view distance d: its depth is P[3][2] / d - P[2][2]
        const wallAt = (d: number): void => {
          const p = CAMERA.projection;
          const z = (p[14] as number) / d - (p[10] as number);
          drawDepth(device, depth, color, quad(-1, 1, z, [0, 0, 0, 1]));
        };
        // one still white particle at the camera's target, 10 units away, living on
        const one = { ...ONE_STILL_PARTICLE, lifeMin: 100, lifeMax: 100, size: 1 };
        const centre = async (options: object): Promise<number> => {
          const ps = await stepped(device, { ...one, ...options }, 2);
          const img = await drawImage(device, ps);
          ps.destroy();
          return img[4 * ((IMAGE / 2) * IMAGE + IMAGE / 2)] as number;
        };
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const what = `${device.caps.backend}/${path}/${drawMode}`;
            const soft = { path, drawMode, softParticles: { depth, distance: 1 } };
            const hard = await centre({ path, drawMode });
            assert(hard > 240, `${what}: the particle unfaded (${hard})`);
            wallAt(12); // 2 units behind the particle: more than the fade distance
            const clear = await centre(soft);
            wallAt(10.5); // half the fade distance behind it
            const half = await centre(soft);
            wallAt(9); // in front of it
            const hidden = await centre(soft);
            console.log(
              `${what}: unfaded ${hard}, wall 2 behind ${clear}, 0.5 behind ${half}, in front ${hidden}`,
            );
            assert(Math.abs(clear - hard) <= 3, `${what}: a wall 2 behind leaves it (${clear})`);
            assert(
              Math.abs(half - hard / 2) <= 12,
              `${what}: a wall 0.5 behind halves it (${half})`,
            );
            assertEqual(hidden, 0, `${what}: behind the wall it vanishes`);
          }
        // the scene depth may not be the depth attachment of the pass that samples it
        const ps = await createParticleSystem(device, {
          ...one,
          softParticles: { depth, distance: 1 },
        });
        const enc = device.createCommandEncoder();
        const pass = enc.beginRenderPass({
          colorAttachments: [{ texture: color, loadOp: 'clear' }],
          depthStencilAttachment: { texture: depth, depthLoadOp: 'load' },
        });
        await assertThrows(
          () => ps.draw(pass, CAMERA),
          ValidationError,
          /sampled at slot 5 while it is an attachment/,
          'the scene depth sampled while attached',
        );
        pass.end();
        ps.destroy();
        for (const t of [depth, color]) t.destroy();
      },
    },
});

export const cases = { ...pathCases, ...sceneCases };
