import { describe, expect, it } from 'vitest';
import {
  TEXTURE_FORMATS,
  BLEND_FACTORS,
  ADDRESS_MODES,
  VERTEX_FORMATS,
  COMPARE_FUNCTIONS,
  minFilter,
  floatToHalf,
  GL,
} from '../../src/rhi/webgl2/conv.js';
import { TEXTURE_FORMATS as ALL_FORMATS, FORMAT_INFO } from '../../src/all.js';
import { instrumentVertexShader, parseInfoLog } from '../../src/rhi/webgl2/shader-module.js';

describe('WebGL2 conversion tables', () => {
  it('map every supported texture format, with GL ES 3.0 enums', () => {
    for (const f of ALL_FORMATS) expect(TEXTURE_FORMATS[f], f).toBeDefined();
    expect(TEXTURE_FORMATS.rgba8unorm).toMatchObject({
      internalFormat: 0x8058,
      format: 0x1908,
      type: 0x1401,
    });
    expect(TEXTURE_FORMATS.rgba32float).toMatchObject({ internalFormat: 0x8814, type: 0x1406 });
    expect(TEXTURE_FORMATS.r16float.type).toBe(0x140b);
    expect(TEXTURE_FORMATS.bgra8unorm.swizzleBGRA).toBe(true);
    for (const f of ALL_FORMATS) {
      if (FORMAT_INFO[f].kind === 'unorm' || FORMAT_INFO[f].kind === 'float')
        expect(TEXTURE_FORMATS[f].components).toBe(FORMAT_INFO[f].components);
    }
  });
  it('blend, compare, address and vertex formats', () => {
    expect(BLEND_FACTORS['one-minus-src-alpha']).toBe(0x0303);
    expect(COMPARE_FUNCTIONS['less-equal']).toBe(0x0203);
    expect(ADDRESS_MODES['mirror-repeat']).toBe(0x8370);
    expect(VERTEX_FORMATS.float32x3).toEqual({
      size: 3,
      type: GL.FLOAT,
      normalized: false,
      integer: false,
    });
    expect(VERTEX_FORMATS.unorm8x4.normalized).toBe(true);
    expect(VERTEX_FORMATS.uint32.integer).toBe(true);
    expect(minFilter('linear', 'nearest', true)).toBe(GL.LINEAR_MIPMAP_NEAREST);
    expect(minFilter('linear', 'linear', false)).toBe(GL.LINEAR);
  });
  it('converts floats to IEEE halfs', () => {
    expect([1, 2, -2, 0.5, 0, 65504, -1, Infinity].map(floatToHalf)).toEqual([
      0x3c00, 0x4000, 0xc000, 0x3800, 0, 0x7bff, 0xbc00, 0x7c00,
    ]);
  });
  it('wraps a vertex shader main without moving user line numbers', () => {
    const src = '#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n';
    const out = instrumentVertexShader(src);
    expect(out.split('\n')[1]).toBe('void _ignis_user_main() { gl_Position = vec4(0.0); }');
    expect(out).toMatch(/gl_Position\.y = -gl_Position\.y;/);
    expect(out).toMatch(/gl_Position\.z = 2\.0 \* gl_Position\.z - gl_Position\.w;/);
  });
  it('parses GL info logs into line, message and source line', () => {
    const d = parseInfoLog("ERROR: 0:2: 'foo' : undeclared identifier\n", 'line one\n  x = foo;\n');
    expect(d).toEqual([
      { line: 2, message: "'foo' : undeclared identifier", sourceLine: '  x = foo;' },
    ]);
  });
});
