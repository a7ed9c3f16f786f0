// A hand-written WebGL2 draw of the same particles and the same look as Ignis's WebGL2 draw
// (state in two RGBA32F textures read with texelFetch, camera-facing quads, colour over life, the
// soft disc or the `sprite` look's image tinted by it, additive blending), with no Ignis in between: its own program, textures, framebuffer
// and uniforms, on the same GL context as the Ignis device (which resets its cached state after).
// The `reference` suite of the benchmark draws the same state with it and with Ignis.
import { SPRITE_SIZE, spriteImage, type RawLookKind } from '../deno/raw-reference.js';

const VS = `#version 300 es
precision highp float;
precision highp int;
uniform mat4 viewProjection;
uniform vec4 right;
uniform vec4 up;
uniform vec4 colors[4];
uniform vec4 stops;
uniform vec3 sizes;
uniform int width;
uniform highp sampler2D positions;
uniform highp sampler2D velocities;
out vec4 vColor;
out vec2 vUv;
const vec2 CORNERS[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
void main() {
#ifdef PULLED
  int n = gl_VertexID / 6;
  vec2 corner = CORNERS[gl_VertexID - n * 6];
#else
  int n = gl_InstanceID;
  vec2 corner = vec2(float(gl_VertexID & 1) * 2.0 - 1.0, float(gl_VertexID >> 1) * 2.0 - 1.0);
#endif
  ivec2 texel = ivec2(n % width, n / width);
  vec4 p = texelFetch(positions, texel, 0);
  vec4 v = texelFetch(velocities, texel, 0);
  float t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  float halfSize = 0.5 * sizes.z * mix(sizes.x, sizes.y, t);
  vec4 c = colors[0];
  c = mix(c, colors[1], clamp((t - stops.x) / (stops.y - stops.x), 0.0, 1.0));
  c = mix(c, colors[2], clamp((t - stops.y) / (stops.z - stops.y), 0.0, 1.0));
  c = mix(c, colors[3], clamp((t - stops.z) / (stops.w - stops.z), 0.0, 1.0));
  gl_Position = viewProjection * vec4(p.xyz, 1.0) + (right * corner.x + up * corner.y) * halfSize;
  vColor = c;
  vUv = corner;
}`;

const FS = `#version 300 es
precision highp float;
in vec4 vColor;
in vec2 vUv;
out vec4 outColor;
void main() {
  float r2 = dot(vUv, vUv);
  outColor = vec4(vColor.rgb, vColor.a * (1.0 - smoothstep(0.25, 1.0, r2)));
}`;

/** The sprite look: the image at the corner's uv (-1..1, y up → 0..1, rows top first), tinted. */
const FS_SPRITE = `#version 300 es
precision highp float;
uniform sampler2D sprite;
in vec4 vColor;
in vec2 vUv;
out vec4 outColor;
void main() {
  outColor = vColor * texture(sprite, vec2(vUv.x, -vUv.y) * 0.5 + 0.5);
}`;

export interface RawLook {
  colors: ReadonlyArray<readonly number[]>;
  stops: readonly number[];
  sizes: readonly [number, number, number];
}

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const s = gl.createShader(type) as WebGLShader;
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS))
    throw new Error(`raw WebGL2 reference: ${gl.getShaderInfoLog(s) ?? 'compile failed'}`);
  return s;
}

export class RawWebGL2Reference {
  readonly #gl: WebGL2RenderingContext;
  readonly #programs: Record<'instanced' | 'pulled', WebGLProgram>;
  /** Uniform locations per program, looked up once (as any real renderer does). */
  readonly #locations: Record<'instanced' | 'pulled', Record<string, WebGLUniformLocation | null>>;
  readonly #viewProjection = new Float32Array(16);
  readonly #colors = new Float32Array(16);
  readonly #textures: WebGLTexture[];
  readonly #target: WebGLTexture;
  readonly #framebuffer: WebGLFramebuffer;
  readonly #vao: WebGLVertexArrayObject;
  readonly #width: number;
  readonly #size: { width: number; height: number };
  readonly #sprite: WebGLTexture | null = null;
  readonly count: number;

  constructor(
    gl: WebGL2RenderingContext,
    state: { position: Float32Array; velocity: Float32Array },
    target: { width: number; height: number },
    look: RawLookKind = 'disc',
  ) {
    this.#gl = gl;
    this.#size = target;
    this.count = state.position.length / 4;
    const link = (pulled: boolean): WebGLProgram => {
      const p = gl.createProgram() as WebGLProgram;
      const vs = VS.replace(
        'precision highp float;',
        `${pulled ? '#define PULLED\n' : ''}precision highp float;`,
      );
      gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, vs));
      gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, look === 'sprite' ? FS_SPRITE : FS));
      gl.linkProgram(p);
      if (!gl.getProgramParameter(p, gl.LINK_STATUS))
        throw new Error(`raw WebGL2 reference: ${gl.getProgramInfoLog(p) ?? 'link failed'}`);
      return p;
    };
    this.#programs = { instanced: link(false), pulled: link(true) };
    const names = [
      'viewProjection',
      'right',
      'up',
      'colors',
      'stops',
      'sizes',
      'width',
      'positions',
      'velocities',
      'sprite',
    ];
    const locate = (p: WebGLProgram) =>
      Object.fromEntries(names.map((n) => [n, gl.getUniformLocation(p, n)]));
    this.#locations = {
      instanced: locate(this.#programs.instanced),
      pulled: locate(this.#programs.pulled),
    };
    // the state as two RGBA32F textures, `width` texels wide (one row up to 4096 texels)
    this.#width = Math.min(this.count, 4096);
    const height = Math.ceil(this.count / this.#width);
    this.#textures = [state.position, state.velocity].map((data) => {
      const t = gl.createTexture() as WebGLTexture;
      const padded = new Float32Array(this.#width * height * 4);
      padded.set(data);
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.texImage2D(
        gl.TEXTURE_2D,
        0,
        gl.RGBA32F,
        this.#width,
        height,
        0,
        gl.RGBA,
        gl.FLOAT,
        padded,
      );
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      return t;
    });
    if (look === 'sprite') {
      const t = (this.#sprite = gl.createTexture() as WebGLTexture);
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, SPRITE_SIZE, SPRITE_SIZE);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      gl.texSubImage2D(
        gl.TEXTURE_2D,
        0,
        0,
        0,
        SPRITE_SIZE,
        SPRITE_SIZE,
        gl.RGBA,
        gl.UNSIGNED_BYTE,
        spriteImage(),
      );
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    }
    this.#target = gl.createTexture() as WebGLTexture;
    gl.bindTexture(gl.TEXTURE_2D, this.#target);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, target.width, target.height);
    this.#framebuffer = gl.createFramebuffer() as WebGLFramebuffer;
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.#framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, this.#target, 0);
    this.#vao = gl.createVertexArray() as WebGLVertexArrayObject;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** Records one frame: uniforms, a cleared target, one draw; then flushes (as a submit would). */
  frame(
    mode: 'instanced' | 'pulled',
    camera: { view: ArrayLike<number>; projection: ArrayLike<number> },
    look: RawLook,
  ): void {
    const gl = this.#gl;
    const program = this.#programs[mode];
    const v = camera.view;
    const p = camera.projection;
    const vp = this.#viewProjection;
    for (let c = 0; c < 4; c++)
      for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += (p[4 * k + r] as number) * (v[4 * c + k] as number);
        vp[4 * c + r] = s;
      }
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.#framebuffer);
    gl.viewport(0, 0, this.#size.width, this.#size.height);
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.SCISSOR_TEST);
    gl.disable(gl.CULL_FACE);
    gl.colorMask(true, true, true, true);
    gl.clearColor(0, 0, 0, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendEquation(gl.FUNC_ADD);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE, gl.ONE, gl.ONE);
    gl.useProgram(program);
    const loc = this.#locations[mode];
    const u = (name: string) => loc[name] ?? null;
    for (let i = 0; i < 4; i++) this.#colors.set(look.colors[i] as readonly number[], 4 * i);
    gl.uniformMatrix4fv(u('viewProjection'), false, vp);
    gl.uniform4f(u('right'), p[0] as number, p[1] as number, p[2] as number, p[3] as number);
    gl.uniform4f(u('up'), p[4] as number, p[5] as number, p[6] as number, p[7] as number);
    gl.uniform4fv(u('colors'), this.#colors);
    gl.uniform4fv(u('stops'), look.stops as number[]);
    gl.uniform3fv(u('sizes'), look.sizes as unknown as number[]);
    gl.uniform1i(u('width'), this.#width);
    gl.uniform1i(u('positions'), 0);
    gl.uniform1i(u('velocities'), 1);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures[0] as WebGLTexture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.#textures[1] as WebGLTexture);
    if (this.#sprite) {
      gl.uniform1i(u('sprite'), 2);
      gl.activeTexture(gl.TEXTURE2);
      gl.bindTexture(gl.TEXTURE_2D, this.#sprite);
    }
    gl.bindVertexArray(this.#vao);
    if (mode === 'instanced') gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, this.count);
    else gl.drawArrays(gl.TRIANGLES, 0, 6 * this.count);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.flush();
  }

  /** The last frame's pixels, RGBA8, GL's rows (bottom first). */
  read(): Uint8Array {
    const gl = this.#gl;
    const { width, height } = this.#size;
    const out = new Uint8Array(width * height * 4);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, this.#framebuffer);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, out);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    return out;
  }

  destroy(): void {
    const gl = this.#gl;
    for (const p of Object.values(this.#programs)) gl.deleteProgram(p);
    for (const t of [...this.#textures, this.#target, this.#sprite]) if (t) gl.deleteTexture(t);
    gl.deleteFramebuffer(this.#framebuffer);
    gl.deleteVertexArray(this.#vao);
  }
}
