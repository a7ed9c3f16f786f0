import { BindGroup } from './bind-group.js';
import { BufferUsage } from './flags.js';
import { requireResource } from './validate/resource.js';
import {
  EncoderStateError,
  LimitExceededError,
  UnsupportedFeatureError,
  ValidationError,
} from './errors.js';
import { SlotTable } from './bindings.js';
import { isNonNegativeInteger, isPositiveInteger, requireBufferUsage } from './validate/buffer.js';
import type { PassRecorder } from './command-encoder.js';
import type { ComputePipeline } from './compute-pipeline.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';
import type { StorageAccess } from './commands.js';

/**
 * How `dispatchThreads(count, workgroupSize)` lays out `count` threads: `ceil(count / size)`
 * workgroups, in one dimension while that fits `maxComputeWorkgroupsPerDimension`, else in two
 * (x = the limit, y = as many rows as needed). A kernel rebuilds its linear index as
 *
 *     let i = gid.x + gid.y * (num_workgroups.x * WORKGROUP_SIZE);
 *     if (i >= count) { return; }
 *
 * with `@builtin(global_invocation_id) gid` and `@builtin(num_workgroups) num_workgroups`.
 */
export function splitDispatch(
  count: number,
  workgroupSize: number,
  maxPerDimension: number,
): [number, number, number] {
  const groups = Math.ceil(count / workgroupSize);
  if (groups <= maxPerDimension) return [groups, 1, 1];
  const y = Math.ceil(groups / maxPerDimension);
  if (y > maxPerDimension) {
    throw new LimitExceededError(
      'maxComputeWorkgroupsPerDimension',
      groups,
      maxPerDimension * maxPerDimension,
      'Workgroup count (2-D split)',
    );
  }
  return [maxPerDimension, y, 1];
}

/** Records dispatches into one compute pass. */
export class ComputePass {
  readonly #recorder: PassRecorder;
  readonly #slots: SlotTable;
  #pipeline: ComputePipeline | null = null;
  #ended = false;

  constructor(
    recorder: PassRecorder,
    readonly label: string,
  ) {
    this.#recorder = recorder;
    this.#slots = new SlotTable(recorder, label);
  }

  #open(operation: string): void {
    if (this.#ended)
      throw new EncoderStateError(`${operation} after pass.end()`, 'ended', this.label);
  }

  setPipeline(pipeline: ComputePipeline): void {
    this.#open('setPipeline');
    requireResource(pipeline, 'compute-pipeline', 'setPipeline', this.#recorder.device);
    if (pipeline.kind !== 'compute-pipeline') {
      throw new ValidationError(
        'pipeline-kind',
        `setPipeline on a compute pass needs a compute pipeline, got ${String((pipeline as { kind?: string }).kind)}`,
        this.label,
      );
    }
    this.#pipeline = pipeline;
    this.#recorder.record({ type: 'setComputePipeline', pipeline });
  }

  /**
   * `access` defaults to what the pipeline used at each dispatch declares at this slot (read_write →
   * a write, read → a read), whether the buffer is bound before or after `setPipeline`.
   */
  setStorageBuffer(
    slot: number,
    buffer: Buffer,
    options: { access?: StorageAccess; offset?: number; size?: number } = {},
  ): void {
    this.#open('setStorageBuffer');
    this.#slots.storage(slot, buffer, options.access ?? 'auto', options.offset, options.size);
  }

  setUniformBuffer(slot: number, buffer: Buffer, offset?: number, size?: number): void {
    this.#open('setUniformBuffer');
    this.#slots.uniform(slot, buffer, offset, size);
  }

  setTexture(slot: number, texture: Texture): void {
    this.#open('setTexture');
    this.#slots.texture(slot, texture);
  }

  setSampler(slot: number, sampler: Sampler): void {
    this.#open('setSampler');
    this.#slots.sampler(slot, sampler);
  }

  /**
   * Binds `group`'s resources to `@group(index)` (WebGPU's `setBindGroup`); group 0 can also be
   * filled slot by slot. Dynamic offsets are not supported: a typed error says what to do instead.
   */
  setBindGroup(index: number, group: BindGroup, dynamicOffsets?: Iterable<number>): void {
    this.#open('setBindGroup');
    this.#slots.group(index, group, dynamicOffsets);
  }

  setStorageTexture(slot: number, texture: Texture): void {
    this.#open('setStorageTexture');
    const caps = this.#recorder.device.caps;
    if (!caps.features.storageTextures)
      throw new UnsupportedFeatureError(
        'storageTextures',
        caps.backend,
        'write the texture from a render pass',
        this.label,
      );
    this.#slots.storageTexture(slot, texture);
  }

  #check(operation: string): ComputePipeline {
    const pipeline = this.#pipeline;
    if (!pipeline)
      throw new EncoderStateError(
        `${operation} without a pipeline; call setPipeline() first`,
        'no-pipeline',
        this.label,
      );
    pipeline.assertAlive(operation);
    this.#slots.check(pipeline.bindings, pipeline.label, ['compute-read'], 'compute-write');
    return pipeline;
  }

  dispatch(x: number, y = 1, z = 1): void {
    this.#open('dispatch');
    const max = this.#recorder.device.caps.limits.maxComputeWorkgroupsPerDimension;
    for (const [axis, n] of [
      ['x', x],
      ['y', y],
      ['z', z],
    ] as const) {
      if (!isNonNegativeInteger(n)) {
        throw new ValidationError(
          'dispatch-count',
          `dispatch ${axis} = ${String(n)} must be a non-negative integer`,
          this.label,
          { [axis]: n },
        );
      }
      if (n > max)
        throw new LimitExceededError(
          'maxComputeWorkgroupsPerDimension',
          n,
          max,
          `dispatch ${axis}`,
          this.label,
        );
    }
    this.#check('dispatch');
    this.#recorder.record({ type: 'dispatch', x, y, z });
  }

  /**
   * Dispatches enough workgroups of `workgroupSize` (default: the pipeline's reflected
   * `@workgroup_size` x) for `count` threads; returns the grid. See `splitDispatch` for the 2-D rule.
   */
  dispatchThreads(count: number, workgroupSize?: number): [number, number, number] {
    this.#open('dispatchThreads');
    const size = workgroupSize ?? this.#pipeline?.workgroupSize[0] ?? 64;
    if (!isNonNegativeInteger(count))
      throw new ValidationError(
        'dispatch-count',
        `dispatchThreads count ${String(count)} must be a non-negative integer`,
        this.label,
        { count },
      );
    if (!isPositiveInteger(size))
      throw new ValidationError(
        'dispatch-workgroup-size',
        `workgroupSize ${String(size)} must be a positive integer`,
        this.label,
        { workgroupSize: size },
      );
    const limits = this.#recorder.device.caps.limits;
    const grid = splitDispatch(count, size, limits.maxComputeWorkgroupsPerDimension);
    this.dispatch(grid[0], grid[1], grid[2]);
    return grid;
  }

  /** WebGPU's name for `dispatch`. */
  dispatchWorkgroups(x: number, y = 1, z = 1): void {
    this.dispatch(x, y, z);
  }

  /** WebGPU's name for `dispatchIndirect`. */
  dispatchWorkgroupsIndirect(buffer: Buffer, offset = 0): void {
    this.dispatchIndirect(buffer, offset);
  }

  dispatchIndirect(buffer: Buffer, offset = 0): void {
    this.#open('dispatchIndirect');
    const caps = this.#recorder.device.caps;
    if (!caps.features.indirect)
      throw new UnsupportedFeatureError(
        'indirect',
        caps.backend,
        'read the counts back and call dispatch()',
        this.label,
      );
    requireResource(buffer, 'buffer', 'dispatchIndirect', this.#recorder.device);
    requireBufferUsage(buffer.usage, BufferUsage.INDIRECT, 'dispatchIndirect', buffer.label);
    if (!isNonNegativeInteger(offset) || offset % 4 !== 0 || offset + 12 > buffer.size) {
      throw new ValidationError(
        'dispatch-indirect-offset',
        `dispatchIndirect offset ${String(offset)} must be a multiple of 4 with 12 bytes after it in the ${buffer.size}-byte buffer`,
        buffer.label,
        { offset },
      );
    }
    this.#check('dispatchIndirect');
    this.#recorder.trackRead(buffer, ['indirect-read']);
    this.#recorder.record({ type: 'dispatchIndirect', buffer, offset });
  }

  end(): void {
    this.#open('end');
    this.#ended = true;
    this.#recorder.end({ type: 'endComputePass' });
  }
}
