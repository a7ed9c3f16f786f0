// Effects as data (src/effects): every shipped effect file (effects/*.json), loaded from its URL
// with its PNG textures, draws the same pixels as the preset code it was written from
// (demos/particles/presets.ts, demos/fireworks/show.ts), on every path of the backend, after the
// same frames — 0 pixels differ, and the picture is not empty.
import {
  TextureUsage,
  createParticleSystem,
  orbitCamera,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { loadEffect, type Effect } from '../../../src/effects/index.js';
import * as presets from '../../../demos/particles/presets.js';
import * as show from '../../../demos/fireworks/show.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { IMAGE, imageDiff, pathsOf } from '../page/particle-helpers.js';

const urls = import.meta.glob<string>('../../../effects/*.json', {
  query: '?url',
  import: 'default',
  eager: true,
});
const effectUrl = (name: string): string => {
  const found = Object.entries(urls).find(([file]) => file.endsWith(`/${name}.json`));
  assert(found !== undefined, `effects/${name}.json is there`);
  return found[1];
};

type How = Pick<ParticleOptionsInput, 'path' | 'drawMode'>;

/** The preset code an effect came from, its systems made with `how`. */
async function codeSystems(device: Device, name: string, how: How): Promise<ParticleSystem[]> {
  const one = async (o: ParticleOptionsInput) => [
    await createParticleSystem(device, { ...o, ...how }),
  ];
  if (name === 'fireworks') return one(presets.fireworks(4000));
  if (name === 'sparks') return one(presets.sparks(6000));
  if (name === 'swirl') return one(presets.swirl(1500));
  if (name === 'shapes') return one(presets.shapes(3000));
  if (name === 'drift') return one(presets.drift(1500));
  if (name === 'debris') return one(presets.debris(3000));
  if (name === 'embers') return one(presets.embers(2500, presets.torusMesh()));
  if (name === 'fire') return one(presets.fire(1500, presets.flameSheet(device)));
  if (name === 'smoke')
    return one(presets.smoke(800, presets.puffTexture(device), presets.puffNormalTexture(device)));
  if (name === 'firework-show') return show.fireworkShow(device, how);
  if (name === 'rain') return show.rainShow(device, how);
  throw new Error(`no preset code for ${name}`);
}

/** Frames before the picture: the show's rockets burst after about 1.5 s. */
const framesOf = (name: string): number => (name === 'firework-show' ? 110 : 40);

/** `frames` frames of 1/60 s, then a draw into a fresh IMAGE² target from `camera`; its texels. */
async function framesThenImage(
  device: Device,
  systems: readonly ParticleSystem[],
  camera: ReturnType<typeof orbitCamera>,
  frames: number,
): Promise<Uint8Array> {
  for (let f = 0; f < frames; f += 10) {
    const enc = device.createCommandEncoder();
    for (let k = 0; k < 10; k++) for (const ps of systems) ps.update(enc, 1 / 60);
    device.queue.submit([enc.finish()]);
  }
  const target = device.createTexture({
    label: 'effect target',
    size: { width: IMAGE, height: IMAGE },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const enc = device.createCommandEncoder();
  for (const ps of systems) ps.prepareDraw(enc, camera, target);
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  for (const ps of systems) ps.draw(pass, camera);
  pass.end();
  device.queue.submit([enc.finish()]);
  const img = (await target.read()) as Uint8Array;
  target.destroy();
  return img;
}

const NAMES = [
  'fireworks',
  'sparks',
  'swirl',
  'shapes',
  'embers',
  'drift',
  'debris',
  'fire',
  'smoke',
  'firework-show',
  'rain',
];

export const cases = defineCases(
  Object.fromEntries(
    NAMES.map((name) => [
      `effects: ${name}.json draws the pixels of the preset code it came from, on every path`,
      {
        async run({ device }: { device: Device }) {
          for (const path of pathsOf(device)) {
            const how: How = { path, drawMode: 'instanced' };
            const effect: Effect = await loadEffect(device, effectUrl(name), how);
            const camera = orbitCamera({ aspect: 1, ...effect.camera });
            const fromFile = await framesThenImage(device, effect.systems, camera, framesOf(name));
            effect.destroy();
            const code = await codeSystems(device, name, how);
            const fromCode = await framesThenImage(device, code, camera, framesOf(name));
            for (const ps of code) {
              const texture = ps.options.texture;
              ps.destroy();
              texture?.destroy();
            }
            let lit = 0;
            for (let i = 0; i < fromFile.length; i += 4)
              if (fromFile[i]! + fromFile[i + 1]! + fromFile[i + 2]! > 0) lit++;
            assert(lit > 40, `${name} on ${path}: ${lit} pixels lit (the effect is seen)`);
            const diff = imageDiff(fromFile, fromCode, 0);
            assert(
              diff.differ === 0,
              `${name} on ${path}: ${diff.differ} pixels differ from the preset code's (worst ${diff.worst})`,
            );
          }
        },
      },
    ]),
  ),
);
