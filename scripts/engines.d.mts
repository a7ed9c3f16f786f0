// Types of engines.mjs (for the GPU tests and the scene kit's TypeScript users).
export declare const ENGINE_NAMES: readonly ['chromium', 'firefox', 'webkit'];
export type EngineName = (typeof ENGINE_NAMES)[number];
export type EngineStatus = { ok: true; executable: string } | { ok: false; reason: string };
export declare function ensureEngines(
  names: readonly string[],
  options?: { install?: boolean },
): Record<string, EngineStatus>;
export declare function startDisplay(): Promise<{ display: string; stop(): Promise<void> }>;
export declare function startWebKitDriver(
  env?: NodeJS.ProcessEnv,
  options?: { ms?: number },
): Promise<{ endpoint: string; process: import('node:child_process').ChildProcess; close(): void }>;
export interface EnginePage {
  errors: string[];
  setViewport(width: number, height: number): Promise<void>;
  goto(url: string): Promise<void>;
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
  waitFor(fn: () => unknown, timeoutMs: number): Promise<void>;
  screenshot(selector: string): Promise<Buffer>;
  drainErrors?(): Promise<void>;
  close(): Promise<void>;
}
export interface EngineBrowser {
  engine: string;
  version(): Promise<string>;
  newPage(): Promise<EnginePage>;
  close(): Promise<void>;
}
export declare function launchEngine(
  engine: string,
  options?: { display?: string; gpu?: boolean; extraFlags?: string[] },
): Promise<EngineBrowser>;
export declare function connectEngine(
  endpoint: string,
  options?: { engine?: string; capabilities?: Record<string, unknown> },
): Promise<EngineBrowser>;
export declare function engineVersion(engine: string): string;
export declare const FIREFOX_PREFS: Readonly<Record<string, boolean>>;
export declare function fromPuppeteer(browser: unknown): EngineBrowser;
export declare function isFromScript(message: { stackTrace(): unknown[] }): boolean;
