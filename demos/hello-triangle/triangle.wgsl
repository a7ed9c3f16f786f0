struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
};

@vertex
fn vs(@location(0) position: vec2f, @location(1) color: vec4f) -> VertexOut {
  return VertexOut(vec4f(position, 0.0, 1.0), color);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  return in.color;
}
