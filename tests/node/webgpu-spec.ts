// Tables of the WebGPU specification (https://www.w3.org/TR/webgpu/), written out for the fuzzers'
// oracles: what WebGPU accepts, whatever Ignis does with it.

/** GPUBlendFactor (dual-source `src1…` factors need a feature Ignis does not ask for). */
export const SPEC_BLEND_FACTORS = [
  'zero',
  'one',
  'src',
  'one-minus-src',
  'src-alpha',
  'one-minus-src-alpha',
  'dst',
  'one-minus-dst',
  'dst-alpha',
  'one-minus-dst-alpha',
  'src-alpha-saturated',
  'constant',
  'one-minus-constant',
];
