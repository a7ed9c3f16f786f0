/**
 * A map of backend objects keyed by string and indexed by the resource ids each one depends on, so
 * that destroying a resource evicts (and releases) every object built from it. Used for WebGPU bind
 * groups and WebGL2 framebuffers and vertex arrays.
 */
export class ResourceCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #byResource = new Map<number, Set<string>>();
  /** Entries created so far (a steady frame adds none). */
  created = 0;

  constructor(private readonly release: (value: V) => void = () => {}) {}

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Adds `value` under `key`, depending on the resources with ids `dependsOn`; returns it. */
  set(key: string, value: V, dependsOn: Iterable<number>): V {
    this.#entries.set(key, value);
    this.created++;
    for (const id of dependsOn) {
      let keys = this.#byResource.get(id);
      if (!keys) this.#byResource.set(id, (keys = new Set()));
      keys.add(key);
    }
    return value;
  }

  /** Releases every entry built from resource `id`; returns how many. */
  evict(id: number): number {
    const keys = this.#byResource.get(id);
    if (!keys) return 0;
    for (const k of keys) {
      const v = this.#entries.get(k);
      if (v !== undefined) this.release(v);
      this.#entries.delete(k);
    }
    this.#byResource.delete(id);
    return keys.size;
  }

  clear(): void {
    for (const v of this.#entries.values()) this.release(v);
    this.#entries.clear();
    this.#byResource.clear();
  }
}
