/**
 * Older effect files brought to the current version, one version at a time. Version 0 is the
 * flat form: a system was `{ name, options }`, the options a particle system takes in code
 * without a module list (what `JSON.stringify` of a preset gives). Version 1 gives each system its
 * module list, so the migration asks the modules which of them a flat system runs.
 */
import { allModules } from '../particles/modules/index.js';
import { resolveOptions } from '../particles/resolve.js';
import { ParticleOptionError } from '../particles/errors.js';
import type { ParticleModuleInput } from '../particles/options.js';
import { EFFECT_VERSION, type EffectSystemFile } from './format.js';
import { EffectError, pointerToken } from './errors.js';
import { optionPointer, plainMessage } from './pointer.js';

type Doc = Record<string, unknown>;

/** The system's own options (not a module's): they stay on the system. */
const SYSTEM_KEYS = ['count', 'seed', 'path', 'drawMode', 'compact', 'onRestore'] as const;

const isObject = (v: unknown): v is Doc => !!v && typeof v === 'object' && !Array.isArray(v);

/** A flat system (version 0) as a module list: the modules its options give values to, and the update modules it runs. */
function flatSystem(system: unknown, at: string): EffectSystemFile {
  if (!isObject(system) || !isObject(system['options']))
    throw new EffectError([{ pointer: at, message: 'must be { name, options } (version 0)' }]);
  const { name, options } = system as { name: unknown; options: Doc };
  if ('modules' in options)
    throw new EffectError([
      {
        pointer: `${at}/options/modules`,
        message:
          'is version 1 (a module list): give the system as { name, modules } in a version 1 file',
      },
    ]);
  const flat: Doc = {};
  const own: Doc = {};
  for (const [key, value] of Object.entries(options))
    ((SYSTEM_KEYS as readonly string[]).includes(key) ? own : flat)[key] = value;
  // which update modules the flat options run: asked of the modules themselves, with what names
  // a file (textures, a mesh, a parent) left out — none of them decides an update module
  const stand = (v: unknown): unknown => (v === null || v === undefined ? v : { kind: 'texture' });
  const probe: Doc = { ...flat, mesh: null, geometry: null, subEmitter: null };
  if ('texture' in flat) probe['texture'] = stand(flat['texture']);
  for (const key of ['trail', 'link'])
    if (isObject(flat[key]))
      probe[key] = { ...(flat[key] as Doc), texture: stand((flat[key] as Doc)['texture']) };
  if (isObject(flat['light']))
    probe['light'] = {
      ...(flat['light'] as Doc),
      normalMap: stand((flat['light'] as Doc)['normalMap']),
    };
  let running: Set<string>;
  try {
    running = new Set(resolveOptions(probe).modules.map((m) => m.module));
  } catch (e) {
    if (e instanceof ParticleOptionError)
      throw new EffectError([
        { pointer: `${at}/options${optionPointer(e.option)}`, message: plainMessage(e) },
      ]);
    throw e;
  }
  const modules: ParticleModuleInput[] = [];
  for (const def of allModules()) {
    const given = (def.keys as readonly string[]).filter((k) => k in flat);
    if (def.stage === 'update' ? !running.has(def.name) : given.length === 0) continue;
    const entry: Doc = { module: def.name };
    for (const k of given) entry[k] = flat[k];
    modules.push(entry as ParticleModuleInput);
  }
  const unknown = Object.keys(flat).filter(
    (k) => !allModules().some((d) => (d.keys as readonly string[]).includes(k)),
  );
  if (unknown.length > 0)
    throw new EffectError([
      {
        pointer: `${at}/options/${pointerToken(unknown[0]!)}`,
        message: 'is not a particle option',
      },
    ]);
  return { name: name as string, ...own, modules } as EffectSystemFile;
}

const MIGRATIONS: Record<number, (doc: Doc) => Doc> = {
  0: (doc) => {
    const systems = doc['systems'];
    if (!Array.isArray(systems))
      throw new EffectError([{ pointer: '/systems', message: 'must be an array of systems' }]);
    return {
      ...doc,
      version: 1,
      systems: systems.map((s, i) => flatSystem(s, `/systems/${i}`)),
    };
  },
};

/**
 * `doc` at the current version: an older version migrated one step at a time, the current one as
 * it is, a newer one (or no version) refused with an EffectError at `/version`.
 */
export function migrateEffect(doc: unknown): Doc {
  if (!isObject(doc))
    throw new EffectError([{ pointer: '', message: 'must be an object (an effect file)' }]);
  let version = doc['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    throw new EffectError([
      {
        pointer: '/version',
        message: `must be the file format's version, an integer (this Ignis writes ${EFFECT_VERSION})`,
      },
    ]);
  if (version > EFFECT_VERSION)
    throw new EffectError([
      {
        pointer: '/version',
        message: `is ${version}, newer than this Ignis reads (${EFFECT_VERSION}): update ignis-rhi to load it`,
      },
    ]);
  let out = doc;
  while (version < EFFECT_VERSION) {
    out = MIGRATIONS[version]!(out);
    version++;
  }
  return out;
}
