export default {
  title: 'Radix sort (Babylon.js shaders)',
  description:
    "Babylon.js's GPU radix sort, its four compute shaders unchanged: WebGPU compute, or the CPU path on WebGL2 — pass by pass.",
};
