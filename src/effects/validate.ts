/**
 * An effect file checked: its version (migrate.ts), then the published schema
 * (schema/effect.schema.json, compiled by ajv into schema-validate.js), then what a schema cannot
 * say — unique system names, parents listed before their children, textures and meshes that the
 * file names. Every problem is reported with its JSON pointer; the module's own checks (ranges
 * between options, a WGSL behaviour that compiles) come at load, the same way (load.ts).
 */
import { validate as schemaValidate, type SchemaProblem } from './schema-validate.js';
import { migrateEffect } from './migrate.js';
import { EffectError, pointerToken, type EffectProblem } from './errors.js';
import type { EffectFile } from './format.js';

/** ajv's problems as the file's: one per place, the noise of `anyOf` and `if` folded in. */
function problemsOf(errors: readonly SchemaProblem[]): EffectProblem[] {
  const out: EffectProblem[] = [];
  let pending: SchemaProblem[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    if (e.keyword !== 'anyOf') {
      pending.push(e);
      continue;
    }
    // the branches of this anyOf came just before it: a deeper one says what is wrong; otherwise
    // the branches' messages together ("must be >= 0 or must be null")
    const prefix = `${e.schemaPath}/`;
    const branches = pending.filter(
      (b) => b.schemaPath.startsWith(prefix) && b.instancePath.startsWith(e.instancePath),
    );
    pending = pending.filter((b) => !branches.includes(b));
    // a branch whose kind the value has (an object where null or an object may be) says more
    // than the branches of other kinds ("must be null")
    const deeper = branches.filter(
      (b) => b.instancePath !== e.instancePath || b.keyword === 'additionalProperties',
    );
    const ofKind = branches.filter((b) => b.keyword !== 'type');
    if (deeper.length > 0) pending.push(...deeper);
    else if (ofKind.length > 0 && ofKind.length < branches.length) pending.push(...ofKind);
    else
      pending.push({
        ...e,
        message: [...new Set(branches.map((b) => messageOf(b)))].join(' or '),
        keyword: 'anyOf-folded',
      });
  }
  for (const e of pending) {
    const extra =
      e.keyword === 'additionalProperties' ? String(e.params['additionalProperty']) : null;
    out.push({
      pointer: extra === null ? e.instancePath : `${e.instancePath}/${pointerToken(extra)}`,
      message: extra === null ? messageOf(e) : 'is not a field here (the schema does not have it)',
    });
  }
  return out;
}

function messageOf(e: SchemaProblem): string {
  if (e.keyword === 'enum')
    return `must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return e.message ?? e.keyword;
}

/** What the schema cannot check: names unique, parents before children, named textures and meshes there. */
function crossProblems(file: EffectFile): EffectProblem[] {
  const out: EffectProblem[] = [];
  const seen = new Map<string, number>();
  file.systems.forEach((system, i) => {
    if (seen.has(system.name))
      out.push({
        pointer: `/systems/${i}/name`,
        message: `is "${system.name}", the name of system ${seen.get(system.name)} too: names must be unique`,
      });
    system.modules.forEach((m, j) => {
      const at = `/systems/${i}/modules/${j}`;
      const textureAt = (name: unknown, where: string): void => {
        if (typeof name === 'string' && !file.textures?.[name])
          out.push({
            pointer: `${at}${where}`,
            message: `names the texture "${name}", which the file's textures do not have (${Object.keys(file.textures ?? {}).join(', ') || 'none'})`,
          });
      };
      const entry = m as Record<string, unknown>;
      if (m.module === 'sprite') textureAt(entry['texture'], '/texture');
      for (const ribbon of ['trail', 'link'])
        if (m.module === ribbon && entry[ribbon])
          textureAt((entry[ribbon] as Record<string, unknown>)['texture'], `/${ribbon}/texture`);
      if (m.module === 'light' && entry['light'])
        textureAt((entry['light'] as Record<string, unknown>)['normalMap'], '/light/normalMap');
      for (const key of ['mesh', 'geometry'])
        if (m.module === key && !file.meshes?.[entry[key] as string])
          out.push({
            pointer: `${at}/${key}`,
            message: `names the mesh "${String(entry[key])}", which the file's meshes do not have (${Object.keys(file.meshes ?? {}).join(', ') || 'none'})`,
          });
      if (m.module === 'subEmitter') {
        const parent = (entry['subEmitter'] as { parent: string }).parent;
        const index = seen.get(parent);
        if (index === undefined)
          out.push({
            pointer: `${at}/subEmitter/parent`,
            message: file.systems.some((s) => s.name === parent)
              ? `is "${parent}", listed after this system: a parent comes first (it updates first)`
              : `is "${parent}", which is not a system of the file (${file.systems.map((s) => s.name).join(', ')})`,
          });
      }
    });
    if (!seen.has(system.name)) seen.set(system.name, i);
  });
  return out;
}

/**
 * `doc` as a valid effect file of the current version (migrated if older), or an EffectError
 * listing every problem with its JSON pointer. `doc` is not changed.
 */
export function validateEffect(doc: unknown): EffectFile {
  const file = migrateEffect(doc);
  if (!schemaValidate(file)) throw new EffectError(problemsOf(schemaValidate.errors ?? []));
  const typed = file as unknown as EffectFile;
  const cross = crossProblems(typed);
  if (cross.length > 0) throw new EffectError(cross);
  return typed;
}
