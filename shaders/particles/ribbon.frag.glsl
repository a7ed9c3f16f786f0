// Trail ribbons for WebGL2: soft across the width, as ribbon.wgsl's fragment stage.
precision highp float;
in vec4 vColor;
in vec2 vUv;
out vec4 outColor;
void main() {
  float s = vUv.y * 2.0 - 1.0;
  outColor = vec4(vColor.rgb, vColor.a * (1.0 - s * s));
}
