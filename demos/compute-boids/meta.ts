export default {
  title: 'Compute boids',
  description:
    'The webgpu-samples flock in plain WGSL compute through Ignis, drawn as instances from the storage buffer.',
};
