// A real device loss and restore, as a page can cause one: the WebGL2 context lost through
// WEBGL_lose_context and restored, or the GPUDevice destroyed (restore() then asks for a new one).
import { WebGL2Device, type Device, type WebGPUDevice } from '../../../src/all.js';

/** Loses `device` for real and brings it back with `device.restore()`. */
export async function loseAndRestore(device: Device): Promise<void> {
  const ext = device instanceof WebGL2Device ? device.gl.getExtension('WEBGL_lose_context') : null;
  if (ext) ext.loseContext();
  else (device as WebGPUDevice).gpu.destroy();
  await device.lost;
  // (out of the loss event's dispatch: Chrome ignores a restoreContext() made inside it)
  await new Promise((r) => setTimeout(r, 50));
  ext?.restoreContext();
  await device.restore();
}
