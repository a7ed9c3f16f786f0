// placeholder replaced by the WebGL2 backend
import { UnsupportedFeatureError } from '../core/errors.js';
import type { Device } from '../core/device.js';
export class WebGL2Device {
  fallbackReason = '';
}
export async function createWebGL2Device(_options: unknown): Promise<Device & { fallbackReason: string }> {
  throw new UnsupportedFeatureError('webgl2', 'webgl2', 'not yet');
}
