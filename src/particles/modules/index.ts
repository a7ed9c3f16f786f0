/**
 * Every particle module, in the order a stack runs them within each stage (a module list given as
 * `modules: [...]` orders the update stage itself). Adding a module: its file, and its line here.
 */
import type { ModuleOptions, ParticleModuleDef } from './module.js';
import type { ParticleOptions } from '../options.js';
import { emission } from './emission.js';
import { emitter } from './emitter.js';
import { velocity } from './velocity.js';
import { lifetime } from './lifetime.js';
import { behavior } from './behavior.js';
import { gravity } from './gravity.js';
import { attractors } from './attractors.js';
import { turbulence } from './turbulence.js';
import { vortex } from './vortex.js';
import { tether } from './tether.js';
import { drag } from './drag.js';
import { collision } from './collision.js';
import { floor } from './floor.js';
import { color } from './color.js';
import { size } from './size.js';
import { rotation } from './rotation.js';
import { billboard } from './billboard.js';
import { sprite } from './sprite.js';
import { look } from './look.js';
import { soft } from './soft.js';
import { blend } from './blend.js';

/** Every particle module, in stack order within each stage. */
export const MODULES: readonly ParticleModuleDef[] = [
  // spawn
  emission,
  emitter,
  velocity,
  lifetime,
  // update
  behavior,
  gravity,
  attractors,
  turbulence,
  vortex,
  tether,
  drag,
  collision,
  floor,
  // render
  color,
  size,
  rotation,
  billboard,
  sprite,
  look,
  soft,
  blend,
];

const BY_NAME = new Map(MODULES.map((m) => [m.name, m]));

/** The module called `name`, or undefined. */
export function moduleDef(name: string): ParticleModuleDef | undefined {
  return BY_NAME.get(name);
}

export type { ParticleModuleDef, KernelPart, ModuleOptions, ReferencePart } from './module.js';

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
