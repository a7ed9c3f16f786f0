// WGSL kernels the portable-compute tests share (Node: CPU path against references; browser:
// every path against the CPU path).
/** The PCG hash (O'Neill), u32 products past 2^53 included. */
export const PCG = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  // without this guard WebGPU may clamp the spare invocations' writes onto the last element
  if (gid.x >= arrayLength(&o)) { return; }
  let state = gid.x * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  o[gid.x] = (word >> 22u) ^ word;
}`;

/** A switch over negative integers: WGSL's division and remainder, which GLSL leaves undefined. */
export const MIXER = /* wgsl */ `
fn mixer(a: i32, b: i32) -> i32 {
  var r = a;
  switch (b & 3) {
    case 0: { r = r * 31 - b; }
    case 1, 2: { r = (r ^ b) / 7; }
    default: { r = -r % 5; }
  }
  return r;
}`;

/** A kernel of integer hashing, loops, switch, helper functions and every scalar type. */
export const HASH = /* wgsl */ `
struct Out { h: u32, f: f32, i: i32, v: vec2u }
@group(0) @binding(0) var<uniform> seed: vec4u;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<Out>;
const ROUNDS = 3u;
fn xorshift(v: u32) -> u32 {
  var x = v | 1u;
  x ^= x << 13u;
  x ^= x >> 17u;
  x ^= x << 5u;
  return x;
}
${MIXER}
@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&dst)) { return; }
  var h = seed.x ^ src[(i * 7u) % arrayLength(&src)];
  for (var k = 0u; k < ROUNDS; k++) { h = xorshift(h + k); }
  var n = 0u;
  loop {
    if (n >= (h & 7u)) { break; }
    n += 1u;
    continuing { h = h ^ (n << 3u); }
  }
  let f = f32(h & 0xffffu) / 65536.0;
  dst[i].h = h;
  dst[i].f = select(f * 2.0 - 1.0, floor(f * 10.0), (h & 1u) == 1u);
  dst[i].i = mixer(bitcast<i32>(h), i32(i) - 4);
  dst[i].v = vec2u(h >> 16u, min(h, seed.y)) + vec2u(1u);
}`;

/** Nine writable arrays: more than WebGL2's 8 colour attachments, so the ping-pong path splits. */
export const NINE_OUTPUTS = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<vec4u>;
${Array.from({ length: 9 }, (_, k) => `@group(0) @binding(${k + 1}) var<storage, read_write> o${k}: array<u32>;`).join('\n')}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&o0)) { return; }
  let s = src[i % arrayLength(&src)];
${Array.from({ length: 9 }, (_, k) => `  o${k}[i] = (s.x * ${k + 3}u) ^ (s.y >> ${k}u) ^ (i * ${2 * k + 1}u);`).join('\n')}
}`;

/** A particle behaviour (docs/particles.md): a swirl around the emitter, respawning at the end of life. */
export const SWIRL_BEHAVIOR = /* wgsl */ `
fn behavior(index: u32, p: Particle) -> Particle {
  let age = p.position.w + params.dt;
  if (age >= p.velocity.w) {
    return spawn(index);
  }
  let r = p.position.xyz - params.emitterPosition;
  let swirl = vec3f(-r.z, 0.0, r.x) * params.swirl;
  let v = p.velocity.xyz + (swirl + params.gravity * params.lift) * params.dt;
  return Particle(vec4f(p.position.xyz + v * params.dt, age), vec4f(v, p.velocity.w));
}`;

/** A behaviour that reads another particle (reads: 'all'): each takes its neighbour's position. */
export const SHIFT_BEHAVIOR = /* wgsl */ `
fn behavior(index: u32, p: Particle) -> Particle {
  let next = particle((index + 1u) % params.count);
  return Particle(vec4f(next.position.xyz, p.position.w + params.dt), p.velocity);
}`;

/**
 * `wgsl` with its storage arrays declared the way most public WGSL declares them: each
 * `var<storage, …> name: array<T>` becomes `name: Name_` of a `struct Name_ { items: array<T> }`,
 * each `name[` becomes `name.items[` and `arrayLength(&name)` becomes `arrayLength(&name.items)`.
 * The same memory, so every path must give the same bits as for `wgsl`.
 */
export function wrapStorageArrays(wgsl: string): string {
  const names: string[] = [];
  let out = wgsl.replace(
    /var<storage(,\s*\w+)?>\s+(\w+)\s*:\s*array<(\w+)>;/g,
    (_m, access: string | undefined, name: string, element: string) => {
      names.push(name);
      return `var<storage${access ?? ''}> ${name}: ${name}_;\nstruct ${name}_ { items: array<${element}> };`;
    },
  );
  for (const n of names)
    out = out
      .replace(new RegExp(`\\b${n}\\[`, 'g'), `${n}.items[`)
      .replace(new RegExp(`arrayLength\\(&${n}\\)`, 'g'), `arrayLength(&${n}.items)`);
  return out;
}

/**
 * Vector constructors without their element type, as WGSL allows and public shaders write them
 * (`vec4(…)`, `vec2(1, 2)` of abstract integers → vec2<i32>); `INFERRED_SPELLED` is the same
 * kernel with every type spelled out, so every path must give the same bits for both.
 */
export const INFERRED = /* wgsl */ `
@group(0) @binding(0) var<storage, read> a: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4f>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  let p = a[i];
  let k = vec2(3, -2);
  let q = vec4(p.xyz * 0.5, 1.0) + vec4(f32(k.x), f32(k.y), 0.25, 0.0);
  b[i] = q * vec4(vec2(p.w), vec2(2.0, 0.5));
}
`;
export const INFERRED_SPELLED = INFERRED.replace('vec2(3, -2)', 'vec2<i32>(3, -2)')
  .replace(/vec4\(/g, 'vec4f(')
  .replace(/vec2\(/g, 'vec2f(')
  .replace('vec2f<i32>', 'vec2<i32>');

/**
 * A cellular automaton over a 2-D grid, written the way public WebGPU samples write it: a single
 * vec2 in read-only storage, a workgroup size from an override, and writes through a helper that
 * wraps the index with %. Dispatched with count: [width, height].
 */
export const LIFE = /* wgsl */ `@binding(0) @group(0) var<storage, read> size: vec2<u32>;
@binding(1) @group(0) var<storage, read> current: array<u32>;
@binding(2) @group(0) var<storage, read_write> next: array<u32>;

override blockSize = 8;

fn getIndex(x: u32, y: u32) -> u32 {
  let h = size.y;
  let w = size.x;
  return (y % h) * w + (x % w);
}

fn getCell(x: u32, y: u32) -> u32 {
  return current[getIndex(x, y)];
}

fn countNeighbors(x: u32, y: u32) -> u32 {
  return getCell(x - 1, y - 1) + getCell(x, y - 1) + getCell(x + 1, y - 1) +
         getCell(x - 1, y) + getCell(x + 1, y) +
         getCell(x - 1, y + 1) + getCell(x, y + 1) + getCell(x + 1, y + 1);
}

@compute @workgroup_size(blockSize, blockSize)
fn main(@builtin(global_invocation_id) grid: vec3u) {
  let x = grid.x;
  let y = grid.y;
  let n = countNeighbors(x, y);
  next[getIndex(x, y)] = select(u32(n == 3u), u32(n == 2u || n == 3u), getCell(x, y) == 1u);
}
`;

/** Every compute built-in of a 3-D dispatch, written to the invocation's own vec4u. */
export const BUILTINS = /* wgsl */ `@group(0) @binding(0) var<storage, read_write> out: array<vec4u>;
@compute @workgroup_size(4, 2, 2)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_id) l: vec3u,
        @builtin(workgroup_id) w: vec3u, @builtin(num_workgroups) n: vec3u,
        @builtin(local_invocation_index) li: u32) {
  let width = n.x * 4u;
  let height = n.y * 2u;
  let i = g.x + g.y * width + g.z * width * height;
  out[i] = vec4u(l.x + 10u * l.y + 100u * l.z, w.x + 10u * w.y + 100u * w.z, li, n.x + 10u * n.y + 100u * n.z);
}
`;

/** Particles in a struct with members before its array, stepped with parameters in read-only storage. */
export const PARTICLES_HEADER = /* wgsl */ `struct Item { p: vec2f, v: vec2f };
struct Particles { count: u32, gravity: f32, pad: vec2u, items: array<Item> };
struct Params { dt: f32, damping: f32 };
@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read_write> ps: Particles;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= ps.count || i >= arrayLength(&ps.items)) { return; }
  var it = ps.items[i];
  it.v = it.v * params.damping + vec2f(0.0, -ps.gravity) * params.dt;
  it.p = it.p + it.v * params.dt;
  ps.items[i] = it;
}
`;

/** Two overrides, one with an @id: b = a * scale + offset. */
export const SCALE = /* wgsl */ `override scale: f32 = 2.0;
@id(7) override offset: u32 = 1u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) id: vec3u) {
  b[id.x] = a[id.x] * scale + f32(offset);
}
`;

/**
 * WGSL as the specification allows it: `array(…)` inferred, module-scope constants of vector and
 * array type, a bare block, shadowing (of a local, and of a module-scope constant).
 */
export const SCOPES = /* wgsl */ `const weights = array(0.25, 0.5, 0.25);
const up = vec2f(0.5, 2.0);
const bias = 0.125;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  let n = arrayLength(&a);
  if (i >= n) { return; }
  var sum = 0.0;
  for (var k = 0u; k < 3u; k++) {
    let j = min(max(i + k, 1u) - 1u, n - 1u);
    sum += a[j] * weights[k];
  }
  {
    let sum = sum * 2.0; // shadows the outer sum in this block only
    b[i] = sum;
  }
  let taps = array(1, 2, 3);
  let bias = bias * 2.0 + f32(i % 4u); // shadows the module-scope constant from here on
  b[i] = b[i] + sum + f32(taps[i % 3u]) * up.y + bias;
}
`;

/** An image filter: a 3×3 box blur of a sampled texture into a storage array, on a 2-D grid. */
export const BLUR = /* wgsl */ `@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(src);
  if (id.x >= size.x || id.y >= size.y) { return; }
  var sum = vec4f(0.0);
  for (var dy = -1; dy <= 1; dy++) {
    for (var dx = -1; dx <= 1; dx++) {
      let p = clamp(vec2i(id.xy) + vec2i(dx, dy), vec2i(0), vec2i(size) - 1);
      sum += textureLoad(src, p, 0);
    }
  }
  dst[id.y * size.x + id.x] = sum * (1.0 / 9.0);
}
`;

/**
 * Random numbers from `var<private>` state, the way public particle shaders write them
 * (webgpu-samples' "particles": `var<private> rand_seed: vec2f` set by `init_rand`, advanced by
 * `rand()`): a generator seeded per invocation, a counter with an initializer, a vector changed
 * member by member in a helper, and a local that shadows a private value. Integer state, so
 * every path can give the same bits (the sample's `cos`-based generator would not: a GPU's `cos`
 * is within a few ulp of JavaScript's, and `fract` of large values spreads that).
 */
export const PRIVATE_RNG = /* wgsl */ `struct Particle { position: vec2f, velocity: vec2f, life: f32, seed: u32 }
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read_write> draws_made: array<u32>;

const START = vec2f(0.5, -0.25);
var<private> rng: u32;
var<private> draws: u32 = 0u;
var<private> jitter = START;

fn init_rng(index: u32, seed: u32) {
  rng = (index * 747796405u) ^ seed;
}

fn next() -> u32 {
  rng ^= rng << 13u;
  rng ^= rng >> 17u;
  rng ^= rng << 5u;
  draws += 1u;
  return rng;
}

fn rand() -> f32 {
  return f32(next() >> 8u) / 16777216.0;
}

fn nudge(v: vec2f) -> vec2f {
  jitter.x = jitter.x * 0.5 + rand();
  jitter.y += 0.125;
  return v + jitter;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&particles)) { return; }
  var p = particles[i];
  init_rng(i, p.seed);
  if (p.life <= 0.0) {
    p.position = vec2f(rand(), rand()) * 2.0 - 1.0;
    p.velocity = nudge(vec2f(0.0, 1.0));
    p.life = 1.0 + rand();
  } else {
    p.position += p.velocity * 0.125;
    p.life -= 0.375;
  }
  {
    let draws = draws * 2u + 1u; // shadows the private counter in this block only
    p.seed = next() ^ (draws << 24u);
  }
  particles[i] = p;
  draws_made[i] = draws;
}
`;

/**
 * Matrices as compute shaders use them: a transform from the uniforms applied to positions
 * (`m * v`), a constant rotation composed with a stored basis (`m * m`, `m * s`), columns read and
 * written (`m[1]`, `m[0].y`), `v * m`, `transpose`, `determinant`, a matrix built from columns
 * (its element type inferred), and `m - m`. The values are small multiples of powers of two, so every product and sum is exact
 * and every path must give the same bits: a row read for a column, a product in the wrong order
 * or a column stride off by a word changes them.
 */
export const MATRICES = /* wgsl */ `struct Params { transform: mat4x4f, tint: mat3x3f, scale: f32 }
struct Item { p: vec4f, basis: mat2x2f, n: vec3f }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> items: array<Item>;
@group(0) @binding(2) var<storage, read_write> out: array<Item>;
@group(0) @binding(3) var<storage, read_write> dets: array<f32>;

const TURN = mat2x2f(0.0, 1.0, -1.0, 0.0);

fn frame(n: vec3f, i: u32) -> mat3x3<f32> {
  return mat3x3(n, vec3f(0.0, 1.0, 0.0), vec3f(f32(i % 3u), 0.0, 1.0)); // f32 inferred
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&items)) { return; }
  var it = items[i];
  it.p = params.transform * it.p;
  it.basis = TURN * it.basis * params.scale;
  it.basis[1] = it.basis[1] + vec2f(0.5, -0.5);
  it.basis[0].y -= 1.0;
  it.n = it.n * params.tint + transpose(params.tint)[2];
  var m = frame(it.n, i);
  m -= mat3x3f();
  m *= 2.0;
  out[i] = it;
  dets[i] = determinant(m) + determinant(it.basis) + determinant(params.transform);
}
`;

/** PRIVATE_RNG's particles (24 bytes each): varied positions, lives around 0, and seeds. */
export function privateRngParticles(n: number): Uint32Array {
  const words = new Uint32Array(6 * n);
  const f = new Float32Array(words.buffer);
  for (let i = 0; i < n; i++) {
    f.set([Math.sin(i), Math.cos(i), 0.5, -1, (i % 5) * 0.5 - 0.5], 6 * i);
    words[6 * i + 5] = Math.imul(i + 1, 2654435761) >>> 0;
  }
  return words;
}

/**
 * MATRICES' buffers: `params` (Params: a mat4x4f, a mat3x3f whose columns are 16 bytes apart, a
 * scale) and `n` items (Item: vec4f, mat2x2f, vec3f; a 48-byte stride), of exact small values.
 */
export function matricesBuffers(n: number): { params: Float32Array; items: Float32Array } {
  const params = new Float32Array(32);
  params.set([2, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1, 0, 1, -1, 0.25, 1], 0);
  params.set([1, 0, 0.5, 0, 0, 2, 0, 0, 0.25, 0, 1, 0], 16);
  params[28] = 0.5;
  const items = new Float32Array(12 * n);
  for (let i = 0; i < n; i++)
    items.set(
      [(i % 8) / 8, 1 - (i % 5) / 4, 0.5, 1, 1, (i % 3) / 2, -0.25, 2, (i % 4) / 2, 1, -1],
      12 * i,
    );
  return { params, items };
}

/**
 * The integer-bit, packing and remaining numeric built-ins, as hashes, sorts, compute rasterisers
 * and compressed particle state use them: bit counts, first bits, fields extracted and inserted,
 * reversed words (on u32 and i32 scalars and vectors), 8- and 16-bit packings both ways, `ldexp`,
 * `frexp`, `modf`, `refract`, `faceForward`, `quantizeToF16`. Each step scrambles the words with
 * them (so ten steps go through many patterns); the integers must have the same bits on every path,
 * the floats within 2 ulp. Conversions to binary16 take values it holds exactly: WGSL leaves the
 * rounding of the others to the GPU.
 */
export const BITS = /* wgsl */ `struct Item { bits: vec4u, signed: vec4i }
struct Ints {
  ones: vec4u, lead: vec4i, trail: vec4u, first: vec4i,
  field: vec4i, inserted: vec4u, bytes: vec4i, words: vec4u, exps: vec4i,
}
struct Floats {
  snorm8: vec4f, unorm8: vec4f, halves: vec4f, scaled: vec4f, refracted: vec4f, faced: vec4f, parts: vec4f,
}
@group(0) @binding(0) var<storage, read_write> items: array<Item>;
@group(0) @binding(1) var<storage, read_write> ints: array<Ints>;
@group(0) @binding(2) var<storage, read_write> floats: array<Floats>;

// -1.24 … 0.74 (the packings clamp), an odd multiple of 1/128: 65535 × it is exact in f32 and
// never a half, so the norm packings have one answer whether a GPU rounds the product, fuses it
// with the add, or rounds a tie its own way (SPIR-V's PackSnorm4x8, under Dawn and wgpu on these
// CPUs, does not take WGSL's ⌊0.5 + 127 × e⌋ at -63.5)
fn signedValue(w: u32) -> f32 {
  return (f32((w & 0xffu) | 1u) - 160.0) / 128.0;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&items)) { return; }
  let it = items[i];
  let b = it.bits;
  let s = it.signed;
  var o: Ints;
  o.ones = countOneBits(b) + vec4u(u32(countOneBits(s.x)), countOneBits(0u), 0u, 0u) * 64u;
  o.lead = countLeadingZeros(s) + vec4i(0, 0, 0, i32(countLeadingZeros(b.w))) * 64;
  o.trail = countTrailingZeros(b.zyxw) + vec4u(countTrailingZeros(0u), 0u, 0u, 0u);
  o.first = vec4i(firstLeadingBit(s.x), firstLeadingBit(s.y >> 9u), i32(firstLeadingBit(b.x)),
                  firstTrailingBit(s.z)) * 100 + vec4i(firstLeadingBit(vec4i(0, -1, 1, -2)).yzw, 0)
          + vec4i(bitcast<vec4i>(firstTrailingBit(b & vec4u(0u, 0xffffffffu, 0x80000000u, 0x10u))));
  // fields past the word's end (computed: with constants WGSL refuses them) are clamped to it
  let offset = b.y & 31u;
  let count = (b.z & 15u) * 3u;
  let far = offset + 20u;
  o.field = vec4i(extractBits(s.x, offset, count), extractBits(s.y, far, 9u),
                  i32(extractBits(b.x, offset, count)), extractBits(s.w, far + 12u, 3u))
          + extractBits(s, 4u, 7u) * 1000;
  o.inserted = insertBits(b, b.yzwx, offset, count) ^ vec4u(bitcast<u32>(insertBits(s.x, -1, far, 5u)),
               insertBits(b.x, 0u, 0u, 32u), insertBits(b.y, 7u, far + 13u, 2u), reverseBits(b.z));
  let unit = vec4f(signedValue(b.x), signedValue(b.x >> 16u), signedValue(b.y), signedValue(b.y >> 24u));
  o.bytes = unpack4xI8(b.z) + vec4i(bitcast<i32>(pack4xI8Clamp(s >> vec4u(20u))), 0, 0, 0)
          + unpack4xI8(pack4xI8(s)) * 256 + bitcast<vec4i>(unpack4xU8(pack4xU8Clamp(b & vec4u(0x1ffu)))) * 65536;
  o.words = vec4u(pack4x8snorm(unit), pack4x8unorm(unit), pack2x16snorm(unit.zw), pack2x16unorm(unit.xy))
          ^ vec4u(pack4xU8(b >> vec4u(3u)), dot4U8Packed(b.x, b.y), bitcast<u32>(dot4I8Packed(b.z, b.w)),
                  pack2x16float(vec2f(f32(b.w & 0x3ffu) / 64.0 - 8.0, -1.5)));
  let v = f32(s.x >> 8u) / 256.0;
  let m = modf(v);
  let mv = modf(vec2f(v, -v * 0.5));
  let f = frexp(v * 3.0);
  let fv = frexp(unit.xyz * 1024.0);
  o.exps = vec4i(f.exp, fv.exp) * 256 + vec4i(i32(m.whole), i32(mv.whole.y), 0, 0);
  ints[i] = o;

  var r: Floats;
  r.snorm8 = unpack4x8snorm(b.z);
  r.unorm8 = unpack4x8unorm(b.w);
  // values a binary16 holds exactly: between two halves WGSL lets each GPU round either way
  // (Dawn on SwiftShader truncates in quantizeToF16 and rounds to nearest in pack2x16float)
  let halves = vec2f(f32(b.w & 0x3ffu) / 64.0 - 8.0, f32(b.z >> 22u) * -0.25);
  r.halves = vec4f(unpack2x16snorm(b.x), unpack2x16unorm(b.y)) + vec4f(unpack2x16float(pack2x16float(halves)), 0.0, 0.0);
  r.scaled = vec4f(ldexp(unit.x, (s.y & 15) - 8), ldexp(unit.yz, vec2i(-20, 40)), quantizeToF16(halves.y * 0.5));
  // refraction of a ray with exact components (no cancellation left to round differently):
  // through a surface for eta 0.75, total internal reflection (a zero vector) for the larger ratios
  let e1 = vec3f(unit.xy * 0.5, -0.25 - f32(b.w >> 28u) / 16.0);
  let eta = 0.75 + f32(b.w & 3u) * 0.5;
  r.refracted = vec4f(refract(e1, vec3f(0.0, 0.0, 1.0), eta), eta);
  r.faced = vec4f(faceForward(unit.xyz, e1, vec3f(0.0, 1.0, 0.0)), 0.0);
  r.parts = vec4f(m.fract, mv.fract, f.fract) + vec4f(fv.fract, 0.0);
  floats[i] = r;

  // the next step's words: a hash built from the same functions
  var next = it;
  next.bits = reverseBits(b * 747796405u + vec4u(2891336453u)) ^ insertBits(b.yzwx, b, 7u, 11u);
  next.signed = bitcast<vec4i>(next.bits.wzyx) ^ (extractBits(s, 3u, 20u) << vec4u(5u));
  items[i] = next;
}
`;

/** BITS' items (32 bytes each): hashed words, some with every bit set, none, or only the sign. */
export function bitsItems(n: number): Uint32Array {
  const words = new Uint32Array(8 * n);
  for (let k = 0; k < words.length; k++) {
    let h = Math.imul(k ^ 0x9e3779b9, 2654435761) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
    words[k] = [0, 0xffffffff, 0x80000000, 1][k % 13] ?? (h ^ (h >>> 13)) >>> 0;
  }
  return words;
}

/**
 * Pointer parameters as public compute shaders use them: a PCG generator whose state lives behind
 * a `ptr<function, u32>` (and is passed on to another function), a particle updated in place
 * through a `ptr<function, Particle>` (`(*p).x`, `p.x`, `p.v[1]`, `(*p).n++`), and a counter behind
 * a `ptr<private, u32>`. The tallies must have the same bits on every path, the particles the same
 * values within 2 ulp.
 */
export const POINTERS = /* wgsl */ `struct Particle { position: vec2f, velocity: vec2f }
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read_write> tallies: array<vec4u>;

var<private> steps: u32;

fn pcg(state: ptr<function, u32>) -> u32 {
  let old = *state;
  *state = old * 747796405u + 2891336453u;
  let word = ((old >> ((old >> 28u) + 4u)) ^ old) * 277803737u;
  return (word >> 22u) ^ word;
}

fn rand(state: ptr<function, u32>) -> f32 {
  return f32(pcg(state) >> 8u) / 16777216.0;
}

fn count(n: ptr<private, u32>, by: u32) {
  *n += by;
}

fn bounce(p: ptr<function, Particle>, seed: ptr<function, u32>, hits: ptr<function, vec2u>) {
  (*p).position += (*p).velocity * 0.5;
  if (abs(p.position.x) > 1.0) {
    p.velocity.x = -p.velocity.x * (0.5 + rand(seed) * 0.5);
    (*hits).x++;
    count(&steps, 2u);
  }
  p.velocity[1] -= 0.125;
  hits.y += select(0u, 1u, p.velocity.y < 0.0);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&particles)) { return; }
  var p = particles[i];
  var seed = tallies[i].z ^ i;
  var hits = tallies[i].xy;
  steps = 0u;
  for (var k = 0u; k < 3u; k++) {
    bounce(&p, &seed, &hits);
    count(&steps, 1u);
  }
  particles[i] = p;
  tallies[i] = vec4u(hits, seed, tallies[i].w + steps);
}
`;

/**
 * Computed indices past the end of a local array, a vector, a matrix and a matrix column, read and
 * written — negative ones too (an i32 index below 0 is a large u32). WebGPU's robust access keeps
 * each inside (the last element) in Dawn and wgpu alike; GLSL leaves them undefined and JavaScript
 * reads `undefined`, so the fallbacks clamp as WebGPU does. (Past the end of a uniform array the
 * two differ — Dawn clamps, wgpu on lavapipe reads zero or the next member — so that is not
 * compared here; the fallbacks clamp there too.)
 */
export const INDICES = /* wgsl */ `struct Params { weights: array<vec4f, 3>, shift: i32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&out)) { return; }
  var table = array<f32, 5>(1.0, 2.0, 4.0, 8.0, 16.0);
  let k = i % 9u;
  table[k] += 0.5;
  let j = i32(i % 7u) + params.shift;
  var v = vec4f(f32(i), 10.0, 20.0, 30.0);
  v[j] = -1.0;
  let m = mat3x3f(vec3f(1.0, 2.0, 3.0), vec3f(4.0, 5.0, 6.0), vec3f(7.0, 8.0, 9.0));
  out[i] = vec4f(table[k] * 64.0 + table[4], v.x + v.w * 4.0, m[k].y + m[j][i % 4u] * 16.0,
                 params.weights[k % 3u].x + params.weights[u32(j) % 3u].w * 16.0);
}
`;

/**
 * Pointers to a struct member and to array elements (WGSL's `unrestricted_pointer_parameters`
 * language feature): a velocity damped through `&p.velocity`, bins counted through `&bins[k]` at a
 * computed index (past the end it lands on the last bin), one reached through a pointer parameter
 * (`&(*q)[1]`).
 */
export const POINTER_PLACES = /* wgsl */ `struct Particle { position: vec2f, velocity: vec2f }
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read_write> tallies: array<vec4u>;

fn damp(v: ptr<function, vec2f>, k: f32) {
  *v = *v * k;
}

fn tally(bin: ptr<function, u32>) {
  *bin += 1u;
}

fn second(q: ptr<function, array<u32, 3>>) {
  tally(&(*q)[1]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&particles)) { return; }
  var p = particles[i];
  var bins = array<u32, 3>(0u, 10u, 20u);
  for (var k = 0u; k < 3u; k++) {
    tally(&bins[(i + k) % 4u]);
  }
  second(&bins);
  damp(&p.velocity, 0.75);
  particles[i] = p;
  tallies[i] = vec4u(bins[0], bins[1], bins[2], tallies[i].w + 1u);
}
`;

// ---- cooperative kernels: workgroup memory, barriers, atomics (compute and the CPU path only)

/** A tree sum of each workgroup's 64 values in workgroup memory, a barrier between the levels. */
export const TREE_SUM = /* wgsl */ `@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
var<workgroup> tile: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
  tile[l] = a[w.x * 64u + l];
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s >> 1u) {
    if (l < s) { tile[l] += tile[l + s]; }
    workgroupBarrier();
  }
  if (l == 0u) { sums[w.x] = tile[0]; }
}
`;

/** Every invocation adds its value to one storage atomic, and counts itself in a single value. */
export const SUM_ATOMIC = /* wgsl */ `@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> counter: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  atomicAdd(&counter, 1u);
  if (id.x < arrayLength(&a)) { atomicAdd(&total[0], a[id.x]); }
}
`;

/**
 * Every atomic built-in, on u32 and i32, in storage and in workgroup memory, with results that do
 * not depend on the order the invocations run in (atomicExchange's: every value handed on, plus
 * the last one, taken back after the barrier, is the sum of them all).
 */
export const ATOMICS = /* wgsl */ `@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> u: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> s: array<atomic<i32>>;
var<workgroup> sum: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32) {
  if (l == 0u) {
    atomicStore(&u[1], 0xffffffffu);
    atomicStore(&u[2], 0xffffffffu);
    atomicStore(&u[5], 1000u);
    atomicStore(&s[0], 0x7fffffff);
    atomicStore(&s[1], -2147483647 - 1);
  }
  storageBarrier();
  let x = a[l];
  atomicMax(&u[0], x);
  atomicMin(&u[1], x);
  atomicAnd(&u[2], x | 0xffffff00u);
  atomicOr(&u[3], x);
  atomicXor(&u[4], x);
  atomicSub(&u[5], x);
  loop {
    let old = atomicLoad(&u[6]);
    if (atomicCompareExchangeWeak(&u[6], old, old + 1u).exchanged) { break; }
  }
  atomicAdd(&u[9], atomicExchange(&u[7], x));
  atomicMin(&s[0], 100 - i32(x));
  atomicMax(&s[1], 100 - i32(x));
  atomicAdd(&sum, x);
  storageBarrier();
  workgroupBarrier();
  if (l == 0u) {
    atomicStore(&u[8], atomicLoad(&sum));
    atomicAdd(&u[9], atomicExchange(&u[7], 0u));
  }
}
`;

/** A var<private> counted across barriers in a helper: each invocation keeps its own. */
export const BARRIER_PRIVATES = /* wgsl */ `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<private> mine: u32;
var<workgroup> slots: array<u32, 16>;

fn step() {
  mine += 1u;
  workgroupBarrier();
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) id: vec3u) {
  mine = id.x * 10u;
  slots[l] = id.x;
  step();
  step();
  step();
  out[id.x] = mine + slots[(l + 1u) % 16u];
}
`;

/** One invocation writes a workgroup value; workgroupUniformLoad hands it to all of them. */
export const UNIFORM_LOAD = /* wgsl */ `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> last: u32;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) id: vec3u) {
  if (l == 31u) { last = id.x; }
  let v = workgroupUniformLoad(&last);
  out[id.x] = 1000u + v;
}
`;

/**
 * An append buffer: a counter among the members before the array, taken with atomicAdd, picks the
 * slot each kept value goes to (the order of the items depends on the order invocations run in;
 * the set of them does not).
 */
export const APPEND = /* wgsl */ `struct Item { value: u32, source: u32 }
struct Append { count: atomic<u32>, total: atomic<u32>, items: array<Item> }
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: Append;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= arrayLength(&a)) { return; }
  let v = a[id.x];
  atomicAdd(&out.total, v);
  if (v % 3u == 0u) {
    let slot = atomicAdd(&out.count, 1u);
    out.items[slot] = Item(v, id.x);
  }
}
`;

/** A transpose through an 8×8 tile of workgroup memory on a 2-D grid (the shared-memory idiom). */
export const TILE_TRANSPOSE = /* wgsl */ `@group(0) @binding(0) var<storage, read> size: vec2u;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
var<workgroup> tile: array<array<u32, 9>, 8>;

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) l: vec3u, @builtin(workgroup_id) w: vec3u) {
  let x = w.x * 8u + l.x;
  let y = w.y * 8u + l.y;
  if (x < size.x && y < size.y) { tile[l.y][l.x] = src[y * size.x + x]; }
  workgroupBarrier();
  let tx = w.y * 8u + l.x;
  let ty = w.x * 8u + l.y;
  if (tx < size.y && ty < size.x) { dst[ty * size.y + tx] = tile[l.x][l.y]; }
}
`;

/**
 * Pointers held in lets, as public shaders take them (`let p = &particles[i]`): to a writable
 * storage element, a read-only one, an element of a local array and a var<private>; read and
 * written through `*p`, `(*p).m` and `p.m`.
 */
export const LET_POINTERS = /* wgsl */ `struct Particle { position: vec2f, velocity: vec2f }
@group(0) @binding(0) var<storage, read> forces: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> particles: array<Particle>;
var<private> steps: u32;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&particles)) { return; }
  let p = &particles[i];
  let f = &forces[i % arrayLength(&forces)];
  var bins = array<u32, 4>(1u, 2u, 3u, 4u);
  let bin = &bins[i % 4u];
  let s = &steps;
  *s = 3u;
  for (var k = 0u; k < *s; k++) {
    (*p).velocity += *f * 0.5;
    p.position = (*p).position + p.velocity;
    *bin += k;
  }
  p.velocity.x = f32(bins[0] + bins[1] + bins[2] + bins[3]);
}
`;

/**
 * An image filter into storage textures: Sobel edges of a sampled texture's luma written to an
 * `rgba8unorm`, an `rgba16float` and (shifted right one texel, on two thirds of the texels: the
 * first column keeps its contents, the last lands outside and writes nothing) an `r32float`
 * storage texture, on a 2-D grid larger than the image.
 */
export const IMAGE_EDGES = /* wgsl */ `@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var edges: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(2) var hdr: texture_storage_2d<rgba16float, write>;
@group(0) @binding(3) var shifted: texture_storage_2d<r32float, write>;

fn luma(p: vec2i, size: vec2i) -> f32 {
  let c = textureLoad(src, clamp(p, vec2i(0), size - 1), 0);
  return dot(c.rgb, vec3f(0.25, 0.5, 0.25));
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = vec2i(textureDimensions(src));
  let p = vec2i(id.xy);
  if (p.x >= size.x || p.y >= size.y) { return; }
  let gx = luma(p + vec2i(1, -1), size) + 2.0 * luma(p + vec2i(1, 0), size) + luma(p + vec2i(1, 1), size)
    - luma(p + vec2i(-1, -1), size) - 2.0 * luma(p + vec2i(-1, 0), size) - luma(p + vec2i(-1, 1), size);
  let gy = luma(p + vec2i(-1, 1), size) + 2.0 * luma(p + vec2i(0, 1), size) + luma(p + vec2i(1, 1), size)
    - luma(p + vec2i(-1, -1), size) - 2.0 * luma(p + vec2i(0, -1), size) - luma(p + vec2i(1, -1), size);
  let m = abs(gx) + abs(gy);
  textureStore(edges, p, vec4f(m, gx * 0.5 + 0.5, gy * 0.5 + 0.5, 1.0));
  textureStore(hdr, id.xy, vec4f(gx, gy, m * 1000.0, -m));
  if ((p.x + p.y) % 3 != 0) {
    textureStore(shifted, p + vec2i(1, 0), vec4f(m - 0.25, 0.0, 0.0, 1.0));
  }
}
`;

/**
 * An image filter the ping-pong draws (each store at the invocation's own texel): a tone pass of a
 * sampled texture with a uniform and a read-only storage array into an `rgba8unorm` storage
 * texture, and the texels above a threshold into a smaller `rgba16float` one (the others keep
 * their contents; stores past its edge write nothing).
 */
export const IMAGE_TONE = /* wgsl */ `struct Params { gain: f32, threshold: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var<storage, read> weights: array<vec4f>;
@group(0) @binding(3) var bright: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(4) var glow: texture_storage_2d<rgba16float, write>;

fn luma(c: vec3f) -> f32 {
  return dot(c, vec3f(0.25, 0.5, 0.25));
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let size = textureDimensions(bright);
  if (gid.x >= size.x || gid.y >= size.y) { return; }
  let coords = vec2i(gid.xy);
  let c = textureLoad(src, coords, 0);
  let w = weights[(gid.x + gid.y) % arrayLength(&weights)];
  let l = luma(c.rgb);
  textureStore(bright, coords, vec4f(c.rgb * params.gain * w.rgb, l));
  if (l > params.threshold) {
    textureStore(glow, gid.xy, vec4f(c.rgb * (l - params.threshold) * 100.0, 1.0));
  }
}
`;

/**
 * Sampling in a compute shader (`textureSampleLevel` at level 0): a picture magnified and shifted
 * past its edges, bilinear with `repeat` addressing into one storage texture, nearest with
 * `mirror-repeat` from a second picture into another — each store at the invocation's own texel.
 */
export const SAMPLED = /* wgsl */ `struct Params { scale: vec2f, offset: vec2f }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var photo: texture_2d<f32>;
@group(0) @binding(2) var soft: sampler;
@group(0) @binding(3) var tiles: texture_2d<f32>;
@group(0) @binding(4) var blocky: sampler;
@group(0) @binding(5) var linear: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(6) var nearest: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let size = textureDimensions(linear);
  if (gid.x >= size.x || gid.y >= size.y) { return; }
  let uv = (vec2f(gid.xy) + 0.5) / vec2f(size) * params.scale + params.offset;
  textureStore(linear, gid.xy, textureSampleLevel(photo, soft, uv, 0.0));
  textureStore(nearest, gid.xy, textureSampleLevel(tiles, blocky, uv, 0.0));
}
`;
