// A WebGL2 context whose every call returns at once, for timing Ignis's own JavaScript on the WebGL2
// backend without a GPU (bench/cpu-draws.mjs --backend webgl2). Its methods and constants are the
// WebGL2RenderingContext's, read from the text of TypeScript's lib.dom.d.ts (a dev dependency; the
// caller reads it, so this module runs in a page too): a plain object, so a call costs what a no-op
// function call costs (a Proxy would cost more than Ignis).
const INTERFACES = [
  'WebGL2RenderingContextBase',
  'WebGLRenderingContextBase',
  'WebGL2RenderingContextOverloads',
  'WebGLRenderingContextOverloads',
];

/** What a few queries must answer for a device to be made (everything else: 4096, or nothing). */
const PARAMETERS = { UNIFORM_BUFFER_OFFSET_ALIGNMENT: 256, MAX_SAMPLES: 4 };

/** `dom`: the text of typescript/lib/lib.dom.d.ts. */
export function stubGl(dom) {
  const gl = { drawingBufferWidth: 256, drawingBufferHeight: 256 };
  const names = new Map();
  let next = 0x10000;
  let objects = 1;
  for (const name of INTERFACES) {
    const body = new RegExp(`interface ${name} \\{(.*?)\\n\\}`, 's').exec(dom)?.[1];
    if (!body) throw new Error(`stub-gl: no interface ${name} in lib.dom.d.ts`);
    for (const [, c] of body.matchAll(/^\s+readonly ([A-Z0-9_]+):/gm)) {
      gl[c] = c === 'TEXTURE0' ? 0x84c0 : c === 'INVALID_INDEX' ? 0xffffffff : next++;
      names.set(gl[c], c);
    }
    for (const [, m] of body.matchAll(/^\s+(\w+)\(/gm))
      gl[m] = m.startsWith('create') ? () => ({ object: objects++ }) : () => undefined;
  }
  Object.assign(gl, {
    getExtension: (name) => (name === 'EXT_color_buffer_float' ? {} : null),
    getParameter: (p) => PARAMETERS[names.get(p)] ?? 4096,
    getSupportedExtensions: () => [],
    getShaderParameter: () => true,
    getProgramParameter: () => true,
    getShaderInfoLog: () => '',
    getProgramInfoLog: () => '',
    checkFramebufferStatus: () => gl.FRAMEBUFFER_COMPLETE,
    getUniformLocation: (_p, name) => ({ name }),
    getUniformBlockIndex: () => 0,
    isContextLost: () => false,
    fenceSync: () => ({ sync: true }),
    clientWaitSync: () => gl.ALREADY_SIGNALED,
    getError: () => gl.NO_ERROR,
  });
  return gl;
}
