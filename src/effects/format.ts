/**
 * The effect file (docs/effects.md): JSON with a version, validated by schema/effect.schema.json.
 * An effect is a list of particle systems, each a module list — what `modules: [...]` takes in
 * code — with textures and meshes named once at the top and used by name, and a sub-emitter's
 * parent named by its system's name.
 */
import type { ParticleModuleInput, ParticlePath, DrawMode } from '../particles/options.js';

/** The version this Ignis writes and reads; older files load through a migration (migrate.ts). */
export const EFFECT_VERSION = 1;

/** A system of an effect file: its name, the system's own options, and its module list. */
export interface EffectSystemFile {
  /** Unique in the file; a sub-emitter's `parent` names it. */
  name: string;
  count?: number;
  seed?: number;
  path?: 'auto' | ParticlePath;
  drawMode?: 'auto' | DrawMode;
  compact?: 'auto' | boolean;
  onRestore?: 'reseed' | 'last-read';
  /** The modules, as in code, with texture, mesh and parent given by name. */
  modules: ParticleModuleInput[];
}

/** An image: a PNG at a URL (relative to the effect file) or inline as a `data:image/png` URL. */
export interface EffectTextureFile {
  url: string;
}

/**
 * A triangle mesh: x, y, z per vertex, three indices per triangle (none: consecutive triples) and,
 * for the geometry module, optionally x, y, z of a normal per vertex (none: each triangle flat);
 * inline, or `{ url }` of a JSON file holding the same (relative to the effect file).
 */
export type EffectMeshFile =
  | { positions: number[]; indices?: number[]; normals?: number[]; colors?: number[] }
  | { url: string };

/** How the effect is framed in the editor and the gallery (orbitCamera's options). */
export interface EffectCamera {
  distance?: number;
  target?: [number, number, number];
  yaw?: number;
  pitch?: number;
  fov?: number;
}

/** An effect file of the current version. */
export interface EffectFile {
  $schema?: string;
  version: typeof EFFECT_VERSION;
  name?: string;
  description?: string;
  camera?: EffectCamera;
  textures?: Record<string, EffectTextureFile>;
  meshes?: Record<string, EffectMeshFile>;
  systems: EffectSystemFile[];
}

/**
 * The text of an effect file as Ignis writes it: JSON indented by two spaces, an array of plain
 * values (a vector, a colour, a mesh's positions) on one line, and a final newline. The shipped
 * effects (effects/*.json) are written this way, so `stringifyEffect(effect.toJSON())` gives
 * their bytes back.
 */
export function stringifyEffect(file: EffectFile): string {
  return `${write(file, '')}\n`;
}

function write(value: unknown, pad: string): string {
  const inner = `${pad}  `;
  if (Array.isArray(value)) {
    if (value.every((x) => x === null || typeof x !== 'object'))
      return `[${value.map((x) => JSON.stringify(x ?? null)).join(', ')}]`;
    return `[\n${value.map((x) => `${inner}${write(x, inner)}`).join(',\n')}\n${pad}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${write(x, inner)}`).join(',\n')}\n${pad}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
