#version 300 es
precision highp float;
layout(std140) uniform Object { vec4 place; vec4 color; };
out vec4 outColor;
void main() { outColor = color; }
