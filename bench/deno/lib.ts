// The built library (npm run build) for the Deno benchmarks: every entry point of dist/ merged into
// one object, typed by the sources (a URL import, so the type check does not need dist/). The
// folder is $IGNIS_DIST (bench/deno-runner.mjs builds into one of its own; the variable may name
// that folder or its index.js) or the project's dist/.
declare const Deno: { env: { get(name: string): string | undefined } };

const env = Deno.env.get('IGNIS_DIST');
const base = env
  ? new URL(`file://${env.replace(/\/?(index\.js)?$/, '')}/`)
  : new URL('../../dist/', import.meta.url);
const entries = ['index', 'compute', 'portable', 'particles', 'postfx', 'testing'];
const modules = await Promise.all(entries.map((e) => import(new URL(`${e}.js`, base).href)));

export const lib = Object.assign({}, ...modules) as typeof import('../../src/all.js');
