// Writes the shipped effects (effects/*.json, effects/textures/*.png) from the preset code they
// come from (demos/particles/presets.ts, demos/fireworks/show.ts): each preset's options as a
// version-0 file (flat options; textures and parents by name), migrated to the current version
// by the library's own migration, and written by stringifyEffect. tests/node/effects.test.ts
// fails when a file differs from what this writes; tests/gpu/cases/effects.ts draws each file and
// its preset code and compares the pixels. `node scripts/effects.mjs [--check]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = async (file) =>
  (await runnerImport(path.join(root, file), { root, logLevel: 'error' })).module;

/** Every shipped effect's file text and every texture's PNG bytes, by path under effects/. */
export async function shippedEffects() {
  const presets = await load('demos/particles/presets.ts');
  const show = await load('demos/fireworks/show.ts');
  const { migrateEffect, stringifyEffect } = await load('src/effects/index.ts');
  const { encode } = await import('fast-png');
  const files = new Map();
  const png = (name, { size, data }) =>
    files.set(
      `textures/${name}.png`,
      encode({ width: size, height: size, data, channels: 4, depth: 8 }),
    );

  /** A preset's options as a version-0 system: list-only modules (vortex, colliders) kept aside. */
  const flatSystem = (name, input, names = new Map()) => {
    const { modules, ...flat } = input;
    const options = JSON.parse(
      JSON.stringify(flat, (key, v) =>
        v && typeof v === 'object' && names.has(v) ? names.get(v) : v,
      ),
    );
    return { system: { name, options }, extra: modules ?? [] };
  };
  /** Version 0 → the current version, with each system's list-only modules put back at the end. */
  const effect = (meta, systems, textures, meshes) => {
    const v0 = {
      version: 0,
      ...meta,
      ...(textures ? { textures } : {}),
      ...(meshes ? { meshes } : {}),
      systems: systems.map((s) => s.system),
    };
    const v1 = migrateEffect(v0);
    v1.systems.forEach((s, i) => {
      const listed = new Set(s.modules.map((m) => m.module));
      s.modules.push(...systems[i].extra.filter((m) => !listed.has(m.module)));
    });
    const { version, name, description, camera, textures: t, meshes: m, systems: list } = v1;
    return stringifyEffect({
      $schema: '../schema/effect.schema.json',
      version,
      name,
      description,
      ...(camera ? { camera } : {}),
      ...(t ? { textures: t } : {}),
      ...(m ? { meshes: m } : {}),
      systems: list,
    });
  };

  const single = (file, name, description, input, camera, textures, meshes) => {
    const names = new Map(
      Object.entries({ ...textures?.objects, ...meshes }).map(([k, o]) => [o, k]),
    );
    files.set(
      `${file}.json`,
      effect(
        { name, description, ...(camera ? { camera } : {}) },
        [flatSystem(name, input, names)],
        textures?.files,
        meshes,
      ),
    );
  };
  single(
    'fireworks',
    'fireworks',
    'Shells and crackles of stars, each leaving a fading trail.',
    presets.fireworks(4000),
    { distance: 12, target: [0, -3.5, 0] },
  );
  single(
    'sparks',
    'sparks',
    "A grinder's shower: streaks along their motion, skipping on the floor.",
    presets.sparks(6000),
  );
  single(
    'swirl',
    'swirl',
    'Motes drifting up through a vortex, each drawing a ribbon of its last 48 positions.',
    presets.swirl(1500),
  );
  single(
    'shapes',
    'shapes',
    'A lit shower over a ball, a box and a capsule: analytic colliders.',
    presets.shapes(3000),
  );
  single(
    'debris',
    'debris',
    'Lit shards thrown up, tumbling, bouncing off a ball and the floor: mesh particles.',
    presets.debris(3000),
    presets.DEBRIS_VIEW,
    undefined,
    { shard: presets.SHARD },
  );
  single(
    'drift',
    'drift',
    'Motes carried by a curl-noise wind (a vector field), swirling without bunching, trailing ribbons.',
    presets.drift(1500),
  );
  // a mesh in a file of its own, by URL
  const torus = presets.torusMesh();
  files.set('meshes/torus.json', `${JSON.stringify(torus)}\n`);
  {
    const v0 = {
      version: 0,
      name: 'embers',
      description:
        "Embers shed from a ring's surface (a mesh in effects/meshes), rising and cooling.",
      camera: { distance: 12, target: [0, -3, 0], pitch: 0.45 },
      meshes: { torus: { url: 'meshes/torus.json' } },
      systems: [flatSystem('embers', presets.embers(2500, { positions: [], indices: [] })).system],
    };
    v0.systems[0].options.mesh = 'torus';
    const v1 = migrateEffect(v0);
    files.set('embers.json', stringifyEffect({ $schema: '../schema/effect.schema.json', ...v1 }));
  }
  const flameStub = { kind: 'texture', label: 'flame' };
  const puffStub = { kind: 'texture', label: 'puff' };
  const puffNormalsStub = { kind: 'texture', label: 'puff-normals' };
  single(
    'fire',
    'fire',
    'Soft flame sprites from a 4 × 4 flipbook, cross-faded and turning.',
    presets.fire(1500, flameStub),
    undefined,
    {
      objects: { flame: flameStub },
      files: { flame: { url: 'textures/flame.png' } },
    },
  );
  png('flame', presets.flamePixels());
  single(
    'smoke',
    'smoke',
    'Grey puffs that rise and grow, alpha-blended and sorted back to front, lit by a low sun through their own normal maps.',
    presets.smoke(800, puffStub, puffNormalsStub),
    undefined,
    {
      objects: { puff: puffStub, 'puff-normals': puffNormalsStub },
      files: {
        puff: { url: 'textures/puff.png' },
        'puff-normals': { url: 'textures/puff-normals.png' },
      },
    },
  );
  png('puff', presets.puffPixels());
  png('puff-normals', presets.puffNormalPixels());

  // shows: systems spawned by their parents' events
  const rockets = { name: 'rockets', count: show.ROCKETS.count };
  const stars = { name: 'stars', count: show.ROCKETS.count * 64 };
  const names = new Map([
    [rockets, 'rockets'],
    [stars, 'stars'],
  ]);
  files.set(
    'firework-show.json',
    effect(
      {
        name: 'firework show',
        description:
          'Rockets trail up and burst into stars that trail and crackle: two generations of sub-emitters.',
        camera: show.VIEWS.fireworks,
      },
      [
        flatSystem('rockets', show.ROCKETS, names),
        flatSystem('stars', show.stars(rockets), names),
        flatSystem('crackle', show.crackle(stars), names),
      ],
    ),
  );
  const rain = { name: 'rain' };
  files.set(
    'rain.json',
    effect(
      {
        name: 'rain',
        description: 'Streaks falling onto the floor, each landing thrown up as six droplets.',
        camera: show.VIEWS.rain,
      },
      [
        flatSystem('rain', show.RAIN, new Map([[rain, 'rain']])),
        flatSystem('splash', show.splash(rain), new Map([[rain, 'rain']])),
      ],
    ),
  );
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await shippedEffects();
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [file, content] of files) {
    const at = path.join(root, 'effects', file);
    const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
    if (check) {
      if (!fs.existsSync(at) || !fs.readFileSync(at).equals(bytes)) {
        console.error(`effects/${file} differs from what scripts/effects.mjs writes`);
        stale++;
      }
    } else {
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, bytes);
      console.log(`wrote effects/${file} (${bytes.length} bytes)`);
    }
  }
  process.exit(stale ? 1 : 0);
}
