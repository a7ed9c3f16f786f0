// Types of entries.mjs (for vite.lib.config.ts).
export declare const ENTRIES: Readonly<Record<string, readonly [source: string, built: string]>>;
export declare const LIB_ENTRIES: Readonly<Record<string, string>>;
export declare function libraryAliases(
  root: string,
  built?: boolean,
): Array<{ find: RegExp; replacement: string }>;
