// Digests of particle state and pixels for a fixed set of systems on every path and draw mode
// (the renovation's proof: recorded before and after a refactor that must not change results).
// The case prints `DIGEST <json>`; scripts/particle-digest.mjs runs it and compares two runs.
import type { Device, ParticleSystem } from '../../../src/all.js';
import type { ParticleOptionsInput } from '../../../src/particles/index.js';
import { defineCases } from '../page/case.js';
import { drawImage, pathsOf, stepped } from '../page/particle-helpers.js';
import {
  fireworks,
  sparks,
  fire,
  smoke,
  flameSheet,
  puffTexture,
  puffNormalTexture,
} from '../../../demos/particles/presets.js';

const COUNT = 3000;
const STEPS = 40;

function fnv(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function systems(device: Device): Record<string, ParticleOptionsInput> {
  return {
    fountain: { count: COUNT },
    box: { count: COUNT, emitter: { shape: 'box', radius: 0.5 } },
    sphere: {
      count: COUNT,
      emitter: { shape: 'sphere', radius: 1 },
      attractors: [
        { position: [1, 0, 0], strength: 3 },
        { position: [-1, 2, 0], strength: -2 },
      ],
    },
    point: {
      count: COUNT,
      emitter: { shape: 'point' },
      turbulence: { strength: 2, frequency: 0.7 },
      bounce: { restitution: 0.5, friction: 0.2 },
      floorY: -6,
    },
    fireworks: fireworks(COUNT),
    sparks: sparks(COUNT),
    fire: fire(COUNT, flameSheet(device)),
    smoke: smoke(COUNT, puffTexture(device), puffNormalTexture(device)),
    sorted: { count: COUNT, blending: 'alpha', sort: true },
    velocity: {
      count: COUNT,
      billboard: 'velocity',
      stretch: 0.05,
      rotation: [0, 1],
      angularVelocity: [-1, 1],
    },
    behavior: {
      count: COUNT,
      behavior: {
        code: `fn behavior(index: u32, p: Particle) -> Particle {
  var q = p;
  q.velocity = vec4f(q.velocity.xyz + params.wind * params.dt, q.velocity.w);
  q.position = vec4f(q.position.xyz + q.velocity.xyz * params.dt, q.position.w + params.dt);
  if (q.position.w >= q.velocity.w) { return spawn(index); }
  return q;
}`,
        uniforms: { wind: [1, 0.5, 0] },
      },
    },
    look: {
      count: COUNT,
      look: {
        code: 'fn look(p: ParticleFragment) -> vec4f { return vec4f(p.color.rgb * (1.0 - abs(p.uv.x)), p.color.a); }',
      },
    },
  };
}

async function bytesOf(ps: ParticleSystem): Promise<Uint8Array> {
  const s = await ps.read();
  const out = new Uint8Array(s.position.byteLength + s.velocity.byteLength);
  out.set(new Uint8Array(s.position.buffer, s.position.byteOffset, s.position.byteLength));
  out.set(
    new Uint8Array(s.velocity.buffer, s.velocity.byteOffset, s.velocity.byteLength),
    s.position.byteLength,
  );
  return out;
}

export const cases = defineCases({
  'particle digests': {
    async run({ device, backend }) {
      const out: Record<string, string> = {};
      for (const [name, options] of Object.entries(systems(device))) {
        for (const path of pathsOf(device)) {
          const modes: Array<'instanced' | 'pulled' | 'splat'> = ['instanced', 'pulled'];
          if (
            path === 'compute' &&
            device.caps.features.compute &&
            !options.texture &&
            !options.look &&
            !options.sort &&
            options.billboard !== 'velocity' &&
            (options.blending ?? 'additive') === 'additive'
          )
            modes.push('splat');
          for (const drawMode of modes) {
            const ps = await stepped(device, { ...options, path, drawMode }, STEPS);
            if (drawMode === 'instanced')
              out[`${backend}/${name}/${path}/state`] = fnv(await bytesOf(ps));
            out[`${backend}/${name}/${path}/${drawMode}/pixels`] = fnv(await drawImage(device, ps));
            ps.destroy();
          }
        }
      }
      console.log(`DIGEST ${JSON.stringify(out)}`);
      // engines whose pages do not forward the console: the tool reads this after the case
      const g = globalThis as { __ignisDigest?: Record<string, string> };
      g.__ignisDigest = { ...g.__ignisDigest, ...out };
    },
  },
});
