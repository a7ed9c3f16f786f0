import { VERTEX_FORMATS } from './conv.js';
import { ResourceCache } from '../core/resource-cache.js';
import type { WebGL2RenderPipeline } from './render-pipeline.js';
import type { WebGL2Buffer } from './buffer.js';
import type { WebGL2Device } from './device.js';

export interface VertexBinding {
  buffer: WebGL2Buffer;
  offset: number;
}

/**
 * Vertex array objects cached per (pipeline, vertex buffers and offsets, index buffer, first
 * instance, base vertex). GL ES 3.0 has no base instance or base vertex, so both are folded into
 * the attribute offsets of instance-rate and vertex-rate buffers, which is why they are in the key.
 */
export class VertexArrayCache {
  readonly #vaos: ResourceCache<WebGLVertexArrayObject>;

  constructor(private readonly device: WebGL2Device) {
    this.#vaos = new ResourceCache((vao) => device.gl.deleteVertexArray(vao));
  }

  get created(): number {
    return this.#vaos.created;
  }

  /** Vertex arrays held now. */
  get size(): number {
    return this.#vaos.size;
  }

  get(
    pipeline: WebGL2RenderPipeline,
    vertexBuffers: ReadonlyMap<number, VertexBinding>,
    index: WebGL2Buffer | null,
    firstInstance: number,
    baseVertex: number,
  ): WebGLVertexArrayObject {
    const layouts = pipeline.descriptor.vertex.buffers ?? [];
    const known = this.#walk(pipeline, vertexBuffers, index, firstInstance, baseVertex, false);
    if (known) return known;
    const vao = this.#make(pipeline, vertexBuffers, index, firstInstance, baseVertex, layouts);
    this.#walk(pipeline, vertexBuffers, index, firstInstance, baseVertex, true);
    this.#vaos.keep(vao);
    return vao;
  }

  /** Walks the cache's index by numbers (no key string: this runs for every draw). */
  #walk(
    pipeline: WebGL2RenderPipeline,
    vertexBuffers: ReadonlyMap<number, VertexBinding>,
    index: WebGL2Buffer | null,
    firstInstance: number,
    baseVertex: number,
    make: boolean,
  ): WebGLVertexArrayObject | undefined {
    const cache = this.#vaos.walk(make);
    cache
      .step(pipeline.id)
      .step(index?.id ?? -1)
      .step(firstInstance)
      .step(baseVertex);
    const slots = pipeline.descriptor.vertex.buffers?.length ?? 0;
    for (let slot = 0; slot < slots; slot++) {
      const vb = vertexBuffers.get(slot) as VertexBinding;
      cache.step(vb.buffer.id).step(vb.offset);
    }
    return cache.found();
  }

  /** The VAO under its string key, made on a miss. */
  #make(
    pipeline: WebGL2RenderPipeline,
    vertexBuffers: ReadonlyMap<number, VertexBinding>,
    index: WebGL2Buffer | null,
    firstInstance: number,
    baseVertex: number,
    layouts: NonNullable<WebGL2RenderPipeline['descriptor']['vertex']['buffers']>,
  ): WebGLVertexArrayObject {
    let key = `${pipeline.id}|${index?.id ?? ''}|${firstInstance}|${baseVertex}`;
    for (let slot = 0; slot < layouts.length; slot++) {
      const vb = vertexBuffers.get(slot) as VertexBinding;
      key += `|${vb.buffer.id}:${vb.offset}`;
    }
    const hit = this.#vaos.get(key);
    if (hit) return hit;
    const gl = this.device.gl;
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    this.device.state.setVertexArrayUnchecked(vao);
    const ids = [pipeline.id];
    layouts.forEach((layout, slot) => {
      const vb = vertexBuffers.get(slot) as VertexBinding;
      ids.push(vb.buffer.id);
      const instance = layout.stepMode === 'instance';
      const base = vb.offset + layout.arrayStride * (instance ? firstInstance : baseVertex);
      gl.bindBuffer(gl.ARRAY_BUFFER, vb.buffer.gl);
      for (const attr of layout.attributes) {
        // (core refuses unorm8x4-bgra here: caps.features.vertexFormatBgra is false)
        const f = VERTEX_FORMATS[attr.format as Exclude<typeof attr.format, 'unorm8x4-bgra'>];
        gl.enableVertexAttribArray(attr.shaderLocation);
        if (f.integer)
          gl.vertexAttribIPointer(
            attr.shaderLocation,
            f.size,
            f.type,
            layout.arrayStride,
            base + attr.offset,
          );
        else
          gl.vertexAttribPointer(
            attr.shaderLocation,
            f.size,
            f.type,
            f.normalized,
            layout.arrayStride,
            base + attr.offset,
          );
        gl.vertexAttribDivisor(attr.shaderLocation, instance ? 1 : 0);
      }
    });
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    if (index) {
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, index.gl);
      ids.push(index.id);
    }
    this.#vaos.set(key, vao, ids);
    return vao;
  }

  evict(resourceId: number): void {
    if (this.#vaos.evict(resourceId) > 0) this.device.state.reset();
  }

  destroy(): void {
    this.#vaos.clear();
  }
}
