// The editor's panel, made from the effect file and its schema (schema/effect.schema.json): a
// folder per system, a folder per module with a control for each parameter the schema describes
// (numbers, vectors, colours, choices, switches, textures by name), and buttons to move, remove
// and add modules. Every change is an edit by JSON pointer, handed to `edit`.
import type { FolderApi, Pane } from 'tweakpane';
import schema from '../../schema/effect.schema.json';
import type { EffectFile } from '../../src/effects/index.js';
import { copy } from './document.js';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  $ref?: string;
};
const DEFS = (schema as unknown as { definitions: Record<string, Schema> }).definitions;

/** A schema with its $ref followed. */
const deref = (s: Schema | undefined): Schema | undefined =>
  s?.$ref ? DEFS[s.$ref.replace('#/definitions/', '')] : s;

/** Every module a file may list, in the schema's order. */
export const MODULE_NAMES = (deref({ $ref: '#/definitions/module' })!.properties!['module']!.enum ??
  []) as string[];

/** What "add module" puts in the list: the least each module needs to run. */
const TEMPLATES: Record<string, Record<string, unknown>> = {
  emission: { emitRate: 500 },
  gravity: { gravity: [0, -9.8, 0] },
  drag: { drag: 0.5 },
  turbulence: { turbulence: { strength: 2, frequency: 0.5 } },
  attractors: { attractors: [{ position: [0, 0, 0], strength: 6 }] },
  vortex: { center: [0, 0, 0], axis: [0, 1, 0], strength: 6, pull: 2, radius: 1 },
  tether: { strength: 8, damping: 1 },
  field: {
    min: [-6, -10, -6],
    max: [6, 6, 6],
    size: [12, 12, 12],
    curl: { frequency: 0.3, seed: 1 },
    strength: 4,
  },
  floor: { floorY: -8, bounce: { restitution: 0.4, friction: 0.2 } },
  colliders: { shapes: [{ shape: 'sphere', center: [0, -4, 0], radius: 1.5 }] },
  events: { events: 'death' },
  light: { light: { direction: [1, -1, -0.5] } },
  trail: { trail: { length: 16, width: [0.06, 0] } },
  link: { link: { width: [0.05, 0] } },
  billboard: { billboard: 'velocity', stretch: 0.3 },
  blend: { blending: 'alpha', sort: true },
  rotation: { rotation: [-3.14, 3.14], angularVelocity: [-1, 1] },
};

/** Modules that need more than a template can give (a mesh, a parent system, WGSL). */
const NOT_ADDABLE = new Set(['mesh', 'subEmitter', 'behavior', 'look', 'sprite']);

export interface PanelActions {
  edit(pointer: string, value: unknown, label: string): void;
}

/** The kinds of value a control shows, from the schema. */
function kindOf(s: Schema | undefined, value: unknown): string {
  s = deref(s);
  if (!s) return 'none';
  if (s.anyOf) {
    const live = s.anyOf.map(deref).find((b) => b && b.type !== 'null');
    if (value === null) return 'none';
    return kindOf(live, value);
  }
  if (s.enum) return 'enum';
  if (s.type === 'number' || s.type === 'integer') return 'number';
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'string') return 'string';
  if (s.type === 'object' && s.properties) return 'object';
  if (s.type === 'array') {
    const item = deref(s.items);
    if (item?.type === 'number' && s.maxItems === 4 && s.minItems === 4) return 'rgba';
    if (item?.type === 'number' && s.maxItems && s.maxItems <= 3) return 'vector';
    if (item?.type === 'array') return 'list';
  }
  return 'none';
}

const AXES = ['x', 'y', 'z'] as const;

/** A control for one value at `pointer` (its schema `s`), in `folder`. */
function control(
  folder: FolderApi,
  key: string,
  value: unknown,
  s: Schema | undefined,
  pointer: string,
  file: EffectFile,
  act: PanelActions,
): void {
  const kind = kindOf(s, value);
  const commit = (v: unknown) => act.edit(pointer, v, `${key}`);
  const onLast = <T>(
    binding: { on(e: 'change', f: (ev: { value: T; last: boolean }) => void): unknown },
    f: (v: T) => void,
  ) =>
    binding.on('change', (ev) => {
      if (ev.last) f(ev.value);
    });
  const d = deref(s);
  if (key === 'texture' || (kind === 'string' && d?.anyOf)) {
    const names = Object.keys(file.textures ?? {});
    const target = { [key]: (value as string | null) ?? '(none)' };
    const options = Object.fromEntries(['(none)', ...names].map((n) => [n, n]));
    onLast(folder.addBinding(target, key, { options }), (v: string) =>
      commit(v === '(none)' ? null : v),
    );
    return;
  }
  if (kind === 'enum') {
    const values = (d?.enum ??
      deref(d?.anyOf?.find((b) => deref(b)?.enum))?.enum ??
      []) as unknown[];
    const target = { [key]: JSON.stringify(value ?? null) };
    const options = Object.fromEntries(values.map((v) => [String(v), JSON.stringify(v)]));
    onLast(folder.addBinding(target, key, { options }), (v: string) => commit(JSON.parse(v)));
    return;
  }
  if (kind === 'number' && typeof value === 'number') {
    const target = { [key]: value };
    const live = d?.anyOf ? deref(d.anyOf.find((b) => deref(b)?.type !== 'null')) : d;
    onLast(
      folder.addBinding(target, key, {
        ...(live?.type === 'integer' ? { step: 1 } : {}),
        ...(live?.minimum !== undefined ? { min: live.minimum } : {}),
        ...(live?.maximum !== undefined ? { max: live.maximum } : {}),
      }),
      (v: number) => commit(v),
    );
    return;
  }
  if (kind === 'boolean' && typeof value === 'boolean') {
    onLast(folder.addBinding({ [key]: value }, key), (v: boolean) => commit(v));
    return;
  }
  if (kind === 'rgba' && Array.isArray(value)) {
    const [r = 0, g = 0, b = 0, a = 1] = value as number[];
    const target = { [key]: { r, g, b, a } };
    onLast(
      folder.addBinding(target, key, { color: { type: 'float' } }),
      (v: { r: number; g: number; b: number; a: number }) => commit([v.r, v.g, v.b, v.a]),
    );
    return;
  }
  if (kind === 'vector' && Array.isArray(value)) {
    const point = Object.fromEntries((value as number[]).map((x, i) => [AXES[i], x]));
    onLast(folder.addBinding({ [key]: point }, key), (v: Record<string, number>) =>
      commit((value as number[]).map((_x, i) => v[AXES[i]!])),
    );
    return;
  }
  if (kind === 'list' && Array.isArray(value)) {
    const item = deref(deref(s)?.items);
    value.forEach((v, i) => control(folder, `${key}[${i}]`, v, item, `${pointer}/${i}`, file, act));
    return;
  }
  if (kind === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const sub = folder.addFolder({ title: key, expanded: true });
    const props = deref(kindOf(s, value) === 'object' ? liveOf(s) : undefined)?.properties ?? {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      control(sub, k, v, props[k], `${pointer}/${k}`, file, act);
    return;
  }
  // what has no control here (a list of shapes, a mesh, WGSL code, null): shown, not edited
  folder.addBlade({
    view: 'text',
    label: key,
    parse: (v: string) => v,
    value: summary(value),
    disabled: true,
  } as never);
}

const liveOf = (s: Schema | undefined): Schema | undefined => {
  const d = deref(s);
  return d?.anyOf ? deref(d.anyOf.find((b) => deref(b)?.type !== 'null')) : d;
};

const summary = (v: unknown): string =>
  Array.isArray(v)
    ? `${v.length} values`
    : v === null
      ? 'off'
      : typeof v === 'object'
        ? '{…}'
        : String(v);

/** Fills `pane` (below its fixed folders) with the file's systems and modules. */
export function buildSystems(pane: Pane, file: EffectFile, act: PanelActions): FolderApi[] {
  const folders: FolderApi[] = [];
  file.systems.forEach((system, i) => {
    const at = `/systems/${i}`;
    const folder = pane.addFolder({ title: `system: ${system.name}`, expanded: i === 0 });
    folders.push(folder);
    const systemSchema = DEFS['system']!.properties!;
    for (const key of ['count', 'seed'] as const)
      if (system[key] !== undefined)
        control(folder, key, system[key], systemSchema[key], `${at}/${key}`, file, act);
    system.modules.forEach((m, j) => {
      const pointer = `${at}/modules/${j}`;
      const props = DEFS[`module-${m.module}`]?.properties ?? {};
      const sub = folder.addFolder({ title: m.module, expanded: false });
      for (const [key, value] of Object.entries(m)) {
        if (key === 'module') continue;
        control(sub, key, value, props[key], `${pointer}/${key}`, file, act);
      }
      const list = (): typeof system.modules => copy(system.modules);
      sub.addButton({ title: 'move up' }).on('click', () => {
        if (j === 0) return;
        const l = list();
        [l[j - 1], l[j]] = [l[j]!, l[j - 1]!];
        act.edit(`${at}/modules`, l, `move ${m.module} up`);
      });
      sub.addButton({ title: 'move down' }).on('click', () => {
        if (j === system.modules.length - 1) return;
        const l = list();
        [l[j + 1], l[j]] = [l[j]!, l[j + 1]!];
        act.edit(`${at}/modules`, l, `move ${m.module} down`);
      });
      sub.addButton({ title: 'remove' }).on('click', () => {
        const l = list();
        l.splice(j, 1);
        act.edit(`${at}/modules`, l, `remove ${m.module}`);
      });
    });
    const present = new Set(system.modules.map((m) => m.module));
    const addable = MODULE_NAMES.filter((n) => !present.has(n) && !NOT_ADDABLE.has(n));
    if (addable.length > 0) {
      const choice = { add: addable[0]! };
      folder.addBinding(choice, 'add', {
        options: Object.fromEntries(addable.map((n) => [n, n])),
        label: 'module',
      });
      folder.addButton({ title: 'add module' }).on('click', () => {
        act.edit(
          `${at}/modules`,
          [...system.modules, { module: choice.add, ...(TEMPLATES[choice.add] ?? {}) }],
          `add ${choice.add}`,
        );
      });
    }
  });
  return folders;
}
