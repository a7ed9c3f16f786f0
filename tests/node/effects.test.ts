// Effects as data (docs/effects.md): every shipped effect is what scripts/effects.mjs writes from
// the preset code, validates, loads, resolves to the same module stack as that code and gives its
// bytes back; invalid files each get an EffectError whose JSON pointer names the value at fault,
// generated ones included (fast-check over mutations the schema forbids); version 0 migrates.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { meshSdf } from '../../src/particles/modules/sdf-grid.js';
import { describe, expect, it, beforeAll } from 'vitest';
import fc from 'fast-check';
import { createDevice, type Device } from '../../src/index.js';
import { createParticleSystem, type ParticleSystem } from '../../src/particles/index.js';
import {
  EffectError,
  loadEffect,
  migrateEffect,
  stringifyEffect,
  validateEffect,
  type EffectFile,
} from '../../src/effects/index.js';
import * as presets from '../../demos/particles/presets.js';
import * as show from '../../demos/fireworks/show.js';
import { compileEffectSchema } from '../../scripts/effect-schema.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const effectsDir = path.join(root, 'effects');
const shipped = readdirSync(effectsDir).filter((f) => f.endsWith('.json'));
const text = (f: string): string => readFileSync(path.join(effectsDir, f), 'utf8');
const read = async (url: URL): Promise<Uint8Array> => new Uint8Array(readFileSync(url));
const base = new URL(`file://${effectsDir}/`);

/** A stack as comparable data: textures by size, parents by count. */
function stackOf(ps: ParticleSystem): string {
  return JSON.stringify(ps.modules, (_k, v: unknown) => {
    if (v && typeof v === 'object' && (v as { kind?: unknown }).kind === 'texture') {
      const t = v as { width: number; height: number };
      return `texture ${t.width}×${t.height}`;
    }
    if (v && typeof v === 'object' && 'eventSource' in v)
      return `system of ${(v as unknown as { count: number }).count}`;
    if (v instanceof Float32Array || v instanceof Uint32Array) return [...v];
    return v;
  });
}

/** The preset code each shipped effect came from, its systems made on `device`. */
async function presetSystems(device: Device, file: string): Promise<ParticleSystem[]> {
  const one = async (o: Parameters<typeof createParticleSystem>[1]) => [
    await createParticleSystem(device, o),
  ];
  switch (file) {
    case 'fireworks.json':
      return one(presets.fireworks(4000));
    case 'sparks.json':
      return one(presets.sparks(6000));
    case 'swirl.json':
      return one(presets.swirl(1500));
    case 'shapes.json':
      return one(presets.shapes(3000));
    case 'drift.json':
      return one(presets.drift(1500));
    case 'debris.json':
      return one(presets.debris(3000));
    case 'embers.json':
      return one(presets.embers(2500, presets.torusMesh()));
    case 'fire.json':
      return one(presets.fire(1500, presets.flameSheet(device)));
    case 'smoke.json':
      return one(
        presets.smoke(800, presets.puffTexture(device), presets.puffNormalTexture(device)),
      );
    case 'firework-show.json':
      return show.fireworkShow(device);
    case 'rain.json':
      return show.rainShow(device);
  }
  throw new Error(`no preset for ${file}`);
}

let device: Device;
beforeAll(async () => {
  device = await createDevice({ backend: 'null' });
});

const valid = (): EffectFile => JSON.parse(text('sparks.json')) as EffectFile;

/** The EffectError `fn` throws (it must throw one). */
async function effectError(fn: () => unknown): Promise<EffectError> {
  try {
    await fn();
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(EffectError);
    return e as EffectError;
  }
  throw new Error('no error thrown');
}

describe('effect files', () => {
  it('the compiled schema is the schema (node scripts/effect-schema.mjs after a change)', () => {
    expect(readFileSync(path.join(root, 'src/effects/schema-validate.js'), 'utf8')).toBe(
      compileEffectSchema(),
    );
  });

  it('the shipped effects are what scripts/effects.mjs writes from the preset code', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(8);
    execFileSync(process.execPath, [path.join(root, 'scripts/effects.mjs'), '--check'], {
      cwd: root,
      stdio: 'pipe',
    });
  }, 60_000);

  it.each(shipped)(
    '%s loads, resolves to its preset code’s stack and gives its bytes back',
    async (file) => {
      const effect = await loadEffect(device, text(file), { baseUrl: base, read });
      expect(stringifyEffect(effect.toJSON())).toBe(text(file));
      const code = await presetSystems(device, file);
      expect(effect.systems.map(stackOf)).toEqual(code.map(stackOf));
      expect(effect.systems.map((s) => s.count)).toEqual(code.map((s) => s.count));
      expect(effect.systems.map((s) => s.options.seed)).toEqual(code.map((s) => s.options.seed));
      effect.destroy();
      expect(effect.destroyed).toBe(true);
      for (const s of effect.systems)
        expect(() => s.step(1 / 60)).toThrow(/destroyed particle system/);
      for (const s of code.reverse()) s.destroy();
    },
  );

  it('loads from a URL, its textures relative to it; a texture that is not there is named', async () => {
    const effect = await loadEffect(device, new URL('fire.json', base), { read });
    expect(effect.system('fire').options.texture?.width).toBe(128);
    effect.destroy();
    const doc = JSON.parse(text('fire.json')) as EffectFile;
    doc.textures!['flame'] = { url: 'textures/nothing.png' };
    const e = await effectError(() => loadEffect(device, doc, { baseUrl: base, read }));
    expect(e.pointer).toBe('/textures/flame/url');
    expect(e.message).toMatch(/could not be read/);
  });

  it('a mesh by URL or inline; a mesh file missing, or an index out of range, named in the meshes', async () => {
    const fromUrl = await loadEffect(device, new URL('embers.json', base), { read });
    const torus = presets.torusMesh();
    const inline = JSON.parse(text('embers.json')) as EffectFile;
    inline.meshes = { torus };
    const fromData = await loadEffect(device, inline);
    expect(stackOf(fromData.systems[0]!)).toBe(stackOf(fromUrl.systems[0]!));
    fromUrl.destroy();
    fromData.destroy();
    const missing = JSON.parse(text('embers.json')) as EffectFile;
    missing.meshes = { torus: { url: 'meshes/nothing.json' } };
    let e = await effectError(() => loadEffect(device, missing, { baseUrl: base, read }));
    expect(e.pointer).toBe('/meshes/torus/url');
    const bad = JSON.parse(text('embers.json')) as EffectFile;
    bad.meshes = { torus: { ...torus, indices: [0, 1, 99999, ...torus.indices.slice(3)] } };
    e = await effectError(() => loadEffect(device, bad));
    expect(e.pointer).toBe('/meshes/torus/indices/2');
    expect(e.message).toMatch(/must be a vertex index/);
    // the ring's vertex colours reach the mesh (the births' tint); a wrong count or value is named
    const tinted = await loadEffect(device, new URL('embers.json', base), { read });
    const colors = tinted.systems[0]!.options.mesh!.colors!;
    expect(colors.length).toBe((4 * torus.positions.length) / 3);
    expect(Array.from(colors.subarray(0, 4))).toEqual([1, 1, 1, 1]);
    expect(Object.keys((await tinted.systems[0]!.read()).attributes ?? {})).toContain('tint');
    tinted.destroy();
    const short = JSON.parse(text('embers.json')) as EffectFile;
    short.meshes = { torus: { ...torus, colors: torus.colors!.slice(3) } };
    e = await effectError(() => loadEffect(device, short));
    expect([e.pointer, e.message]).toEqual([
      '/meshes/torus/colors',
      expect.stringMatching(/must be 3 \(r, g, b\) or 4 \(r, g, b, a\) per vertex/),
    ]);
    const bright = JSON.parse(text('embers.json')) as EffectFile;
    bright.meshes = { torus: { ...torus, colors: [2, ...torus.colors!.slice(1)] } };
    e = await effectError(() => loadEffect(device, bright));
    expect(e.pointer).toBe('/meshes/torus/colors/0');
    // placed and moving: the module entry's transform, velocity and angularVelocity reach the mesh
    const placed = JSON.parse(text('embers.json')) as EffectFile;
    const entry = placed.systems[0]!.modules.find((m) => m.module === 'mesh') as Record<
      string,
      unknown
    >;
    const at = placed.systems[0]!.modules.findIndex((m) => m.module === 'mesh');
    Object.assign(entry, {
      transform: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 3, 4, 1],
      angularVelocity: [0, 1.5, 0],
    });
    const moved = await loadEffect(device, placed, { baseUrl: base, read });
    const mesh = moved.systems[0]!.options.mesh!;
    expect(Array.from(mesh.transform)).toEqual([0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 3, 4, 1]);
    expect(mesh.angularVelocity).toEqual([0, 1.5, 0]);
    expect(mesh.velocity).toEqual([0, 0, 0]);
    moved.destroy();
    entry['transform'] = [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    e = await effectError(() => loadEffect(device, placed, { baseUrl: base, read }));
    expect([e.pointer, e.message]).toEqual([
      `/systems/0/modules/${at}/transform`,
      expect.stringMatching(/scales unevenly/),
    ]);
    entry['transform'] = [1, 0, 0];
    e = await effectError(() => validateEffect(placed));
    expect(e.pointer).toBe(`/systems/0/modules/${at}/transform`);
    const both = JSON.parse(text('embers.json')) as EffectFile;
    both.meshes = { torus: { ...torus, url: 'meshes/torus.json' } as never };
    e = await effectError(() => validateEffect(both));
    expect(e.pointer).toBe('/meshes/torus');
  });

  it('a geometry module names a mesh, with normals or flat; a missing mesh, bad normals and a look beside it named where they are', async () => {
    const doc = (): EffectFile => JSON.parse(text('debris.json')) as EffectFile;
    const at = doc().systems[0]!.modules.findIndex((m) => m.module === 'geometry');
    const flat = await loadEffect(device, doc());
    const geometry = flat.systems[0]!.options.geometry!;
    expect(geometry.flat).toBe(true);
    expect(geometry.indices.length).toBe(presets.SHARD.indices.length);
    flat.destroy();
    // the same shard with a normal per vertex (pointing out from its centre)
    const smooth = doc();
    const p = presets.SHARD.positions;
    smooth.meshes = { shard: { ...presets.SHARD, normals: p.map((c) => 2 * c) } };
    const lit = await loadEffect(device, smooth);
    const g = lit.systems[0]!.options.geometry!;
    expect(g.flat).toBe(false);
    expect(Array.from(g.vertices.subarray(3, 6)).map((c) => Math.round(c * 1e4) / 1e4)).toEqual(
      [0.5, 0.5, 0.2].map((c) => Math.round((c / Math.hypot(0.5, 0.5, 0.2)) * 1e4) / 1e4),
    );
    lit.destroy();
    const missing = doc();
    (missing.systems[0]!.modules[at] as Record<string, unknown>)['geometry'] = 'rock';
    let e = await effectError(() => validateEffect(missing));
    expect([e.pointer, e.message]).toEqual([
      `/systems/0/modules/${at}/geometry`,
      expect.stringMatching(/names the mesh "rock", which the file's meshes do not have \(shard\)/),
    ]);
    const badNormals = doc();
    badNormals.meshes = { shard: { ...presets.SHARD, normals: [0, 0, 1, 0, 0, 0, ...p.slice(6)] } };
    e = await effectError(() => loadEffect(device, badNormals));
    expect([e.pointer, e.message]).toEqual([
      '/meshes/shard/normals/3',
      expect.stringMatching(/must be finite and not the zero vector/),
    ]);
    const withLook = doc();
    withLook.systems[0]!.modules.push({
      module: 'look',
      look: { code: 'fn look(p: ParticleFragment) -> vec4f { return p.color; }' },
    } as never);
    e = await effectError(() => loadEffect(device, withLook));
    expect(e.message).toMatch(/is for quads/);
  });

  it('a baked SDF collider in a file (its distances inline) loads, and a wrong count is named at its pointer', async () => {
    const doc = JSON.parse(text('shapes.json')) as EffectFile;
    const modules = doc.systems[0]!.modules as Array<Record<string, unknown>>;
    const at = modules.findIndex((m) => m['module'] === 'colliders');
    const baked = meshSdf(presets.SHARD, { min: [-1, -1, -1], max: [1, 1, 1], size: [4, 4, 4] });
    modules[at] = {
      module: 'colliders',
      shapes: [{ ...baked, distances: Array.from(baked.distances) }],
    };
    const effect = await loadEffect(device, doc);
    const shapes = (
      effect.systems[0]!.modules.find((m) => m.module === 'colliders')!.options as {
        shapes: Array<{ shape: string; distances: Float32Array }>;
      }
    ).shapes;
    expect(shapes[0]!.shape).toBe('sdf');
    expect(Array.from(shapes[0]!.distances)).toEqual(Array.from(baked.distances));
    effect.destroy();
    modules[at] = { module: 'colliders', shapes: [{ ...baked, distances: [1, 2, 3] }] };
    const e = await effectError(() => loadEffect(device, doc));
    expect([e.pointer, e.message]).toEqual([
      `/systems/0/modules/${at}/shapes/0/distances`,
      expect.stringMatching(/must be one per node: 4 × 4 × 4 = 64/),
    ]);
  });

  it('an inline data: URL texture decodes to the same texels as the file', async () => {
    const bytes = readFileSync(path.join(effectsDir, 'textures/puff.png'));
    const normals = readFileSync(path.join(effectsDir, 'textures/puff-normals.png'));
    const doc = JSON.parse(text('smoke.json')) as EffectFile;
    doc.textures!['puff'] = { url: `data:image/png;base64,${bytes.toString('base64')}` };
    doc.textures!['puff-normals'] = { url: `data:image/png;base64,${normals.toString('base64')}` };
    const { decodePngRgba } = await import('../../src/effects/image.js');
    expect(decodePngRgba(bytes).data).toEqual(presets.puffPixels().data);
    expect(decodePngRgba(normals).data).toEqual(presets.puffNormalPixels().data);
    const effect = await loadEffect(device, doc);
    expect(effect.system('smoke').options.texture?.width).toBe(64);
    expect(effect.system('smoke').options.light?.normalMap?.width).toBe(64);
    effect.destroy();
  });

  it.each([
    [
      'a negative rate',
      (d: EffectFile) => ((d.systems[0]!.modules[0] as Record<string, unknown>)['emitRate'] = -1),
      '/systems/0/modules/0/emitRate',
      /must be >= 0/,
    ],
    [
      'an unknown module',
      (d: EffectFile) => d.systems[0]!.modules.push({ module: 'wind' }),
      '/systems/0/modules/10/module',
      /must be one of/,
    ],
    [
      'an option of another module',
      (d: EffectFile) =>
        ((d.systems[0]!.modules[2] as Record<string, unknown>)['gravity'] = [0, 1, 0]),
      '/systems/0/modules/2/gravity',
      /not a field/,
    ],
    [
      'a version from the future',
      (d: EffectFile) => ((d as { version: number }).version = 2),
      '/version',
      /newer than this Ignis reads \(1\)/,
    ],
    [
      'no version',
      (d: EffectFile) => delete (d as { version?: number }).version,
      '/version',
      /version/,
    ],
    [
      'lifeMin above lifeMax (a module check, not the schema)',
      (d: EffectFile) => ((d.systems[0]!.modules[3] as Record<string, unknown>)['lifeMin'] = 5),
      '/systems/0/modules/3/lifeMin',
      /must not exceed lifeMax/,
    ],
    [
      'a texture the file does not have',
      (d: EffectFile) => d.systems[0]!.modules.push({ module: 'sprite', texture: 'flame' }),
      '/systems/0/modules/10/texture',
      /"flame", which the file's textures do not have/,
    ],
    [
      "a light's normal map the file does not have",
      (d: EffectFile) =>
        d.systems[0]!.modules.push({
          module: 'light',
          light: { direction: [0, -1, 0], normalMap: 'bumps' },
        }),
      '/systems/0/modules/10/light/normalMap',
      /"bumps", which the file's textures do not have/,
    ],
    [
      'a count of 0',
      (d: EffectFile) => (d.systems[0]!.count = 0),
      '/systems/0/count',
      /must be >= 1/,
    ],
  ])('%s is an EffectError at its pointer', async (_what, mutate, pointer, message) => {
    const doc = valid();
    mutate(doc);
    const e = await effectError(() => loadEffect(device, doc));
    expect(e.pointer).toBe(pointer);
    expect(e.message).toMatch(message);
  });

  it('sub-emitters: a parent named that is not there, or listed after its child, is named', async () => {
    const doc = JSON.parse(text('rain.json')) as EffectFile;
    const splash = doc.systems[1]!.modules.find((m) => m.module === 'subEmitter')!;
    const at = `/systems/1/modules/${doc.systems[1]!.modules.indexOf(splash)}/subEmitter/parent`;
    (splash['subEmitter'] as { parent: string }).parent = 'snow';
    let e = await effectError(() => loadEffect(device, doc));
    expect([e.pointer, e.message]).toEqual([
      at,
      expect.stringMatching(/"snow", which is not a system/),
    ]);
    (splash['subEmitter'] as { parent: string }).parent = 'rain';
    doc.systems.reverse();
    e = await effectError(() => loadEffect(device, doc));
    expect(e.pointer).toBe(at.replace('/systems/1', '/systems/0'));
    expect(e.message).toMatch(/listed after this system/);
  });

  it('version 0 (flat options) migrates to the module list the shipped file has', async () => {
    const flat = JSON.parse(JSON.stringify(presets.sparks(6000))) as Record<string, unknown>;
    const { count, seed, ...options } = flat;
    const v0 = {
      version: 0,
      name: 'sparks',
      description: "A grinder's shower: streaks along their motion, skipping on the floor.",
      systems: [{ name: 'sparks', options: { count, seed, ...options } }],
    };
    const migrated = migrateEffect(v0) as unknown as EffectFile;
    expect(migrated.version).toBe(1);
    expect(migrated.systems).toEqual(valid().systems);
    const effect = await loadEffect(device, v0);
    expect(effect.toJSON().version).toBe(1);
    const code = await createParticleSystem(device, presets.sparks(6000));
    expect(stackOf(effect.systems[0]!)).toBe(stackOf(code));
    effect.destroy();
    code.destroy();
    const e = await effectError(() =>
      loadEffect(device, { version: 0, systems: [{ name: 'a', options: { gravty: [0, 1, 0] } }] }),
    );
    expect(e.pointer).toBe('/systems/0/options/gravty');
  });

  it('generated invalid files each give an EffectError at the mutated value (fast-check)', async () => {
    // every leaf of a valid file, given a value of the wrong kind, or an object given a field the
    // schema does not have: the error's pointer is that place
    const doc = JSON.parse(text('firework-show.json')) as EffectFile;
    const leaves: string[][] = [];
    const walk = (v: unknown, at: string[]): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, String(i)]));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
      else if (at.length > 0 && at.at(-1) !== '$schema' && at.at(-1) !== 'version') leaves.push(at);
    };
    walk(doc, []);
    const set = (d: unknown, at: string[], value: unknown): void => {
      let o = d as Record<string, unknown>;
      for (const k of at.slice(0, -1)) o = o[k] as Record<string, unknown>;
      o[at.at(-1)!] = value;
    };
    const wrong = (old: unknown) =>
      typeof old === 'number'
        ? fc.constantFrom('1', true, [1], { n: 1 })
        : typeof old === 'string'
          ? fc.constantFrom(1, false, ['x'], {})
          : fc.constantFrom('yes', 0, {});
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...leaves)
          .chain((at) => fc.tuple(fc.constant(at), wrong(getAt(doc, at)), fc.boolean())),
        async ([at, value, extra]) => {
          const d = JSON.parse(JSON.stringify(doc)) as EffectFile;
          // (a field added to an object; an array's element gets the wrong kind instead)
          const onObject = extra && !Array.isArray(getAt(d, at.slice(0, -1)));
          const pointer = onObject ? [...at.slice(0, -1), 'bogusField'] : at;
          if (onObject) set(d, pointer, 1);
          else set(d, at, value);
          const e = await effectError(() => validateEffect(d));
          expect(e.problems.map((p) => p.pointer)).toContain(`/${pointer.join('/')}`);
          expect(e.pointer).toBe(`/${pointer.join('/')}`);
          checked++;
        },
      ),
      { seed: 42, numRuns: 500 },
    );
    expect(checked).toBe(500);
  });

  it('generated out-of-range values (each bound the schema gives a number) give an EffectError at the value (fast-check)', async () => {
    const schema = JSON.parse(
      readFileSync(path.join(root, 'schema/effect.schema.json'), 'utf8'),
    ) as SchemaNode;
    const bounded: Array<{ at: string[]; beyond: number[] }> = [];
    for (const file of shipped) {
      const doc = JSON.parse(text(file)) as unknown;
      const walk = (v: unknown, at: string[]): void => {
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, String(i)]));
        else if (v && typeof v === 'object')
          for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
        else if (typeof v === 'number') {
          const s = schemaAt(schema, doc, at);
          const beyond = [
            s?.minimum !== undefined ? s.minimum - 0.5 : null,
            s?.exclusiveMinimum !== undefined ? s.exclusiveMinimum : null,
            s?.maximum !== undefined ? s.maximum + 1 : null,
            s?.exclusiveMaximum !== undefined ? s.exclusiveMaximum : null,
          ].filter((x): x is number => x !== null);
          if (beyond.length > 0) bounded.push({ at: [file, ...at], beyond });
        }
      };
      walk(doc, []);
    }
    // (counts, ranges, colours, sizes, lifetimes, trail lengths, restitution … of every file)
    expect(bounded.length).toBeGreaterThan(100);
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...bounded)
          .chain((b) => fc.tuple(fc.constant(b.at), fc.constantFrom(...b.beyond))),
        async ([[file, ...at], value]) => {
          const d = JSON.parse(text(file!)) as unknown;
          let o = d as Record<string, unknown>;
          for (const k of at.slice(0, -1)) o = o[k] as Record<string, unknown>;
          o[at.at(-1)!] = value;
          const e = await effectError(() => validateEffect(d));
          expect(e.pointer, `${file} ${value}`).toBe(`/${at.join('/')}`);
          checked++;
        },
      ),
      { seed: 7, numRuns: 400 },
    );
    expect(checked).toBe(400);
  });
});

type SchemaNode = {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  allOf?: Array<{ if: { properties: { module: { const: string } } }; then: SchemaNode }>;
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

/** The schema of the value at `at` in `doc` (refs followed, a module's by its name, null branches skipped). */
function schemaAt(root: SchemaNode, doc: unknown, at: string[]): SchemaNode | undefined {
  const defs = (root as { definitions: Record<string, SchemaNode> }).definitions;
  const deref = (s: SchemaNode | undefined, v: unknown): SchemaNode | undefined => {
    while (s?.$ref) s = defs[s.$ref.replace('#/definitions/', '')];
    if (s?.anyOf)
      return deref(
        s.anyOf.find((b) => deref(b, v)?.type !== 'null'),
        v,
      );
    if (s?.allOf && v && typeof v === 'object') {
      const name = (v as { module?: string }).module;
      const branch = s.allOf.find((b) => b.if.properties.module.const === name);
      return { ...s, ...deref(branch?.then, v) };
    }
    return s;
  };
  let s = deref(root, doc);
  let v = doc as Record<string, unknown>;
  for (const k of at) {
    const next = v[k] as Record<string, unknown>;
    s = deref(
      Array.isArray(v)
        ? s?.items
        : (s?.properties?.[k] ??
            (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined)),
      next,
    );
    v = next;
  }
  return s;
}

function getAt(d: unknown, at: string[]): unknown {
  let o = d as Record<string, unknown>;
  for (const k of at) o = o[k] as Record<string, unknown>;
  return o;
}
