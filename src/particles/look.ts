/**
 * A custom look (options.look): the user's WGSL `fn look(p: ParticleFragment) -> vec4f` colours
 * every fragment of a particle instead of the disc or the sprite. WebGPU compiles it as written;
 * WebGL2 gets it through the portable front end (the same translator as kernels), and code that
 * cannot be translated is a `ParticleOptionError` naming `look` at creation, on every backend. The
 * front end is loaded on demand: `createParticleSystem` loads it for a system with a look; a look
 * first given by `setOptions` needs it loaded (`loadFrontEnd()`), or is a ParticleOptionError
 * saying so.
 */
import { frontEnd, frontEndLoaded } from '../compute/front-end.js';
import { KernelError } from '../compute/kernel-error.js';
import { ParticleOptionError } from './options.js';

/** What `look` receives: the colour over life, the corner (-1..1, y up), the age and the life. */
export const LOOK_STRUCT =
  'struct ParticleFragment { color: vec4f, uv: vec2f, age: f32, life: f32 };\n';

/** A look ready for both shader languages. */
export interface CompiledLook {
  /** The user's WGSL, after LOOK_STRUCT. */
  wgsl: string;
  /** Its GLSL translation (structs, helpers, functions). */
  glsl: string;
  /** The GLSL expression calling it with the fragment stage's inputs. */
  glslCall: string;
  /** Distinguishes looks in the draw pipeline cache. */
  id: number;
}

let nextId = 1;

export function compileLook(code: string): CompiledLook {
  const module = `${LOOK_STRUCT}${code}
@group(0) @binding(0) var<storage, read_write> ignisLookOut: array<vec4f>;
@compute @workgroup_size(1) fn ignisLookMain(@builtin(global_invocation_id) gid: vec3u) {
  ignisLookOut[gid.x] = look(ParticleFragment(vec4f(0.0), vec2f(0.0), 0.0, 0.0));
}
`;
  if (!frontEndLoaded())
    throw new ParticleOptionError(
      'look',
      '(its WGSL)',
      'needs the WGSL front end, which a system made without a look did not load: await loadFrontEnd() (ignis-rhi/particles) before setOptions, or create the system with its look',
    );
  const translator = frontEnd('a particle look');
  let glsl;
  try {
    glsl = translator.translateFunctions('particle look', module, 'ignisLookMain');
  } catch (e) {
    if (e instanceof translator.PortableKernelError || e instanceof KernelError)
      throw new ParticleOptionError(
        'look',
        '(its WGSL)',
        `cannot be used on every backend (WebGL2 runs it translated): ${e.message.replace(/^\[[^\]]*\] /, '')}`,
      );
    throw e;
  }
  const { fn, struct } = glsl.names;
  return {
    wgsl: code,
    glsl: glsl.code,
    glslCall: `${fn('look')}(${struct('ParticleFragment')}(vColor, vUv, vAgeLife.x, vAgeLife.y))`,
    id: nextId++,
  };
}
