// The `draws` suite under Deno's WebGPU, for a GPU server where no browser reaches the GPU (the
// H200 host): Ignis's frame of N draws, each with its own uniform slice, against the hand-written
// WebGPU frame (one bind group, a dynamic offset per draw), interleaved bursts, CPU µs per draw —
// the frames and the measurement are the page's (bench/page/draw-frames.ts); three.js needs a
// browser and is left out. Beside them the same draws recorded once per N in a render bundle,
// Ignis's and a hand-written GPURenderBundle, and the hand-written frame without its draws (the
// upload every frame pays first). Every frame must light the same pixels, that one none.
//   deno run -A bench/deno/draws.ts --out <dir> [--draw-counts 100,1000,10000] [--rounds 10]
declare const Deno: {
  args: string[];
  version: { deno: string };
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const frames = (await import(
  new URL('../page/draw-frames.ts', import.meta.url).href
)) as typeof import('../page/draw-frames.js');
const { createDevice, BufferUsage, TextureUsage } = lib;

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? (Deno.args[i + 1] as string) : fallback;
}
const OUT = arg('out', 'bench/results/deno-draws');
const COUNTS = arg('draw-counts', '100,1000,10000').split(',').filter(Boolean).map(Number);
const ROUNDS = Number(arg('rounds', '10'));
const BUDGET_MS = Number(arg('budget-ms', '20000'));

const device = await createDevice({ backend: 'webgpu' });
const a = device.caps.adapter;
const adapter = `${a.vendor} ${a.architecture} ${a.description}`.trim() || 'adapter not named';
const gpu = (device as unknown as { gpu: GPUDevice }).gpu;
console.log(`adapter: ${adapter}`);

interface DrawsRow {
  draws: number;
  framesPerBurst: number;
  rounds: number;
  ignisUsPerDraw: number;
  rawUsPerDraw: number;
  ratio: number;
  bundleUsPerDraw: number;
  rawBundleUsPerDraw: number;
  /** Ignis's bundle ÷ the hand-written bundle, per round, median. */
  bundleRatio: number;
  /** The hand-written frame without its draws (uniforms written, target cleared), per draw of N. */
  uploadUsPerDraw: number;
  /** (Ignis − upload) ÷ (hand-written − upload), per round, median: the draws alone. */
  beyondUploadRatio: number;
  lit: { ignis: number; raw: number; bundle: number; rawBundle: number; upload: number };
}
const rows: DrawsRow[] = [];
for (const n of COUNTS) {
  const data = frames.drawData(n);
  const contenders = {
    ignis: frames.ignisFrames(device, n, data, { BufferUsage, TextureUsage }),
    raw: frames.rawWebGPUFrames(gpu, n, data),
    bundle: frames.ignisFrames(device, n, data, { BufferUsage, TextureUsage }, { bundle: true }),
    rawBundle: frames.rawWebGPUFrames(gpu, n, data, { bundle: true }),
    upload: frames.rawWebGPUFrames(gpu, n, data, { uploadOnly: true }),
  };
  const { frames: perBurst, us } = await frames.measureDraws(contenders, n, ROUNDS, BUDGET_MS);
  const lit = {
    ignis: await contenders.ignis.lit!(),
    raw: await contenders.raw.lit!(),
    bundle: await contenders.bundle.lit!(),
    rawBundle: await contenders.rawBundle.lit!(),
    upload: await contenders.upload.lit!(),
  };
  const drawn = [lit.ignis, lit.bundle, lit.rawBundle];
  if (lit.ignis === 0 || drawn.some((v) => v !== lit.raw) || lit.upload !== 0)
    throw new Error(
      `draws ${n}: the frames lit different pixels (the upload frame none): ${JSON.stringify(lit)}`,
    );
  // the ratio of each round's pair, then their median (a round's two bursts share its conditions)
  const ratios = us.ignis.map((x, i) => x / (us.raw[i] as number));
  const row: DrawsRow = {
    draws: n,
    framesPerBurst: perBurst,
    rounds: us.ignis.length,
    ignisUsPerDraw: Number(frames.median(us.ignis).toFixed(4)),
    rawUsPerDraw: Number(frames.median(us.raw).toFixed(4)),
    ratio: Number(frames.median(ratios).toFixed(3)),
    bundleUsPerDraw: Number(frames.median(us.bundle).toFixed(4)),
    rawBundleUsPerDraw: Number(frames.median(us.rawBundle).toFixed(4)),
    bundleRatio: Number(
      frames.median(us.bundle.map((x, i) => x / (us.rawBundle[i] as number))).toFixed(3),
    ),
    uploadUsPerDraw: Number(frames.median(us.upload).toFixed(4)),
    beyondUploadRatio: Number(
      frames
        .median(
          us.ignis.map(
            (x, i) =>
              (x - (us.upload[i] as number)) / ((us.raw[i] as number) - (us.upload[i] as number)),
          ),
        )
        .toFixed(3),
    ),
    lit,
  };
  console.log(
    `${n} draws: Ignis ${row.ignisUsPerDraw} µs/draw, hand-written ${row.rawUsPerDraw} (${row.ratio}×); bundles: Ignis ${row.bundleUsPerDraw}, hand-written ${row.rawBundleUsPerDraw} (${row.bundleRatio}×); upload ${row.uploadUsPerDraw}, Ignis beyond it ${row.beyondUploadRatio}×; ${row.rounds} rounds, all lit ${lit.ignis} pixels`,
  );
  rows.push(row);
  for (const c of Object.values(contenders)) c.destroy();
}

const md = [
  `# Draws on ${adapter} (Deno ${Deno.version.deno})`,
  '',
  `CPU µs per draw of frames of N draws (each with its own uniform slice, a pipeline change every 100), bursts of ~20,000 draws back to back, the GPU waited for outside the clock; ${ROUNDS} interleaved rounds after ${frames.WARMUP_ROUNDS} warm-up rounds, medians; ratio = median of the rounds' Ignis ÷ hand-written ratios. The bundle columns: the same draws recorded once per N in a render bundle (Ignis's, and a hand-written GPURenderBundle), executed by each frame's pass. Upload: the hand-written frame without its draws (the uniforms written, the target cleared); beyond the upload: (Ignis − upload) ÷ (hand-written − upload) per round, median. Every frame lights the same pixels, the upload frame none (checked).`,
  '',
  '| draws a frame | Ignis µs/draw | hand-written µs/draw | ratio | Ignis bundle µs/draw | hand-written bundle µs/draw | bundle ratio | upload µs/draw | Ignis ÷ hand-written beyond the upload |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.draws.toLocaleString('en-US')} | ${r.ignisUsPerDraw.toFixed(3)} | ${r.rawUsPerDraw.toFixed(3)} | ${r.ratio.toFixed(2)}× | ${r.bundleUsPerDraw.toFixed(3)} | ${r.rawBundleUsPerDraw.toFixed(3)} | ${r.bundleRatio.toFixed(2)}× | ${r.uploadUsPerDraw.toFixed(3)} | ${r.beyondUploadRatio.toFixed(2)}× |`,
  ),
  '',
];
await Deno.mkdir(OUT, { recursive: true });
await Deno.writeTextFile(
  `${OUT}/draws.json`,
  `${JSON.stringify({ meta: { date: new Date().toISOString(), runtime: `deno ${Deno.version.deno}`, adapter }, rows }, null, 2)}\n`,
);
await Deno.writeTextFile(`${OUT}/draws.md`, md.join('\n'));
console.log(md.join('\n'));
device.destroy();
