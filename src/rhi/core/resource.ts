import { DestroyedResourceError, DeviceLostError } from './errors.js';
import type { Device } from './device.js';

/** The kind of a GPU resource, as `device.stats()` counts them. */
export type ResourceKind =
  | 'buffer'
  | 'texture'
  | 'sampler'
  | 'shader-module'
  | 'render-pipeline'
  | 'compute-pipeline'
  | 'query-set';

/**
 * The base of every GPU object: a device-unique `id`, a `label` that reaches the backend object and
 * every error message, `destroy()` (idempotent) and the byte count that `device.stats()` adds up.
 */
export abstract class Resource {
  abstract readonly kind: ResourceKind;
  readonly id: number;
  readonly label: string;
  #destroyed = false;

  constructor(
    readonly device: Device,
    label: string | undefined,
  ) {
    this.id = device.nextResourceId();
    this.label = label ?? '';
  }

  /** Bytes of GPU memory this resource holds, for accounting. */
  get byteSize(): number {
    return 0;
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** Releases the backend object. Further use throws `DestroyedResourceError`. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.device.untrackResource(this);
    this.destroyImpl();
  }

  /**
   * `device.restore()`: takes over the backend objects of `fresh`, a twin made from the same
   * descriptor on the restored backend (its own enumerable fields; identity, label and device stay).
   * A backend class with private handles overrides it to copy those too.
   */
  adopt(fresh: Resource): void {
    for (const key of Object.keys(fresh)) {
      if (key === 'id' || key === 'label' || key === 'device' || key === 'kind') continue;
      (this as unknown as Record<string, unknown>)[key] = (
        fresh as unknown as Record<string, unknown>
      )[key];
    }
  }

  /** `device.restore()`, once every resource has adopted its twin: restore contents (buffers). */
  afterRestore(): void {}

  /**
   * Throws when the device is lost (`DeviceLostError`: after loss every call says so, whatever it
   * touches) or the resource was destroyed; `operation` names the call, for the message.
   */
  assertAlive(operation: string): void {
    if (this.device.isLost)
      throw new DeviceLostError(
        'lost',
        `${operation} on "${this.label}" after the device was lost or destroyed`,
      );
    if (this.#destroyed) throw new DestroyedResourceError(this.kind, operation, this.label);
  }

  protected abstract destroyImpl(): void;
}
