/**
 * A loaded effect: its particle systems, updated parents first and drawn in the file's order, and
 * the document they were made from (`toJSON()`).
 */
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { Texture } from '../rhi/core/texture.js';
import type { Camera } from '../particles/draw.js';
import type { ParticleSystem } from '../particles/system.js';
import { EffectError } from './errors.js';
import type { EffectCamera, EffectFile } from './format.js';

/** A deep copy of plain JSON data, frozen. */
function frozenCopy<T>(value: T): T {
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) return Object.freeze(v.map(copy));
    if (v && typeof v === 'object')
      return Object.freeze(
        Object.fromEntries(
          Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, copy(x)]),
        ),
      );
    return v;
  };
  return copy(value) as T;
}

/** An effect (`loadEffect`): one or more particle systems with one update, one draw and one destroy. */
export class Effect {
  readonly #file: EffectFile;
  readonly #systems: ReadonlyMap<string, ParticleSystem>;
  readonly #textures: readonly Texture[];
  #destroyed = false;

  /** @internal made by loadEffect */
  constructor(
    file: EffectFile,
    systems: ReadonlyMap<string, ParticleSystem>,
    textures: readonly Texture[],
  ) {
    this.#file = frozenCopy(file);
    this.#systems = systems;
    this.#textures = textures;
  }

  /** The file's name (empty when it has none). */
  get name(): string {
    return this.#file.name ?? '';
  }

  /** How the file frames the effect (orbitCamera's options; {} when it says nothing). */
  get camera(): Readonly<EffectCamera> {
    return this.#file.camera ?? {};
  }

  /** The systems in the file's order (parents before their sub-emitters). */
  get systems(): readonly ParticleSystem[] {
    return [...this.#systems.values()];
  }

  /** The system called `name` in the file. */
  system(name: string): ParticleSystem {
    const system = this.#systems.get(name);
    if (!system)
      throw new EffectError(
        [
          {
            pointer: '/systems',
            message: `has no system "${name}" (it has ${[...this.#systems.keys()].join(', ')})`,
          },
        ],
        this.name || 'effect',
      );
    return system;
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** Records every system's update of `dt` seconds, parents first (sub-emitters read their events). */
  update(encoder: CommandEncoder, dt: number): void {
    for (const system of this.#systems.values()) system.update(encoder, dt);
  }

  /** Every system's `prepareDraw` (sorts, splats): after `update`, before the pass. */
  prepareDraw(
    encoder: CommandEncoder,
    camera: Camera,
    target: { readonly width: number; readonly height: number },
  ): void {
    for (const system of this.#systems.values()) system.prepareDraw(encoder, camera, target);
  }

  /** Draws every system into `pass`, in the file's order. */
  draw(pass: RenderPass, camera: Camera): void {
    for (const system of this.#systems.values()) system.draw(pass, camera);
  }

  /** The systems (children first) and the textures the file made. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const system of [...this.#systems.values()].reverse()) system.destroy();
    for (const texture of this.#textures) texture.destroy();
  }

  /**
   * The effect file it was made from, at the current version (an older file migrated), frozen:
   * `stringifyEffect(effect.toJSON())` is the file Ignis would write, byte for byte the shipped
   * effects' (effects/*.json).
   */
  toJSON(): EffectFile {
    return this.#file;
  }
}
