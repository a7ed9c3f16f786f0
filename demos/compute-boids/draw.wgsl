// Each boid is one instance: a small triangle pointing along its velocity, coloured by heading.
struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
};

@vertex
fn vs(@location(0) boidPos: vec2f, @location(1) boidVel: vec2f, @location(2) corner: vec2f) -> VertexOut {
  let angle = -atan2(boidVel.x, boidVel.y);
  let c = cos(angle);
  let s = sin(angle);
  let p = vec2f(corner.x * c - corner.y * s, corner.x * s + corner.y * c);
  let heading = normalize(boidVel) * 0.5 + 0.5;
  return VertexOut(vec4f(p + boidPos, 0.0, 1.0), vec4f(1.0 - heading.x, heading.y, 0.6 + 0.4 * heading.x, 1.0));
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  return in.color;
}
