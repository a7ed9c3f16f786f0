import { MissingBarrierError } from './errors.js';
import type { BarrierScope } from './commands.js';

/** Anything a pass can read or write: a buffer or a texture (only id and label matter here). */
export interface TrackedResource {
  readonly id: number;
  readonly label: string;
  readonly kind: string;
}

/** The last write of a resource (updated in place: tracking runs for every pass of every frame). */
interface WriteRecord {
  passIndex: number;
  passLabel: string;
  scope: BarrierScope;
}

interface BarrierRecord {
  readonly afterPass: number;
  readonly from: BarrierScope;
  readonly to: BarrierScope;
  /** Ids of the resources the barrier names; undefined covers every resource. */
  readonly resources: ReadonlySet<number> | undefined;
}

export interface Hazard {
  readonly resource: TrackedResource;
  readonly from: BarrierScope;
  readonly to: BarrierScope;
}

/**
 * Read-after-write tracking across the passes of one command encoder. A pass that reads a resource
 * an earlier pass wrote needs a barrier from the write's scope to the read's scope recorded between
 * the two. In `auto` mode the encoder inserts it; in `explicit` mode a missing one is a
 * `MissingBarrierError` naming the resource and both passes — the bug that flickers on GLES drivers
 * and never on Metal. Submissions are ordered, so tracking starts fresh in every encoder.
 */
export class HazardTracker {
  readonly #lastWrite = new Map<number, WriteRecord>();
  /**
   * This pass's writes, resource id and scope side by side, the first `#pendingCount` of them: a
   * pass writes a handful, and reused arrays allocate nothing where a Map's clear() would (or an
   * array emptied by its length), every pass of every frame.
   */
  readonly #pendingIds: number[] = [];
  readonly #pendingScopes: BarrierScope[] = [];
  #pendingCount = 0;
  readonly #barriers: BarrierRecord[] = [];
  #passCount = 0;
  #currentLabel = '';

  get passCount(): number {
    return this.#passCount;
  }

  beginPass(label: string): void {
    this.#currentLabel = label;
  }

  /** Records a barrier declared (or inserted) now, between passes. */
  barrier(
    from: BarrierScope,
    to: BarrierScope,
    resources: readonly TrackedResource[] | undefined,
  ): void {
    this.#barriers.push({
      afterPass: this.#passCount,
      from,
      to,
      resources: resources ? new Set(resources.map((r) => r.id)) : undefined,
    });
  }

  /**
   * A read in the current pass, in any of `scopes` (a uniform read in a render pass is both
   * vertex-read and fragment-read). Returns the hazard when no barrier covers it, else undefined.
   */
  read(resource: TrackedResource, scopes: readonly BarrierScope[]): Hazard | undefined {
    const write = this.#lastWrite.get(resource.id);
    if (!write) return undefined;
    // a loop, not some(): this runs for every bound resource of every draw
    const barriers = this.#barriers;
    for (let i = barriers.length - 1; i >= 0; i--) {
      const b = barriers[i] as BarrierRecord;
      if (b.afterPass <= write.passIndex) break; // recorded in order: the rest are older
      if (
        b.from === write.scope &&
        scopes.includes(b.to) &&
        (b.resources === undefined || b.resources.has(resource.id))
      )
        return undefined;
    }
    return { resource, from: write.scope, to: scopes[0] as BarrierScope };
  }

  /** Throws the explicit-mode error for a hazard. */
  fail(hazard: Hazard): never {
    const write = this.#lastWrite.get(hazard.resource.id);
    const name = `${hazard.resource.kind} "${hazard.resource.label || `#${hazard.resource.id}`}"`;
    throw new MissingBarrierError(
      name,
      write?.passLabel ?? '?',
      this.#currentLabel,
      hazard.from,
      hazard.to,
    );
  }

  /** A write in the current pass; it becomes visible to later passes when the pass ends. */
  write(resource: TrackedResource, scope: BarrierScope): void {
    const ids = this.#pendingIds;
    let at = 0;
    while (at < this.#pendingCount && ids[at] !== resource.id) at++;
    ids[at] = resource.id;
    this.#pendingScopes[at] = scope;
    if (at === this.#pendingCount) this.#pendingCount++;
  }

  endPass(): void {
    const passIndex = this.#passCount;
    const passLabel = this.#currentLabel;
    const lastWrite = this.#lastWrite;
    const ids = this.#pendingIds;
    const scopes = this.#pendingScopes;
    for (let i = 0; i < this.#pendingCount; i++) {
      const id = ids[i] as number;
      const scope = scopes[i] as BarrierScope;
      const record = lastWrite.get(id);
      if (record) {
        record.passIndex = passIndex;
        record.passLabel = passLabel;
        record.scope = scope;
      } else lastWrite.set(id, { passIndex, passLabel, scope });
    }
    this.#pendingCount = 0;
    this.#passCount++;
  }
}
