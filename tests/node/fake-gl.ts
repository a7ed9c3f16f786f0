// A recording fake of WebGL2RenderingContext for Node tests of the WebGL2 backend: every method
// call is logged by name, constants are unique numbers, queries answer "complete" and "linked".
export interface FakeGL {
  gl: WebGL2RenderingContext;
  calls: string[];
}

export function createFakeGL(): FakeGL {
  const calls: string[] = [];
  const constants = new Map<string, number>();
  let nextObject = 1;
  const constant = (name: string): number => {
    let v = constants.get(name);
    if (v === undefined) constants.set(name, (v = 0x10000 + constants.size));
    return v;
  };
  const answers: Record<string, (...args: unknown[]) => unknown> = {
    getExtension: (name) => (name === 'EXT_color_buffer_float' ? {} : null),
    getParameter: () => 4096,
    getSupportedExtensions: () => [],
    getShaderParameter: () => true,
    getProgramParameter: () => true,
    getShaderInfoLog: () => '',
    getProgramInfoLog: () => '',
    checkFramebufferStatus: () => constant('FRAMEBUFFER_COMPLETE'),
    getUniformLocation: (_p, name) => ({ name }),
    getUniformBlockIndex: () => 0,
    isContextLost: () => false,
    fenceSync: () => ({ sync: true }),
    clientWaitSync: () => constant('ALREADY_SIGNALED'),
  };
  const gl = new Proxy({} as Record<string | symbol, unknown>, {
    get(_target, prop) {
      if (typeof prop !== 'string') return undefined;
      if (/^[A-Z0-9_]+$/.test(prop))
        return prop === 'TEXTURE0'
          ? 0x84c0
          : prop === 'INVALID_INDEX'
            ? 0xffffffff
            : constant(prop);
      if (prop === 'drawingBufferWidth' || prop === 'drawingBufferHeight') return 64;
      return (...args: unknown[]) => {
        calls.push(prop);
        const answer = answers[prop];
        if (answer) return answer(...args);
        if (prop.startsWith('create')) return { object: nextObject++, kind: prop.slice(6) };
        return undefined;
      };
    },
  });
  return { gl: gl as unknown as WebGL2RenderingContext, calls };
}
