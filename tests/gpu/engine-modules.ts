// Which case modules (tests/gpu/cases/) run in Firefox and WebKit besides Chromium, which runs
// them all. docs/testing.md ("Three engines") says why each is in or out.
const ALL = [
  'buffers',
  'textures',
  'render',
  'bind-groups',
  'render-bundles',
  'compute',
  'equality',
  'elementwise',
  'particles',
  'emission',
  'mesh',
  'sprites',
  'light',
  'geometry',
  'sort',
  'collision',
  'colliders',
  'field',
  'effects',
  'postfx',
  'portable',
  'portable-world',
  'modules',
  'trails',
  'events',
  'living',
  'vertex-formats',
  'boids',
  'lifecycle',
  'soak',
] as const;

export const ENGINE_MODULES: Record<'firefox' | 'webkit', readonly string[]> = {
  firefox: ALL,
  webkit: ALL,
};
