// Post-processing on a headless GPU server, where no browser reaches the GPU: Deno's WebGPU (wgpu
// over Vulkan) runs the built library (dist/) offscreen. Measures, with timestamp queries, the post
// chain per path and size and the compute (workgroup-memory) blur against the fragment blur per
// radius. Usage (shared GPU.md has the setup):
//   deno run -A bench/deno/postfx.ts <out-dir> [frames] [--clocks auto|on|off] [--sizes WxH,…]
//     [--radii 4,8,16,32]
// `--sizes`: the chain's and the blurs' sizes (720p, 1080p and 4K for the chain, 1080p and 4K for
// the blurs by default); `--radii`: the blurs' radii.
// Writes <out-dir>/postfx-deno.json and postfx-deno.md. Each measurement runs alone (not
// interleaved), so the GPU's clock is guarded (check/clock-probe.ts; `auto`: on a hardware adapter
// with timestamps): brought to its top before every round of 5 frames of each, and the lowest
// share of the top found after a round in the table's clock column.
// Deno's own globals, declared here so the repository's type check needs no Deno types
declare const Deno: {
  args: string[];
  version: { deno: string };
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { blur, bloom, createDevice, createPostProcess, grade, toneMap, toHalfs, TextureUsage } = lib;

const { clockGuard } = (await import(
  new URL('../../check/clock-probe.ts', import.meta.url).href
)) as typeof import('../../check/clock-probe.js');

/** `--name value` options, and what is left of the arguments (the positional ones). */
const options = new Map<string, string>();
const positional: string[] = [];
for (let i = 0; i < Deno.args.length; i++) {
  const a = Deno.args[i] as string;
  if (a.startsWith('--')) options.set(a.slice(2), Deno.args[++i] ?? '');
  else positional.push(a);
}
for (const name of options.keys())
  if (!['clocks', 'sizes', 'radii'].includes(name))
    throw new Error(`--${name}: postfx.ts takes --clocks, --sizes and --radii`);
const CLOCKS = options.get('clocks') ?? 'auto';
if (!['auto', 'on', 'off'].includes(CLOCKS)) throw new Error(`--clocks ${CLOCKS}: auto, on or off`);
const sizes = (list: string): (readonly [number, number])[] =>
  list.split(',').map((s) => {
    const [w, h] = s.split('x').map(Number);
    if (!Number.isInteger(w) || !Number.isInteger(h) || w! <= 0 || h! <= 0)
      throw new Error(`--sizes ${list}: WxH,… in pixels (e.g. 1280x720,1920x1080)`);
    return [w!, h!] as const;
  });
// the chain at 720p, 1080p and 4K and the blurs at 1080p and 4K, or at the sizes asked for
const CHAIN_SIZES = sizes(options.get('sizes') ?? '1280x720,1920x1080,3840x2160');
const BLUR_SIZES = sizes(options.get('sizes') ?? '1920x1080,3840x2160');
const RADII = (options.get('radii') ?? '4,8,16,32').split(',').map(Number);
if (RADII.some((r) => !Number.isInteger(r) || r <= 0))
  throw new Error(`--radii ${options.get('radii')}: positive integers (e.g. 4,8,16,32)`);
const [outDir = '.', framesArg = '30'] = positional;
const FRAMES = Number(framesArg);
if (!Number.isInteger(FRAMES) || FRAMES <= 0)
  throw new Error(`frames ${framesArg}: a positive integer (the measured frames of each row)`);
const device = await createDevice({ backend: 'webgpu' });
if (!device.caps.features.timestampQuery)
  throw new Error('this adapter has no timestamp-query: nothing to measure');
const adapter =
  `${device.caps.adapter.vendor} ${device.caps.adapter.architecture} ${device.caps.adapter.description}`.trim();
const guard = clockGuard(CLOCKS as 'on' | 'off' | 'auto', device, lib.BufferUsage);
const clocks = guard.probe;
console.log(`clock guard: ${clocks ? 'on' : `off (${guard.note})`}`);
const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : ((s[Math.floor((s.length - 1) / 2)] as number) +
        (s[Math.ceil((s.length - 1) / 2)] as number)) /
        2;
};

/** Frames a round: the guard warms before each, so that no round outlasts the clock. */
const ROUND = 5;

/**
 * Runs `frame` FRAMES times after 3 warm-ups (which compile the pipelines); returns the median GPU
 * ms of each span and, guarded, the lowest share of the top clock found after a round. The guard
 * warms after the warm-ups and before every round of ROUND frames: a frame here waits for the GPU
 * and for its timestamps (~20 ms under Deno) while the GPU works well under a millisecond, and at
 * that load an H100 left its top clock within 2 s (bench/results/deno-gpu-guarded/).
 */
async function measure(
  pairs: number,
  spans: Record<string, number[]>,
  frame: (q: ReturnType<typeof device.createQuerySet>) => void,
): Promise<Record<string, number>> {
  const q = device.createQuerySet({ type: 'timestamp', count: 2 * pairs });
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(spans).map((k) => [k, []]),
  );
  const run = async (keep: boolean): Promise<void> => {
    frame(q);
    await device.queue.onSubmittedWorkDone();
    const t = await q.readTimestamps();
    if (!keep) return;
    for (const [name, ps] of Object.entries(spans))
      samples[name]!.push(
        ps.reduce((a, p) => a + ((t[2 * p + 1] as number) - (t[2 * p] as number)) / 1e6, 0),
      );
  };
  for (let i = 0; i < 3; i++) await run(false);
  let lowest = 1;
  for (let done = 0; done < FRAMES;) {
    await clocks?.warm();
    for (let i = 0; i < ROUND && done < FRAMES; i++, done++) await run(true);
    if (clocks) lowest = Math.min(lowest, await clocks.check());
  }
  q.destroy();
  const out: Record<string, number> = Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [k, median(v)]),
  );
  if (clocks) out['clock'] = lowest;
  return out;
}

function hdrImage(width: number, height: number): Uint16Array {
  const data = new Float32Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const spot = (x * 7919 + y * 104729) % 997 === 0 ? 8 : 0;
      data.set(
        [0.2 * (x / width) + spot, 0.15 * (y / height) + spot * 0.6, 0.1 + spot * 0.3, 1],
        i,
      );
    }
  return toHalfs(data);
}

const rows: Array<Record<string, unknown>> = [];
for (const [width, height] of CHAIN_SIZES) {
  const out = device.createTexture({
    size: { width, height },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  for (const path of ['compute', 'fragment'] as const) {
    const post = createPostProcess(device, {
      width,
      height,
      path,
      effects: [bloom(), toneMap({ operator: 'agx' }), grade({ vignette: 0.2 })],
    });
    device.queue.writeTexture(
      { texture: post.target },
      hdrImage(width, height),
      { bytesPerRow: width * 8 },
      { width, height },
    );
    const names = post.passes;
    const bloomPairs = names.map((n, i) => (n.startsWith('bloom') ? i : -1)).filter((i) => i >= 0);
    const ms = await measure(
      names.length,
      { bloom: bloomPairs, 'tone map + grade': [names.length - 1] },
      (q) => {
        const enc = device.createCommandEncoder();
        post.apply(enc, out, { timestamps: { querySet: q, first: 0 } });
        device.queue.submit([enc.finish()]);
      },
    );
    rows.push({ kind: 'post', path, size: `${width}x${height}`, ...ms });
    console.log(`post ${path} ${width}x${height}:`, ms);
    post.destroy();
  }
  out.destroy();
}

for (const [width, height] of BLUR_SIZES) {
  const src = device.createTexture({
    size: { width, height },
    format: 'rgba16float',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  device.queue.writeTexture(
    { texture: src },
    hdrImage(width, height),
    { bytesPerRow: width * 8 },
    { width, height },
  );
  for (const radius of RADII) {
    for (const path of ['compute', 'fragment'] as const) {
      const b = blur(device, { radius, path });
      const dst = device.createTexture({
        size: { width, height },
        format: 'rgba16float',
        usage: b.dstUsage,
      });
      const ms = await measure(2, { blur: [0, 1] }, (q) => {
        const enc = device.createCommandEncoder();
        b.apply(enc, src, dst, 'render', { timestamps: { querySet: q, first: 0 } });
        device.queue.submit([enc.finish()]);
      });
      rows.push({ kind: 'blur', path, radius, size: `${width}x${height}`, ...ms });
      console.log(`blur r${radius} ${path} ${width}x${height}:`, ms);
      dst.destroy();
      b.destroy();
    }
  }
  src.destroy();
}

const meta = {
  date: new Date().toISOString(),
  adapter,
  deno: Deno.version.deno,
  frames: FRAMES,
  clockGuard: clocks ? 'on' : `off (${guard.note})`,
};
await Deno.mkdir(outDir, { recursive: true });
await Deno.writeTextFile(`${outDir}/postfx-deno.json`, JSON.stringify({ meta, rows }, null, 2));
const fmt = (v: unknown): string => (typeof v === 'number' ? v.toFixed(3) : '—');
const md = [
  `# Post-processing on ${adapter} (Deno ${meta.deno}, ${meta.date}, median GPU ms of ${FRAMES} frames)`,
  '',
  `Clock guard: ${meta.clockGuard}; clock: the lowest share of its top found after a round of ${ROUND} frames (check/clock-probe.ts).`,
  '',
  '| what | path | size | bloom | tone map + grade | blur H + V | clock |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.kind === 'blur' ? `blur r${r.radius}` : 'post chain'} | ${r.path} | ${r.size} | ${fmt(r.bloom)} | ${fmt(r['tone map + grade'])} | ${fmt(r.blur)} | ${typeof r.clock === 'number' ? r.clock.toFixed(2) : '—'} |`,
  ),
  '',
].join('\n');
await Deno.writeTextFile(`${outDir}/postfx-deno.md`, md);
console.log(md);
device.destroy();
