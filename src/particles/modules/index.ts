/**
 * Every particle module, in the order a stack runs them within each stage (a module list given as
 * `modules: [...]` orders the update stage itself). Adding a module: its file, and its line here.
 */
import type { ModuleOptions, ParticleModuleDef } from './module.js';
import type { ParticleOptions } from '../options.js';
import { ParticleOptionError } from '../errors.js';
import { emission } from './emission.js';
import { emitter } from './emitter.js';
import { velocity } from './velocity.js';
import { mesh } from './mesh.js';
import { lifetime } from './lifetime.js';
import { subEmitter } from './sub-emitter.js';
import { behavior } from './behavior.js';
import { gravity } from './gravity.js';
import { attractors } from './attractors.js';
import { turbulence } from './turbulence.js';
import { vortex } from './vortex.js';
import { tether } from './tether.js';
import { field } from './field.js';
import { drag } from './drag.js';
import { collision } from './collision.js';
import { floor } from './floor.js';
import { colliders } from './colliders.js';
import { events } from './events.js';
import { color } from './color.js';
import { size } from './size.js';
import { rotation } from './rotation.js';
import { billboard } from './billboard.js';
import { sprite } from './sprite.js';
import { look } from './look.js';
import { soft } from './soft.js';
import { light } from './light.js';
import { geometry } from './geometry.js';
import { blend } from './blend.js';
import { trail } from './trail.js';
import { link } from './link.js';

/** Every particle module, in stack order within each stage. */
export const MODULES: readonly ParticleModuleDef[] = [
  // spawn
  emission,
  emitter,
  velocity,
  mesh,
  lifetime,
  subEmitter,
  // update
  behavior,
  gravity,
  attractors,
  turbulence,
  vortex,
  tether,
  field,
  drag,
  collision,
  floor,
  colliders,
  events,
  // render
  color,
  size,
  rotation,
  billboard,
  sprite,
  look,
  light,
  soft,
  geometry,
  blend,
  trail,
  link,
];

const BY_NAME = new Map(MODULES.map((m) => [m.name, m]));
/** The built-in modules' names (BY_NAME also holds those registered). */
const BUILT_IN = new Set(MODULES.map((m) => m.name));
const REGISTERED: ParticleModuleDef[] = [];

/** The module called `name` (built in or registered), or undefined. */
export function moduleDef(name: string): ParticleModuleDef | undefined {
  return BY_NAME.get(name);
}

/**
 * Whether the stack of `o` runs code of yours — a behavior, a look or a registered module — which
 * the WGSL front end checks on every path (it runs translated on the others).
 */
export function hasUserCode(o: {
  readonly behavior: unknown;
  readonly look: unknown;
  readonly modules: ReadonlyArray<{ readonly module: string }>;
}): boolean {
  return o.behavior !== null || o.look !== null || o.modules.some((m) => !BUILT_IN.has(m.module));
}

/** Every module the door knows: the built-in ones, then those registered, in order. */
export function allModules(): readonly ParticleModuleDef[] {
  return REGISTERED.length === 0 ? MODULES : [...MODULES, ...REGISTERED];
}

/**
 * Adds a module of your own to those a module list may name (`{ module: 'wind', … }`): an
 * update-stage module defined with `defineModule` in your code — its options and checks, its
 * kernel part (one source for compute, the ping-pong and the CPU path's translation) and its
 * reference part. It owns no flat option, so it runs only when a list names it.
 */
export function registerParticleModule(def: ParticleModuleDef): void {
  const name = (def as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !/^[A-Za-z]\w*$/.test(name))
    throw new ParticleOptionError('module.name', name, 'must be an identifier');
  if (BY_NAME.has(name))
    throw new ParticleOptionError('module.name', name, 'is the name of a module already known');
  if (def.stage !== 'update')
    throw new ParticleOptionError(
      `${name}.stage`,
      def.stage,
      "must be 'update' (spawn and render modules are built in)",
    );
  if (!Array.isArray(def.keys) || def.keys.length > 0)
    throw new ParticleOptionError(
      `${name}.keys`,
      def.keys,
      'must be [] (a registered module owns no flat option: give its options in the module list)',
    );
  for (const fn of ['present', 'resolve'] as const)
    if (typeof def[fn] !== 'function')
      throw new ParticleOptionError(`${name}.${fn}`, def[fn], 'must be a function');
  BY_NAME.set(name, def);
  REGISTERED.push(def);
}

export { defineModule } from './module.js';
export type {
  ParticleModuleDef,
  KernelPart,
  ModuleOptions,
  ReferencePart,
  ReferenceParticle,
  ReferenceSpawn,
} from './module.js';

const STACKS = new WeakMap<
  ParticleOptions,
  Array<{ def: ParticleModuleDef; own: ModuleOptions }>
>();

/** The definitions of a resolved stack, with each module's options (made once per options object: read every step). */
export function stackOf(o: ParticleOptions): Array<{ def: ParticleModuleDef; own: ModuleOptions }> {
  let stack = STACKS.get(o);
  if (!stack) {
    stack = o.modules.map((m) => ({ def: moduleDef(m.module)!, own: m.options }));
    STACKS.set(o, stack);
  }
  return stack;
}
