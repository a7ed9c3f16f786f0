/**
 * The measurement behind `drawMode: 'auto'` (the decision rules are in draw-mode.ts): every
 * candidate mode draws the system's current state into a private target shaped like the pass —
 * its own uniforms and resources, never the frame's — in interleaved rounds (every other one in
 * reverse order), timed with GPU timestamps where the device has them, submit-to-done otherwise
 * and where WebGL2's timestamps add up to far less than the span of the same runs on their own clock
 * (then the wait for the GPU alone is subtracted, and each run submits enough draws to outweigh
 * it). The systems of one device measure in turn (`inTurn`).
 * What is measured at which sample size, and the decision, are `chooseDrawMode`'s: the first
 * sample grows while it is too quick to time, clear losers are left out, the rest are extrapolated
 * to the full count, and a close call between the two fastest is measured again.
 */
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Device } from '../rhi/core/device.js';
import type { QuerySet } from '../rhi/core/query-set.js';
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
  batchFor,
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

/** Each device's last measurement, settled or not (`inTurn`); it never rejects. */
const turns = new WeakMap<Device, Promise<unknown>>();

/**
 * Runs `measure` once every measurement started before it on `device` has ended: the systems of a
 * device measure one at a time. Measuring at once, each timed the others' runs with its own (their
 * draws share one queue): on the wall clock every run read the runs queued before it.
 */
function inTurn<T>(device: Device, measure: () => Promise<T>): Promise<T> {
  const mine = (turns.get(device) ?? Promise.resolve()).then(measure);
  turns.set(
    device,
    mine.catch(() => undefined),
  );
  return mine;
}

/**
 * Measures the candidates, in turn with the device's other measurements; returns the fastest, the
 * fastest raster mode and the sentence saying so.
 */
export function measureDrawModes(ctx: CalibrationContext): Promise<ReturnType<typeof pickFastest>> {
  return inTurn(ctx.device, () => {
    // (a system destroyed while it waited for its turn measures nothing)
    if (ctx.destroyed()) throw new Error('the system was destroyed');
    return measure(ctx);
  });
}

async function measure(ctx: CalibrationContext): Promise<ReturnType<typeof pickFastest>> {
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
  const frame = {
    uniforms,
    offset: 0,
    positions: buffers.position as Buffer,
    velocities: buffers.velocity as Buffer,
    tints: buffers[TINT],
    count,
    width,
    height,
  };
  /**
   * Submits `copies` draws of the first `n` particles by `mode`, back to back in one submit, each
   * its own pass (the first with timestamps when `pair` gives them).
   */
  const submitRun = (
    mode: DrawMode,
    n: number,
    copies: number,
    pair: (k: number) => PassTimestampWrites | undefined = () => undefined,
  ): void => {
    if (ctx.destroyed()) throw new Error('the system was destroyed');
    const encoder = device.createCommandEncoder({ label: `particles measure ${mode}` });
    for (let copy = 0; copy < copies; copy++) {
      const stamps = copy === 0 ? pair : () => undefined;
      if (mode === 'splat') splat?.prepare(encoder, frame, stamps(1), n);
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
        timestampWrites: stamps(0),
      });
      if (mode === 'splat') splat?.resolve(pass);
      else ctx.recordRaster(pass, mode, uniforms, 0, n);
      pass.end();
    }
    device.queue.submit([encoder.finish()]);
  };
  /** The modes of each round: every other round in reverse, so no mode always follows the same. */
  const orderOf = (among: readonly DrawMode[], round: number): readonly DrawMode[] =>
    round % 2 === 0 ? among : [...among].reverse();

  /** Timed by timestamps: every run submitted back to back, read once at the end. */
  const measureTimed: MeasureModes = async (n, among, rounds) => {
    const samples = new Map<DrawMode, number[]>(among.map((m) => [m, []]));
    const timed: Array<{ mode: DrawMode; run: number }> = [];
    let run = 0;
    for (let round = 0; round <= rounds; round++)
      for (const mode of orderOf(among, round)) {
        const at = run;
        submitRun(mode, n, 1, (k) => ({
          querySet: queries as QuerySet,
          beginningOfPassWriteIndex: 4 * at + 2 * k,
          endOfPassWriteIndex: 4 * at + 2 * k + 1,
        }));
        // round 0 warms up (pipelines, caches) and is not counted
        if (round > 0) timed.push({ mode, run });
        run++;
      }
    await device.queue.onSubmittedWorkDone();
    const t = await (queries as QuerySet).readTimestamps();
    const ms = (r: number, mode: DrawMode): number =>
      ((t[4 * r + 1] as number) - (t[4 * r] as number)) / 1e6 +
      (mode === 'splat' ? ((t[4 * r + 3] as number) - (t[4 * r + 2] as number)) / 1e6 : 0);
    let sum = 0;
    // the counted runs' span on the timer's clock, from the first timestamp to the last
    let first = Infinity;
    let last = -Infinity;
    for (const { mode, run: r } of timed) {
      const took = ms(r, mode);
      samples.get(mode)?.push(took);
      sum += took;
      for (let q = 4 * r; q < 4 * r + (mode === 'splat' ? 4 : 2); q++) {
        first = Math.min(first, t[q] as number);
        last = Math.max(last, t[q] as number);
      }
    }
    // on WebGL2 the counted runs' timestamps are checked against their span (distrustTimer)
    const why = distrustTimer(device.caps.backend, timed.length, sum, (last - first) / 1e6);
    if (why !== null) await useWallClock(why);
    return samples;
  };

  /** The wait for the GPU alone, set when the clock is submit to done. */
  let waitMs = 0;
  /**
   * Timed submit to done: each run waited for, `batchFor` draws back to back in it (from a probe of
   * the mode after the warm-up), the wait alone subtracted, per draw.
   */
  const measureWall: MeasureModes = async (n, among, rounds) => {
    const samples = new Map<DrawMode, number[]>(among.map((m) => [m, []]));
    const timeRun = async (mode: DrawMode, copies: number): Promise<number> => {
      const t0 = performance.now();
      submitRun(mode, n, copies);
      await device.queue.onSubmittedWorkDone();
      return performance.now() - t0;
    };
    for (const mode of among) await timeRun(mode, 1); // the warm-up round
    // each mode's batch from its own probe: a slow mode is not run 32 times over
    const copies = new Map<DrawMode, number>();
    for (const mode of among) copies.set(mode, batchFor(waitMs, await timeRun(mode, 1)));
    for (let round = 1; round <= rounds; round++)
      for (const mode of orderOf(among, round)) {
        const k = copies.get(mode) as number;
        const took = await timeRun(mode, k);
        samples.get(mode)?.push(Math.max(0, took - waitMs) / k);
      }
    return samples;
  };

  // the clock: GPU timestamps where the device has them, until a measurement shows they do not
  // time the draws (distrustTimer); then submit to done for the rest, and the decision starts again
  let timer = queries !== null;
  let clock = 'GPU timestamps';
  async function useWallClock(why: string | null): Promise<void> {
    timer = false;
    waitMs = await waitAlone(device);
    const wait = `the wait alone ${waitMs.toFixed(1)} ms, subtracted`;
    clock = `submit to done (${why === null ? wait : `${why}; ${wait}`})`;
  }
  if (!timer) await useWallClock(null);
  const measure: MeasureModes = (n, among, rounds) =>
    timer ? measureTimed(n, among, rounds) : measureWall(n, among, rounds);
  return chooseDrawMode(measure, count, modes, notes, () => clock, `${width}x${height}`);
}

/** The wait for the GPU alone: an empty submit waited for, the least of three (ms). */
async function waitAlone(device: Device): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    device.queue.submit([
      device.createCommandEncoder({ label: 'particles measure wait' }).finish(),
    ]);
    await device.queue.onSubmittedWorkDone();
    least = Math.min(least, performance.now() - t0);
  }
  return least;
}
