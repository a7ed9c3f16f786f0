// The particle's look for WebGL2: the soft disc, or (draw.ts adds `#define SPRITE` after the
// #version line, for options.texture) the flipbook frame's texel tinted by the colour over life;
// with `#define SOFT` (options.softParticles) faded as it nears the scene's depth (soft.wgsl says how);
// with `#define LOOK` the user's look (options.look, translated by src/particles/look.ts) replaces
// the marker line after the outputs, and IGNIS_LOOK is the call that colours the fragment.
// `#define LIT` (options.light): the result's colour times the sphere's lighting (with
// `#define NORMAL_MAP`, light.normalMap: the sprite's own normals). draw-params.glsl (the uniforms)
// comes before this file.
precision highp float;
in vec4 vColor;
in vec2 vUv;
in vec2 vSheetUv;
in vec2 vNextUv;
flat in float vFade;
flat in vec2 vAgeLife;
// a flipbook image (the sprite, the normal map) at this fragment: this frame's cell, cross-faded
// into the next one's with `#define CROSS_FADE` (spriteSheet.blend, more than one frame; without
// it, one read a pixel)
vec4 flipbook(highp sampler2D image) {
  vec4 a = texture(image, vSheetUv);
#ifdef CROSS_FADE
  a = mix(a, texture(image, vNextUv), vFade);
#endif
  return a;
}
#ifdef LIT
#ifdef UPRIGHT
// an upright quad's corner frame is the camera's: the light there is the uniforms' alone (the
// vertex stage's vLight of a turned quad at angle 0), computed here rather than handed over
#define LIGHT_DIR vec3(dot(ps.light.xyz, ps.viewRight.xyz), dot(ps.light.xyz, ps.viewUp.xyz), dot(ps.light.xyz, cross(ps.viewRight.xyz, ps.viewUp.xyz)))
#else
flat in vec4 vLight;
#define LIGHT_DIR vLight.xyz
#endif
// lit particles: ambient + the light's colour · max(n · l, 0), n in the corner's frame; the
// light's colour is the vertex stage's where a shadow map tests each particle, else the uniforms'
// (draw.wgsl's VertexOut says why: a varying costs llvmpipe what it holds, even a constant)
#ifdef SHADOW
flat in vec4 vLightColor;
#define LIGHT_COLOR vLightColor
#else
#define LIGHT_COLOR ps.lightColor
#endif
vec3 lightOf(vec3 n) {
  return ps.ambient.rgb + LIGHT_COLOR.rgb * max(dot(n, LIGHT_DIR), 0.0);
}
#ifdef NORMAL_MAP
// lit sprites: the normal map's normal (normal-map.wgsl says how), at the sprite's uv
uniform highp sampler2D normalMap;
vec3 lighting() {
  vec3 n = flipbook(normalMap).xyz * 2.0 - 1.0;
  return lightOf(n * inversesqrt(max(dot(n, n), 1e-12)));
}
#else
// lit particles: the light on a sphere facing the camera, at this point of the quad
vec3 lighting() {
  return lightOf(vec3(vUv, sqrt(max(1.0 - dot(vUv, vUv), 0.0))));
}
#endif
#endif
out vec4 outColor;
// IGNIS-LOOK-CODE
#ifdef SPRITE
uniform highp sampler2D sprite;
#endif
#ifdef SOFT
uniform highp sampler2D sceneDepth;
float softness() {
  float scene = texelFetch(sceneDepth, ivec2(gl_FragCoord.xy), 0).r;
  float gap = ps.soft.z / (scene + ps.soft.y) - ps.soft.z / (gl_FragCoord.z + ps.soft.y);
  return clamp(gap / ps.soft.x, 0.0, 1.0);
}
#else
float softness() { return 1.0; }
#endif
void main() {
#if defined(LOOK)
  outColor = IGNIS_LOOK;
#elif defined(SPRITE)
  outColor = vColor * flipbook(sprite);
#else
  float r2 = dot(vUv, vUv);
  outColor = vec4(vColor.rgb, vColor.a * (1.0 - smoothstep(0.25, 1.0, r2)));
#endif
#ifdef LIT
  outColor.rgb *= lighting();
#endif
  outColor.a *= softness();
}
