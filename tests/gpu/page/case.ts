import type { CreateDeviceOptions, Device, Features } from '../../../src/all.js';

export interface CaseContext {
  /** The backend this run is on ('webgpu' for cross-backend cases, which open their own devices). */
  backend: 'webgpu' | 'webgl2';
  /** A device on that backend (with the canvas as surface when the case asks for `canvas`). */
  device: Device;
  /** A fresh 64×64 canvas in the page. */
  canvas: HTMLCanvasElement;
  /** Opens another device; it is destroyed after the case. */
  open(
    backend: 'webgpu' | 'webgl2',
    options?: Omit<CreateDeviceOptions, 'backend'>,
  ): Promise<Device>;
}

export interface Case {
  /** Capabilities the case needs; on a backend without them the test is skipped, saying which. */
  needs?: Array<keyof Features>;
  /** Create the device with the page canvas as its surface. */
  canvas?: boolean;
  /** Runs once, not once per backend: the case compares backends itself. */
  cross?: boolean;
  run(ctx: CaseContext): Promise<void>;
}

export function defineCases(cases: Record<string, Case>): Record<string, Case> {
  return cases;
}
