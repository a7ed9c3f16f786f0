/**
 * `loadEffect`: an effect file (an object, its JSON text, or a URL) checked (validate.ts), its
 * textures decoded and its meshes read, and each system created in order — a sub-emitter given
 * the system its `parent` names. Every problem is an EffectError with the JSON pointer of the
 * value at fault, the modules' own checks included.
 */
import type { Device } from '../rhi/core/device.js';
import type { Texture } from '../rhi/core/texture.js';
import { createParticleSystem, type ParticleSystem } from '../particles/system.js';
import { ParticleOptionError } from '../particles/errors.js';
import type {
  ParticleModuleInput,
  ParticleOptionsInput,
  ParticlePath,
  DrawMode,
} from '../particles/options.js';
import { EffectError, pointerToken } from './errors.js';
import { Effect } from './effect.js';
import type { EffectSystemFile } from './format.js';
import { optionPointer, plainMessage } from './pointer.js';
import { pngTexture } from './image.js';
import { validateEffect } from './validate.js';

/** How `loadEffect` reads and what it changes for every system. */
export interface LoadEffectOptions {
  /** Where a texture's relative URL starts (default: the effect's URL when loaded from one, else the page's). */
  baseUrl?: string | URL;
  /** Reads a URL's bytes (default: `fetch`); give one where fetch cannot (a `file:` URL in Node). */
  read?: (url: URL) => Promise<Uint8Array>;
  /** Every system on this path instead of the file's (the editor's path switch). */
  path?: 'auto' | ParticlePath;
  /** Every system drawn in this mode instead of the file's. */
  drawMode?: 'auto' | DrawMode;
}

const SYSTEM_KEYS = ['count', 'seed', 'path', 'drawMode', 'compact', 'onRestore'];

async function fetchBytes(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** A mesh module entry's placement and motion, beside the mesh's name (the mesh's own options). */
const MESH_MOTION = ['transform', 'velocity', 'angularVelocity'];

/** The pointer in the file of a particle option a system's door refused. */
function pointerOf(system: EffectSystemFile, i: number, option: string): string {
  const at = `/systems/${i}`;
  const head = /^[^.[]*/.exec(option)![0];
  // a mesh's values are in the file's meshes (inline; one from a URL: at its url)
  const mesh = system.modules.find((m) => m.module === 'mesh')?.['mesh'];
  // a placement's values are the module entry's own
  const motion = /^mesh\.(\w+)/.exec(option)?.[1];
  if (motion && MESH_MOTION.includes(motion)) {
    const j = system.modules.findIndex((m) => m.module === 'mesh');
    return `${at}/modules/${j}${optionPointer(option.slice(5))}`;
  }
  if (head === 'mesh' && typeof mesh === 'string')
    return `/meshes/${pointerToken(mesh)}${option === 'mesh' ? '' : optionPointer(option.slice(5))}`;
  // the geometry module's mesh: its values are the file's mesh's too
  const shape = system.modules.find((m) => m.module === 'geometry')?.['geometry'];
  if (head === 'geometry' && option !== 'geometry' && typeof shape === 'string')
    return `/meshes/${pointerToken(shape)}${optionPointer(option.slice(9))}`;
  if (SYSTEM_KEYS.includes(head)) return `${at}${optionPointer(option)}`;
  if (head === 'modules') return `${at}${optionPointer(option)}`;
  let j = system.modules.findIndex((m) => head in m && head !== 'module');
  if (j >= 0) return `${at}/modules/${j}${optionPointer(option)}`;
  j = system.modules.findIndex((m) => m.module === head);
  if (j >= 0) return `${at}/modules/${j}${optionPointer(option.slice(head.length + 1))}`;
  return at;
}

/** A system's module list with the file's names made into what the door takes. */
function modulesFor(
  system: EffectSystemFile,
  textures: ReadonlyMap<string, Texture>,
  meshes: ReadonlyMap<string, unknown>,
  made: ReadonlyMap<string, ParticleSystem>,
): ParticleModuleInput[] {
  const texture = (name: unknown): Texture | null =>
    typeof name === 'string' ? textures.get(name)! : null;
  return system.modules.map((m) => {
    const entry: Record<string, unknown> = { ...m };
    if (m.module === 'sprite' && 'texture' in entry) entry['texture'] = texture(entry['texture']);
    for (const ribbon of ['trail', 'link'])
      if (m.module === ribbon && entry[ribbon] && 'texture' in (entry[ribbon] as object)) {
        const r = entry[ribbon] as Record<string, unknown>;
        entry[ribbon] = { ...r, texture: texture(r['texture']) };
      }
    if (m.module === 'light' && entry['light'] && 'normalMap' in (entry['light'] as object)) {
      const l = entry['light'] as Record<string, unknown>;
      entry['light'] = { ...l, normalMap: texture(l['normalMap']) };
    }
    if (m.module === 'geometry') {
      // the file's mesh, drawn as each particle (in the particle's colour: vertex colours tint births)
      const { colors: _colors, ...shape } = meshes.get(entry['geometry'] as string) as Record<
        string,
        unknown
      >;
      entry['geometry'] = shape;
    }
    if (m.module === 'mesh') {
      // the file's mesh (an emission surface: no normals; its colours tint the births), placed and
      // moving as the entry says
      const { normals: _normals, ...surface } = meshes.get(entry['mesh'] as string) as Record<
        string,
        unknown
      >;
      const placed: Record<string, unknown> = { ...surface };
      for (const key of MESH_MOTION)
        if (key in entry) {
          placed[key] = entry[key];
          delete entry[key];
        }
      entry['mesh'] = placed;
    }
    if (m.module === 'subEmitter') {
      const s = entry['subEmitter'] as Record<string, unknown>;
      entry['subEmitter'] = { ...s, parent: made.get(s['parent'] as string) };
    }
    return entry as ParticleModuleInput;
  });
}

/**
 * Loads an effect: `source` is an effect file (an object or its JSON text) or the URL of one.
 * Resolves to an Effect whose systems are created and compiled; rejects with an EffectError
 * naming the value at fault by its JSON pointer (nothing is left on the device then).
 */
export async function loadEffect(
  device: Device,
  source: unknown,
  options: LoadEffectOptions = {},
): Promise<Effect> {
  const read = options.read ?? fetchBytes;
  let doc = source;
  let base: URL | undefined = options.baseUrl
    ? new URL(options.baseUrl, globalThis.location?.href)
    : undefined;
  if (
    source instanceof URL ||
    (typeof source === 'string' && !source.trimStart().startsWith('{'))
  ) {
    const url = new URL(source, globalThis.location?.href);
    base ??= url;
    let text: string;
    try {
      text = new TextDecoder().decode(await read(url));
    } catch (e) {
      throw new EffectError([
        { pointer: '', message: `could not be read from ${url.href}: ${(e as Error).message}` },
      ]);
    }
    doc = text;
  }
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch (e) {
      throw new EffectError([{ pointer: '', message: `is not JSON: ${(e as Error).message}` }]);
    }
  }
  const file = validateEffect(doc);
  const textures = new Map<string, Texture>();
  const made = new Map<string, ParticleSystem>();
  const name = file.name ?? 'effect';
  try {
    for (const [key, texture] of Object.entries(file.textures ?? {})) {
      const at = `/textures/${pointerToken(key)}/url`;
      let bytes: Uint8Array;
      let url: URL;
      try {
        url = new URL(texture.url, base);
      } catch {
        throw new EffectError(
          [
            {
              pointer: at,
              message: `is "${texture.url}", which is not a URL (a relative one needs baseUrl or an effect loaded from a URL)`,
            },
          ],
          name,
        );
      }
      try {
        bytes = await read(url);
      } catch (e) {
        throw new EffectError(
          [
            {
              pointer: at,
              message: `could not be read (${url.href.slice(0, 80)}): ${(e as Error).message}`,
            },
          ],
          name,
        );
      }
      try {
        textures.set(key, pngTexture(device, `${name}: ${key}`, bytes));
      } catch (e) {
        throw new EffectError(
          [{ pointer: at, message: `is not a PNG Ignis reads: ${(e as Error).message}` }],
          name,
        );
      }
    }
    const meshes = new Map<string, unknown>();
    for (const [key, mesh] of Object.entries(file.meshes ?? {})) {
      if (!('url' in mesh)) {
        meshes.set(key, {
          positions: mesh.positions,
          indices: mesh.indices ?? null,
          normals: mesh.normals ?? null,
          ...(mesh.colors ? { colors: mesh.colors } : {}),
        });
        continue;
      }
      const at = `/meshes/${pointerToken(key)}/url`;
      let data: unknown;
      try {
        data = JSON.parse(new TextDecoder().decode(await read(new URL(mesh.url, base))));
      } catch (e) {
        throw new EffectError(
          [{ pointer: at, message: `could not be read as a mesh's JSON: ${(e as Error).message}` }],
          name,
        );
      }
      const { positions, indices, normals, colors } = (data ?? {}) as {
        positions?: unknown;
        indices?: unknown;
        normals?: unknown;
        colors?: unknown;
      };
      if (
        !Array.isArray(positions) ||
        (indices !== undefined && !Array.isArray(indices)) ||
        (normals !== undefined && !Array.isArray(normals)) ||
        (colors !== undefined && !Array.isArray(colors))
      )
        throw new EffectError(
          [
            {
              pointer: at,
              message:
                'names a file that is not { positions: [...], indices?: [...], normals?: [...], colors?: [...] }',
            },
          ],
          name,
        );
      meshes.set(key, {
        positions,
        indices: indices ?? null,
        normals: normals ?? null,
        ...(colors ? { colors } : {}),
      });
    }
    for (const [i, system] of file.systems.entries()) {
      const input: Record<string, unknown> = {};
      for (const key of SYSTEM_KEYS)
        if (key in system) input[key] = (system as unknown as Record<string, unknown>)[key];
      if (options.path) input['path'] = options.path;
      if (options.drawMode) input['drawMode'] = options.drawMode;
      input['modules'] = modulesFor(system, textures, meshes, made);
      try {
        made.set(system.name, await createParticleSystem(device, input as ParticleOptionsInput));
      } catch (e) {
        if (e instanceof ParticleOptionError)
          throw new EffectError(
            [{ pointer: pointerOf(system, i, e.option), message: plainMessage(e) }],
            name,
          );
        throw e;
      }
    }
  } catch (e) {
    for (const system of [...made.values()].reverse()) system.destroy();
    for (const texture of textures.values()) texture.destroy();
    throw e;
  }
  return new Effect(file, made, [...textures.values()]);
}
