/**
 * The front door of a particle system's options: flat options (`{ count, emitter, gravity, … }`)
 * or a module list (`{ modules: [...] }`) become one resolved ParticleOptions with its module stack
 * (`o.modules`), every value checked once, by the module that owns it (modules/*.ts).
 */
import type { Device } from '../rhi/core/device.js';
import { UnsupportedFeatureError } from '../rhi/core/errors.js';
import { choosePath, type PathChoice } from '../compute/paths/choose.js';
import { ParticleOptionError } from './errors.js';
import {
  DEFAULT_OPTIONS,
  type ParticleModule,
  type ParticleModuleInput,
  type ParticleOptions,
  type ParticleOptionsInput,
  type ParticlePath,
} from './options.js';
import {
  allModules,
  moduleDef,
  type ModuleOptions,
  type ParticleModuleDef,
} from './modules/index.js';
import { splatBlocker } from './draw-mode.js';
import { stateAttributes } from './kernel.js';

/** A module list's entry, split: the definition, its flat options and its own ones. */
interface Entry {
  def: ParticleModuleDef;
  flat: Record<string, unknown>;
  own: Record<string, unknown>;
}

const same = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a !== 'object' && Object.is(a, b)) || JSON.stringify(a) === JSON.stringify(b);

/** `modules: [...]` checked and split; flat options of update modules it leaves out are refused. */
function readList(list: unknown, flat: Record<string, unknown>): Entry[] {
  if (!Array.isArray(list))
    throw new ParticleOptionError(
      'modules',
      list,
      'must be an array of { module: name, …options }',
    );
  const seen = new Set<string>();
  const entries = list.map((m: unknown, i): Entry => {
    if (!m || typeof m !== 'object' || Array.isArray(m))
      throw new ParticleOptionError(`modules[${i}]`, m, 'must be { module: name, …options }');
    const name = (m as { module?: unknown }).module;
    const def = typeof name === 'string' ? moduleDef(name) : undefined;
    if (!def)
      throw new ParticleOptionError(
        `modules[${i}].module`,
        name,
        `is not a particle module; the modules are ${allModules()
          .map((d) => d.name)
          .join(', ')}`,
      );
    if (seen.has(def.name))
      throw new ParticleOptionError(`modules[${i}]`, def.name, 'is in the list twice');
    seen.add(def.name);
    const entry: Entry = { def, flat: {}, own: {} };
    // a resolved module (ps.modules) is given back as its name and options
    const r = m as { stage?: unknown; options?: unknown };
    const fields =
      typeof r.stage === 'string' && r.options && typeof r.options === 'object'
        ? { module: name, ...(r.options as Record<string, unknown>) }
        : (m as Record<string, unknown>);
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'module') continue;
      if ((def.keys as readonly string[]).includes(key)) entry.flat[key] = value;
      else entry.own[key] = value;
    }
    return entry;
  });
  for (const def of allModules()) {
    if (def.stage !== 'update' || seen.has(def.name)) continue;
    for (const key of def.keys) {
      if (key in flat && !same(flat[key], def.absent?.[key]))
        throw new ParticleOptionError(
          key,
          flat[key],
          `belongs to the ${def.name} module, which the module list leaves out (add { module: '${def.name}' } to modules)`,
        );
    }
  }
  return entries;
}

/** The options that are the system's, not a module's: capacity, seed, path, draw mode, restore. */
function checkSystem(o: ParticleOptions): void {
  if (typeof o.count !== 'number' || !Number.isInteger(o.count) || o.count < 1)
    throw new ParticleOptionError('count', o.count, 'must be a positive integer');
  if (typeof o.seed !== 'number' || !Number.isInteger(o.seed) || o.seed < 0 || o.seed > 0xffffffff)
    throw new ParticleOptionError('seed', o.seed, 'must be an integer from 0 to 2^32 - 1');
  if (!['auto', 'compute', 'pingpong', 'cpu'].includes(o.path))
    throw new ParticleOptionError('path', o.path, "must be 'auto', 'compute', 'pingpong' or 'cpu'");
  if (!['auto', 'instanced', 'pulled', 'splat'].includes(o.drawMode))
    throw new ParticleOptionError(
      'drawMode',
      o.drawMode,
      "must be 'auto', 'instanced', 'pulled' or 'splat'",
    );
  if (o.compact !== 'auto' && o.compact !== true && o.compact !== false)
    throw new ParticleOptionError('compact', o.compact, "must be 'auto', true or false");
  if (o.onRestore !== 'reseed' && o.onRestore !== 'last-read')
    throw new ParticleOptionError('onRestore', o.onRestore, "must be 'reseed' or 'last-read'");
}

/** Merges over the defaults and checks every value; throws `ParticleOptionError` naming the option. */
export function resolveOptions(input: ParticleOptionsInput = {}): ParticleOptions {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new ParticleOptionError('options', input, 'must be an object of particle options');
  const { modules: list, ...given } = input as ParticleOptionsInput & Record<string, unknown>;
  const entries = list === undefined ? null : readList(list, given);
  const flat: Record<string, unknown> = { ...given };
  if (entries) {
    const listed = new Set(entries.map((e) => e.def));
    for (const def of allModules())
      if (def.stage === 'update' && !listed.has(def)) Object.assign(flat, def.absent);
    for (const e of entries) Object.assign(flat, e.flat);
  }
  for (const key of ['emitter', 'turbulence', 'spriteSheet'] as const) {
    const v = flat[key];
    if (v !== undefined && (!v || typeof v !== 'object' || Array.isArray(v)))
      throw new ParticleOptionError(key, v, 'must be an object');
  }
  // a sub-emitter's capacity: each parent slot owns subEmitter.count slots
  const sub = flat['subEmitter'] as { parent?: { count?: unknown }; count?: unknown } | undefined;
  const per = sub?.count ?? 1;
  if (
    sub &&
    flat['count'] === undefined &&
    typeof sub.parent?.count === 'number' &&
    Number.isInteger(per) &&
    (per as number) >= 1
  )
    flat['count'] = sub.parent.count * (per as number);
  const o = {
    ...DEFAULT_OPTIONS,
    ...flat,
    emitter: { ...DEFAULT_OPTIONS.emitter, ...(flat['emitter'] as object | undefined) },
    turbulence: { ...DEFAULT_OPTIONS.turbulence, ...(flat['turbulence'] as object | undefined) },
    spriteSheet: { ...DEFAULT_OPTIONS.spriteSheet, ...(flat['spriteSheet'] as object | undefined) },
    bursts: flat['bursts'] === undefined ? [] : flat['bursts'],
    collision: flat['collision'] ?? null,
  } as ParticleOptions;
  checkSystem(o);
  // every module checks its options, in the stack or not: a flat value is checked even when it
  // leaves its module out (attractors: [] is checked as an array)
  const resolved = new Map<ParticleModuleDef, ModuleOptions>();
  for (const def of allModules()) {
    const own = def.resolve(o, entries?.find((e) => e.def === def)?.own ?? {});
    for (const key of def.keys) (o as unknown as Record<string, unknown>)[key] = own[key];
    resolved.set(def, own);
  }
  const blocker = o.drawMode === 'splat' ? splatBlocker(o) : null;
  if (blocker) throw new ParticleOptionError('drawMode', o.drawMode, blocker);
  let stack: ParticleModuleDef[];
  if (entries) {
    const listed = entries.map((e) => e.def);
    const updates = listed.filter((d) => d.stage === 'update');
    if (listed.includes(moduleDef('behavior')!) && updates.length > 1)
      throw new ParticleOptionError(
        'modules',
        updates.map((d) => d.name),
        'has a behavior, which replaces the update modules: give the behavior alone in the update stage',
      );
    entries.forEach((e, i) => {
      if (e.def.keys.length > 0 && !e.def.present(o))
        throw new ParticleOptionError(
          `modules[${i}]`,
          e.def.name,
          `has nothing to do with these options (${e.def.summary})`,
        );
    });
    stack = [
      ...allModules().filter((d) => d.stage === 'spawn' && d.present(o)),
      ...updates,
      ...allModules().filter((d) => d.stage === 'render' && d.present(o)),
    ];
  } else stack = allModules().filter((d) => d.present(o));
  const modules = stack.map((def): ParticleModule => ({
    module: def.name,
    stage: def.stage,
    options: resolved.get(def)!,
  }));
  // (before the kernel parts are asked for: a module's part may look at the stack)
  Object.defineProperty(o, 'modules', { value: modules, enumerable: false });
  // the state attributes modules add: one name each, none of the canonical two; a module's part
  // of the kernel may still refuse its options here (what only matters in the stack)
  const taken = new Map<string, string>([
    ['position', 'the state'],
    ['velocity', 'the state'],
  ]);
  for (const def of stack)
    for (const a of def.kernel?.(o, resolved.get(def)!).attributes ?? []) {
      const by = taken.get(a.name);
      if (by)
        throw new ParticleOptionError(
          'modules',
          def.name,
          `adds the state attribute ${a.name}, which ${by === 'the state' ? 'the state has' : `the ${by} module adds too`}`,
        );
      taken.set(a.name, def.name);
    }
  return o;
}

/**
 * The module list flat options make (`{ module, …options }` each): what `modules: [...]` takes, to
 * extend — `modules: [...particleModules(options), { module: 'vortex', strength: 3 }]`.
 */
export function particleModules(input: ParticleOptionsInput = {}): ParticleModuleInput[] {
  return resolveOptions(input).modules.map((m) => ({ module: m.module, ...m.options }));
}

/** Every module's checks against the device and the path (textures of this device, depth kinds). */
export function checkOnDevice(device: Device, o: ParticleOptions, path: ParticlePath): void {
  for (const def of allModules()) def.checkDevice?.(device, o, path);
}

/** The path for resolved options on a device, or the `path` option's error saying why not. */
export function pathFor(device: Device, options: ParticleOptions): PathChoice {
  try {
    return choosePath(device.caps, {
      path: options.path,
      hasCpu: true,
      attributes: stateAttributes(options).length,
      label: 'particle system',
    });
  } catch (e) {
    const why =
      e instanceof UnsupportedFeatureError
        ? `needs caps.features.${e.feature}, which is false on ${device.caps.backend}; ${e.fallback}`
        : (e as Error).message;
    throw new ParticleOptionError('path', options.path, why);
  }
}

/** `input` over a live system's options, as the door takes it (its module list updated, if any). */
export function mergeOptions(
  current: ParticleOptions,
  stored: readonly ParticleModuleInput[] | null,
  input: ParticleOptionsInput,
): ParticleOptions {
  const { modules: _modules, ...flat } = current;
  const given = { ...input } as Record<string, unknown>;
  let list = input.modules ? [...input.modules] : stored;
  if (list && !input.modules) {
    // flat options given to setOptions go to the listed module that owns them
    list = list.map((entry) => {
      const keys = (moduleDef(entry.module)?.keys ?? []) as readonly string[];
      const mine = Object.keys(given).filter((k) => keys.includes(k));
      if (mine.length === 0) return entry;
      const next: Record<string, unknown> = { ...entry };
      for (const k of mine) {
        const v = given[k];
        next[k] =
          k === 'emitter' || k === 'turbulence'
            ? { ...(next[k] as object | undefined), ...(v as object) }
            : v;
        delete given[k];
      }
      return next as ParticleModuleInput;
    });
  }
  return resolveOptions({
    ...flat,
    ...given,
    emitter: { ...current.emitter, ...(given['emitter'] as object | undefined) },
    turbulence: { ...current.turbulence, ...(given['turbulence'] as object | undefined) },
    ...(list ? { modules: list } : {}),
  } as ParticleOptionsInput);
}
