// Mesh particles for WebGL2: the colour over life; with `#define LIT` (options.light) lit by the
// interpolated normal (ambient + the light's colour · max(n · l, 0)). draw-params.glsl (the
// uniforms) comes before this file.
in vec4 vColor;
in vec3 vNormal;
in vec3 vWorld;
out vec4 outColor;
void main() {
#ifdef LIT
  vec3 n = normalize(vNormal);
  vec3 lit = ps.ambient.rgb + lightColorAt(vWorld).rgb * max(dot(n, ps.light.xyz), 0.0);
  outColor = vec4(vColor.rgb * lit, vColor.a);
#else
  outColor = vColor;
#endif
}
