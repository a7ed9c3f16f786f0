export default {
  title: 'Portable boids',
  description:
    'One flock in ordinary WGSL, run as WebGPU compute, as a WebGL2 fragment ping-pong or on the CPU — switchable live.',
};
