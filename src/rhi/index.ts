import { ValidationError } from './core/errors.js';
import type { Device, DeviceOptions } from './core/device.js';
import { NullDevice, type NullDeviceOptions } from './null/device.js';
import { createWebGPUDevice, WebGPUUnavailableError } from './webgpu/device.js';
import { createWebGL2Device } from './webgl2/device.js';

export * from './core/index.js';
export { NullDevice } from './null/device.js';
export { WebGPUDevice, WebGPUUnavailableError } from './webgpu/device.js';
export { WebGL2Device } from './webgl2/device.js';

/** The backend `createDevice` is asked for (`auto`: WebGPU, else WebGL2). */
export type BackendRequest = 'auto' | 'webgpu' | 'webgl2' | 'null';

/** What `createDevice` takes: backend, canvas, a host-owned GPUDevice or GL context, and the device options. */
export interface CreateDeviceOptions extends DeviceOptions {
  /** `auto` takes WebGPU when an adapter and a device can be had, else WebGL2. Default `auto`. */
  backend?: BackendRequest;
  /** The canvas `device.surface` presents to. Without one, render to textures only. */
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  /** WebGPU: wrap a GPUDevice the host application already owns. */
  gpuDevice?: GPUDevice;
  /** WebGL2: wrap a context the host already owns (call `device.resetState()` after touching it). */
  gl?: WebGL2RenderingContext;
  /** Null backend: limit and feature overrides, for tests. */
  null?: Pick<NullDeviceOptions, 'limits' | 'features'>;
}

const BACKENDS: readonly BackendRequest[] = ['auto', 'webgpu', 'webgl2', 'null'];

/**
 * Creates a device on the requested backend. `auto` tries WebGPU and falls back to WebGL2 when
 * WebGPU is unavailable (no `navigator.gpu`, no adapter, or device creation fails); the reason is
 * kept in `device.fallbackReason`.
 */
export async function createDevice(options: CreateDeviceOptions = {}): Promise<Device> {
  const backend = options.backend ?? 'auto';
  if (!BACKENDS.includes(backend)) {
    throw new ValidationError(
      'device-backend',
      `backend ${String(backend)} must be one of ${BACKENDS.join(', ')}`,
      undefined,
      { backend },
    );
  }
  switch (backend) {
    case 'null':
      return new NullDevice({ ...options, ...options.null });
    case 'webgpu':
      return createWebGPUDevice(options);
    case 'webgl2':
      return createWebGL2Device(options);
    case 'auto': {
      try {
        return await createWebGPUDevice(options);
      } catch (e) {
        if (!(e instanceof WebGPUUnavailableError) && options.gpuDevice) throw e;
        const device = await createWebGL2Device(options);
        device.fallbackReason = e instanceof Error ? e.message : String(e);
        return device;
      }
    }
  }
}
