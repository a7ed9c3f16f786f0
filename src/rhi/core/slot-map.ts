import { MAX_BINDINGS_PER_BIND_GROUP } from './slots.js';

/**
 * What each slot holds, by slot number: a `ReadonlyMap` of its own for the maps a frame touches at
 * every draw (the pass's slot table, the backends' bound slots). Slots of group 0 (below
 * `MAX_BINDINGS_PER_BIND_GROUP`, the ones `setUniformBuffer` and friends fill) live in an array
 * indexed by slot: a `Map`'s get and set cost ~13 ns a pair in V8 where an array's cost ~4, and a
 * draw that binds its own uniform slice makes several. The other groups' slots live in a `Map`.
 * Iteration is by slot number, group 0 first.
 */
export class SlotMap<T> implements ReadonlyMap<number, T> {
  #zero: (T | undefined)[] = [];
  #zeroCount = 0;
  #rest: Map<number, T> | null = null;

  get size(): number {
    return this.#zeroCount + (this.#rest?.size ?? 0);
  }

  get(slot: number): T | undefined {
    return slot < MAX_BINDINGS_PER_BIND_GROUP ? this.#zero[slot] : this.#rest?.get(slot);
  }

  has(slot: number): boolean {
    return this.get(slot) !== undefined;
  }

  set(slot: number, value: T): this {
    if (slot < MAX_BINDINGS_PER_BIND_GROUP) {
      if (this.#zero[slot] === undefined) this.#zeroCount++;
      this.#zero[slot] = value;
    } else (this.#rest ??= new Map()).set(slot, value);
    return this;
  }

  delete(slot: number): boolean {
    if (slot >= MAX_BINDINGS_PER_BIND_GROUP) return this.#rest?.delete(slot) ?? false;
    if (this.#zero[slot] === undefined) return false;
    this.#zero[slot] = undefined;
    this.#zeroCount--;
    return true;
  }

  clear(): void {
    this.#zero = [];
    this.#zeroCount = 0;
    this.#rest = null;
  }

  *entries(): MapIterator<[number, T]> {
    for (let slot = 0; slot < this.#zero.length; slot++) {
      const value = this.#zero[slot];
      if (value !== undefined) yield [slot, value];
    }
    if (this.#rest) yield* [...this.#rest].sort((a, b) => a[0] - b[0]);
  }

  *keys(): MapIterator<number> {
    for (const [slot] of this.entries()) yield slot;
  }

  *values(): MapIterator<T> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[number, T]> {
    return this.entries();
  }

  forEach(callback: (value: T, slot: number, map: ReadonlyMap<number, T>) => void): void {
    for (const [slot, value] of this.entries()) callback(value, slot, this);
  }
}
