import {
  TextureUsage,
  createParticleSystem,
  orbitCamera,
  type Camera,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { fromHalfs } from '../../../src/compute/index.js';

export const IMAGE = 128;

export function pathsOf(device: Device): Array<'compute' | 'pingpong' | 'cpu'> {
  const paths: Array<'compute' | 'pingpong' | 'cpu'> = [];
  if (device.caps.features.compute) paths.push('compute');
  if (device.caps.features.floatRenderTargets) paths.push('pingpong');
  paths.push('cpu');
  return paths;
}

export const CAMERA = orbitCamera({ aspect: 1, distance: 10, pitch: 0.1, target: [0, -2, 0] });

/** Draws the system into a fresh IMAGE² target of `format`, cleared to `clear`; its texels. */
async function drawInto(
  device: Device,
  ps: ParticleSystem,
  format: 'rgba8unorm' | 'rgba16float',
  clear: [number, number, number, number],
  camera: Camera = CAMERA,
): Promise<Uint8Array | Uint16Array> {
  const target = device.createTexture({
    label: `particles target (${format})`,
    size: { width: IMAGE, height: IMAGE },
    format,
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const enc = device.createCommandEncoder();
  // the frame loop every draw mode works with: prepare (the splat's compute pass), pass, draw
  ps.prepareDraw(enc, camera, target);
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: clear }],
  });
  ps.draw(pass, camera);
  pass.end();
  device.queue.submit([enc.finish()]);
  const img = (await target.read()) as Uint8Array | Uint16Array;
  target.destroy();
  return img;
}

/** Draws the system into a fresh IMAGE² rgba8unorm target over black and reads it back. */
export async function drawImage(
  device: Device,
  ps: ParticleSystem,
  clear: [number, number, number, number] = [0, 0, 0, 1],
): Promise<Uint8Array> {
  return (await drawInto(device, ps, 'rgba8unorm', clear)) as Uint8Array;
}

/** Draws the system into a fresh IMAGE² rgba16float target over transparent black; floats. */
export async function drawFloatImage(
  device: Device,
  ps: ParticleSystem,
  camera: Camera = CAMERA,
): Promise<Float32Array> {
  return fromHalfs(
    (await drawInto(device, ps, 'rgba16float', [0, 0, 0, 0], camera)) as Uint16Array,
  );
}

export async function stepped(
  device: Device,
  options: ParticleOptionsInput,
  steps: number,
  dt = 1 / 60,
): Promise<ParticleSystem> {
  const ps = await createParticleSystem(device, options);
  for (let s = 0; s < steps; s += 10) {
    const enc = device.createCommandEncoder();
    for (let k = 0; k < Math.min(10, steps - s); k++) ps.update(enc, dt);
    device.queue.submit([enc.finish()]);
  }
  return ps;
}

/** Non-background pixels and the mean colour of the image. */
export function coverage(img: Uint8Array): { lit: number; mean: [number, number, number] } {
  let lit = 0;
  const sum: [number, number, number] = [0, 0, 0];
  for (let p = 0; p < img.length / 4; p++) {
    const r = img[p * 4] as number;
    const g = img[p * 4 + 1] as number;
    const b = img[p * 4 + 2] as number;
    if (r + g + b > 0) {
      lit++;
      sum[0] += r;
      sum[1] += g;
      sum[2] += b;
    }
  }
  return {
    lit,
    mean: [sum[0] / Math.max(1, lit), sum[1] / Math.max(1, lit), sum[2] / Math.max(1, lit)],
  };
}

export function imageDiff(
  a: Uint8Array,
  b: Uint8Array,
  threshold: number,
): { differ: number; worst: number } {
  let differ = 0;
  let worst = 0;
  for (let p = 0; p < a.length / 4; p++) {
    let d = 0;
    for (let c = 0; c < 4; c++)
      d = Math.max(d, Math.abs((a[p * 4 + c] as number) - (b[p * 4 + c] as number)));
    worst = Math.max(worst, d);
    if (d > threshold) differ++;
  }
  return { differ, worst };
}

/**
 * One particle, born at step 1 (a burst) at CAMERA's target (10 units away, at the image's
 * centre), still, white and opaque, of a 1 s life and `size` 2: a probe of the draw's look.
 */
export const ONE_STILL_PARTICLE: ParticleOptionsInput = {
  count: 1,
  bursts: [{ time: 0, count: 1 }],
  emitter: { shape: 'box', position: [0, -2, 0], radius: 0 },
  speedMin: 0,
  speedMax: 0,
  spread: 0,
  gravity: [0, 0, 0],
  drag: 0,
  lifeMin: 1,
  lifeMax: 1,
  size: 2,
  sizeOverLife: [1, 1],
  colors: [
    [1, 1, 1, 1],
    [1, 1, 1, 1],
    [1, 1, 1, 1],
    [1, 1, 1, 1],
  ],
};

/** The largest |a[i] − b[i]| of two images (or any arrays) of the same length. */
export function largestDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

/**
 * A box of half-sizes (hx, hy, hz) about the origin as a triangle list, each triangle
 * counter-clockwise seen from outside (checked: its normal points away from the centre).
 */
export function box(hx: number, hy: number, hz: number): number[] {
  const out: number[] = [];
  const h = [hx, hy, hz];
  for (let axis = 0; axis < 3; axis++)
    for (const sign of [1, -1]) {
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const corner = (a: number, b: number): number[] => {
        const p = [0, 0, 0];
        p[axis] = sign * h[axis]!;
        p[u] = a * h[u]!;
        p[v] = b * h[v]!;
        return p;
      };
      let quad = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
      // u × v is +axis: counter-clockwise seen from +axis; from −axis the other way round
      if (sign < 0) quad = quad.reverse();
      out.push(...quad[0]!, ...quad[1]!, ...quad[2]!, ...quad[0]!, ...quad[2]!, ...quad[3]!);
    }
  return out;
}
