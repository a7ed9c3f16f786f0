/**
 * `ignis-rhi/kit`: the scene kit from a test file (Node only) — `renderOnEveryRung` runs a scene
 * module on every rung of the fallback ladder in headless Chromium, Firefox and WebKit (those
 * installed, or `browsers`), or in browsers running elsewhere (`connect`), as `npx ignis-check` does.
 * Needs the optional peers vite, puppeteer-core and pngjs.
 * @module ignis-rhi/kit
 */

/** A rung of the fallback ladder (check/rungs.ts). */
export type RungName = 'webgpu' | 'webgpu-no-compute' | 'webgl2' | 'webgl2-half-float' | 'cpu';
/** A browser engine the kit drives. */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** Options as ignis-check's command line takes them, camelCase; every one has a default. */
export interface RenderOnEveryRungOptions {
  /**
   * Rungs to run (default: all, webgpu first), each in every engine of `browsers`, or in one engine
   * (`'firefox:webgl2'`); the first that runs (Chromium's first rung) is the reference.
   */
  rungs?: ReadonlyArray<RungName | `${EngineName}:${RungName}`>;
  /** Engines to run in (default: those installed). */
  browsers?: ReadonlyArray<EngineName>;
  /**
   * Browsers already running elsewhere, instead of launching: `ws://…` (Chrome DevTools Protocol,
   * or WebDriver BiDi at `…/session`) or `http://…` (WebDriver: a Selenium Grid). Rungs are sharded
   * across the endpoints of each engine and merged into one report.
   */
  connect?: ReadonlyArray<string>;
  /** Frames before the screenshot (default 10). */
  frames?: number;
  /** Seconds per frame (default 1/60). */
  dt?: number;
  /** Canvas size in pixels (default 256 × 256). */
  width?: number;
  height?: number;
  /** The scene's params (default {}). */
  params?: Record<string, string | number>;
  /** A pixel differs when a channel is more than this many 255ths away (default 2). */
  tolerance?: number;
  /** Share of pixels allowed to differ (default 0.005). */
  maxDiff?: number;
  /** Largest difference allowed between `read()` states (default 1e-3). */
  stateTolerance?: number;
  /** Seconds a rung may take (default 60). */
  timeout?: number;
  /** Report folder (default: a new temporary folder). */
  out?: string;
  /** A hardware adapter instead of SwiftShader. */
  gpu?: boolean;
}

/** One rung's outcome. */
export interface RungResult {
  /** The engine it ran in. */
  engine: EngineName;
  /** `rung` in Chromium, `engine:rung` elsewhere. */
  label: string;
  rung: RungName;
  /** The backend the device had ('webgpu' | 'webgl2'), absent on an error. */
  backend?: string;
  /** What went wrong, naming the scene and the rung. */
  error?: string;
  /** Why the rung was skipped (the scene needs a feature the rung lacks). */
  skipped?: string;
  /** Pixels that differ from the first rung's image (absent on the first rung). */
  differing?: number;
  /** `differing` as a share of the image. */
  share?: number;
  pixelsOk?: boolean;
  /** Whether `read()` states agree (absent when the scene has no `read`). */
  stateOk?: boolean;
  /** The screenshot as PNG bytes (null when the rung did not run). */
  png: Uint8Array | null;
}

/** What `renderOnEveryRung` resolves to: the verdict, the report folder, each rung. */
export interface RenderOnEveryRungResult {
  status: 'ok' | 'mismatch' | 'error';
  /** The report folder: report.html, report.json, a PNG per rung and diff PNGs. */
  out: string;
  rungs: RungResult[];
}

/** Runs the scene module at `scene` (a path) on every rung, as `ignis-check` does. */
export declare function renderOnEveryRung(
  scene: string,
  options?: RenderOnEveryRungOptions,
): Promise<RenderOnEveryRungResult>;
