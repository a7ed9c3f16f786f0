export default {
  title: 'Image filter (portable WGSL)',
  description:
    'An edge and tone filter written as a WGSL compute shader with textureStore: WebGPU compute, or a fragment pass into the texture on WebGL2.',
};
