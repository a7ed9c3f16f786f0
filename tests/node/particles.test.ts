import { describe, expect, it } from 'vitest';
import {
  resolveOptions,
  ParticleOptionError,
  pcg,
  rand,
  createState,
  stepState,
  DEFAULT_OPTIONS,
  createParticleSystem,
  NullDevice,
  ValidationError,
  TextureUsage,
} from '../../src/all.js';
import { stepStateFast } from '../../src/particles/cpu-step.js';
import { packDrawParams, DrawParamsScratch } from '../../src/particles/draw.js';
import { orbitCamera } from '../../src/particles/camera.js';
import { vec4 } from 'wgpu-matrix';
import { isSoftwareAdapter, provisionalMode } from '../../src/particles/draw-mode.js';
import type { Caps } from '../../src/rhi/core/caps.js';
import type { ParticleSystem } from '../../src/particles/system.js';

/** Every shader module's code `d` is given from now on, in order. */
function shaderCodes(d: NullDevice): string[] {
  const codes: string[] = [];
  const create = d.createShaderModule.bind(d);
  d.createShaderModule = (desc) => {
    codes.push(desc.code);
    return create(desc);
  };
  return codes;
}

/** Draws `ps` once into a 4×4 target of `d` (so its draw pipelines are made), then destroys it. */
function drawOnce(d: NullDevice, ps: ParticleSystem): void {
  const target = d.createTexture({
    size: { width: 4, height: 4 },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  const pass = d
    .createCommandEncoder()
    .beginRenderPass({ colorAttachments: [{ texture: target }] });
  ps.draw(pass, orbitCamera({ aspect: 1 }));
  ps.destroy();
}

describe('particle options', () => {
  it.each([
    [{ count: 0 }, 'count', 'Particle option count = 0 must be a positive integer'],
    [{ count: -5 }, 'count', 'Particle option count = -5 must be a positive integer'],
    [{ count: 2.5 }, 'count', 'Particle option count = 2.5 must be a positive integer'],
    [
      { lifeMin: 3, lifeMax: 1 },
      'lifeMin',
      'Particle option lifeMin = 3 must not exceed lifeMax (1)',
    ],
    [{ drag: Number.NaN }, 'drag', 'Particle option drag = NaN must be a finite number'],
    [
      { gravity: [0, Number.NaN, 0] as [number, number, number] },
      'gravity[1]',
      'Particle option gravity[1] = NaN must be a finite number',
    ],
    [
      { emitter: { radius: Number.NaN } },
      'emitter.radius',
      'Particle option emitter.radius = NaN must be a finite number',
    ],
    [
      {
        colors: [
          [1, 1, 1, 1],
          [1, 1, 1, 1],
          [1, Number.NaN, 1, 1],
          [1, 1, 1, 1],
        ] as never,
      },
      'colors[2][1]',
      'Particle option colors[2][1] = NaN must be a finite number',
    ],
    [
      {
        attractors: Array.from({ length: 9 }, () => ({
          position: [0, 0, 0] as [number, number, number],
          strength: 1,
        })),
      },
      'attractors',
      'Particle option attractors = 9 attractors exceeds the maximum of 8',
    ],
    [
      { emitter: { shape: 'torus' as never } },
      'emitter.shape',
      "Particle option emitter.shape = torus must be 'box', 'point', 'sphere' or 'cone'",
    ],
  ])('%j is rejected naming %s', (input, option, message) => {
    try {
      resolveOptions(input);
      expect.unreachable('should throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ParticleOptionError);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ParticleOptionError).option).toBe(option);
      expect((e as Error).message).toBe(`[particle system] ${message}`);
    }
  });
  it('the defaults are the canonical rule', () => {
    const o = resolveOptions();
    expect([
      o.seed,
      o.emitter.radius,
      o.spread,
      o.speedMin,
      o.speedMax,
      o.lifeMin,
      o.lifeMax,
      o.drag,
      o.floorY,
    ]).toEqual([1, 0.1, 0.5, 7, 10, 2, 3.2, 0.1, -10]);
    expect(o.gravity).toEqual([0, -9.8, 0]);
    expect(o.emitter).toEqual({ shape: 'cone', position: [0, -5.5, 0], radius: 0.1, angle: 0.32 });
    expect(DEFAULT_OPTIONS.count).toBe(100_000);
  });
  it('a draw into a pass with several colour attachments is a typed error naming them', async () => {
    const d = new NullDevice();
    const ps = await createParticleSystem(d, { count: 10 });
    const target = () =>
      d.createTexture({
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.RENDER_ATTACHMENT,
      });
    const pass = d
      .createCommandEncoder()
      .beginRenderPass({ colorAttachments: [{ texture: target() }, { texture: target() }] });
    const camera = { view: new Float32Array(16), projection: new Float32Array(16) };
    expect(() => ps.draw(pass, camera)).toThrow(ValidationError);
    expect(() => ps.draw(pass, camera)).toThrow(
      /exactly one colour attachment; this pass has 2 \(\[rgba8unorm, rgba8unorm\]\)/,
    );
  });
  it('300 updates and draws recorded before one submit work: the uniform rings grow (regression: the 257th update threw)', async () => {
    const d = new NullDevice();
    const ps = await createParticleSystem(d, { count: 10, path: 'compute' });
    const t = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const camera = { view: new Float32Array(16), projection: new Float32Array(16) };
    const before = d.stats().buffer.count;
    const enc = d.createCommandEncoder();
    for (let i = 0; i < 300; i++) {
      ps.update(enc, 1 / 60);
      const pass = enc.beginRenderPass({ colorAttachments: [{ texture: t }] });
      ps.draw(pass, camera);
      pass.end();
    }
    d.queue.submit([enc.finish()]);
    // the outgrown buffers stay alive until a submit has used them, then go at the next take()
    expect(d.stats().buffer.count).toBeGreaterThan(before);
    const again = d.createCommandEncoder();
    ps.update(again, 1 / 60);
    d.queue.submit([again.finish()]);
    const pass = d.createCommandEncoder().beginRenderPass({ colorAttachments: [{ texture: t }] });
    ps.draw(pass, camera);
    expect(d.stats().buffer.count).toBe(before);
    expect(ps.stepIndex).toBe(301);
  });
  it('a path the device lacks is a typed error', async () => {
    const d = new NullDevice({ features: { compute: false } });
    await expect(createParticleSystem(d, { count: 10, path: 'compute' })).rejects.toThrow(
      /Particle option path = compute needs caps.features.compute/,
    );
  });
});

describe('the draw uniforms (one clip-space product per vertex)', () => {
  it('projection·view plus the projected corner axes put a corner where view-then-projection does', () => {
    const camera = orbitCamera({ aspect: 16 / 9, yaw: 0.7, pitch: 0.3 });
    const stops = [0, 0.25, 0.6, 1];
    const colors = [
      [1, 0, 0, 1],
      [0, 1, 0, 1],
      [0, 0, 1, 1],
      [1, 1, 1, 0],
    ];
    const f = new Float32Array(
      packDrawParams(new DrawParamsScratch(), camera, colors, stops, [1, 0.4, 0.07], 8, 10),
    );
    const p = vec4.fromValues(0.3, -2, 1.5, 1);
    const [cx, cy, half] = [-1, 1, 0.035];
    const eye = vec4.transformMat4(p, camera.view as Float32Array);
    const want = vec4.transformMat4(
      vec4.fromValues(eye[0]! + cx * half, eye[1]! + cy * half, eye[2]!, eye[3]!),
      camera.projection as Float32Array,
    );
    const vp = f.subarray(0, 16);
    const got = vec4.transformMat4(p, vp);
    for (let r = 0; r < 4; r++) got[r] = got[r]! + f[16 + r]! * cx * half + f[20 + r]! * cy * half;
    for (let r = 0; r < 4; r++) expect(got[r]).toBeCloseTo(want[r]!, 4);
    // the colour stops' reciprocal spans
    expect([...f.subarray(44, 47)].map((v) => +v.toFixed(4))).toEqual([4, 2.8571, 2.5]);
  });
});

describe('the CPU path loop (cpu-step.ts)', () => {
  it.each([
    ['default cone fountain', {}],
    ['box', { emitter: { shape: 'box' as const, radius: 0.3 } }],
    [
      'sphere with attractors',
      {
        emitter: { shape: 'sphere' as const, radius: 1 },
        attractors: [
          { position: [1, 0, 0] as const, strength: 3 },
          { position: [-2, 1, 0] as const, strength: -1 },
        ],
      },
    ],
    [
      'point with turbulence and a high floor',
      {
        emitter: { shape: 'point' as const },
        turbulence: { strength: 2, frequency: 0.7 },
        floorY: -2,
      },
    ],
    ['short lives, strong drag', { lifeMin: 0.05, lifeMax: 0.2, drag: 3 }],
    [
      'bouncing off a high floor',
      { floorY: -6, bounce: { restitution: 0.6, friction: 0.2 }, lifeMin: 3, lifeMax: 4 },
    ],
  ])('%s: bit-identical to the reference over 150 steps', (_name, input) => {
    const o = resolveOptions({ count: 2000, seed: 7, ...input });
    const a = createState(o);
    const b = createState(o);
    for (let n = 1; n <= 150; n++) {
      const dt = n % 3 === 0 ? 1 / 30 : 1 / 60;
      stepState(o, n, dt, a);
      stepStateFast(o, n, dt, b);
    }
    expect(new Uint32Array(b.position.buffer)).toEqual(new Uint32Array(a.position.buffer));
    expect(new Uint32Array(b.velocity.buffer)).toEqual(new Uint32Array(a.velocity.buffer));
  });
});

describe('the canonical rule in TypeScript', () => {
  it('pcg matches known values of the reference hash', () => {
    // s = v * 747796405 + 2891336453; w = ((s >>> ((s >>> 28) + 4)) ^ s) * 277803737; (w >>> 22) ^ w
    const slow = (v: number): number => {
      const s = Number((BigInt(v) * 747796405n + 2891336453n) % 2n ** 32n);
      const w = Number((BigInt(((s >>> ((s >>> 28) + 4)) ^ s) >>> 0) * 277803737n) % 2n ** 32n);
      return ((w >>> 22) ^ w) >>> 0;
    };
    for (const v of [0, 1, 2, 12345, 0xffffffff, 0x80000000, 747796405])
      expect(pcg(v)).toBe(slow(v));
    expect(rand(0)).toBeGreaterThanOrEqual(0);
    expect(rand(0)).toBeLessThanOrEqual(1);
  });
  it('creation gives every particle an age within its life, and steps respawn the dead', () => {
    const o = resolveOptions({ count: 1000 });
    const s = createState(o);
    for (let i = 0; i < 1000; i++) {
      const life = s.velocity[4 * i + 3] as number;
      expect(life).toBeGreaterThanOrEqual(o.lifeMin);
      expect(life).toBeLessThanOrEqual(o.lifeMax);
      expect(s.position[4 * i + 3]).toBeLessThanOrEqual(life);
    }
    for (let n = 1; n <= 120; n++) stepState(o, n, 1 / 60, s);
    let newborn = 0;
    for (let i = 0; i < 1000; i++) {
      expect(s.position[4 * i + 3]).toBeLessThan(s.velocity[4 * i + 3] as number);
      if (s.position[4 * i + 3] === 0) newborn++;
    }
    expect(newborn).toBeGreaterThan(0);
  });
});

describe('onRestore option', () => {
  it('is reseed by default, takes last-read, and names anything else', async () => {
    const { resolveOptions } = await import('../../src/particles/resolve.js');
    expect(resolveOptions({}).onRestore).toBe('reseed');
    expect(resolveOptions({ onRestore: 'last-read' }).onRestore).toBe('last-read');
    expect(() => resolveOptions({ onRestore: 'keep' as 'reseed' })).toThrow(/onRestore = keep/);
  });
});

/** The ParticleOptionError `f` throws (or rejects with); fails when it accepts. */
async function errorOf(f: () => unknown): Promise<ParticleOptionError> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(ParticleOptionError);
    return e as ParticleOptionError;
  }
  throw new Error('accepted');
}

describe('light.normalMap and light.shadow', () => {
  it('each bad value is a typed error naming the option; a resolved light given back resolves the same', async () => {
    const d = new NullDevice();
    const texture = (
      format: 'rgba8unorm' | 'depth32float',
      usage: number = TextureUsage.TEXTURE_BINDING,
    ) => d.createTexture({ label: format, size: { width: 4, height: 4 }, format, usage });
    const sprite = texture('rgba8unorm');
    const normals = texture('rgba8unorm');
    const depth = texture(
      'depth32float',
      TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    );
    const light = { direction: [0, -1, 0] as [number, number, number] };
    const matrix = Array.from({ length: 16 }, (_, i) => (i % 5 === 0 ? 1 : 0));
    const refusals: Array<[unknown, RegExp]> = [
      [
        { ...light, normalMap: {} },
        /light\.normalMap = .* must be null or a texture of this device/,
      ],
      [
        { ...light, normalMap: normals },
        /light\.normalMap = rgba8unorm needs a sprite \(texture\)/,
      ],
      [{ ...light, shadow: 1 }, /light\.shadow = 1 must be null or \{ depth, matrix, bias \}/],
      [
        { ...light, shadow: { depth, matrix, near: 1 } },
        /light\.shadow\.near = 1 is not a shadow option/,
      ],
      [
        { ...light, shadow: { matrix } },
        /light\.shadow\.depth = undefined must be the light's depth texture/,
      ],
      [
        { ...light, shadow: { depth, matrix: matrix.slice(1) } },
        /light\.shadow\.matrix = 15 numbers must be/,
      ],
      [
        { ...light, shadow: { depth, matrix: [...matrix.slice(0, 15), NaN] } },
        /light\.shadow\.matrix\[15\] = NaN must be a finite number/,
      ],
      [
        { ...light, shadow: { depth, matrix, bias: -1 } },
        /light\.shadow\.bias = -1 must not be negative/,
      ],
    ];
    for (const [given, message] of refusals) {
      const e = await errorOf(() => resolveOptions({ texture: null, light: given as never }));
      expect(e.message).toMatch(message);
    }
    const withMesh = await errorOf(() =>
      resolveOptions({
        texture: sprite,
        geometry: { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0] },
        light: { ...light, normalMap: normals },
      }),
    );
    expect(withMesh.message).toMatch(/light\.normalMap = rgba8unorm is for sprites/);
    // on the device: the shadow map must be a depth texture, the normal map a filterable one
    const colourShadow = await errorOf(() =>
      createParticleSystem(d, { count: 4, light: { ...light, shadow: { depth: sprite, matrix } } }),
    );
    expect(colourShadow.message).toMatch(/light\.shadow\.depth = rgba8unorm has format rgba8unorm/);
    const o = resolveOptions({
      texture: sprite,
      light: { ...light, normalMap: normals, shadow: { depth, matrix } },
    });
    expect(o.light?.shadow).toEqual({ depth, matrix, bias: 0.002 });
    expect(o.light?.normalMap).toBe(normals);
    expect(resolveOptions({ texture: sprite, light: o.light as never }).light).toEqual(o.light);
  });
});

describe('billboard options', () => {
  it('bad values name the option; a splat of velocity billboards is an error, and auto leaves splat out saying why', async () => {
    expect(() => resolveOptions({ billboard: 'sideways' as never })).toThrow(
      /billboard = sideways/,
    );
    expect(() => resolveOptions({ stretch: -1 })).toThrow(/stretch = -1 must not be negative/);
    expect(() => resolveOptions({ drawMode: 'splat', billboard: 'velocity' })).toThrow(
      /drawMode = splat needs billboard 'camera'/,
    );
    expect(() => resolveOptions({ drawMode: 'splat', light: { direction: [0, -1, 0] } })).toThrow(
      /drawMode = splat needs no light/,
    );
    expect(() => resolveOptions({ light: { direction: [0, 0, 0] } })).toThrow(
      /light\.direction = \[0,0,0\] must not be the zero vector/,
    );
    expect(() => resolveOptions({ light: { direction: [0, -1, 0], ambient: [1, -1, 0] } })).toThrow(
      /light\.ambient = \[1,-1,0\] must not be negative/,
    );
    expect(() =>
      resolveOptions({ light: { direction: [0, -1, 0], intensity: 2 } as never }),
    ).toThrow(/light\.intensity = 2 is not a light option/);
    const { candidateModes } = await import('../../src/particles/draw-mode.js');
    const { splatBlocker } = await import('../../src/particles/draw-mode.js');
    const caps = new NullDevice().caps;
    const { modes, notes } = candidateModes(caps, {
      look: splatBlocker({
        blending: 'additive',
        billboard: 'velocity',
        texture: null,
        softParticles: null,
        look: null,
        light: null,
      }),
      buffers: true,
      prepared: true,
      depth: false,
    });
    expect(modes).toEqual(['instanced', 'pulled']);
    expect(notes.join()).toMatch(/splat not measured: drawMode 'splat' needs billboard 'camera'/);
  });
});

describe('sprite options', () => {
  it('bad flipbooks, angles and textures are ParticleOptionErrors naming the option', async () => {
    expect((await errorOf(() => resolveOptions({ spriteSheet: { columns: 2 } }))).option).toBe(
      'spriteSheet',
    );
    expect((await errorOf(() => resolveOptions({ spriteSheet: { rows: 0 } }))).option).toBe(
      'spriteSheet.rows',
    );
    expect(
      (await errorOf(() => resolveOptions({ spriteSheet: { frameOver: 'age' as never } }))).option,
    ).toBe('spriteSheet.frameOver');
    expect((await errorOf(() => resolveOptions({ rotation: [1, 0] }))).option).toBe('rotation');
    expect((await errorOf(() => resolveOptions({ angularVelocity: [0] as never }))).option).toBe(
      'angularVelocity',
    );
    expect((await errorOf(() => resolveOptions({ texture: {} as never }))).option).toBe('texture');

    const d = new NullDevice();
    const texture = (usage: number, format: 'rgba8unorm' | 'rgba32float' = 'rgba8unorm') =>
      d.createTexture({ label: 'sprite', size: { width: 4, height: 4 }, format, usage });
    const usable = texture(TextureUsage.TEXTURE_BINDING);
    const noBinding = await errorOf(() =>
      createParticleSystem(d, { count: 4, texture: texture(TextureUsage.COPY_DST) }),
    );
    expect(noBinding.message).toMatch(/needs TextureUsage.TEXTURE_BINDING/);
    const float = await errorOf(() =>
      createParticleSystem(d, {
        count: 4,
        texture: texture(TextureUsage.TEXTURE_BINDING, 'rgba32float'),
      }),
    );
    expect(float.message).toMatch(/rgba32float, which cannot be filtered/);
    const other = await errorOf(() =>
      createParticleSystem(new NullDevice(), { count: 4, texture: usable }),
    );
    expect(other.message).toMatch(/belongs to another device/);
    const splat = await errorOf(() =>
      createParticleSystem(d, { count: 4, texture: usable, drawMode: 'splat' }),
    );
    expect([splat.option, splat.message]).toEqual([
      'drawMode',
      expect.stringMatching(/needs no texture/),
    ]);
    // a usable one works, and can be swapped or removed on a live system
    const ps = await createParticleSystem(d, { count: 4, path: 'cpu', texture: usable });
    ps.setOptions({ texture: null });
    expect(() => ps.setOptions({ texture: texture(TextureUsage.COPY_DST) })).toThrow(
      ParticleOptionError,
    );
    ps.destroy();
  });
  it("the draw reads a flipbook image twice a pixel, and passes the second read's uv, only where the sheet cross-fades (the sprite and light.normalMap; spriteSheet.blend's documented cost)", async () => {
    /** textureSample calls in the WGSL of the draw pipeline a textured, normal-mapped system makes. */
    const reads = async (spriteSheet: { columns?: number; rows?: number; blend?: boolean }) => {
      const d = new NullDevice();
      const codes = shaderCodes(d);
      const image = d.createTexture({
        label: 'sheet',
        size: { width: 4, height: 4 },
        format: 'rgba8unorm',
        usage: TextureUsage.TEXTURE_BINDING,
      });
      const ps = await createParticleSystem(d, {
        count: 4,
        texture: image,
        spriteSheet,
        light: { direction: [0, -1, 0], normalMap: image },
      });
      drawOnce(d, ps);
      const draw = codes.filter((c) => c.includes('fn sprited('));
      expect(draw).toHaveLength(1);
      // both images go through flipbook(): its reads are the pipeline's
      expect(draw[0]).toMatch(/spriteNormal\(v\.sheetUv, v\.(sheetUv|nextUv)/);
      // the vertex stage hands over the next frame's uv and the fade only where they are read
      // (each varying costs lavapipe: docs/benchmarks.md, "Sprites against a hand-written sprite")
      const varyings = /struct Varyings \{[^}]*\}/.exec(draw[0] as string)?.[0] ?? '';
      const handed = ['sheetUv', 'nextUv', 'fade'].filter((f) => varyings.includes(` ${f}:`));
      return [(draw[0] as string).match(/textureSample\(/g)?.length, handed.join()];
    };
    expect(await reads({})).toEqual([1, 'sheetUv']);
    expect(await reads({ columns: 2, rows: 2 })).toEqual([1, 'sheetUv']);
    // one frame: nothing to fade into
    expect(await reads({ blend: true })).toEqual([1, 'sheetUv']);
    expect(await reads({ columns: 2, rows: 2, blend: true })).toEqual([2, 'sheetUv,nextUv,fade']);
  });

  it("lit and soft quads read the light colour, the ambient and the soft fade from the uniforms in the fragment stage, and an upright quad's light too (a turned one takes its light from its vertex stage, a shadowed one each particle's light colour)", async () => {
    /** The optional fields of the quads' Varyings, and the fragment entry point's text. */
    const varyings = async (shadowed: boolean, turned = false) => {
      const d = new NullDevice();
      const codes = shaderCodes(d);
      const tex = (format: 'depth32float', usage: number) =>
        d.createTexture({ size: { width: 4, height: 4 }, format, usage });
      const sceneDepth = tex('depth32float', TextureUsage.TEXTURE_BINDING);
      const shadowDepth = tex('depth32float', TextureUsage.TEXTURE_BINDING);
      const matrix = Array.from({ length: 16 }, (_, i) => (i % 5 === 0 ? 1 : 0));
      const ps = await createParticleSystem(d, {
        count: 4,
        light: {
          direction: [0, -1, 0],
          shadow: shadowed ? { depth: shadowDepth, matrix } : null,
        },
        softParticles: { depth: sceneDepth, distance: 1 },
        ...(turned ? { rotation: [0, 1] as [number, number] } : {}),
      });
      drawOnce(d, ps);
      const draw = codes.filter((c) => c.includes('fn varyingsOf('));
      expect(draw).toHaveLength(1);
      const struct = /struct Varyings \{([^}]*)\}/.exec(draw[0] as string)?.[1] ?? '';
      const fields = [...struct.matchAll(/@location\((\d+)\)[^:]* (\w+):/g)]
        .filter((m) => Number(m[1]) >= 2)
        .map((m) => m[2]);
      return { fields, fragment: /@fragment fn fs[\s\S]*$/.exec(draw[0] as string)?.[0] ?? '' };
    };
    // upright (no rotation): the corner's frame is the camera's, the light the uniforms'
    const plain = await varyings(false);
    expect(plain.fields).toEqual([]);
    expect(plain.fragment).toMatch(
      /lighting\(v\.uv, lightFrame\(0\.0\), ps\.lightColor, ps\.ambient\)/,
    );
    expect(plain.fragment).toMatch(/softness\(v\.position, ps\.soft\)/);
    const turned = await varyings(false, true);
    expect(turned.fields).toEqual(['light']);
    expect(turned.fragment).toMatch(/lighting\(v\.uv, v\.light, ps\.lightColor, ps\.ambient\)/);
    const shadowed = await varyings(true);
    expect(shadowed.fields).toEqual(['lightColor']);
    expect(shadowed.fragment).toMatch(
      /lighting\(v\.uv, lightFrame\(0\.0\), v\.lightColor, ps\.ambient\)/,
    );
  });

  it('mesh particles compute lighting a pixel only where the system is lit (an unlit mesh draws with fsUnlit and hands over the colour alone)', async () => {
    /**
     * The fragment entry point of each mesh pipeline a system makes as it draws (per draw mode),
     * and what its vertex entry point returns.
     */
    const fragments = async (light: { direction: [number, number, number] } | null) => {
      const d = new NullDevice();
      const entries: string[] = [];
      const createModule = d.createShaderModule.bind(d);
      d.createShaderModule = (desc) => {
        if (desc.code.includes('fn meshVertex('))
          entries.push(/fn vs\(.*\) -> (\w+) \{/.exec(desc.code)?.[1] ?? '?');
        return createModule(desc);
      };
      const create = d.createRenderPipeline.bind(d);
      d.createRenderPipeline = (desc) => {
        if (desc.label?.startsWith('particles mesh')) entries.push(desc.fragment?.entryPoint ?? '');
        return create(desc);
      };
      for (const drawMode of ['instanced', 'pulled'] as const) {
        const ps = await createParticleSystem(d, {
          count: 4,
          drawMode,
          geometry: { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0] },
          light,
        });
        drawOnce(d, ps);
      }
      return entries;
    };
    expect(await fragments(null)).toEqual(['UnlitOut', 'fsUnlit', 'UnlitOut', 'fsUnlit']);
    expect(await fragments({ direction: [0, -1, 0] })).toEqual(['MeshOut', 'fs', 'MeshOut', 'fs']);
  });
});

describe('soft particles options', () => {
  it('name the option: no depth texture, a distance of 0, a colour texture, no binding usage, a splat', async () => {
    const d = new NullDevice();
    const tex = (
      format: 'depth24plus' | 'rgba8unorm',
      usage: number = TextureUsage.TEXTURE_BINDING,
    ) => d.createTexture({ label: 'scene', size: { width: 8, height: 8 }, format, usage });
    const depth = tex('depth24plus', TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT);
    expect(() => resolveOptions({ softParticles: {} as never })).toThrow(
      /softParticles = \{\} must be null or \{ depth/,
    );
    expect(() => resolveOptions({ softParticles: { depth, distance: 0 } })).toThrow(
      /softParticles.distance = 0 must be positive/,
    );
    await expect(
      createParticleSystem(d, {
        count: 4,
        softParticles: { depth: tex('rgba8unorm'), distance: 1 },
      }),
    ).rejects.toThrow(/softParticles.depth = scene has format rgba8unorm/);
    await expect(
      createParticleSystem(d, {
        count: 4,
        softParticles: { depth: tex('depth24plus', TextureUsage.RENDER_ATTACHMENT), distance: 1 },
      }),
    ).rejects.toThrow(/needs TextureUsage.TEXTURE_BINDING/);
    expect(() =>
      resolveOptions({ drawMode: 'splat', softParticles: { depth, distance: 1 } }),
    ).toThrow(/needs no softParticles/);
  });
});

describe('custom look', () => {
  it('code that WebGL2 cannot run, a missing look(), or a look beside a texture are ParticleOptionErrors naming look', async () => {
    const d = new NullDevice();
    const failing = async (look: { code: string }, texture = false): Promise<string> => {
      try {
        await createParticleSystem(d, {
          count: 4,
          look,
          ...(texture
            ? {
                texture: d.createTexture({
                  size: { width: 2, height: 2 },
                  format: 'rgba8unorm',
                  usage: TextureUsage.TEXTURE_BINDING,
                }),
              }
            : {}),
        });
      } catch (e) {
        expect(e).toBeInstanceOf(ParticleOptionError);
        expect((e as ParticleOptionError).option).toBe('look');
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    // derivatives are fragment-only: not in the portable subset the translator takes
    expect(
      await failing({
        code: 'fn look(p: ParticleFragment) -> vec4f { return vec4f(dpdx(p.uv.x)); }',
      }),
    ).toMatch(/cannot be used on every backend.*dpdx/);
    expect(
      await failing({ code: 'fn shade(p: ParticleFragment) -> vec4f { return p.color; }' }),
    ).toMatch(/look/);
    expect(
      await failing({ code: 'fn look(p: ParticleFragment) -> vec4f { return p.color; }' }, true),
    ).toMatch(/and texture both set the look/);
    // a good one is accepted, and the splat refuses it
    const ok = { code: 'fn look(p: ParticleFragment) -> vec4f { return p.color * p.uv.x; }' };
    (await createParticleSystem(d, { count: 4, path: 'cpu', look: ok })).destroy();
    expect(() => resolveOptions({ drawMode: 'splat', look: ok })).toThrow(/needs no look/);
  });
});

describe('bounce option', () => {
  it('keeps particles above the floor in the reference, and bad values name the option', () => {
    const o = resolveOptions({
      count: 500,
      floorY: -6,
      bounce: { restitution: 0.5, friction: 0.1 },
      lifeMin: 5,
      lifeMax: 6,
    });
    const s = createState(o);
    let bounced = 0;
    for (let n = 1; n <= 120; n++) {
      stepState(o, n, 1 / 60, s);
      for (let i = 0; i < o.count; i++) if (s.position[4 * i + 1] === Math.fround(-6)) bounced++;
    }
    for (let i = 0; i < o.count; i++) expect(s.position[4 * i + 1]).toBeGreaterThanOrEqual(-6);
    expect(bounced).toBeGreaterThan(0);
    expect(() => resolveOptions({ bounce: { restitution: 1.5, friction: 0 } })).toThrow(
      /bounce.restitution = 1.5 must be from 0 to 1/,
    );
    expect(() => resolveOptions({ bounce: { restitution: 0.5 } as never })).toThrow(
      /bounce.friction = undefined must be a finite number/,
    );
  });
});

describe('sort options', () => {
  it('sort orders alpha blending only; a sorted draw needs prepareDraw; sortOrder needs sort', async () => {
    expect(() => resolveOptions({ sort: true })).toThrow(
      /sort = true orders alpha blending: with blending 'additive' the order does not change the image/,
    );
    expect(() => resolveOptions({ blending: 'alpha', sort: 'yes' as never })).toThrow(
      /sort = yes must be true or false/,
    );
    const d = new NullDevice();
    const plain = await createParticleSystem(d, { count: 4, path: 'cpu' });
    await expect(plain.sortOrder()).rejects.toThrow(/sortOrder\(\) needs sort: true/);
    // turning blending back to additive on a sorted system is refused like at creation
    const sorted = await createParticleSystem(d, {
      count: 4,
      path: 'cpu',
      blending: 'alpha',
      sort: true,
    });
    expect(() => sorted.setOptions({ blending: 'additive' })).toThrow(ParticleOptionError);
    sorted.setOptions({ sort: false, blending: 'additive' });
    plain.destroy();
    sorted.destroy();
  });
});

describe('collision options', () => {
  it('name the option: depth, camera, ranges, a behavior beside it, the depth kind against the path', async () => {
    const d = new NullDevice();
    const camera = orbitCamera({ aspect: 1 });
    const array = { data: new Float32Array(4), width: 2, height: 2 };
    expect(() => resolveOptions({ collision: { depth: {} as never, camera } })).toThrow(
      /collision.depth = .* must be the scene depth texture, or \{ data: Float32Array, width, height \}/,
    );
    expect(() => resolveOptions({ collision: { depth: { ...array, width: 3 }, camera } })).toThrow(
      /collision.depth.data = 4 must hold width × height = 6 depths/,
    );
    expect(() => resolveOptions({ collision: { depth: array, camera: {} as never } })).toThrow(
      /collision.camera = .* must be \{ view, projection \}/,
    );
    expect(() => resolveOptions({ collision: { depth: array, camera, restitution: 2 } })).toThrow(
      /collision.restitution = 2 must be from 0 to 1/,
    );
    expect(() => resolveOptions({ collision: { depth: array, camera, thickness: 0 } })).toThrow(
      /collision.thickness = 0 must be positive/,
    );
    expect(() =>
      resolveOptions({
        collision: { depth: array, camera },
        behavior: { code: 'fn behavior(index: u32, p: Particle) -> Particle { return p; }' },
      }),
    ).toThrow(/collision = .* is part of the canonical rule, which a behavior replaces/);
    // the defaults
    expect(resolveOptions({ collision: { depth: array, camera } }).collision).toMatchObject({
      restitution: 0.3,
      friction: 0.1,
      thickness: 0.5,
    });
    // the CPU path reads an array; a texture there is refused, naming the path
    const depth = d.createTexture({
      label: 'scene depth',
      size: { width: 2, height: 2 },
      format: 'depth24plus',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    });
    await expect(
      createParticleSystem(d, { count: 4, path: 'cpu', collision: { depth, camera } }),
    ).rejects.toThrow(/collision.depth = scene depth is a texture, but the CPU path reads/);
    const ps = await createParticleSystem(d, {
      count: 4,
      path: 'cpu',
      collision: { depth: array, camera },
    });
    ps.step(1 / 60);
    ps.destroy();
  });
});

describe('the adapter classification behind drawMode auto (isSoftwareAdapter)', () => {
  const caps = (adapter: Partial<Caps['adapter']>): Caps =>
    ({
      adapter: {
        vendor: '',
        architecture: '',
        description: '',
        isFallbackAdapter: false,
        ...adapter,
      },
    }) as Caps;
  it("takes the adapter's isFallbackAdapter when the browser names nothing (Firefox: empty strings on lavapipe)", () => {
    expect(isSoftwareAdapter(caps({ isFallbackAdapter: true }))).toBe(true);
    expect(provisionalMode(caps({ isFallbackAdapter: true }))).toBe('pulled');
  });
  it('knows software rasterisers by name, and calls a named GPU hardware', () => {
    expect(isSoftwareAdapter(caps({ vendor: 'google', architecture: 'swiftshader' }))).toBe(true);
    expect(isSoftwareAdapter(caps({ description: 'llvmpipe (LLVM 15.0.6, 256 bits)' }))).toBe(true);
    expect(isSoftwareAdapter(caps({ vendor: 'nvidia', architecture: 'hopper' }))).toBe(false);
    expect(provisionalMode(caps({ vendor: 'nvidia' }))).toBe('instanced');
  });
});
