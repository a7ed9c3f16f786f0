/**
 * The measurement behind `drawMode: 'auto'` (the decision rules are in draw-mode.ts): every
 * candidate mode draws the system's current state into a private target shaped like the pass —
 * its own uniforms and resources, never the frame's — in interleaved rounds (every other one in
 * reverse order), timed with GPU timestamps where the device has them, submit-to-done otherwise
 * and where WebGL2's timestamps add up to far less than the wall time of the same runs.
 * What is measured at which sample size, and the decision, are `chooseDrawMode`'s: the first
 * sample grows while it is too quick to time, clear losers are left out, the rest are extrapolated
 * to the full count, and a close call between the two fastest is measured again.
 */
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Device } from '../rhi/core/device.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { DrawMode, ParticleOptions } from './options.js';
import { DrawParamsScratch, DRAW_PARAMS_SLOT, packDrawParams, type Camera } from './draw.js';
import { SplatDraw } from './splat.js';
import { TINT } from './modules/sub-emitter.js';
import {
  CALIBRATION_CLOSE_ROUNDS,
  CALIBRATION_ROUNDS,
  chooseDrawMode,
  distrustTimer,
  type MeasureModes,
  type pickFastest,
} from './draw-mode.js';

/** What the measurement needs from the particle system. */
export interface CalibrationContext {
  device: Device;
  count: number;
  options: ParticleOptions;
  /** Width of the state texture (DrawParams.width). */
  stateWidth: number;
  /** The state buffers (splat and pulled read them); empty where the state is in textures. */
  buffers: Readonly<Record<string, Buffer>>;
  shape: {
    format: TextureFormat;
    depthFormat: TextureFormat | undefined;
    sampleCount: number;
  };
  camera: Camera;
  width: number;
  height: number;
  modes: DrawMode[];
  /** Notes for the reason (why a mode was left out); the measurement adds its own. */
  notes: string[];
  /** Resources made here, destroyed by the caller when the measurement ends (or with the system). */
  owned: Array<{ destroy(): void }>;
  destroyed(): boolean;
  /** Records a raster draw of the first `n` particles with these uniforms into `pass`. */
  recordRaster(
    pass: RenderPass,
    mode: 'instanced' | 'pulled',
    uniforms: Buffer,
    offset: number,
    n: number,
  ): void;
}

/** Measures the candidates; returns the fastest, the fastest raster mode and the sentence saying so. */
export async function measureDrawModes(
  ctx: CalibrationContext,
): Promise<ReturnType<typeof pickFastest>> {
  const { device, count, shape, camera, width, height, modes, notes, owned } = ctx;
  const size = { width, height };
  const own = <T extends { destroy(): void }>(r: T): T => {
    owned.push(r);
    return r;
  };
  const target = own(
    device.createTexture({
      label: 'particles draw-mode measurement',
      size,
      format: shape.format,
      sampleCount: shape.sampleCount,
      usage: TextureUsage.RENDER_ATTACHMENT,
    }),
  );
  const depth = shape.depthFormat
    ? own(
        device.createTexture({
          label: 'particles draw-mode measurement depth',
          size,
          format: shape.depthFormat,
          sampleCount: shape.sampleCount,
          usage: TextureUsage.RENDER_ATTACHMENT,
        }),
      )
    : null;
  // its own uniforms: the ring's slots belong to the user's frames
  const uniforms = own(
    device.createBuffer({
      label: 'particles draw-mode measurement params',
      size: DRAW_PARAMS_SLOT,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    }),
  );
  const o = ctx.options;
  device.queue.writeBuffer(
    uniforms,
    0,
    packDrawParams(
      new DrawParamsScratch(),
      camera,
      o.colors,
      o.colorStops,
      [o.sizeOverLife[0], o.sizeOverLife[1], o.size],
      ctx.stateWidth,
      count,
      size,
      o,
    ),
  );
  // the splat as it will draw: tinted or not, three channels where the target's alpha is kept
  const splat = modes.includes('splat')
    ? own(new SplatDraw(device, ctx.buffers[TINT] !== undefined, o.targetAlpha === 'keep' ? 3 : 4))
    : null;
  // the most runs one measurement makes: every mode over the first rounds, or a close call's two
  // modes over its rounds (each with a warm-up round)
  const runs = Math.max(CALIBRATION_ROUNDS * modes.length, (CALIBRATION_CLOSE_ROUNDS + 1) * 2);
  const queries = device.caps.features.timestampQuery
    ? own(
        device.createQuerySet({
          label: 'particles draw-mode measurement',
          type: 'timestamp',
          // per run: the splat's compute pass and the render pass, two queries each
          count: 4 * runs,
        }),
      )
    : null;
  const buffers = ctx.buffers;
  // the clock: GPU timestamps where the device has them, until a measurement shows they do not
  // time the draws (distrustTimer); then submit to done for the rest, and the decision starts again
  let timer = queries !== null;
  let clock = timer ? 'GPU timestamps' : 'submit to done';
  /** Each of `among` drawing the first `n` particles: a warm-up round, then `rounds` timed. */
  const measure: MeasureModes = async (n, among, rounds) => {
    const samples = new Map<DrawMode, number[]>(among.map((m) => [m, []]));
    const timed: Array<{ mode: DrawMode; run: number }> = [];
    const reversed = [...among].reverse();
    let run = 0;
    // on WebGL2 the counted rounds' timestamps are checked against their wall time (distrustTimer):
    // the warm-up round (shader compiles there) is waited for and left out of both
    const check = timer && device.caps.backend === 'webgl2';
    let start = 0;
    for (let round = 0; round <= rounds; round++) {
      // every other round in reverse: a mode is not always timed right after the same one
      for (const mode of round % 2 === 0 ? among : reversed) {
        if (ctx.destroyed()) throw new Error('the system was destroyed');
        const encoder = device.createCommandEncoder({ label: `particles measure ${mode}` });
        const pair = (k: number): PassTimestampWrites | undefined =>
          queries && timer
            ? {
                querySet: queries,
                beginningOfPassWriteIndex: 4 * run + 2 * k,
                endOfPassWriteIndex: 4 * run + 2 * k + 1,
              }
            : undefined;
        const frame = {
          uniforms,
          offset: 0,
          positions: buffers.position as Buffer,
          velocities: buffers.velocity as Buffer,
          tints: buffers[TINT],
          count: count,
          width,
          height,
        };
        if (mode === 'splat') splat?.prepare(encoder, frame, pair(1), n);
        const pass = encoder.beginRenderPass({
          label: `particles measure ${mode}`,
          colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          depthStencilAttachment: depth
            ? {
                texture: depth,
                depthLoadOp: 'clear',
                depthClearValue: 1,
                depthStoreOp: 'discard',
              }
            : undefined,
          timestampWrites: pair(0),
        });
        if (mode === 'splat') splat?.resolve(pass);
        else ctx.recordRaster(pass, mode, uniforms, 0, n);
        pass.end();
        const t0 = performance.now();
        device.queue.submit([encoder.finish()]);
        // round 0 warms up (pipelines, caches) and is not counted
        if (!queries || !timer) {
          await device.queue.onSubmittedWorkDone();
          if (round > 0) samples.get(mode)?.push(performance.now() - t0);
        } else if (round > 0) timed.push({ mode, run });
        run++;
      }
      if (round === 0 && check) {
        await device.queue.onSubmittedWorkDone();
        start = performance.now();
      }
    }
    if (queries && timer) {
      await device.queue.onSubmittedWorkDone();
      const wall = performance.now() - start;
      const t = await queries.readTimestamps();
      const ms = (r: number, mode: DrawMode): number =>
        ((t[4 * r + 1] as number) - (t[4 * r] as number)) / 1e6 +
        (mode === 'splat' ? ((t[4 * r + 3] as number) - (t[4 * r + 2] as number)) / 1e6 : 0);
      let sum = 0;
      for (const { mode, run: r } of timed) {
        const took = ms(r, mode);
        samples.get(mode)?.push(took);
        sum += took;
      }
      const why = check ? distrustTimer(device.caps.backend, timed.length, sum, wall) : null;
      if (why !== null) {
        timer = false;
        clock = `submit to done (${why})`;
      }
    }
    return samples;
  };
  return chooseDrawMode(measure, count, modes, notes, () => clock, `${width}x${height}`);
}
