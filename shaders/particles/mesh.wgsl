// Mesh particles (options.geometry): each particle drawn as a triangle mesh. Appended to draw.wgsl
// (DrawParams, the colour over life, the angle); src/particles/mesh-draw.ts appends the vertex
// entry point, which finds the particle (its state from buffers or textures, in slot or sorted
// order) and the mesh's vertex (an attribute in instanced mode, the corner texture when pulled).

struct MeshOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  // the normal in the world (not yet of unit length: interpolated)
  @location(1) normal: vec3f,
  // the point in the world: lit, the shadow map (light.shadow) is tested per fragment
  @location(2) world: vec3f,
};

// The particle's turn and scale as three columns (x, y, z of the mesh in the world) and the
// normals' matrix beside it. billboard 'camera': the angle about an axis of the particle's own
// (uniform on the sphere, hashed from its slot and life like the angle); 'velocity': the mesh's
// +y along the velocity, rolled about it by the angle, stretched along it by 1 + stretch · speed.
struct MeshTurn {
  m: mat3x3f,
  n: mat3x3f,
};

fn meshTurn(id: u32, life: f32, angle: f32, velocity: vec3f) -> MeshTurn {
  let s = sin(angle);
  let c = cos(angle);
  if (ps.viewUp.w < 0.5) {
    let h = pcg(pcg((id * 747796405u) ^ bitcast<u32>(life)) ^ 0x9e3779b9u);
    let z = f32(h & 0xffffu) / 65535.0 * 2.0 - 1.0;
    let phi = f32(h >> 16u) / 65535.0 * 6.28318530718;
    let rxy = sqrt(max(1.0 - z * z, 0.0));
    let a = vec3f(rxy * cos(phi), rxy * sin(phi), z);
    // Rodrigues: R = c I + s [a]x + (1 - c) a aᵀ, by columns
    let k = 1.0 - c;
    let r = mat3x3f(
      vec3f(c + k * a.x * a.x, k * a.x * a.y + s * a.z, k * a.x * a.z - s * a.y),
      vec3f(k * a.y * a.x - s * a.z, c + k * a.y * a.y, k * a.y * a.z + s * a.x),
      vec3f(k * a.z * a.x + s * a.y, k * a.z * a.y - s * a.x, c + k * a.z * a.z),
    );
    return MeshTurn(r, r);
  }
  let speed = length(velocity);
  let y = select(vec3f(0.0, 1.0, 0.0), velocity / max(speed, 1e-30), speed > 1e-5);
  let reference = select(vec3f(0.0, 0.0, 1.0), vec3f(1.0, 0.0, 0.0), abs(y.z) > 0.9);
  let x0 = normalize(cross(y, reference));
  let z0 = cross(x0, y);
  let x = x0 * c - z0 * s;
  let z = x0 * s + z0 * c;
  let stretch = 1.0 + ps.viewRight.w * speed;
  return MeshTurn(mat3x3f(x, y * stretch, z), mat3x3f(x, y / stretch, z));
}

// one vertex of particle `id`'s mesh: `local` and `normal` are the mesh's
fn meshVertex(p: vec4f, v: vec4f, local: vec3f, normal: vec3f, id: u32) -> MeshOut {
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let scale = ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  let turn = meshTurn(id, v.w, angleOf(id, v.w, p.w), v.xyz);
  let world = p.xyz + turn.m * (local * scale);
  // a dead slot (emission: life < 0) collapses to a corner of the target: a triangle of no area,
  // which no rasteriser samples. Not outside the clip volume: that constant alone, never output,
  // cost lavapipe 10% of a draw (docs/benchmarks.md, "Paired ratios, and the dead slots")
  let culled = vec4f(-1.0, -1.0, 0.0, 1.0);
  return MeshOut(select(culled, ps.viewProjection * vec4f(world, 1.0), v.w > 0.0), gradient(t) * tintOf(id), turn.n * normal, world);
}

// lit meshes (options.light): ambient + the light's colour · max(n · l, 0)
@fragment
fn fs(in: MeshOut) -> @location(0) vec4f {
  let n = normalize(in.normal);
  let lit = ps.ambient.rgb + lightColorAt(in.world).rgb * max(dot(n, ps.light.xyz), 0.0);
  return vec4f(in.color.rgb * lit, in.color.a);
}

// Unlit meshes: the colour as it is, in a pipeline of their own — no lighting computed and selected
// away per fragment, and no normal or world point handed over: their vertex entry point returns
// unlitOf(meshVertex(…)) (mesh-draw.ts), as lavapipe sets up every varying a vertex stage writes,
// read or not
struct UnlitOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
};

fn unlitOf(o: MeshOut) -> UnlitOut {
  return UnlitOut(o.position, o.color);
}

@fragment
fn fsUnlit(in: UnlitOut) -> @location(0) vec4f {
  return in.color;
}
