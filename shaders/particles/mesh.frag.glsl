// Mesh particles for WebGL2: the colour over life, lit by the interpolated normal when the system
// has a light (ps.light.w 1: ambient + the light's colour · max(n · l, 0)). draw-params.glsl (the
// uniforms) comes before this file.
in vec4 vColor;
in vec3 vNormal;
in vec3 vWorld;
out vec4 outColor;
void main() {
  vec3 n = normalize(vNormal);
  vec3 lit = ps.ambient.rgb + lightColorAt(vWorld).rgb * max(dot(n, ps.light.xyz), 0.0);
  outColor = vec4(vColor.rgb * (ps.light.w > 0.5 ? lit : vec3(1.0)), vColor.a);
}
