// Camera-facing particle quads: the part shared by every WGSL draw variant. The vertex entry point
// (which fetches the particle from instance attributes, a storage buffer or a state texture) is
// appended by src/particles/draw.ts.
struct DrawParams {
  // projection · view: one product per vertex takes the particle to clip space
  viewProjection: mat4x4f,
  // clip-space offsets of one world unit along the camera's right (x) and up (y) axes: the first
  // two columns of the projection, so a corner is a multiply-add, not a second matrix product
  cornerAxes: mat2x4f,
  colors: array<vec4f, 4>,
  colorStops: vec4f,
  // 1 / (stops[i + 1] - stops[i]) for i = 0..2 (w unused): no division per vertex
  colorScale: vec4f,
  // x: size factor at birth, y: at death, z: size in world units
  sizes: vec4f,
  width: u32,
  count: u32,
  // the target's size in pixels (drawMode 'splat')
  targetWidth: u32,
  targetHeight: u32,
  // the camera's right and up axes in the world; w: stretch, and 1 for billboard 'velocity'
  viewRight: vec4f,
  viewUp: vec4f,
  // the flipbook: columns, rows, frames per unit of speed, flags (1: frames by speed, 2: cross-fade)
  sprite: vec4f,
  // angle at birth in [x, y] radians, spin in [z, w] radians per second
  spin: vec4f,
  // soft particles: x the fade distance (0: off), y and z the projection's [2][2] and [3][2]
  soft: vec4f,
  // lit particles: towards the light (world, unit; w 1 when lit), its colour, the ambient colour
  light: vec4f,
  lightColor: vec4f,
  ambient: vec4f,
  // mesh particles (geometry): x the corners of one mesh (its indices), the pulled draw's stride
  mesh: vec4f,
  // lit particles' shadow map (light.shadow): world to the light's clip space; x the bias, y 1 when read
  shadowMatrix: mat4x4f,
  shadow: vec4f,
};
@group(0) @binding(0) var<uniform> ps: DrawParams;

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  // the corner, (-1, -1) to (1, 1), before any rotation: the disc's falloff and the sprite's uv
  @location(1) uv: vec2f,
  // the flipbook (options.texture, light.normalMap): where this corner lies in the image (0..1, y
  // down, as its rows) in this frame's cell, and in the next frame's. Computed per corner, so the
  // fragment stage reads the image where two floats say (a cell and a fade passed on instead cost
  // lavapipe 1.4× a sprite draw: docs/benchmarks.md, "Sprites against a hand-written sprite")
  @location(2) sheetUv: vec2f,
  @location(3) nextUv: vec2f,
  // the cross-fade into the next frame (spriteSheet.blend), 0 to 1
  @location(4) @interpolate(flat) fade: f32,
  // the particle's age and life (a custom look's p.age, p.life)
  @location(5) @interpolate(flat) ageLife: vec2f,
  // lit particles: towards the light in the corner's frame (x along uv.x, y along uv.y, z towards
  // the camera: turned back by the particle's spin), and, where a shadow map tests each particle
  // (light.shadow), the light's colour reaching it. What the uniforms hold the fragment stage
  // reads from them (ps.lightColor unshadowed, ps.ambient, ps.soft): a varying costs lavapipe per
  // triangle what it holds, even a constant
  @location(6) @interpolate(flat) light: vec4f,
  @location(7) @interpolate(flat) lightColor: vec4f,
};

fn pcg(v: u32) -> u32 {
  let s = v * 747796405u + 2891336453u;
  let w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
  return (w >> 22u) ^ w;
}

// the particle's angle: its own random start and spin (hashed from its slot and its life, so a
// respawn turns differently), the spin applied over its age
fn angleOf(id: u32, life: f32, age: f32) -> f32 {
  let h = pcg((id * 747796405u) ^ bitcast<u32>(life));
  let r = vec2f(f32(h & 0xffffu), f32(h >> 16u)) / 65535.0;
  return mix(ps.spin.x, ps.spin.y, r.x) + mix(ps.spin.z, ps.spin.w, r.y) * age;
}

fn rotate(c: vec2f, angle: f32) -> vec2f {
  let s = sin(angle);
  let k = cos(angle);
  return vec2f(c.x * k - c.y * s, c.x * s + c.y * k);
}

// the top-left uv of flipbook frame `frame` (left to right, top to bottom)
fn cellOf(frame: f32) -> vec2f {
  let row = floor(frame / ps.sprite.x);
  return vec2f(frame - row * ps.sprite.x, row) / ps.sprite.xy;
}

fn corner(i: u32) -> vec2f {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  return corners[i];
}

fn gradient(t: f32) -> vec4f {
  let f = clamp((vec3f(t) - ps.colorStops.xyz) * ps.colorScale.xyz, vec3f(0.0), vec3f(1.0));
  var c = mix(ps.colors[0], ps.colors[1], f.x);
  c = mix(c, ps.colors[2], f.y);
  return mix(c, ps.colors[3], f.z);
}

// a corner in the camera plane: as it is (camera-facing), or (billboard 'velocity') on axes that
// follow the velocity's projection on the camera plane, the long one stretched with its speed
fn billboard(c: vec2f, velocity: vec3f) -> vec2f {
  if (ps.viewUp.w < 0.5) { return c; }
  let onScreen = vec2f(dot(velocity, ps.viewRight.xyz), dot(velocity, ps.viewUp.xyz));
  let speed = length(onScreen);
  let along = select(vec2f(0.0, 1.0), onScreen / speed, speed > 1e-5);
  let across = vec2f(along.y, -along.x);
  return across * c.x + along * (c.y * (1.0 + ps.viewRight.w * speed));
}

fn shade(p: vec4f, v: vec4f, cornerIndex: u32, id: u32) -> VertexOut {
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let halfSize = 0.5 * ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  let c = corner(cornerIndex);
  let angle = angleOf(id, v.w, p.w);
  let turned = rotate(c, angle);
  let position = ps.viewProjection * vec4f(p.xyz, 1.0) + ps.cornerAxes * (billboard(turned, v.xyz) * halfSize);
  let flags = u32(ps.sprite.w);
  let frames = ps.sprite.x * ps.sprite.y;
  let f = clamp(select(t * frames, length(v.xyz) * ps.sprite.z, (flags & 1u) != 0u), 0.0, frames - 1.0);
  let frame = floor(f);
  let local = (vec2f(c.x, -c.y) * 0.5 + 0.5) / ps.sprite.xy;
  let sheetUv = cellOf(frame) + local;
  let nextUv = cellOf(min(frame + 1.0, frames - 1.0)) + local;
  let fade = select(0.0, f - frame, (flags & 2u) != 0u);
  // a dead slot (emission: life < 0) collapses to a corner of the target: a triangle of no area,
  // which no rasteriser samples. Not outside the clip volume: that constant alone, never output,
  // cost lavapipe 10% of a draw (docs/benchmarks.md, "Paired ratios, and the dead slots")
  let culled = vec4f(-1.0, -1.0, 0.0, 1.0);
  return VertexOut(select(culled, position, v.w > 0.0), gradient(t), c, sheetUv, nextUv, fade, vec2f(p.w, v.w), lightFrame(angle), lightColorAt(p.xyz));
}

// lit particles: the light's colour reaching the world point `p` (a quad's centre, a mesh's vertex).
// draw.ts puts the shadow map's test in place of the marker for pipelines with light.shadow
// (shadow.wgsl; drawWgslFor).
fn lightColorAt(p: vec3f) -> vec4f {
  // IGNIS-SHADOW
  return ps.lightColor;
}

// lit particles: the light in the camera's right, up and backward axes, turned back by the spin.
// draw.ts puts the computation in place of the marker for lit pipelines (LIGHT_FRAME); unlit
// draws (and the splat, which includes this file) return nothing and pay nothing per vertex.
fn lightFrame(angle: f32) -> vec4f {
  // IGNIS-LIGHT-FRAME
  return vec4f(0.0);
}

// lit particles: the light on a sphere facing the camera, at this point (uv) of the quad
fn lighting(uv: vec2f, light: vec4f, lightColor: vec4f, ambient: vec4f) -> vec3f {
  return lightOf(vec3f(uv, sqrt(max(1.0 - dot(uv, uv), 0.0))), light, lightColor, ambient);
}

// lit particles: ambient + the light's colour · max(n · l, 0), n in the corner's frame (x along
// uv.x, y along uv.y, z towards the camera); light as the vertex stage handed it over, lightColor
// as it or the uniforms say (fragmentWgsl), ambient the uniforms'
fn lightOf(n: vec3f, light: vec4f, lightColor: vec4f, ambient: vec4f) -> vec3f {
  return ambient.rgb + lightColor.rgb * max(dot(n, light.xyz), 0.0);
}

// the soft disc of a colour at a corner's uv; sprite.wgsl has the textured look. The fragment entry
// point (draw.ts) multiplies the look's alpha by `softness` (soft.wgsl) where the pipeline is soft
fn disc(color: vec4f, uv: vec2f) -> vec4f {
  let r2 = dot(uv, uv);
  return vec4f(color.rgb, color.a * (1.0 - smoothstep(0.25, 1.0, r2)));
}
