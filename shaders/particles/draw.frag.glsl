#version 300 es
precision highp float;
in vec4 vColor;
in vec2 vUv;
out vec4 outColor;
void main() {
  float r2 = dot(vUv, vUv);
  outColor = vec4(vColor.rgb, vColor.a * (1.0 - smoothstep(0.25, 1.0, r2)));
}
