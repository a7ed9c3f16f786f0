import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';
import type { RenderPipeline } from './render-pipeline.js';
import type { ComputePipeline } from './compute-pipeline.js';
import type { RenderBundle } from './render-bundle.js';
import type { Extent2D, PassTimestampWrites } from './descriptors.js';
import { show } from './show.js';

/** How a storage binding is used: as the pipeline declares it ('auto'), or as the caller says. */
export type StorageAccess = 'auto' | 'read' | 'read-write';

/** What a slot holds in a recorded command. */
export type BoundResource =
  | { kind: 'uniform'; buffer: Buffer; offset: number; size: number }
  /** `access: 'auto'` is what the pipeline in use declares at the slot, resolved at draw or dispatch. */
  | { kind: 'storage'; buffer: Buffer; offset: number; size: number; access: StorageAccess }
  | { kind: 'texture'; texture: Texture }
  | { kind: 'storage-texture'; texture: Texture }
  | { kind: 'sampler'; sampler: Sampler };

/** What a barrier orders: a kind of GPU access (storage write, vertex read, …). */
export type BarrierScope =
  | 'compute-write'
  | 'compute-read'
  | 'vertex-read'
  | 'fragment-read'
  | 'render-write'
  | 'copy-write'
  | 'copy-read'
  | 'indirect-read';

/** Every barrier scope. */
export const BARRIER_SCOPES: readonly BarrierScope[] = [
  'compute-write',
  'compute-read',
  'vertex-read',
  'fragment-read',
  'render-write',
  'copy-write',
  'copy-read',
  'indirect-read',
];

export interface ResolvedColorAttachment {
  texture: Texture;
  resolveTarget: Texture | undefined;
  loadOp: 'load' | 'clear';
  storeOp: 'store' | 'discard';
  clearValue: readonly [number, number, number, number];
}

export interface ResolvedDepthAttachment {
  texture: Texture;
  depthLoadOp: 'load' | 'clear';
  depthStoreOp: 'store' | 'discard';
  depthClearValue: number;
}

export interface ResolvedRenderPass {
  label: string;
  colorAttachments: ResolvedColorAttachment[];
  depthStencilAttachment: ResolvedDepthAttachment | undefined;
  timestampWrites: PassTimestampWrites | undefined;
  width: number;
  height: number;
  sampleCount: number;
}

/**
 * A recorded command: plain data, replayed by each backend's queue through one exhaustive switch.
 * Plain data can be asserted on in Node tests and printed by `encoder.trace()`.
 */
export type Command =
  | { type: 'beginRenderPass'; pass: ResolvedRenderPass }
  | { type: 'endRenderPass' }
  | { type: 'beginComputePass'; label: string; timestampWrites: PassTimestampWrites | undefined }
  | { type: 'endComputePass' }
  | { type: 'setRenderPipeline'; pipeline: RenderPipeline }
  | { type: 'setComputePipeline'; pipeline: ComputePipeline }
  | { type: 'setBinding'; slot: number; resource: BoundResource }
  | { type: 'setVertexBuffer'; slot: number; buffer: Buffer; offset: number }
  | { type: 'setIndexBuffer'; buffer: Buffer; format: 'uint16' | 'uint32'; offset: number }
  | {
      type: 'setViewport';
      x: number;
      y: number;
      width: number;
      height: number;
      minDepth: number;
      maxDepth: number;
    }
  | { type: 'setScissorRect'; x: number; y: number; width: number; height: number }
  | {
      type: 'draw';
      vertexCount: number;
      instanceCount: number;
      firstVertex: number;
      firstInstance: number;
    }
  | {
      type: 'drawIndexed';
      indexCount: number;
      instanceCount: number;
      firstIndex: number;
      baseVertex: number;
      firstInstance: number;
    }
  | { type: 'executeBundles'; bundles: readonly RenderBundle[] }
  | { type: 'drawIndirect'; buffer: Buffer; offset: number }
  | { type: 'drawIndexedIndirect'; buffer: Buffer; offset: number }
  | { type: 'dispatch'; x: number; y: number; z: number }
  | { type: 'dispatchIndirect'; buffer: Buffer; offset: number }
  | {
      type: 'copyBufferToBuffer';
      src: Buffer;
      srcOffset: number;
      dst: Buffer;
      dstOffset: number;
      size: number;
    }
  | {
      type: 'copyBufferToTexture';
      src: Buffer;
      offset: number;
      bytesPerRow: number;
      dst: Texture;
      mipLevel: number;
      x: number;
      y: number;
      size: Extent2D;
    }
  | {
      type: 'copyTextureToBuffer';
      src: Texture;
      mipLevel: number;
      x: number;
      y: number;
      dst: Buffer;
      offset: number;
      bytesPerRow: number;
      size: Extent2D;
    }
  | {
      type: 'copyTextureToTexture';
      src: Texture;
      srcMip: number;
      srcX: number;
      srcY: number;
      dst: Texture;
      dstMip: number;
      dstX: number;
      dstY: number;
      size: Extent2D;
    }
  | { type: 'pushDebugGroup'; label: string }
  | { type: 'popDebugGroup' }
  | {
      type: 'barrier';
      from: BarrierScope;
      to: BarrierScope;
      resources: string[] | undefined;
      inserted: boolean;
    };

/**
 * A uniform slot moved to another slice of the buffer it holds, at the same size — a draw per
 * object, each with its own slice of one buffer. Recorded without allocating: one command object
 * per run of such slices, recorded at every slice of the run; its `resource.offset` is the latest
 * slice's (what a sink that encodes while recording reads), and each recording's own offset is
 * kept in order in the command buffer's `sliceOffsets`, where a replay takes it from (setting
 * `resource.offset` before use). Never in `commands`, which lists it as the `setBinding` it stands for.
 */
export interface UniformSliceCommand {
  type: 'setUniformSlice';
  slot: number;
  resource: { kind: 'uniform'; buffer: Buffer; offset: number; size: number };
}

/** A plain draw's command (`pass.draw()`). */
export type DrawCommand = Extract<Command, { type: 'draw' }>;

/**
 * `count` more draws of a pair: each `slice` again at its next logged offset (`sliceOffsets`, in
 * order), then `draw`. A command encoder's list folds them in while recording (CommandList): a
 * frame of many draws, each with its own slice of one uniform buffer, keeps one entry per run of
 * draws instead of two per draw, and a replay binds and draws in a tight loop. It always follows
 * the pair it repeats (`slice` then `draw`, replayed in full), so only the slice's offset moves.
 * Never in `commands`, which lists each draw of it as its `setBinding` and `draw`.
 */
export interface DrawRunCommand {
  type: 'drawRun';
  slice: UniformSliceCommand;
  draw: DrawCommand;
  count: number;
}

/** What a command list holds: the commands, uniform slices recorded without allocating, runs. */
export type RecordedCommand = Command | UniformSliceCommand | DrawRunCommand;

export type CommandType = Command['type'];

/**
 * For replay switches: a pass command found outside a pass. Core records those only between a
 * pass's begin and end, so reaching this is a bug, reported loudly instead of dropped.
 */
export function outsidePass(command: RecordedCommand): never {
  throw new Error(
    `${command.type} replayed outside a pass; core records it only inside one (a bug in Ignis)`,
  );
}

/** Exhaustiveness guard for the replay switches. */
export function unreachable(value: never): never {
  throw new Error(`unhandled command ${show(value)}`);
}
