export default {
  title: 'Inside three.js',
  description:
    "Ignis particles drawn into a three.js WebGPURenderer scene, on three's own GPUDevice or WebGL2 context, with three's camera.",
};
