// `drawMode: 'auto'`'s measurement on its two clocks, on a real GPU: the same system measured with
// GPU timestamps and with them hidden (submit to done, the wait alone subtracted, draws batched
// per run), each count's decisions and figures side by side. What a browser without timer queries
// (Firefox's and Safari's WebGL2) gets on a GPU, measured where timestamps can check it.
//   deno run -A bench/deno/auto-clock.ts [--counts 1e5,1e6,4e6] [--repeat 3] [--size 1280x720]
declare const Deno: { args: string[] };
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { createDevice, createParticleSystem, orbitCamera, TextureUsage } = lib;

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? (Deno.args[i + 1] as string) : fallback;
}
const COUNTS = arg('counts', '1e5,1e6,4e6').split(',').filter(Boolean).map(Number);
const REPEAT = Number(arg('repeat', '3'));
const [WIDTH, HEIGHT] = arg('size', '1280x720').split('x').map(Number) as [number, number];

const device = await createDevice({ backend: 'webgpu' });
const features = device.caps.features as { timestampQuery: boolean };
if (!features.timestampQuery) throw new Error('this comparison needs timestamps to hide');
const camera = orbitCamera({ aspect: WIDTH / HEIGHT });
const target = device.createTexture({
  label: 'auto-clock target',
  size: { width: WIDTH, height: HEIGHT },
  format: 'rgba8unorm',
  usage: TextureUsage.RENDER_ATTACHMENT,
});

/** An `auto` system of `count`, its state stepped, measured at its first draw; its reason. */
async function decide(count: number, timestamps: boolean): Promise<string> {
  let chosen: string;
  const ps = await createParticleSystem(device, { count, path: 'compute', drawMode: 'auto' });
  const enc = device.createCommandEncoder();
  for (let k = 0; k < 30; k++) ps.update(enc, 0.1);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  // the measurement reads the feature when it starts, at the first draw
  features.timestampQuery = timestamps;
  try {
    const draw = device.createCommandEncoder();
    ps.prepareDraw(draw, camera, target);
    const pass = draw.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    ps.draw(pass, camera);
    pass.end();
    device.queue.submit([draw.finish()]);
    chosen = await ps.drawModeDecided;
  } finally {
    features.timestampQuery = true;
  }
  const reason = `${chosen}: ${ps.drawModeReason}`;
  ps.destroy();
  return reason;
}

const a = device.caps.adapter;
console.log(`adapter: ${`${a.vendor} ${a.architecture} ${a.description}`.trim()}`);
for (const count of COUNTS)
  for (let r = 0; r < REPEAT; r++)
    for (const timestamps of r % 2 === 0 ? [true, false] : [false, true])
      console.log(
        `${count} ${timestamps ? 'timestamps' : 'wall'} → ${await decide(count, timestamps)}`,
      );
