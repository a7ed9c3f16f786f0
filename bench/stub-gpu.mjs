// A GPUDevice whose every call returns at once, for timing Ignis's own JavaScript without a GPU
// (bench/cpu-overhead.mjs per frame, bench/cpu-draws.mjs per draw), and the WebGPU globals the
// backend reads. `limits`: the device's (the null backend's default tier).

/** A GPU object whose methods return at once: a stub for anything the backend makes. */
export function stub(extra = {}) {
  return new Proxy(extra, {
    get(target, key) {
      if (key in target) return target[key];
      if (key === 'then') return undefined; // not a promise
      return () => stub();
    },
  });
}

/** A plain object whose `methods` return `result()` (a call through a Proxy costs more than Ignis). */
function plain(methods, result = () => undefined) {
  return Object.fromEntries(methods.map((m) => [m, result]));
}
const DEBUG = ['pushDebugGroup', 'popDebugGroup', 'insertDebugMarker'];
/** The encoders a frame calls at every draw are plain objects: one pass encoder, reused. */
function commandEncoder() {
  const pass = plain([
    ...DEBUG,
    'setPipeline',
    'setBindGroup',
    'setVertexBuffer',
    'setIndexBuffer',
    'draw',
    'drawIndexed',
    'drawIndirect',
    'drawIndexedIndirect',
    'setViewport',
    'setScissorRect',
    'setBlendConstant',
    'setStencilReference',
    'beginOcclusionQuery',
    'endOcclusionQuery',
    'executeBundles',
    'dispatchWorkgroups',
    'dispatchWorkgroupsIndirect',
    'end',
  ]);
  const finished = {};
  return {
    ...plain([
      ...DEBUG,
      'copyBufferToBuffer',
      'copyBufferToTexture',
      'copyTextureToBuffer',
      'copyTextureToTexture',
      'clearBuffer',
      'resolveQuerySet',
    ]),
    beginRenderPass: () => pass,
    beginComputePass: () => pass,
    finish: () => finished,
  };
}

/** The stub GPUDevice, with the WebGPU constants installed on globalThis. */
export function stubGpuDevice(limits) {
  const never = new Promise(() => {});
  Object.assign(globalThis, {
    GPUBufferUsage: {
      MAP_READ: 1,
      MAP_WRITE: 2,
      COPY_SRC: 4,
      COPY_DST: 8,
      INDEX: 16,
      VERTEX: 32,
      UNIFORM: 64,
      STORAGE: 128,
      INDIRECT: 256,
      QUERY_RESOLVE: 512,
    },
    GPUTextureUsage: {
      COPY_SRC: 1,
      COPY_DST: 2,
      TEXTURE_BINDING: 4,
      STORAGE_BINDING: 8,
      RENDER_ATTACHMENT: 16,
    },
    GPUShaderStage: { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 },
    GPUMapMode: { READ: 1, WRITE: 2 },
    GPUOutOfMemoryError: class {},
  });
  return stub({
    label: 'stub',
    features: new Set(),
    limits,
    lost: never,
    queue: {
      ...plain(['submit', 'writeBuffer', 'writeTexture', 'copyExternalImageToTexture']),
      onSubmittedWorkDone: () => Promise.resolve(),
    },
    createCommandEncoder: commandEncoder,
    addEventListener: () => {},
    pushErrorScope: () => {},
    popErrorScope: () => Promise.resolve(null),
    createShaderModule: () => stub({ getCompilationInfo: async () => ({ messages: [] }) }),
    createRenderPipelineAsync: async () => stub(),
    createComputePipelineAsync: async () => stub(),
    createBuffer: (d) =>
      stub({
        size: d.size,
        mapAsync: async () => {},
        getMappedRange: (o = 0, s = d.size - o) => new ArrayBuffer(s),
      }),
  });
}
