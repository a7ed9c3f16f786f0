/**
 * Shadow GL state (regl's currentState, wgpu's reset_state): every piece of state the backend
 * touches is mirrored here and GL is called only when a value changes. `reset()` forgets it all,
 * so the next set of each piece calls GL again: done when a frame begins and by
 * `device.resetState()`, for a host application that shares the context.
 */
const UNKNOWN = Symbol('unknown');
type Maybe<T> = T | typeof UNKNOWN;

export interface BlendGL {
  enabled: boolean;
  colorOp: number;
  alphaOp: number;
  colorSrc: number;
  colorDst: number;
  alphaSrc: number;
  alphaDst: number;
}

export class GLStateCache {
  #program: Maybe<WebGLProgram | null> = UNKNOWN;
  #vao: Maybe<WebGLVertexArrayObject | null> = UNKNOWN;
  #drawFramebuffer: Maybe<WebGLFramebuffer | null> = UNKNOWN;
  #readFramebuffer: Maybe<WebGLFramebuffer | null> = UNKNOWN;
  /** x, y, width, height; NaN = unknown (a NaN never compares equal, so the next set calls GL). */
  readonly #viewport = [NaN, NaN, NaN, NaN];
  #scissorTest: Maybe<boolean> = UNKNOWN;
  readonly #scissor = [NaN, NaN, NaN, NaN];
  #blend: Maybe<BlendGL> = UNKNOWN;
  #blendEnabled: Maybe<boolean> = UNKNOWN;
  #colorMask: Maybe<number> = UNKNOWN;
  #depthTest: Maybe<boolean> = UNKNOWN;
  #depthMask: Maybe<boolean> = UNKNOWN;
  #depthFunc: Maybe<number> = UNKNOWN;
  #cull: Maybe<number> = UNKNOWN; // 0 = disabled, else FRONT/BACK
  #frontFace: Maybe<number> = UNKNOWN;
  #activeTexture: Maybe<number> = UNKNOWN;
  #textures: Array<Maybe<WebGLTexture | null>> = [];
  #samplers: Array<Maybe<WebGLSampler | null>> = [];
  /** Per UBO index: buffer id, offset, size (NaN = unknown). */
  #uniformBuffers: Array<[number, number, number]> = [];
  /** GL calls made through the cache since creation (for tests and traces). */
  calls = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {}

  reset(): void {
    this.#program = this.#vao = this.#drawFramebuffer = this.#readFramebuffer = UNKNOWN;
    this.#viewport.fill(NaN);
    this.#scissor.fill(NaN);
    this.#blend = UNKNOWN;
    this.#scissorTest = this.#blendEnabled = this.#depthTest = this.#depthMask = UNKNOWN;
    this.#colorMask =
      this.#depthFunc =
      this.#cull =
      this.#frontFace =
      this.#activeTexture =
        UNKNOWN;
    this.#textures = [];
    this.#samplers = [];
    this.#uniformBuffers = [];
  }

  useProgram(program: WebGLProgram | null): void {
    if (this.#program === program) return;
    this.#program = program;
    this.calls++;
    this.gl.useProgram(program);
  }

  bindVertexArray(vao: WebGLVertexArrayObject | null): void {
    if (this.#vao === vao) return;
    this.#vao = vao;
    this.calls++;
    this.gl.bindVertexArray(vao);
  }

  /** Forget the VAO binding without calling GL (after creating one, which binds it). */
  setVertexArrayUnchecked(vao: WebGLVertexArrayObject | null): void {
    this.#vao = vao;
  }

  bindDrawFramebuffer(fb: WebGLFramebuffer | null): void {
    if (this.#drawFramebuffer === fb) return;
    this.#drawFramebuffer = fb;
    this.calls++;
    this.gl.bindFramebuffer(this.gl.DRAW_FRAMEBUFFER, fb);
  }

  bindReadFramebuffer(fb: WebGLFramebuffer | null): void {
    if (this.#readFramebuffer === fb) return;
    this.#readFramebuffer = fb;
    this.calls++;
    this.gl.bindFramebuffer(this.gl.READ_FRAMEBUFFER, fb);
  }

  viewport(x: number, y: number, w: number, h: number): void {
    if (sameRect(this.#viewport, x, y, w, h)) return;
    setRect(this.#viewport, x, y, w, h);
    this.calls++;
    this.gl.viewport(x, y, w, h);
  }

  scissorTest(enabled: boolean): void {
    if (this.#scissorTest === enabled) return;
    this.#scissorTest = enabled;
    this.calls++;
    if (enabled) this.gl.enable(this.gl.SCISSOR_TEST);
    else this.gl.disable(this.gl.SCISSOR_TEST);
  }

  scissor(x: number, y: number, w: number, h: number): void {
    if (sameRect(this.#scissor, x, y, w, h)) return;
    setRect(this.#scissor, x, y, w, h);
    this.calls++;
    this.gl.scissor(x, y, w, h);
  }

  blend(b: BlendGL): void {
    if (this.#blendEnabled !== b.enabled) {
      this.#blendEnabled = b.enabled;
      this.calls++;
      if (b.enabled) this.gl.enable(this.gl.BLEND);
      else this.gl.disable(this.gl.BLEND);
    }
    if (!b.enabled) return;
    const last = this.#blend;
    if (last !== UNKNOWN && sameBlend(last, b)) return;
    this.#blend = b;
    this.calls += 2;
    this.gl.blendEquationSeparate(b.colorOp, b.alphaOp);
    this.gl.blendFuncSeparate(b.colorSrc, b.colorDst, b.alphaSrc, b.alphaDst);
  }

  colorMask(mask: number): void {
    if (this.#colorMask === mask) return;
    this.#colorMask = mask;
    this.calls++;
    this.gl.colorMask((mask & 1) !== 0, (mask & 2) !== 0, (mask & 4) !== 0, (mask & 8) !== 0);
  }

  depth(test: boolean, write: boolean, func: number): void {
    if (this.#depthTest !== test) {
      this.#depthTest = test;
      this.calls++;
      if (test) this.gl.enable(this.gl.DEPTH_TEST);
      else this.gl.disable(this.gl.DEPTH_TEST);
    }
    if (this.#depthMask !== write) {
      this.#depthMask = write;
      this.calls++;
      this.gl.depthMask(write);
    }
    if (test && this.#depthFunc !== func) {
      this.#depthFunc = func;
      this.calls++;
      this.gl.depthFunc(func);
    }
  }

  cull(face: number, frontFace: number): void {
    if (this.#cull !== face) {
      const wasEnabled = this.#cull !== 0 && this.#cull !== UNKNOWN;
      if (face === 0) {
        this.calls++;
        this.gl.disable(this.gl.CULL_FACE);
      } else {
        if (!wasEnabled) {
          this.calls++;
          this.gl.enable(this.gl.CULL_FACE);
        }
        this.calls++;
        this.gl.cullFace(face);
      }
      this.#cull = face;
    }
    if (this.#frontFace !== frontFace) {
      this.#frontFace = frontFace;
      this.calls++;
      this.gl.frontFace(frontFace);
    }
  }

  #activate(unit: number): void {
    if (this.#activeTexture === unit) return;
    this.#activeTexture = unit;
    this.calls++;
    this.gl.activeTexture(this.gl.TEXTURE0 + unit);
  }

  bindTexture(unit: number, texture: WebGLTexture | null): void {
    if (this.#textures[unit] === texture) return;
    this.#activate(unit);
    this.#textures[unit] = texture;
    this.calls++;
    this.gl.bindTexture(this.gl.TEXTURE_2D, texture);
  }

  /** For uploads: binds `texture` on a scratch unit (the last one) through the cache. */
  bindScratchTexture(texture: WebGLTexture | null, scratchUnit: number): void {
    this.bindTexture(scratchUnit, texture);
    this.#activate(scratchUnit);
  }

  bindSampler(unit: number, sampler: WebGLSampler | null): void {
    if (this.#samplers[unit] === sampler) return;
    this.#samplers[unit] = sampler;
    this.calls++;
    this.gl.bindSampler(unit, sampler);
  }

  bindUniformBuffer(
    index: number,
    buffer: WebGLBuffer,
    bufferId: number,
    offset: number,
    size: number,
  ): void {
    const last = this.#uniformBuffers[index];
    if (last && last[0] === bufferId && last[1] === offset && last[2] === size) return;
    this.noteUniformBuffer(index, bufferId, offset, size, 1);
    this.gl.bindBufferRange(this.gl.UNIFORM_BUFFER, index, buffer, offset, size);
  }

  /**
   * What `calls` binds made at `index` without this cache left bound: a run of draws that binds a
   * new offset at every draw (the cache's compare would never hold) binds them itself.
   */
  noteUniformBuffer(
    index: number,
    bufferId: number,
    offset: number,
    size: number,
    calls: number,
  ): void {
    const last = this.#uniformBuffers[index];
    if (last) {
      last[0] = bufferId;
      last[1] = offset;
      last[2] = size;
    } else this.#uniformBuffers[index] = [bufferId, offset, size];
    this.calls += calls;
  }
}

function sameRect(r: number[], x: number, y: number, w: number, h: number): boolean {
  return r[0] === x && r[1] === y && r[2] === w && r[3] === h;
}

function setRect(r: number[], x: number, y: number, w: number, h: number): void {
  r[0] = x;
  r[1] = y;
  r[2] = w;
  r[3] = h;
}

function sameBlend(a: BlendGL, b: BlendGL): boolean {
  return (
    a === b ||
    (a.colorOp === b.colorOp &&
      a.alphaOp === b.alphaOp &&
      a.colorSrc === b.colorSrc &&
      a.colorDst === b.colorDst &&
      a.alphaSrc === b.alphaSrc &&
      a.alphaDst === b.alphaDst)
  );
}
