// Runs one docs snippet (?snippet=/test-output/doc-pages/….ts) as the page's program, on the
// backend `?backend=` asks for: for 'webgl2' navigator.gpu is hidden first, so the snippet's
// `createDevice({ backend: 'auto' })` takes the fallback as it would in a browser without WebGPU.
// What happened is kept in window.__doc for tests/gpu/docs-run.gpu.test.ts: errors the page
// reported (in the page, so every engine can be asked), animation frames that ran, and whether
// the module's top level finished.
interface DocRun {
  settled: boolean;
  errors: string[];
  frames: number;
}
const run: DocRun = { settled: false, errors: [], frames: 0 };
(window as unknown as { __doc: DocRun }).__doc = run;

const describe = (e: unknown): string =>
  e instanceof Error ? `${e.name}: ${e.message}` : String(e);
addEventListener('error', (e) => run.errors.push(`uncaught ${describe(e.error ?? e.message)}`));
addEventListener('unhandledrejection', (e) => run.errors.push(`unhandled ${describe(e.reason)}`));
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  run.errors.push(`console.error ${args.map(describe).join(' ')}`);
  consoleError(...args);
};
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) =>
  raf((time) => {
    run.frames++;
    callback(time);
  });

const query = new URLSearchParams(location.search);
if (query.get('backend') === 'webgl2')
  Object.defineProperty(navigator, 'gpu', { value: undefined, configurable: true });
const snippet = query.get('snippet');
if (!snippet) run.errors.push('no ?snippet= given');
else
  import(/* @vite-ignore */ snippet).then(
    () => (run.settled = true),
    (e: unknown) => {
      run.errors.push(`the snippet threw ${describe(e)}`);
      run.settled = true;
    },
  );
