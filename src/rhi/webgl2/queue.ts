import { Queue } from '../core/queue.js';
import { BackendError } from '../core/errors.js';
import { FORMAT_INFO } from '../core/formats.js';
import {
  outsidePass,
  unreachable,
  type BoundResource,
  type Command,
  type DrawCommand,
  type RecordedCommand,
  type ResolvedRenderPass,
  type UniformSliceCommand,
} from '../core/commands.js';
import type { CommandBuffer } from '../core/command-buffer.js';
import type { Buffer } from '../core/buffer.js';
import type { Texture } from '../core/texture.js';
import type { Extent2D } from '../core/descriptors.js';
import { repackRGBA, type WebGL2Texture } from './texture.js';
import { waitForFence } from './readback.js';
import type { WebGL2Buffer } from './buffer.js';
import type { WebGL2RenderPipeline } from './render-pipeline.js';
import type { WebGL2Sampler } from './sampler.js';
import type { WebGL2QuerySet } from './query-set.js';
import type { VertexBinding } from './vaos.js';
import type { WebGL2Device } from './device.js';
import { SlotMap } from '../core/slot-map.js';
import type { RenderBundle } from '../core/render-bundle.js';
import { compileBundle, isSliceRun, type CompiledBundle, type SliceRun } from './bundles.js';

/** Per-pass replay state: what the pass has staged, flushed to GL at each draw. */
interface PassState {
  pass: ResolvedRenderPass;
  pipeline: WebGL2RenderPipeline | null;
  slots: SlotMap<BoundResource>;
  vertexBuffers: Map<number, VertexBinding>;
  index: { buffer: WebGL2Buffer; format: 'uint16' | 'uint32'; offset: number } | null;
  /** The VAO of the last draw and what it was looked up for; null when a vertex input changed. */
  vao: { vao: WebGLVertexArrayObject; firstInstance: number; baseVertex: number } | null;
}

/** The open pass of a replay; a pass command outside one is a bug (no closure: this runs per command). */
function inPass(pass: PassState | null, c: RecordedCommand): PassState {
  return pass ?? outsidePass(c);
}

/** The uniform block binding point of `slot` in `pipeline`, or -1 where it reads none there. */
function blockPoint(pipeline: WebGL2RenderPipeline | null, slot: number): number {
  const blocks = pipeline?.uniformBlocks ?? [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as (typeof blocks)[number];
    if (b.slot === slot) return b.point;
  }
  return -1;
}

/** Forgets what a pass has staged: its state before and after each executed render bundle. */
function resetPass(p: PassState): void {
  p.pipeline = null;
  p.slots.clear();
  p.vertexBuffers.clear();
  p.index = null;
  p.vao = null;
}

/**
 * Replays recorded commands through one exhaustive switch. Bindings are deferred: `setBinding`,
 * `setVertexBuffer` and `setIndexBuffer` only stage, and `draw` flushes what changed through the
 * shadow state cache (UBOs with bindBufferRange, textures and sampler objects per unit, a VAO).
 */
export class WebGL2Queue extends Queue {
  /** Problems already reported, so a draw repeated every frame reports once. */
  readonly #reported = new Set<string>();
  /** Each render bundle cut into segments and runs, at its first execution. */
  readonly #bundles = new WeakMap<RenderBundle, CompiledBundle>();
  /** The clear colour handed to clearBufferfv (reused: a pass begins every frame). */
  readonly #clearColor = new Float32Array(4);
  constructor(private readonly device: WebGL2Device) {
    super(device);
  }

  protected writeBufferImpl(buffer: Buffer, offset: number, data: Uint8Array): void {
    (buffer as WebGL2Buffer).upload(offset, data);
  }

  protected writeTextureImpl(
    texture: Texture,
    mipLevel: number,
    x: number,
    y: number,
    data: Uint8Array,
    offset: number,
    bytesPerRow: number,
    size: Extent2D,
  ): void {
    (texture as WebGL2Texture).upload(
      mipLevel,
      x,
      y,
      size.width,
      size.height,
      data,
      offset,
      bytesPerRow,
    );
  }

  onSubmittedWorkDone(): Promise<void> {
    return waitForFence(this.device.gl);
  }

  protected submitImpl(commandBuffers: readonly CommandBuffer[]): void {
    for (const cb of commandBuffers) this.#replay(cb.chunks, cb.sliceOffsets);
    // the canvas is an offscreen texture here: what this submit drew into it reaches the page
    this.device.surface?.presentIfDrawn(commandBuffers);
    this.device.gl.flush();
  }

  /**
   * Replays `chunks` (a command buffer's, or a render bundle's inside `within`, the pass that
   * executes it), the uniform slices' offsets taken from `sliceOffsets` in order.
   */
  #replay(
    chunks: readonly (readonly RecordedCommand[])[],
    sliceOffsets: readonly number[],
    within: PassState | null = null,
  ): void {
    const { gl, state } = this.device;
    let pass: PassState | null = within;
    const debug = this.device.debug;
    let index = -1;
    let previous: RecordedCommand | null = null;
    let slice = 0;
    // The last slice replayed in full, and where. A draw right after it makes a pair: when the same
    // slice command and the same draw command come again right after that draw, only the slice's
    // offset moved (a run, as in a bundle's SliceRun), so the pair is its bind and its draw call.
    let sliceCommand: UniformSliceCommand | null = null;
    let sliceAt = -2;
    // the pair: its slice and draw, the index of its last draw, the uniform block it binds (-1:
    // the pipeline reads no block at the slice's slot, so it binds nothing, as the flush would)
    let pairSlice: UniformSliceCommand | null = null;
    let pairDraw: DrawCommand | null = null;
    let pairAt = -2;
    let pairPoint = -1;
    // indexed: entries() would allocate a pair per command of every frame
    for (const chunk of chunks)
      for (let k = 0; k < chunk.length; k++) {
        const c = chunk[k] as RecordedCommand;
        index++;
        if (debug && previous) this.#checkGLError(previous, index - 1);
        previous = c;
        switch (c.type) {
          // a draw's commands first: SpiderMonkey tests a switch's string cases in order
          case 'setUniformSlice': {
            // one object for the run's recordings: each one's offset is in the log (the draws
            // read it from the slot before the next slice moves it)
            const offset = sliceOffsets[slice++] as number;
            c.resource.offset = offset;
            if (pairSlice === c && pairAt === index - 1 && chunk[k + 1] === pairDraw) {
              const draw = pairDraw;
              if (pairPoint >= 0) {
                const buffer = c.resource.buffer as WebGL2Buffer;
                state.bindUniformBuffer(pairPoint, buffer.gl, buffer.id, offset, c.resource.size);
              }
              const mode = (pass as PassState).pipeline?.topology ?? gl.TRIANGLES;
              if (draw.instanceCount === 1) gl.drawArrays(mode, draw.firstVertex, draw.vertexCount);
              else
                gl.drawArraysInstanced(
                  mode,
                  draw.firstVertex,
                  draw.vertexCount,
                  draw.instanceCount,
                );
              k++;
              index++;
              pairAt = index;
              previous = draw;
              break;
            }
            inPass(pass, c).slots.set(c.slot, c.resource);
            sliceCommand = c;
            sliceAt = index;
            break;
          }
          case 'drawRun':
            // (the pair it repeats was replayed in full just before)
            this.#draws(inPass(pass, c), c.slice, c.draw, sliceOffsets, slice, slice + c.count);
            slice += c.count;
            break;
          case 'draw': {
            const p = inPass(pass, c);
            this.#flush(p, c.firstInstance, 0);
            const mode = p.pipeline?.topology ?? gl.TRIANGLES;
            // one instance: the plain call (gl_InstanceID is 0 either way; ANGLE checks less)
            if (c.instanceCount === 1) gl.drawArrays(mode, c.firstVertex, c.vertexCount);
            else gl.drawArraysInstanced(mode, c.firstVertex, c.vertexCount, c.instanceCount);
            // (a debug device replays every draw in full, each checked for GL errors)
            if (!debug && sliceCommand !== null && sliceAt === index - 1) {
              pairSlice = sliceCommand;
              pairDraw = c;
              pairAt = index;
              pairPoint = blockPoint(p.pipeline, sliceCommand.slot);
            }
            break;
          }
          case 'beginRenderPass': {
            pass = this.#beginPass(c.pass);
            break;
          }
          case 'endRenderPass':
            this.#endPass(inPass(pass, c));
            pass = null;
            break;
          case 'setRenderPipeline': {
            const p = inPass(pass, c);
            const pipe = c.pipeline as WebGL2RenderPipeline;
            p.pipeline = pipe;
            p.vao = null;
            state.useProgram(pipe.program);
            state.blend(pipe.blend);
            state.colorMask(pipe.colorMask);
            state.depth(pipe.depth.test, pipe.depth.write, pipe.depth.func);
            // the y flip mirrors winding: a ccw front face renders as cw into textures
            const front = pipe.frontFace === gl.CCW ? gl.CW : gl.CCW;
            state.cull(pipe.cullFace, front);
            break;
          }
          case 'setBinding':
            inPass(pass, c).slots.set(c.slot, c.resource);
            break;
          case 'setVertexBuffer': {
            const p = inPass(pass, c);
            p.vertexBuffers.set(c.slot, { buffer: c.buffer as WebGL2Buffer, offset: c.offset });
            p.vao = null;
            break;
          }
          case 'setIndexBuffer': {
            const p = inPass(pass, c);
            p.index = { buffer: c.buffer as WebGL2Buffer, format: c.format, offset: c.offset };
            p.vao = null;
            break;
          }
          case 'executeBundles': {
            // each bundle starts from no pipeline and no bindings, and the pass goes on from none
            // (WebGPU's rule); what GL has bound stays, so the state cache still filters
            const p = inPass(pass, c);
            for (const b of c.bundles) {
              resetPass(p);
              // debug: as recorded, each command checked for GL errors on its own
              if (debug) this.#replay(b.chunks, b.sliceOffsets, p);
              else this.#executeBundle(p, b);
            }
            resetPass(p);
            break;
          }
          case 'setViewport':
            inPass(pass, c);
            state.viewport(
              Math.round(c.x),
              Math.round(c.y),
              Math.round(c.width),
              Math.round(c.height),
            );
            gl.depthRange(c.minDepth, c.maxDepth);
            break;
          case 'setScissorRect':
            inPass(pass, c);
            state.scissorTest(true);
            state.scissor(c.x, c.y, c.width, c.height);
            break;
          case 'drawIndexed': {
            const p = inPass(pass, c);
            // core checks an index buffer is set before drawIndexed
            if (!p.index)
              throw new Error(
                'drawIndexed replayed without an index buffer; core checks it at record (a bug in Ignis)',
              );
            this.#flush(p, c.firstInstance, c.baseVertex);
            const bytes = p.index.format === 'uint16' ? 2 : 4;
            const type = p.index.format === 'uint16' ? gl.UNSIGNED_SHORT : gl.UNSIGNED_INT;
            const mode = p.pipeline?.topology ?? gl.TRIANGLES;
            const at = p.index.offset + c.firstIndex * bytes;
            if (c.instanceCount === 1) gl.drawElements(mode, c.indexCount, type, at);
            else gl.drawElementsInstanced(mode, c.indexCount, type, at, c.instanceCount);
            break;
          }
          case 'copyBufferToBuffer': {
            gl.bindBuffer(gl.COPY_READ_BUFFER, (c.src as WebGL2Buffer).gl);
            gl.bindBuffer(gl.COPY_WRITE_BUFFER, (c.dst as WebGL2Buffer).gl);
            gl.copyBufferSubData(
              gl.COPY_READ_BUFFER,
              gl.COPY_WRITE_BUFFER,
              c.srcOffset,
              c.dstOffset,
              c.size,
            );
            gl.bindBuffer(gl.COPY_READ_BUFFER, null);
            gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
            break;
          }
          case 'copyBufferToTexture':
            this.#copyBufferToTexture(c);
            break;
          case 'copyTextureToBuffer':
            this.#copyTextureToBuffer(c);
            break;
          case 'copyTextureToTexture': {
            const src = c.src as WebGL2Texture;
            const dst = c.dst as WebGL2Texture;
            this.device.framebuffers.bindForRead(src, c.srcMip);
            state.bindDrawFramebuffer(this.device.framebuffers.single(dst, c.dstMip));
            state.scissorTest(false);
            const { width: w, height: h } = c.size;
            gl.blitFramebuffer(
              c.srcX,
              c.srcY,
              c.srcX + w,
              c.srcY + h,
              c.dstX,
              c.dstY,
              c.dstX + w,
              c.dstY + h,
              gl.COLOR_BUFFER_BIT,
              gl.NEAREST,
            );
            break;
          }
          case 'pushDebugGroup':
          case 'popDebugGroup':
            break;
          case 'barrier':
            // GL orders commands itself; what a barrier must guarantee here is that a texture just
            // rendered is no longer attached to the bound framebuffer when it is sampled.
            state.bindDrawFramebuffer(null);
            break;
          case 'beginComputePass':
          case 'endComputePass':
          case 'setComputePipeline':
          case 'dispatch':
          case 'dispatchIndirect':
            throw new BackendError(
              `${c.type} reached the WebGL2 backend; core should have rejected it (caps.features.compute is false)`,
            );
          case 'drawIndirect':
          case 'drawIndexedIndirect':
            throw new BackendError(
              `${c.type} reached the WebGL2 backend; core should have rejected it (caps.features.indirect is false)`,
            );
          default:
            unreachable(c);
        }
      }
    if (debug && previous) this.#checkGLError(previous, index);
  }

  /**
   * @internal `bundle` cut into segments and runs, made once: at `finish()`, or here at its first
   * execution where it was made on a lost device.
   */
  compiled(bundle: RenderBundle): CompiledBundle {
    let compiled = this.#bundles.get(bundle);
    if (!compiled) this.#bundles.set(bundle, (compiled = compileBundle(bundle)));
    return compiled;
  }

  /** A bundle's segments: replayed as recorded, or runs of draws that only move a uniform slice. */
  #executeBundle(p: PassState, bundle: RenderBundle): void {
    for (const segment of this.compiled(bundle))
      if (isSliceRun(segment)) this.#sliceRun(p, segment);
      else this.#replay(segment.chunks, segment.sliceOffsets, p);
  }

  /** The draws of a SliceRun (a bundle's). */
  #sliceRun(p: PassState, run: SliceRun): void {
    this.#draws(p, run.slice, run.draw, run.offsets, 0, run.offsets.length);
  }

  /**
   * `draw` once for each of `offsets[from … to)`, `slice` moved there first: a run (a bundle's
   * SliceRun, or a recorded DrawRunCommand). The draw before the run flushed everything else (the
   * pipeline, the vertex array, every other binding), so each draw binds its slice and draws.
   */
  #draws(
    p: PassState,
    slice: UniformSliceCommand,
    draw: DrawCommand,
    offsets: ArrayLike<number>,
    from: number,
    to: number,
  ): void {
    const pipe = p.pipeline;
    if (!pipe)
      throw new Error(
        'a run of draws replayed without a pipeline; the draw before it set one (a bug in Ignis)',
      );
    const { gl, state } = this.device;
    const { slot, resource } = slice;
    const buffer = resource.buffer as WebGL2Buffer;
    const point = blockPoint(pipe, slot);
    const { vertexCount, instanceCount, firstVertex } = draw;
    const mode = pipe.topology;
    const { size } = resource;
    const last = offsets[to - 1] as number;
    if (point < 0) {
      // (a slot the pipeline does not read binds nothing, as the full flush would)
      for (let k = from; k < to; k++)
        if (instanceCount === 1) gl.drawArrays(mode, firstVertex, vertexCount);
        else gl.drawArraysInstanced(mode, firstVertex, vertexCount, instanceCount);
    } else {
      // each draw's slice bound past the state cache (a new offset at every draw), which then
      // holds the last
      const target = gl.UNIFORM_BUFFER;
      const glBuffer = buffer.gl;
      for (let k = from; k < to; k++) {
        gl.bindBufferRange(target, point, glBuffer, offsets[k] as number, size);
        if (instanceCount === 1) gl.drawArrays(mode, firstVertex, vertexCount);
        else gl.drawArraysInstanced(mode, firstVertex, vertexCount, instanceCount);
      }
      state.noteUniformBuffer(point, buffer.id, last, size, to - from);
    }
    // the slot holds the last slice, for what follows
    resource.offset = last;
    p.slots.set(slot, resource);
  }

  /** Debug mode: what GL rejected, reported with the command that caused it. */
  #checkGLError(c: RecordedCommand, index: number): void {
    const gl = this.device.gl;
    const error = gl.getError();
    if (error === gl.NO_ERROR) return;
    const names: Record<number, string> = {
      [gl.INVALID_ENUM]: 'INVALID_ENUM',
      [gl.INVALID_VALUE]: 'INVALID_VALUE',
      [gl.INVALID_OPERATION]: 'INVALID_OPERATION',
      [gl.INVALID_FRAMEBUFFER_OPERATION]: 'INVALID_FRAMEBUFFER_OPERATION',
      [gl.OUT_OF_MEMORY]: 'OUT_OF_MEMORY',
    };
    const name = names[error] ?? `0x${error.toString(16)}`;
    this.device.reportError(
      new BackendError(`GL ${name} after command ${index} (${c.type})`, undefined, {
        glError: error,
        command: c.type,
        index,
      }),
    );
  }

  #beginPass(pass: ResolvedRenderPass): PassState {
    const { gl, state } = this.device;
    for (const a of pass.colorAttachments)
      if (a.loadOp === 'load') this.device.surface?.loadFromCanvas(a.texture as WebGL2Texture);
    const fbo = this.device.framebuffers.forPass(pass);
    state.bindDrawFramebuffer(fbo);
    state.viewport(0, 0, pass.width, pass.height);
    gl.depthRange(0, 1);
    state.scissorTest(false);
    const colors = pass.colorAttachments;
    let masked = false;
    for (let i = 0; i < colors.length; i++) {
      const a = colors[i] as (typeof colors)[number];
      if (a.loadOp !== 'clear') continue;
      if (!masked) state.colorMask(0xf);
      masked = true;
      const v = a.clearValue;
      const clear = this.#clearColor;
      clear[0] = v[0];
      clear[1] = v[1];
      clear[2] = v[2];
      clear[3] = v[3];
      gl.clearBufferfv(gl.COLOR, i, clear);
    }
    const ds = pass.depthStencilAttachment;
    if (ds && ds.depthLoadOp === 'clear') {
      state.depth(false, true, gl.LESS);
      gl.clearBufferfv(gl.DEPTH, 0, [ds.depthClearValue]);
    }
    const t = pass.timestampWrites;
    if (t?.beginningOfPassWriteIndex !== undefined)
      (t.querySet as WebGL2QuerySet).write(t.beginningOfPassWriteIndex);
    return {
      pass,
      pipeline: null,
      slots: new SlotMap(),
      vertexBuffers: new Map(),
      index: null,
      vao: null,
    };
  }

  #endPass(p: PassState): void {
    const { gl, state, framebuffers } = this.device;
    const { pass } = p;
    for (const a of pass.colorAttachments) {
      if (!a.resolveTarget) continue;
      state.bindReadFramebuffer(framebuffers.single(a.texture as WebGL2Texture, 0));
      state.bindDrawFramebuffer(framebuffers.single(a.resolveTarget as WebGL2Texture, 0));
      state.scissorTest(false);
      gl.blitFramebuffer(
        0,
        0,
        pass.width,
        pass.height,
        0,
        0,
        pass.width,
        pass.height,
        gl.COLOR_BUFFER_BIT,
        gl.NEAREST,
      );
    }
    // the list only when something is discarded (a pass ends every frame)
    const colors = pass.colorAttachments;
    const depthDiscarded = pass.depthStencilAttachment?.depthStoreOp === 'discard';
    if (depthDiscarded || colors.some((a) => a.storeOp === 'discard')) {
      const discard: number[] = [];
      colors.forEach((a, i) => {
        if (a.storeOp === 'discard') discard.push(gl.COLOR_ATTACHMENT0 + i);
      });
      if (depthDiscarded) discard.push(gl.DEPTH_ATTACHMENT);
      state.bindDrawFramebuffer(framebuffers.forPass(pass));
      gl.invalidateFramebuffer(gl.DRAW_FRAMEBUFFER, discard);
    }
    const t = pass.timestampWrites;
    if (t?.endOfPassWriteIndex !== undefined)
      (t.querySet as WebGL2QuerySet).write(t.endOfPassWriteIndex);
  }

  /** Flushes staged bindings before a draw; only what changed reaches GL (the cache filters). */
  #flush(p: PassState, firstInstance: number, baseVertex: number): void {
    const pipe = p.pipeline;
    if (!pipe)
      throw new Error(
        'draw replayed without a pipeline; core checks it at record (a bug in Ignis)',
      );
    const { state } = this.device;
    // look the VAO up only when a vertex input changed since the last draw
    if (!p.vao || p.vao.firstInstance !== firstInstance || p.vao.baseVertex !== baseVertex) {
      p.vao = {
        vao: this.device.vaos.get(
          pipe,
          p.vertexBuffers,
          p.index?.buffer ?? null,
          firstInstance,
          baseVertex,
        ),
        firstInstance,
        baseVertex,
      };
    }
    state.bindVertexArray(p.vao.vao);
    // (indexed loops: SpiderMonkey called the array iterator's `next` for a `for…of`, 5% of a draw)
    const blocks = pipe.uniformBlocks;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i] as (typeof blocks)[number];
      const r = p.slots.get(b.slot);
      if (r?.kind !== 'uniform') continue;
      const needed = b.size;
      // (the key only for a short block: this runs per block per draw)
      const key = r.size < needed ? `${pipe.id}:${b.slot}:${r.buffer.id}:${r.size}` : '';
      if (key && !this.#reported.has(key)) {
        this.#reported.add(key);
        // GL would reject the draw with INVALID_OPERATION and draw nothing: say so instead
        this.device.reportError(
          new BackendError(
            `uniform block "${b.name}" at slot ${b.slot} needs ${needed} bytes but ${r.size} are bound ("${r.buffer.label}")`,
            pipe.label,
            {
              slot: b.slot,
              needed,
              bound: r.size,
            },
          ),
        );
      }
      state.bindUniformBuffer(
        b.point,
        (r.buffer as WebGL2Buffer).gl,
        r.buffer.id,
        r.offset,
        r.size,
      );
    }
    const units = pipe.textureUnits;
    for (let i = 0; i < units.length; i++) {
      const u = units[i] as (typeof units)[number];
      const r = p.slots.get(u.slot);
      if (r?.kind !== 'texture') continue;
      state.bindTexture(u.unit, (r.texture as WebGL2Texture).glTexture);
      const s = u.samplerSlot === undefined ? undefined : p.slots.get(u.samplerSlot);
      state.bindSampler(
        u.unit,
        s?.kind === 'sampler' ? (s.sampler as WebGL2Sampler).gl : this.device.defaultSampler,
      );
    }
  }

  #copyBufferToTexture(c: Extract<Command, { type: 'copyBufferToTexture' }>): void {
    const { gl, state } = this.device;
    const dst = c.dst as WebGL2Texture;
    const bpt = FORMAT_INFO[dst.format].bytesPerTexel;
    if (dst.glFormat.swizzleBGRA) {
      // no GPU-side swizzle in GL ES: read the rows back (this stalls) and upload swizzled
      const rows = new Uint8Array(c.bytesPerRow * (c.size.height - 1) + c.size.width * bpt);
      gl.bindBuffer(gl.COPY_READ_BUFFER, (c.src as WebGL2Buffer).gl);
      gl.getBufferSubData(gl.COPY_READ_BUFFER, c.offset, rows);
      gl.bindBuffer(gl.COPY_READ_BUFFER, null);
      dst.upload(c.mipLevel, c.x, c.y, c.size.width, c.size.height, rows, 0, c.bytesPerRow);
      return;
    }
    state.bindScratchTexture(dst.glTexture, this.device.scratchUnit);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, (c.src as WebGL2Buffer).gl);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.pixelStorei(gl.UNPACK_ROW_LENGTH, c.bytesPerRow / bpt);
    gl.texSubImage2D(
      gl.TEXTURE_2D,
      c.mipLevel,
      c.x,
      c.y,
      c.size.width,
      c.size.height,
      dst.glFormat.format,
      dst.glFormat.type,
      c.offset,
    );
    gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 0);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
  }

  /**
   * rgba8unorm and rgba32float read straight into the buffer (pixel-pack, no stall; the canvas
   * row by row, bottom-up). Other formats have no matching GL read format: they are read as RGBA
   * to the CPU (a stall), repacked and uploaded.
   */
  #copyTextureToBuffer(c: Extract<Command, { type: 'copyTextureToBuffer' }>): void {
    const { gl } = this.device;
    const src = c.src as WebGL2Texture;
    const dst = c.dst as WebGL2Buffer;
    const info = FORMAT_INFO[src.format];
    const float = info.kind === 'float';
    this.device.framebuffers.bindForRead(src, c.mipLevel);
    const { width: w, height: h } = c.size;
    gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
    const direct =
      src.format === 'rgba8unorm' ||
      src.format === 'rgba32float' ||
      src.format === 'rgba8unorm-srgb';
    if (direct) {
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, dst.gl);
      const type = float ? gl.FLOAT : gl.UNSIGNED_BYTE;
      gl.pixelStorei(gl.PACK_ROW_LENGTH, c.bytesPerRow / info.bytesPerTexel);
      gl.readPixels(c.x, c.y, w, h, gl.RGBA, type, c.offset);
      gl.pixelStorei(gl.PACK_ROW_LENGTH, 0);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      return;
    }
    const rgba = float ? new Float32Array(w * 4) : new Uint8Array(w * 4);
    for (let r = 0; r < h; r++) {
      gl.readPixels(c.x, c.y + r, w, 1, gl.RGBA, float ? gl.FLOAT : gl.UNSIGNED_BYTE, rgba);
      const row = new Uint8Array(repackRGBA(src.format, rgba.slice().buffer, w));
      dst.upload(c.offset + r * c.bytesPerRow, row);
    }
  }
}
