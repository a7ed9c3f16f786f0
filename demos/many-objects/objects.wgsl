// One object: a small square at its own place, in its own colour (its 32 bytes of a 256-byte slice).
struct Object { place: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> object: Object;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let corner = vec2f(f32(i == 1u || i == 4u || i == 5u), f32(i == 2u || i == 3u || i == 5u));
  let size = object.place.z;
  return vec4f(object.place.xy + (corner - 0.5) * vec2f(size * object.place.w, size), 0.0, 1.0);
}

@fragment fn fs() -> @location(0) vec4f { return object.color; }
