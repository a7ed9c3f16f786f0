/**
 * The kernel language's two translations that need no parser: its C-style declarations to WGSL
 * (`toWgsl`), and the macro prelude the post-process shader generators use to compile the same
 * text as GLSL. Kept apart from kernel.ts so that code using only these (src/postfx) does not pull
 * in the WGSL front end.
 */
const KERNEL_TYPES = 'f32|u32|i32|bool|vec2f|vec3f|vec4f|vec2u|vec3u|vec4u|vec2i|vec3i|vec4i';

/** Kernel language → WGSL: declarations and function headers; everything else is already WGSL. */
export function toWgsl(code: string): string {
  return code
    .replace(
      new RegExp(`\\b(${KERNEL_TYPES})\\s+(\\w+)\\s*\\(([^)]*)\\)\\s*\\{`, 'g'),
      (_m, ret: string, name: string, params: string) => {
        const args = params
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
          .map((p) => {
            const [type, arg] = p.split(/\s+/);
            return `${arg}: ${type}`;
          });
        return `fn ${name}(${args.join(', ')}) -> ${ret} {`;
      },
    )
    .replace(new RegExp(`\\b(${KERNEL_TYPES})\\s+(\\w+)\\s*=`, 'g'), 'var $2: $1 =');
}

/** Kernel language → GLSL: type names by macro, `select` by overloads. */
export const GLSL_PRELUDE = `precision highp float;
precision highp int;
#define f32 float
#define u32 uint
#define i32 int
#define vec2f vec2
#define vec3f vec3
#define vec4f vec4
#define vec2u uvec2
#define vec3u uvec3
#define vec4u uvec4
#define vec2i ivec2
#define vec3i ivec3
#define vec4i ivec4
float select(float f, float t, bool c) { return c ? t : f; }
vec2 select(vec2 f, vec2 t, bool c) { return c ? t : f; }
vec3 select(vec3 f, vec3 t, bool c) { return c ? t : f; }
vec4 select(vec4 f, vec4 t, bool c) { return c ? t : f; }
uint select(uint f, uint t, bool c) { return c ? t : f; }
int select(int f, int t, bool c) { return c ? t : f; }
`;
