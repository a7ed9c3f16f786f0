/** A node of a cache's index by numbers: the next number of a path, and the entry at its end. */
interface PathNode<V> {
  readonly next: Map<number, PathNode<V>>;
  value: V | undefined;
}

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
  /** The same entries found by a path of numbers (see `walk`); emptied by every eviction. */
  readonly #paths: PathNode<V> = { next: new Map(), value: undefined };
  #at: PathNode<V> | undefined;
  #making = false;

  constructor(private readonly release: (value: V) => void = () => {}) {}

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /**
   * Starts a lookup by a path of numbers that names an entry as its string key does (resource ids,
   * offsets, sizes…): `walk(false)`, then `step(n)` for each number, then `found()`. No key string
   * is built and nothing is allocated, which is what a lookup made for every draw needs. After a
   * miss, `get`/`set` by the string key, then `walk(true)`, the same steps, and `keep(value)`.
   */
  walk(make: boolean): this {
    this.#at = this.#paths;
    this.#making = make;
    return this;
  }

  /** The next number of the path being walked. */
  step(n: number): this {
    const at = this.#at;
    if (!at) return this;
    let next = at.next.get(n);
    if (!next && this.#making) at.next.set(n, (next = { next: new Map(), value: undefined }));
    this.#at = next;
    return this;
  }

  /** The entry at the end of the path walked (undefined when none was kept there). */
  found(): V | undefined {
    return this.#at?.value;
  }

  /** Keeps `value` at the end of the path walked with `walk(true)` (it must be in the cache). */
  keep(value: V): void {
    if (this.#at) this.#at.value = value;
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
    // the index by numbers only shortcuts the string keys: forgetting it all is simpler than pruning
    this.#paths.next.clear();
    this.#paths.value = undefined;
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
    this.#paths.next.clear();
    this.#paths.value = undefined;
  }
}
