// Ribbons for WebGL2, as ribbon.ts's WGSL fragment stages: soft across the width, or (TEXTURED)
// the look's texture at (along, across), tinted by the colour.
precision highp float;
in vec4 vColor;
in vec2 vUv;
out vec4 outColor;
#ifdef TEXTURED
uniform highp sampler2D ribbonTexture;
#endif
void main() {
#ifdef TEXTURED
  outColor = vColor * texture(ribbonTexture, vUv);
#else
  float s = vUv.y * 2.0 - 1.0;
  outColor = vec4(vColor.rgb, vColor.a * (1.0 - s * s));
#endif
}
