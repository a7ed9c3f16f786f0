// Types of package-facts.mjs (for tests/gpu/pack.gpu.test.ts).
export interface EntrySize {
  entry: string;
  files: string[];
  bytes: number;
  gzipBytes: number;
  /** What the entry's dynamic imports load later, on demand. */
  lazy: { files: string[]; bytes: number; gzipBytes: number };
}
export declare const PARTICLE_APP: string[];
export declare function moduleGraph(dist: string, file: string, seen?: Set<string>): Set<string>;
export declare function lazyGraph(dist: string, files: Iterable<string>): Set<string>;
export declare function entrySizes(dist?: string): EntrySize[];
export declare function tarballFiles(cwd?: string): string[];
export declare function frontEndFiles(dist: string, files: string[], from?: string[]): string[];
export declare function factsSection(sizes: EntrySize[], files: string[], dist?: string): string;
export declare function factsDrift(readme: string, section: string): string[];
export declare function withFacts(readme: string, section: string): string;
