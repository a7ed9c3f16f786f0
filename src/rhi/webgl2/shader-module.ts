import { ShaderModule } from '../core/shader-module.js';
import { ShaderCompileError, type ShaderDiagnostic } from '../core/errors.js';
import type { ShaderModuleDescriptor } from '../core/descriptors.js';
import type { WebGL2Device } from './device.js';

/**
 * Vertex shaders get their `main` renamed and wrapped, so that clip space is WebGPU's on this
 * backend too: y is negated (every render target is a texture, the canvas included, so texel rows
 * in memory come out as WebGPU's: see README.md, "Y flip"), and z in [0, w] is mapped to GL's
 * [-w, w] (so geometry at z < 0 is clipped as on WebGPU and depth values, depth compare and
 * `setViewport`'s depth range mean the same). The additions come after the user's last line, so
 * compiler line numbers still point into the user's source.
 */
export function instrumentVertexShader(code: string): string {
  if (!/\bvoid\s+main\s*\(/.test(code)) return code;
  return `${code.replace(/\bvoid\s+main\s*\(/, 'void _ignis_user_main(')}
void main() {
  _ignis_user_main();
  gl_Position.y = -gl_Position.y;
  gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;
}
`;
}

/** Parses ANGLE/GL info logs: `ERROR: 0:12: 'foo' : undeclared identifier`. */
export function parseInfoLog(log: string, source: string): ShaderDiagnostic[] {
  const lines = source.split('\n');
  const out: ShaderDiagnostic[] = [];
  for (const raw of log.split('\n')) {
    const m = /ERROR:\s*\d+:(\d+):\s*(.*)/.exec(raw);
    if (!m) continue;
    const line = Number(m[1]);
    out.push({ line, message: (m[2] ?? '').trim(), sourceLine: lines[line - 1] ?? '' });
  }
  if (out.length === 0 && log.trim()) out.push({ line: 0, message: log.trim(), sourceLine: '' });
  return out;
}

export class WebGL2ShaderModule extends ShaderModule {
  readonly shader: WebGLShader;
  readonly #device: WebGL2Device;

  constructor(device: WebGL2Device, desc: ShaderModuleDescriptor) {
    super(device, desc, 'glsl');
    this.#device = device;
    const gl = device.gl;
    const vertex = desc.stage === 'vertex';
    const source = vertex ? instrumentVertexShader(desc.code) : desc.code;
    this.shader = gl.createShader(vertex ? gl.VERTEX_SHADER : gl.FRAGMENT_SHADER) as WebGLShader;
    gl.shaderSource(this.shader, source);
    gl.compileShader(this.shader);
    if (!gl.getShaderParameter(this.shader, gl.COMPILE_STATUS)) {
      const log = gl.getShaderInfoLog(this.shader) ?? '';
      gl.deleteShader(this.shader);
      throw new ShaderCompileError(desc.stage ?? 'glsl', parseInfoLog(log, desc.code), desc.label);
    }
  }

  protected destroyImpl(): void {
    this.#device.gl.deleteShader(this.shader);
  }
}
