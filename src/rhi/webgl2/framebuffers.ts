import type { ResolvedRenderPass } from '../core/commands.js';
import { BackendError } from '../core/errors.js';
import { ResourceCache } from '../core/resource-cache.js';
import type { WebGL2Texture } from './texture.js';
import type { WebGL2Device } from './device.js';

/**
 * Framebuffer objects cached by their attachments: one per distinct set of pass attachments, one
 * per (texture, mip) for reads, copies and MSAA resolves. Destroying a texture evicts its FBOs.
 */
export class FramebufferCache {
  readonly #fbos: ResourceCache<WebGLFramebuffer>;

  constructor(private readonly device: WebGL2Device) {
    this.#fbos = new ResourceCache((fbo) => device.gl.deleteFramebuffer(fbo));
  }

  get created(): number {
    return this.#fbos.created;
  }

  /** Framebuffers held now. */
  get size(): number {
    return this.#fbos.size;
  }

  #create(
    key: string,
    color: Array<{ texture: WebGL2Texture; mip: number }>,
    depth: WebGL2Texture | undefined,
  ): WebGLFramebuffer {
    const gl = this.device.gl;
    const fbo = gl.createFramebuffer();
    this.device.state.bindDrawFramebuffer(fbo);
    color.forEach(({ texture, mip }, i) => attach(gl, gl.COLOR_ATTACHMENT0 + i, texture, mip));
    if (depth)
      attach(
        gl,
        depth.format === 'depth24plus-stencil8' ? gl.DEPTH_STENCIL_ATTACHMENT : gl.DEPTH_ATTACHMENT,
        depth,
        0,
      );
    gl.drawBuffers(color.length > 0 ? color.map((_, i) => gl.COLOR_ATTACHMENT0 + i) : [gl.NONE]);
    const status = gl.checkFramebufferStatus(gl.DRAW_FRAMEBUFFER);
    if (status !== gl.FRAMEBUFFER_COMPLETE) {
      gl.deleteFramebuffer(fbo);
      throw new BackendError(
        `framebuffer incomplete (0x${status.toString(16)}) for ${color.map((c) => c.texture.format).join(', ')}`,
        key,
        { status },
      );
    }
    this.#fbos.set(key, fbo, [...color.map((c) => c.texture.id), ...(depth ? [depth.id] : [])]);
    return fbo;
  }

  /** The draw framebuffer of a pass (the canvas is a texture like any other: surface.ts). */
  forPass(pass: ResolvedRenderPass): WebGLFramebuffer {
    // by numbers first (no key string or arrays: this runs for every pass)
    const attachments = pass.colorAttachments;
    const cache = this.#fbos.walk(false).step(-1).step(attachments.length);
    for (let i = 0; i < attachments.length; i++)
      cache.step((attachments[i] as (typeof attachments)[number]).texture.id);
    const known = cache.step(pass.depthStencilAttachment?.texture.id ?? -1).found();
    if (known) return known;
    const fbo = this.#forPass(pass);
    this.#fbos.walk(true).step(-1).step(attachments.length);
    for (let i = 0; i < attachments.length; i++)
      this.#fbos.step((attachments[i] as (typeof attachments)[number]).texture.id);
    this.#fbos.step(pass.depthStencilAttachment?.texture.id ?? -1).keep(fbo);
    return fbo;
  }

  #forPass(pass: ResolvedRenderPass): WebGLFramebuffer {
    const color = pass.colorAttachments.map((a) => ({
      texture: a.texture as WebGL2Texture,
      mip: 0,
    }));
    const depth = pass.depthStencilAttachment?.texture as WebGL2Texture | undefined;
    const key = `p:${color.map((c) => c.texture.id).join(',')}|${depth?.id ?? ''}`;
    return this.#fbos.get(key) ?? this.#create(key, color, depth);
  }

  /** A framebuffer with `texture` (level `mip`) as its only color attachment. */
  single(texture: WebGL2Texture, mip: number): WebGLFramebuffer {
    const known = this.#fbos.walk(false).step(-2).step(texture.id).step(mip).found();
    if (known) return known;
    const key = `s:${texture.id}:${mip}`;
    const fbo = this.#fbos.get(key) ?? this.#create(key, [{ texture, mip }], undefined);
    this.#fbos.walk(true).step(-2).step(texture.id).step(mip).keep(fbo);
    return fbo;
  }

  bindForRead(texture: WebGL2Texture, mip: number): void {
    const fbo = this.single(texture, mip);
    this.device.state.bindReadFramebuffer(fbo);
    this.device.gl.readBuffer(this.device.gl.COLOR_ATTACHMENT0);
  }

  evict(textureId: number): void {
    if (this.#fbos.evict(textureId) > 0) this.device.state.reset();
  }

  destroy(): void {
    this.#fbos.clear();
  }
}

function attach(
  gl: WebGL2RenderingContext,
  point: number,
  texture: WebGL2Texture,
  mip: number,
): void {
  if (texture.glRenderbuffer)
    gl.framebufferRenderbuffer(gl.DRAW_FRAMEBUFFER, point, gl.RENDERBUFFER, texture.glRenderbuffer);
  else gl.framebufferTexture2D(gl.DRAW_FRAMEBUFFER, point, gl.TEXTURE_2D, texture.glTexture, mip);
}
