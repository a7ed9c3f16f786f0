#version 300 es
// One object: a small square at its own place (xy), of its size (z), the canvas's height/width (w).
layout(std140) uniform Object { vec4 place; vec4 color; };
void main() {
  int i = gl_VertexID;
  vec2 corner = vec2(i == 1 || i == 4 || i == 5 ? 1.0 : 0.0, i == 2 || i == 3 || i == 5 ? 1.0 : 0.0);
  gl_Position = vec4(place.xy + (corner - 0.5) * vec2(place.z * place.w, place.z), 0.0, 1.0);
}
