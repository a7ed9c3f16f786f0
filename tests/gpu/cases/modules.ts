// The module stack on every path: a module added in one file (modules/vortex.ts) runs the same on
// compute, ping-pong and the CPU (its kernel's JavaScript translation) as the TypeScript reference
// (its reference part), and does what it says (the particles swirl around its axis).
import {
  ParticleOptionError,
  ShaderCompileError,
  createParticleSystem,
  createState,
  defineModule,
  particleModules,
  registerParticleModule,
  resolveOptions,
  stepState,
  type ParticleOptionsInput,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { pathsOf, stepped } from '../page/particle-helpers.js';

const COUNT = 2000;
const STEPS = 30;
const DT = 1 / 60;

/** Still particles in a ball, nothing else acting on them: whatever moves them is the vortex. */
const STILL: ParticleOptionsInput = {
  count: COUNT,
  emitter: { shape: 'sphere', position: [0, 0, 0], radius: 2, angle: 0 },
  speedMin: 0,
  speedMax: 0,
  spread: 0,
  lifeMin: 100,
  lifeMax: 100,
  gravity: [0, 0, 0],
  drag: 0,
  floorY: -1000,
};

const WITH_VORTEX: ParticleOptionsInput = {
  ...STILL,
  modules: [...particleModules(STILL), { module: 'vortex', strength: 4, radius: 0.5, pull: 0.5 }],
};

/** Angular momentum about +y: Σ (z·vx − x·vz) (positive: counter-clockwise seen from above). */
function spin(position: Float32Array, velocity: Float32Array): number {
  let l = 0;
  for (let i = 0; i < COUNT; i++)
    l +=
      (position[4 * i + 2] as number) * (velocity[4 * i] as number) -
      (position[4 * i] as number) * (velocity[4 * i + 2] as number);
  return l;
}

/**
 * A module written outside Ignis, in this file only: wind that pulls each particle's velocity
 * towards its own (acceleration k · (wind − v)), registered for module lists.
 */
registerParticleModule(
  defineModule({
    name: 'testWind',
    stage: 'update',
    summary: 'wind: the velocity pulled towards { velocity } at { rate } per second',
    keys: [],
    present: () => false,
    resolve: (_o, own) => ({ velocity: [4, 0, 0], rate: 2, ...own }),
    kernel: () => ({
      uniforms: [['wind', 'vec4f']],
      force: 'acc = acc + (params.wind.xyz - velocity.xyz) * params.wind.w;',
    }),
    values: (_o, own) => ({ wind: [...(own['velocity'] as number[]), own['rate'] as number] }),
    reference: {
      accelerate(own, _x, _y, _z, _time, out, attribute) {
        const v = attribute('velocity');
        const w = own['velocity'] as number[];
        const k = own['rate'] as number;
        for (let c = 0; c < 3; c++)
          out[c] = (out[c] as number) + ((w[c] as number) - (v[c] as number)) * k;
      },
    },
  }),
);

export const cases = defineCases({
  'a module registered from outside Ignis (one file: this one) runs on every path': {
    async run({ device }) {
      const windy: ParticleOptionsInput = {
        ...STILL,
        modules: [...particleModules(STILL), { module: 'testWind', velocity: [4, 0, 1] }],
      };
      const o = resolveOptions(windy);
      const ref = createState(o);
      for (let n = 1; n <= STEPS; n++) stepState(o, n, DT, ref);
      const meanVx = (v: Float32Array): number => {
        let sum = 0;
        for (let i = 0; i < COUNT; i++) sum += v[4 * i] as number;
        return sum / COUNT;
      };
      // half a second at rate 2: v = 4 · (1 − e^−1) ≈ 2.5 (Euler steps: a little more)
      assert(
        meanVx(ref.velocity) > 2.3 && meanVx(ref.velocity) < 2.8,
        `the reference is carried by the wind (mean vx ${meanVx(ref.velocity)})`,
      );
      for (const path of pathsOf(device)) {
        const ps = await stepped(device, { ...windy, path }, STEPS, DT);
        const s = await ps.read();
        let worst = 0;
        for (let i = 0; i < 4 * COUNT; i++)
          for (const [a, b] of [
            [s.position[i], ref.position[i]],
            [s.velocity[i], ref.velocity[i]],
          ] as Array<[number, number]>)
            worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
        assert(worst < 1e-3, `${path}: the state is the reference's within 1e-3 (worst ${worst})`);
        assert(
          ps.modules.some((m) => m.module === 'testWind'),
          `${path}: ps.modules lists the registered module`,
        );
        ps.destroy();
      }
    },
  },
  'a vortex module runs on every path as its reference says, and swirls': {
    async run({ device }) {
      const o = resolveOptions(WITH_VORTEX);
      assert(
        o.modules.some((m) => m.module === 'vortex' && m.stage === 'update'),
        `the stack lists the vortex: ${o.modules.map((m) => m.module).join(', ')}`,
      );
      const ref = createState(o);
      for (let n = 1; n <= STEPS; n++) stepState(o, n, DT, ref);
      const refSpin = spin(ref.position, ref.velocity);
      assert(refSpin > 1, `the reference swirls counter-clockwise about +y (spin ${refSpin})`);
      for (const path of pathsOf(device)) {
        const ps = await stepped(device, { ...WITH_VORTEX, path }, STEPS, DT);
        assert(
          ps.modules.some((m) => m.module === 'vortex'),
          `${path}: ps.modules lists the vortex`,
        );
        const s = await ps.read();
        let worst = 0;
        for (let i = 0; i < 4 * COUNT; i++) {
          for (const [a, b] of [
            [s.position[i], ref.position[i]],
            [s.velocity[i], ref.velocity[i]],
          ] as Array<[number, number]>)
            worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
        }
        assert(worst < 1e-3, `${path}: the state is the reference's within 1e-3 (worst ${worst})`);
        const got = spin(s.position, s.velocity);
        assert(
          Math.abs(got - refSpin) < 1e-3 * Math.abs(refSpin),
          `${path}: spin ${got}, reference ${refSpin}`,
        );
        ps.destroy();
        // without the module, nothing moves: the swirl is the vortex's
        const still = await stepped(device, { ...STILL, path }, STEPS, DT);
        const t = await still.read();
        assert(spin(t.position, t.velocity) === 0, `${path}: without the vortex nothing turns`);
        still.destroy();
      }
    },
  },
  'a tether module adds a state attribute (origin) and springs particles home, on every path': {
    async run({ device }) {
      const moving: ParticleOptionsInput = { ...STILL, speedMin: 3, speedMax: 3, spread: 1 };
      const tethered: ParticleOptionsInput = {
        ...moving,
        modules: [...particleModules(moving), { module: 'tether', strength: 40 }],
      };
      const o = resolveOptions(tethered);
      const ref = createState(o);
      const origin = ref.attributes?.['origin'];
      assert(origin !== undefined, 'the reference state has the origin attribute');
      for (let n = 1; n <= STEPS; n++) stepState(o, n, DT, ref);
      // a spring of ω = √40 ≈ 6.3/s: 3 m/s reaches 3/ω ≈ 0.47 m and comes back; free flight goes 1.5 m
      const farthest = (s: { position: Float32Array }, home: Float32Array): number => {
        let far = 0;
        for (let i = 0; i < COUNT; i++) {
          const d = Math.hypot(
            (s.position[4 * i] as number) - (home[4 * i] as number),
            (s.position[4 * i + 1] as number) - (home[4 * i + 1] as number),
            (s.position[4 * i + 2] as number) - (home[4 * i + 2] as number),
          );
          far = Math.max(far, d);
        }
        return far;
      };
      const refFar = farthest(ref, origin!);
      assert(refFar < 0.7, `the reference stays within the spring's reach (${refFar} m)`);
      for (const path of pathsOf(device)) {
        // three rgba32float targets on the ping-pong: where the device cannot hold them a sample,
        // the system says so at creation (the state lives on the other paths)
        if (path === 'pingpong' && 48 > device.caps.limits.maxColorAttachmentBytesPerSample) {
          let error: unknown;
          try {
            await createParticleSystem(device, { ...tethered, path });
          } catch (e) {
            error = e;
          }
          assert(
            error instanceof ParticleOptionError &&
              /maxColorAttachmentBytesPerSample/.test(error.message),
            `${path}: a state that does not fit is refused, naming the limit (${String(error)})`,
          );
          continue;
        }
        const free = await stepped(device, { ...moving, path }, STEPS, DT);
        const ps = await stepped(device, { ...tethered, path }, STEPS, DT);
        assert(
          ps.bytesPerParticle === free.bytesPerParticle * 1.5,
          `${path}: the state holds a third vec4 (${ps.bytesPerParticle} vs ${free.bytesPerParticle} bytes)`,
        );
        const s = await ps.read();
        const home = s.attributes?.['origin'];
        assert(home !== undefined, `${path}: read() returns the origin attribute`);
        let worst = 0;
        for (let i = 0; i < 4 * COUNT; i++)
          for (const [a, b] of [
            [home![i], origin![i]],
            [s.position[i], ref.position[i]],
            [s.velocity[i], ref.velocity[i]],
          ] as Array<[number, number]>)
            worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
        assert(
          worst < 1e-3,
          `${path}: state and origin are the reference's within 1e-3 (worst ${worst})`,
        );
        const t = await free.read();
        const freeFar = farthest(t, home!);
        assert(
          freeFar > 1.2 && farthest(s, home!) < 0.7,
          `${path}: untethered particles fly ${freeFar} m from home, tethered ones ${farthest(s, home!)} m`,
        );
        ps.destroy();
        free.destroy();
      }
    },
  },
  'a module list leaves out the update modules it does not name': {
    async run({ device }) {
      // no floor module: particles fall through y = -1 and live on; with it (flat options) they die
      const { floorY: _floor, ...rest } = STILL;
      const base: ParticleOptionsInput = {
        ...rest,
        speedMin: 0,
        gravity: [0, -20, 0],
        emitter: { shape: 'point', position: [0, 0, 0], radius: 0, angle: 0 },
      };
      const listed = particleModules({ ...base, floorY: -1 }).filter((m) => m.module !== 'floor');
      for (const path of pathsOf(device)) {
        const withFloor = await stepped(device, { ...base, floorY: -1, path }, STEPS, DT);
        const without = await stepped(device, { ...base, modules: listed, path }, STEPS, DT);
        const a = await withFloor.read();
        const b = await without.read();
        assert(
          (a.position[1] as number) > -1.5 && (a.position[3] as number) < 0.3,
          `${path}: with the floor the particle respawned at the emitter (y ${a.position[1]}, age ${a.position[3]})`,
        );
        assert(
          (b.position[1] as number) < -1,
          `${path}: without the floor module the particle fell through (y ${b.position[1]})`,
        );
        assert(
          !without.modules.some((m) => m.module === 'floor'),
          `${path}: no floor in ps.modules`,
        );
        withFloor.destroy();
        without.destroy();
      }
    },
  },
  "a kernel WebGPU's compiler refuses is an error of createParticleSystem, not a system whose updates do nothing":
    {
      async run({ device }) {
        // a constant too large for f32: WGSL refuses it when the shader is made, GLSL and
        // JavaScript take it as infinity; Ignis's front end does not evaluate constants
        const code = `fn behavior(index: u32, p: Particle) -> Particle {
  let huge = f32(1e40);
  return Particle(p.position + vec4f(huge * 0.0), p.velocity);
}`;
        const errors: unknown[] = [];
        const off = device.onError((e) => errors.push(e));
        const made = await createParticleSystem(device, { count: 16, behavior: { code } }).catch(
          (e: unknown) => e,
        );
        // the pipeline made of the refused module fails too: that is not reported a second time
        await device.queue.onSubmittedWorkDone();
        await new Promise((r) => setTimeout(r, 100));
        off();
        if (device.caps.shaderLanguage === 'wgsl') {
          assert(errors.length === 1, `reported once: ${errors.map(String).join('; ')}`);
          assert(
            made instanceof ShaderCompileError &&
              /particles\.compute\.wgsl.* line \d+/.test(made.message),
            `WebGPU: ${String(made)}`,
          );
          assert(errors.includes(made), 'the error also reached device.onError');
        } else {
          assert(!(made instanceof Error), `WebGL2: ${String(made)}`);
          const ps = made as Awaited<ReturnType<typeof createParticleSystem>>;
          await ps.compiled();
          ps.destroy();
        }
      },
    },
});
