export default {
  title: 'Many objects',
  description:
    'Thousands of objects, each with its own uniforms: recorded every frame in the pass, or once in a render bundle — the CPU time of each, side by side.',
};
