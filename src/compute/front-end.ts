/**
 * The WGSL front end (wgsl_reflect's parser and Ignis's emitters: portable/translate.ts), loaded
 * on demand. What translates a kernel, a reduction or a look synchronously asks `frontEnd()`;
 * the asynchronous doors in front of it (`createParticleSystem`, a reduction) `await
 * loadFrontEnd()` first, where their work will need it. A WebGPU device whose particles run as
 * compute with Ignis's own modules never loads it.
 */
type Translator = typeof import('./portable/translate.js');

let loaded: Translator | null = null;
let loading: Promise<Translator> | null = null;

/** Loads the front end (once; later calls get the same module). */
export function loadFrontEnd(): Promise<Translator> {
  return (loading ??= import('./portable/translate.js').then((m) => (loaded = m)));
}

/** The front end, loaded; an Error naming `what` needed it where it is not (a bug in a door above). */
export function frontEnd(what: string): Translator {
  if (!loaded)
    throw new Error(
      `${what} needs the WGSL front end, which is not loaded: await loadFrontEnd() (ignis-rhi/particles) first`,
    );
  return loaded;
}

/** Whether the front end is loaded (a door that would need it can say so before it starts). */
export function frontEndLoaded(): boolean {
  return loaded !== null;
}
