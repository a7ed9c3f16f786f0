// Post-processing without a GPU: option errors, the shared math and the CPU reference's properties.
import { describe, expect, it } from 'vitest';
import {
  NullDevice,
  PostFxOptionError,
  TextureUsage,
  UsageError,
  bloom,
  blur,
  blurReference,
  chainReference,
  choosePostPath,
  createPostProcess,
  gaussianWeights,
  grade,
  makeImage,
  settingsOf,
  toneMap,
  toneMapCpu,
} from '../../src/all.js';

describe('post-process options', () => {
  it.each([
    [() => bloom({ threshold: -1 }), /bloom.threshold = -1 must be at least 0/],
    [() => bloom({ intensity: Number.NaN }), /bloom.intensity = NaN must be a finite number/],
    [() => bloom({ knee: 2 }), /bloom.knee = 2 must be between 0 and 1/],
    [
      () => toneMap({ operator: 'filmic' as never }),
      /toneMap.operator = 'filmic' must be one of none, reinhard, aces, agx/,
    ],
    [() => grade({ vignette: -0.1 }), /grade.vignette = -0.1 must be between 0 and 1/],
    [() => blur(new NullDevice(), { radius: -2 }), /radius = -2 must be an integer from 0 to 35/],
    [() => blur(new NullDevice(), { radius: 2.5 }), /radius = 2.5 must be an integer/],
    [
      () => createPostProcess(new NullDevice(), { width: 0, height: 10 }),
      /width = 0 must be an integer from 1/,
    ],
    [
      () => createPostProcess(new NullDevice(), { width: 10, height: 10, path: 'vertex' as never }),
      /path = 'vertex' must be 'auto', 'compute' or 'fragment'/,
    ],
    [() => settingsOf([bloom(), bloom()]), /effects = 'bloom' appears twice/],
    [
      () => settingsOf([{ kind: 'sharpen' } as never]),
      /effects = 'sharpen' must each be made by bloom\(\), toneMap\(\) or grade\(\)/,
    ],
  ])('%#: a typed error naming the option', (make, message) => {
    expect(make).toThrow(PostFxOptionError);
    expect(make).toThrow(message);
  });

  it('a destination or source without the usage the path needs is a typed error', () => {
    const d = new NullDevice();
    const post = createPostProcess(d, { width: 8, height: 8, effects: [bloom()] });
    const sampledOnly = d.createTexture({
      size: { width: 8, height: 8 },
      format: 'rgba8unorm',
      usage: TextureUsage.TEXTURE_BINDING,
    });
    expect(() => post.apply(d.createCommandEncoder(), sampledOnly)).toThrow(UsageError);
    const wrongSize = d.createTexture({
      size: { width: 4, height: 8 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    expect(() => post.apply(d.createCommandEncoder(), wrongSize)).toThrow(
      /dst size = '4x8' must equal the chain's 8x8/,
    );
    const b = blur(d, { radius: 3 });
    expect(() => b.apply(d.createCommandEncoder(), sampledOnly, sampledOnly)).toThrow(
      /the compute blur writes dst .* needs STORAGE_BINDING/,
    );
  });

  it('the path ladder: compute where there is compute and storage textures, else fragment; rgba8 when half floats cannot be rendered, with the reason', () => {
    expect(choosePostPath(new NullDevice().caps, 'auto', 'auto')).toMatchObject({
      path: 'compute',
      format: 'rgba16float',
    });
    expect(
      choosePostPath(new NullDevice({ features: { compute: false } }).caps, 'auto', 'auto'),
    ).toMatchObject({ path: 'fragment', format: 'rgba16float' });
    const eight = choosePostPath(
      new NullDevice({
        features: { compute: false, floatRenderTargets: false, halfFloatRenderTargets: false },
      }).caps,
      'auto',
      'auto',
    );
    expect(eight).toMatchObject({ path: 'fragment', format: 'rgba8unorm' });
    expect(eight.reason).toMatch(/values above 1 clip/);
    expect(() =>
      choosePostPath(
        new NullDevice({ features: { halfFloatRenderTargets: false } }).caps,
        'auto',
        'rgba16float',
      ),
    ).toThrow(/halfFloatRenderTargets is false/);
  });
});

describe('post-process math and reference', () => {
  it('Gaussian weights are symmetric halves summing to 1, σ = radius / 3', () => {
    for (const r of [1, 4, 13, 35]) {
      const w = gaussianWeights(r);
      expect(w[0]! + 2 * w.slice(1).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
      expect(w[r]! / w[0]!).toBeCloseTo(Math.exp(-4.5), 5); // 3σ
    }
    expect(Array.from(gaussianWeights(0))).toEqual([1]);
  });

  it('tone curves map 0 to black, grow monotonically and stay in 0…1 (except none)', () => {
    for (const op of ['reinhard', 'aces', 'agx'] as const) {
      let prev = -1;
      for (const x of [0, 0.01, 0.1, 0.18, 0.5, 1, 2, 8, 64]) {
        const [v] = toneMapCpu(op, [x, x, x]);
        expect(v, `${op}(${x})`).toBeGreaterThanOrEqual(prev - 1e-6);
        expect(v).toBeLessThanOrEqual(1.0001);
        prev = v;
      }
      expect(toneMapCpu(op, [0, 0, 0])[0]).toBeLessThan(0.01);
    }
  });

  it('the reference blur preserves the sum of an image whose border is flat, and spreads an impulse', () => {
    const img = makeImage(40, 30, (x, y) => (x === 20 && y === 15 ? [10, 5, 1, 1] : [0, 0, 0, 1]));
    const out = blurReference(img, 6);
    const sum = (d: Float32Array): number => d.reduce((a, v, i) => (i % 4 === 0 ? a + v : a), 0);
    expect(sum(out.data)).toBeCloseTo(10, 5);
    expect(out.data[(15 * 40 + 20) * 4]).toBeLessThan(10 / 4);
    expect(out.data[(15 * 40 + 24) * 4]).toBeGreaterThan(0);
  });

  it('the reference chain with nothing but an identity grade is the sRGB encoding of the scene', () => {
    const img = makeImage(8, 8, (x) => [x / 8, 0.5, 0.25, 1]);
    const out = chainReference(img, settingsOf([toneMap({ operator: 'none' })]), 'float32');
    expect(out.data[0]).toBe(0);
    expect(out.data[1]).toBeCloseTo(1.055 * Math.pow(0.5, 1 / 2.4) - 0.055, 6);
  });
});
