// The front door of the module stack: flat options and module lists resolve to one stack, each
// mistake a ParticleOptionError naming the option; the canonical stack's kernel is the one flat
// options made before the renovation (the digests in bench/results/renovation say bit for bit).
import { describe, expect, it } from 'vitest';
import { resolveOptions, particleModules } from '../../src/particles/resolve.js';
import { ParticleOptionError } from '../../src/particles/errors.js';
import {
  MODULES,
  defineModule,
  registerParticleModule,
} from '../../src/particles/modules/index.js';
import { kernelKey, particleKernel } from '../../src/particles/kernel.js';

const names = (o: { modules: readonly { module: string }[] }): string[] =>
  o.modules.map((m) => m.module);

describe('particle modules', () => {
  it('flat options make the canonical stack, in stages', () => {
    const o = resolveOptions({});
    expect(names(o)).toEqual([
      'emitter',
      'velocity',
      'lifetime',
      'gravity',
      'drag',
      'floor',
      'color',
      'size',
      'rotation',
      'billboard',
      'blend',
    ]);
    expect(o.modules.map((m) => m.stage)).toEqual([
      'spawn',
      'spawn',
      'spawn',
      'update',
      'update',
      'update',
      'render',
      'render',
      'render',
      'render',
      'render',
    ]);
    const more = resolveOptions({
      emitRate: 10,
      attractors: [{ position: [0, 0, 0], strength: 1 }],
      turbulence: { strength: 1 },
    });
    expect(names(more).slice(0, 7)).toEqual([
      'emission',
      'emitter',
      'velocity',
      'lifetime',
      'gravity',
      'attractors',
      'turbulence',
    ]);
    // the stack is not enumerable: spreading options gives flat options back
    expect(Object.keys({ ...o })).not.toContain('modules');
  });

  it('a behaviour replaces the update modules', () => {
    const o = resolveOptions({
      behavior: { code: 'fn behavior(i: u32, p: Particle) -> Particle { return p; }' },
    });
    expect(o.modules.filter((m) => m.stage === 'update').map((m) => m.module)).toEqual([
      'behavior',
    ]);
  });

  it('particleModules round-trips: the list it gives makes the same stack and kernel', () => {
    const flat = {
      emitter: { shape: 'sphere' as const },
      attractors: [{ position: [1, 2, 3] as [number, number, number], strength: 2 }],
    };
    const a = resolveOptions(flat);
    const b = resolveOptions({ modules: particleModules(flat) });
    expect(names(b)).toEqual(names(a));
    expect(kernelKey(b)).toBe(kernelKey(a));
    expect(particleKernel(b).wgslCompute).toBe(particleKernel(a).wgslCompute);
    // and a resolved stack given back (ps.modules) is read as its names and options
    expect(names(resolveOptions({ modules: a.modules }))).toEqual(names(a));
  });

  it('a list orders the update stage and adds a module flat options cannot (vortex)', () => {
    const o = resolveOptions({
      modules: [
        { module: 'vortex', strength: 2 },
        { module: 'gravity', gravity: [0, -1, 0] },
      ],
    });
    expect(o.modules.filter((m) => m.stage === 'update').map((m) => m.module)).toEqual([
      'vortex',
      'gravity',
    ]);
    expect(o.gravity).toEqual([0, -1, 0]);
    expect(o.drag).toBe(0); // left out: off
    expect(o.modules.find((m) => m.module === 'vortex')?.options).toEqual({
      center: [0, 0, 0],
      axis: [0, 1, 0],
      strength: 2,
      pull: 0,
      radius: 1,
    });
    const code = particleKernel(o).wgslCompute;
    expect(code).toContain('vortexAcceleration');
    expect(code).not.toContain('params.drag * params.dt');
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['modules', 3, /modules = 3 must be an array/],
    [
      'modules[0].module',
      [{ module: 'warp' }],
      /is not a particle module; the modules are emission, emitter/,
    ],
    ['modules[1]', [{ module: 'gravity' }, { module: 'gravity' }], /in the list twice/],
    ['modules[0]', [{ module: 'sprite' }], /has nothing to do with these options/],
    [
      'modules',
      [{ module: 'behavior', behavior: { code: '' } }, { module: 'gravity' }],
      /replaces the update modules/,
    ],
    ['vortex.axis', [{ module: 'vortex', axis: [0, 0, 0] }], /must not be the zero vector/],
    ['vortex.radius', [{ module: 'vortex', radius: -1 }], /must be positive/],
    ['vortex.spin', [{ module: 'vortex', spin: 1 }], /is not an option of the vortex/],
    ['vortex.strength', [{ module: 'vortex', strength: NaN }], /must be a finite number/],
  ];
  for (const [option, modules, message] of bad)
    it(`a bad list names ${option}`, () => {
      let error: unknown;
      try {
        resolveOptions({ modules } as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParticleOptionError);
      expect((error as ParticleOptionError).option).toBe(option);
      expect((error as Error).message).toMatch(message);
    });

  it('a flat option of an update module the list leaves out is an error, not ignored', () => {
    expect(() => resolveOptions({ drag: 0.5, modules: [{ module: 'gravity' }] })).toThrow(
      /drag = 0.5 belongs to the drag module, which the module list leaves out/,
    );
  });

  it('every module has one file, a summary, and owns distinct options', () => {
    const owned = MODULES.flatMap((m) => m.keys);
    expect(new Set(owned).size).toBe(owned.length);
    for (const m of MODULES) expect(m.summary.length).toBeGreaterThan(10);
  });

  it('registerParticleModule takes an update module of your own, and names what is wrong with one', () => {
    const base = {
      stage: 'update' as const,
      summary: 'a test module that pushes along +x',
      keys: [],
      present: () => false,
      resolve: () => ({}),
      kernel: () => ({ force: 'acc = acc + vec3f(1.0, 0.0, 0.0);' }),
    };
    const bad: Array<[object, string, RegExp]> = [
      [{ ...base, name: '1x' }, 'module.name', /must be an identifier/],
      [{ ...base, name: 'gravity' }, 'module.name', /already known/],
      [{ ...base, name: 'push', stage: 'render' }, 'push.stage', /must be 'update'/],
      [{ ...base, name: 'push', keys: ['drag'] }, 'push.keys', /owns no flat option/],
      [{ ...base, name: 'push', resolve: 3 }, 'push.resolve', /must be a function/],
    ];
    for (const [def, option, message] of bad) {
      let error: unknown;
      try {
        registerParticleModule(def as never);
      } catch (e) {
        error = e;
      }
      expect(error, option).toBeInstanceOf(ParticleOptionError);
      expect((error as ParticleOptionError).option).toBe(option);
      expect((error as Error).message).toMatch(message);
    }
    registerParticleModule(defineModule({ ...base, name: 'push' }));
    const o = resolveOptions({ modules: [{ module: 'push' }] });
    expect(names(o)).toContain('push');
    expect(particleKernel(o).wgslCompute).toContain('acc = acc + vec3f(1.0, 0.0, 0.0)');
    // flat options never bring it in; a second registration under its name is refused
    expect(names(resolveOptions({}))).not.toContain('push');
    expect(() => registerParticleModule(defineModule({ ...base, name: 'push' }))).toThrow(
      /already known/,
    );
  });
});

describe('the trail module', () => {
  it('takes its defaults from the look, and is a render module of the stack', () => {
    const o = resolveOptions({ size: 0.2, trail: {} });
    expect(o.trail).toEqual({
      length: 16,
      width: [0.2, 0],
      colors: [o.colors[0], [...o.colors[0].slice(0, 3), 0]],
      texture: null,
      inherit: false,
      fade: 0,
    });
    expect(o.modules.find((m) => m.module === 'trail')?.stage).toBe('render');
    expect(names(resolveOptions({}))).not.toContain('trail');
    // in a module list, by name
    const listed = resolveOptions({
      modules: [...particleModules({}), { module: 'trail', trail: { length: 5 } }],
    });
    expect(listed.trail?.length).toBe(5);
  });

  it('names each wrong value', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ length: 1 }, /trail\.length.*from 2 to 64/],
      [{ length: 65 }, /trail\.length.*from 2 to 64/],
      [{ length: 4.5 }, /trail\.length.*integer/],
      [{ width: [0, 0] }, /trail\.width.*not both 0/],
      [{ width: [-1, 0] }, /trail\.width/],
      [{ width: 3 }, /trail\.width.*2 numbers/],
      [{ colors: [[1, 1, 1, 1]] }, /trail\.colors.*two RGBA/],
      [
        {
          colors: [
            [1, 1, 1],
            [1, 1, 1, 1],
          ],
        },
        /trail\.colors\[0\]/,
      ],
      [{ lenght: 8 }, /trail\.lenght.*not a trail option/],
      [{ inherit: 1 }, /trail\.inherit.*true or false/],
      [{ fade: -0.5 }, /trail\.fade.*seconds ≥ 0/],
      [{ fade: Number.NaN }, /trail\.fade/],
      [{ texture: 'sparks.png' }, /trail\.texture.*a texture of this device/],
      [8, /trail.*null or \{ length, width, colors, texture, inherit, fade \}/],
    ];
    for (const [trail, message] of bad)
      expect(() => resolveOptions({ trail } as never), JSON.stringify(trail)).toThrow(message);
    expect(() => resolveOptions({ trail: { length: 1 } })).toThrow(ParticleOptionError);
  });
});

describe('inputs that used to slip through (issue 34 examples)', () => {
  it('a null attractor is named, not a TypeError', () => {
    expect(() => resolveOptions({ attractors: [null as never] })).toThrow(ParticleOptionError);
    expect(() => resolveOptions({ attractors: [null as never] })).toThrow(
      /attractors\[0\] = null must be \{ position, strength \}/,
    );
  });
  it('a camera of NaNs is refused at the draw, naming the matrix and the entry', async () => {
    const { NullDevice, TextureUsage } = await import('../../src/all.js');
    const { createParticleSystem } = await import('../../src/particles/system.js');
    const device = new NullDevice();
    const ps = await createParticleSystem(device, {
      count: 16,
      path: 'compute',
      drawMode: 'pulled',
    });
    const target = device.createTexture({
      size: { width: 8, height: 8 },
      format: 'rgba8unorm',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
    const good = { view: new Float32Array(16), projection: new Float32Array(16) };
    const bad = { view: new Float32Array(16), projection: new Float32Array(16).fill(NaN) };
    const enc = device.createCommandEncoder();
    expect(() => ps.prepareDraw(enc, bad, target)).toThrow(/camera.projection\[0\] is NaN/);
    const pass = enc.beginRenderPass({ colorAttachments: [{ texture: target }] });
    expect(() => ps.draw(pass, bad)).toThrow(/camera.projection\[0\] is NaN/);
    expect(() => ps.draw(pass, good)).not.toThrow();
    pass.end();
    ps.destroy();
  });
});
