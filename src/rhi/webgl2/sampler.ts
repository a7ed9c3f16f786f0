import { Sampler } from '../core/sampler.js';
import type { SamplerDescriptor } from '../core/descriptors.js';
import { ADDRESS_MODES, COMPARE_FUNCTIONS, FILTERS, minFilter } from './conv.js';
import type { WebGL2Device } from './device.js';

/** EXT_texture_filter_anisotropic's sampler parameter. */
const TEXTURE_MAX_ANISOTROPY_EXT = 0x84fe;

/** A GL sampler object; it overrides the texture's own filtering and wrap state on its unit. */
export class WebGL2Sampler extends Sampler {
  readonly gl: WebGLSampler;
  readonly #device: WebGL2Device;
  constructor(device: WebGL2Device, desc: SamplerDescriptor) {
    super(device, desc);
    this.#device = device;
    const gl = device.gl;
    const d = this.descriptor;
    this.gl = gl.createSampler();
    gl.samplerParameteri(this.gl, gl.TEXTURE_WRAP_S, ADDRESS_MODES[d.addressModeU]);
    gl.samplerParameteri(this.gl, gl.TEXTURE_WRAP_T, ADDRESS_MODES[d.addressModeV]);
    gl.samplerParameteri(this.gl, gl.TEXTURE_MAG_FILTER, FILTERS[d.magFilter]);
    gl.samplerParameteri(
      this.gl,
      gl.TEXTURE_MIN_FILTER,
      minFilter(d.minFilter, d.mipmapFilter, true),
    );
    gl.samplerParameterf(this.gl, gl.TEXTURE_MIN_LOD, d.lodMinClamp);
    gl.samplerParameterf(this.gl, gl.TEXTURE_MAX_LOD, d.lodMaxClamp);
    // clamped to the device's maximum, as WebGPU clamps it (1 without the extension: plain linear)
    const anisotropy = Math.min(d.maxAnisotropy, device.maxAnisotropy);
    if (anisotropy > 1) gl.samplerParameterf(this.gl, TEXTURE_MAX_ANISOTROPY_EXT, anisotropy);
    // a comparison sampler: sampler2DShadow compares the reference with the depth texel
    if (d.compare !== undefined) {
      gl.samplerParameteri(this.gl, gl.TEXTURE_COMPARE_MODE, gl.COMPARE_REF_TO_TEXTURE);
      gl.samplerParameteri(this.gl, gl.TEXTURE_COMPARE_FUNC, COMPARE_FUNCTIONS[d.compare]);
    }
  }
  protected destroyImpl(): void {
    this.#device.gl.deleteSampler(this.gl);
  }
}
