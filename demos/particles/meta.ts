export default {
  title: 'GPU particles',
  description:
    '100,000 particles: compute on WebGPU, fragment ping-pong on WebGL2, or the CPU baseline; every option live.',
};
