import { UnsupportedFeatureError, ValidationError } from './errors.js';
import { FORMAT_INFO, isDepthFormat } from './formats.js';
import type {
  BoundResource,
  BarrierScope,
  StorageAccess,
  UniformSliceCommand,
} from './commands.js';
import type { BindingLayoutEntry } from './descriptors.js';
import type { Buffer } from './buffer.js';
import type { Texture } from './texture.js';
import type { Sampler } from './sampler.js';
import type { PassRecorder } from './command-encoder.js';
import { MAX_BIND_GROUPS, MAX_BINDINGS_PER_BIND_GROUP, slotName, slotOf } from './slots.js';
import { SlotMap } from './slot-map.js';
import { BindGroup } from './bind-group.js';
import {
  uniformBinding,
  storageBinding,
  textureBinding,
  storageTextureBinding,
  samplerBinding,
} from './binding-resources.js';
export { uniformBinding, storageBinding, textureBinding, storageTextureBinding, samplerBinding };

/**
 * The slot table shared by render and compute passes: `set*(slot, resource)` stages a resource,
 * checked against its usage flags at once and against the pipeline's layout at draw/dispatch.
 */
/**
 * Scratch of `SlotTable.check`, shared by every table (a check runs to the end before another
 * starts): the buffers of a draw's bindings, each with its layout entry and whether it is bound
 * writable. Arrays reused up to `boundCount` (a draw binds a handful; clearing a Map, or emptying
 * an array by its length, gives up its storage, so the next push allocates again). Entries past
 * `boundCount` keep the last draws' buffers referenced until overwritten: a handful, harmless.
 */
const BOUND_BUFFERS: Buffer[] = [];
const BOUND_ENTRIES: BindingLayoutEntry[] = [];
const BOUND_WRITABLE: boolean[] = [];
let boundCount = 0;

/** The entry of a buffer bound with the other kind of use (writable vs not) in this draw, if any. */
function aliasOf(buffer: Buffer, writable: boolean): BindingLayoutEntry | undefined {
  for (let i = 0; i < boundCount; i++)
    if (BOUND_BUFFERS[i] === buffer && BOUND_WRITABLE[i] !== writable) return BOUND_ENTRIES[i];
  return undefined;
}

const OPERATION_NAMES = new Map<string, string[]>();

/** `setUniformBuffer(3)` and the like, made once per slot: they name the call in errors. */
export function operationName(method: string, slot: number): string {
  // cached for the slots real code uses; anything else (a fuzzer's slot) is made each time
  if (!Number.isInteger(slot) || slot < 0 || slot >= 4096) return `${method}(${slot})`;
  let names = OPERATION_NAMES.get(method);
  if (!names) OPERATION_NAMES.set(method, (names = []));
  return (names[slot] ??= `${method}(${slot})`);
}

/** How errors name a slot of a pipeline (made only for an error: checks run per draw). */
function slotAt(entry: BindingLayoutEntry, pipelineLabel: string): string {
  return `slot ${slotName(entry)}${entry.name ? ` ("${entry.name}")` : ''} of pipeline "${pipelineLabel}"`;
}

/**
 * Whether `next` in a slot changes nothing a draw's check reads: the same buffer, kind, size and
 * access, another offset (already checked when bound). A frame that draws with its own slice of one
 * uniform buffer per draw binds like this at every draw.
 */
function sameButOffset(prev: BoundResource | undefined, next: BoundResource): boolean {
  if (prev === undefined || prev.kind !== next.kind) return false;
  if (prev.kind === 'uniform' && next.kind === 'uniform')
    return prev.buffer === next.buffer && prev.size === next.size;
  if (prev.kind === 'storage' && next.kind === 'storage')
    return prev.buffer === next.buffer && prev.size === next.size && prev.access === next.access;
  return false;
}

export class SlotTable {
  readonly slots = new SlotMap<BoundResource>();
  /**
   * Bumped by every binding a draw's check could judge differently; `check` keeps the layout and
   * version it last passed, and a draw with both unchanged skips it (its reads and writes are
   * tracked already: hazards are per pass, and this table lives as long as its pass).
   */
  #version = 0;
  /** Bumped by every binding a draw's check could judge differently (RenderCommands.draw). */
  get version(): number {
    return this.#version;
  }
  #checkedLayout: readonly BindingLayoutEntry[] | null = null;
  #checkedVersion = -1;
  /** Per slot, the command of the run of uniform slices it is in (UniformSliceCommand). */
  readonly #slices: (UniformSliceCommand | undefined)[] = [];
  /**
   * The last slice recorded: its slot, buffer and size, and its run's command; `#runSlot` is -1
   * once that slot is bound any other way. A call for the same slot, buffer and size is the run's
   * next slice, whose offset alone is checked: the slot's lookup and the bound resource's checks
   * were over half of a slice draw's recording in V8's profile.
   */
  #runSlot = -1;
  #runBuffer: Buffer | null = null;
  #runSize = -1;
  #runSlice: UniformSliceCommand | null = null;

  /**
   * `minUniformBufferOffsetAlignment` less one where it is a power of two (every device met so
   * far), else -1: a slice's offset is checked with a mask, not a modulo (an integer division, a
   * tenth of what the slice's check cost in V8's profile of a frame of slices).
   */
  readonly #alignMask: number;
  readonly #align: number;

  constructor(
    private readonly recorder: PassRecorder,
    private readonly passLabel: string,
  ) {
    const align = recorder.device.caps.limits.minUniformBufferOffsetAlignment;
    this.#align = align;
    this.#alignMask = align > 0 && (align & (align - 1)) === 0 ? align - 1 : -1;
  }

  /** A slot of group 0: a binding number below WebGPU's maxBindingsPerBindGroup. */
  #slot(slot: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= MAX_BINDINGS_PER_BIND_GROUP) {
      throw new ValidationError(
        'binding-slot',
        `Binding slot ${typeof slot === 'bigint' ? `${slot}n` : String(slot)} must be an integer from 0 to ${MAX_BINDINGS_PER_BIND_GROUP - 1} (maxBindingsPerBindGroup; other groups are filled by setBindGroup)`,
        this.passLabel,
        { slot },
      );
    }
  }

  #bind(slot: number, resource: BoundResource): void {
    if (slot === this.#runSlot) this.#runSlot = -1;
    if (!sameButOffset(this.slots.get(slot), resource)) this.#version++;
    this.slots.set(slot, resource);
    this.recorder.record({ type: 'setBinding', slot, resource });
  }

  uniform(slot: number, buffer: Buffer, offset = 0, size?: number): void {
    if (slot === this.#runSlot && buffer === this.#runBuffer && size === this.#runSize) {
      // the run's next slice: only its offset is new
      if (this.#sliceFits(buffer, offset, size)) {
        const slice = this.#runSlice as UniformSliceCommand;
        slice.resource.offset = offset;
        this.recorder.recordSlice(slice, offset);
        return;
      }
    } else {
      // A new slice of the buffer the slot holds, of the same size (a draw per object, each with
      // its own slice): the buffer's usage, device and size limit were checked when it was first
      // bound. Anything else takes the full path, which also names every mistake.
      const bound = this.slots.get(slot);
      if (
        bound?.kind === 'uniform' &&
        bound.buffer === buffer &&
        size === bound.size &&
        this.#sliceFits(buffer, offset, size)
      ) {
        // (the same buffer and size: nothing `check` reads changed.) Recorded without allocating:
        // the run of slices shares one command and one resource this table owns, moved to each
        // slice's offset, and the command list logs each offset (UniformSliceCommand). A slot
        // bound any other way since holds another object, so the run's command is made again.
        let slice = this.#slices[slot];
        if (slice === undefined || slice.resource !== bound) {
          const resource = { kind: 'uniform' as const, buffer, offset, size };
          this.#slices[slot] = slice = { type: 'setUniformSlice', slot, resource };
          this.slots.set(slot, resource);
        } else slice.resource.offset = offset;
        this.#runSlot = slot;
        this.#runBuffer = buffer;
        this.#runSize = size;
        this.#runSlice = slice;
        this.recorder.recordSlice(slice, offset);
        return;
      }
    }
    this.#slot(slot);
    const op = operationName('setUniformBuffer', slot);
    this.#bind(slot, uniformBinding(this.recorder.device, op, buffer, offset, size));
  }

  /**
   * Whether a slice of `size` bytes of `buffer` (bound at that size already) may start at
   * `offset`, as `uniformBinding` would judge it.
   */
  #sliceFits(buffer: Buffer, offset: number, size: number): boolean {
    return (
      Number.isInteger(offset) &&
      offset >= 0 &&
      offset + size <= buffer.size &&
      // (`&` keeps an integer's low bits whatever its size: the mask is right past 2^31 too)
      (this.#alignMask >= 0 ? (offset & this.#alignMask) === 0 : offset % this.#align === 0) &&
      !buffer.destroyed &&
      !buffer.device.isLost
    );
  }

  storage(slot: number, buffer: Buffer, access: StorageAccess, offset = 0, size?: number): void {
    this.#slot(slot);
    const op = operationName('setStorageBuffer', slot);
    this.#bind(slot, storageBinding(this.recorder.device, op, buffer, access, offset, size));
  }

  texture(slot: number, texture: Texture): void {
    this.#slot(slot);
    const op = operationName('setTexture', slot);
    this.#bind(slot, textureBinding(this.recorder.device, op, texture));
  }

  storageTexture(slot: number, texture: Texture): void {
    this.#slot(slot);
    const op = operationName('setStorageTexture', slot);
    this.#bind(slot, storageTextureBinding(this.recorder.device, op, texture));
  }

  sampler(slot: number, sampler: Sampler): void {
    this.#slot(slot);
    const op = operationName('setSampler', slot);
    this.#bind(slot, samplerBinding(this.recorder.device, op, sampler));
  }

  /** `setBindGroup(index, group)`: group `index`'s slots take the group's resources. */
  group(index: number, group: BindGroup, dynamicOffsets?: Iterable<number>): void {
    if (dynamicOffsets !== undefined && [...dynamicOffsets].length > 0)
      throw new ValidationError(
        'bind-group-dynamic-offsets',
        `setBindGroup(${index}) with dynamic offsets: Ignis has none; bind the buffer at its offset with setUniformBuffer/setStorageBuffer, or make one group per offset`,
        this.passLabel,
        { index },
      );
    if (!Number.isInteger(index) || index < 0 || index >= MAX_BIND_GROUPS)
      throw new ValidationError(
        'bind-group-index',
        `setBindGroup index ${String(index)} must be an integer from 0 to ${MAX_BIND_GROUPS - 1}`,
        this.passLabel,
        { index },
      );
    if (!(group instanceof BindGroup))
      throw new ValidationError(
        'resource-kind',
        `setBindGroup(${index}) takes a bind group from device.createBindGroup(), got ${String(group)}`,
        this.passLabel,
        { index },
      );
    if (group.device !== this.recorder.device)
      throw new ValidationError(
        'bind-group-device',
        `Bind group "${group.label}" was created on another device`,
        this.passLabel,
      );
    // as in WebGPU the group replaces everything bound at that index, slot by slot or by group
    const first = slotOf({ group: index, binding: 0 });
    this.#runSlot = -1;
    for (const slot of this.slots.keys())
      if (slot >= first && slot < first + MAX_BINDINGS_PER_BIND_GROUP) this.slots.delete(slot);
    this.#version++;
    for (const [binding, resource] of group.resources)
      this.#bind(slotOf({ group: index, binding }), resource);
  }

  /** The texture suits the slot: depth for depth slots, filterable floats, the storage format. */
  #checkTexture(entry: BindingLayoutEntry, texture: Texture, pipelineLabel: string): void {
    const depth = isDepthFormat(texture.format);
    if (entry.type === 'storage-texture') {
      if (entry.format && entry.format !== texture.format) {
        throw new ValidationError(
          'binding-storage-format',
          `Texture "${texture.label}" is ${texture.format} but ${slotAt(entry, pipelineLabel)} is a ${entry.format} storage texture`,
          this.passLabel,
          {
            format: texture.format,
            expected: entry.format,
          },
        );
      }
      return;
    }
    const sampleType = entry.sampleType ?? 'float';
    if (depth !== (sampleType === 'depth')) {
      throw new ValidationError(
        'binding-sample-type',
        `Texture "${texture.label}" (${texture.format}) cannot be bound at ${slotAt(entry, pipelineLabel)}, which samples ${sampleType === 'depth' ? 'a depth texture' : `'${sampleType}' texels`}`,
        this.passLabel,
        { format: texture.format, sampleType },
      );
    }
    const caps = this.recorder.device.caps;
    if (
      caps.shaderLanguage === 'glsl' &&
      FORMAT_INFO[texture.format].float32 &&
      !caps.features.float32Filterable &&
      entry.samplerBinding !== undefined
    ) {
      // GL samples an unfilterable texture through a linear sampler as black, silently
      const bound = this.slots.get(slotOf({ group: entry.group, binding: entry.samplerBinding }));
      const d = bound?.kind === 'sampler' ? bound.sampler.descriptor : undefined;
      if (d && (d.magFilter === 'linear' || d.minFilter === 'linear')) {
        throw new UnsupportedFeatureError(
          'float32Filterable',
          caps.backend,
          `${texture.format} texture "${texture.label}" at ${slotAt(entry, pipelineLabel)} is sampled with a linear sampler; use a nearest one`,
          this.passLabel,
        );
      }
    }
    if (
      sampleType === 'float' &&
      FORMAT_INFO[texture.format].float32 &&
      !caps.features.float32Filterable &&
      caps.shaderLanguage === 'wgsl'
    ) {
      throw new UnsupportedFeatureError(
        'float32Filterable',
        caps.backend,
        `${texture.format} texture "${texture.label}" at ${slotAt(entry, pipelineLabel)} needs a slot declared with sampleType 'unfilterable-float' (read it with textureLoad or a nearest sampler)`,
        this.passLabel,
      );
    }
  }

  /**
   * At draw/dispatch: every slot of the pipeline's layout holds a resource of the right kind;
   * reads are tracked for hazards in `readScopes`, read-write storage is a write in `writeScope`.
   */
  check(
    layout: readonly BindingLayoutEntry[],
    pipelineLabel: string,
    readScopes: readonly BarrierScope[],
    writeScope: BarrierScope | null,
  ): void {
    if (layout === this.#checkedLayout && this.#version === this.#checkedVersion) return;
    this.#checkedLayout = null; // (a check that throws leaves nothing passed)
    // WebGPU's usage scope: a buffer bound as writable storage may not also be bound read-only
    // (uniform or read-only storage) in the same draw or dispatch
    boundCount = 0;
    for (const entry of layout) {
      const bound = this.slots.get(slotOf(entry));
      if (!bound) {
        throw new ValidationError(
          'binding-missing',
          `Slot ${slotName(entry)} (${entry.type}${entry.name ? ` "${entry.name}"` : ''}) of pipeline "${pipelineLabel}" has nothing bound${entry.group ? ` (setBindGroup(${entry.group}, …))` : ''}`,
          this.passLabel,
          {
            group: entry.group ?? 0,
            binding: entry.binding,
            type: entry.type,
          },
        );
      }
      const expected = entry.type === 'read-only-storage' ? 'storage' : entry.type;
      if (bound.kind !== expected) {
        throw new ValidationError(
          'binding-kind',
          `Slot ${slotName(entry)} of pipeline "${pipelineLabel}" expects ${entry.type}, but a ${bound.kind} is bound`,
          this.passLabel,
          {
            binding: entry.binding,
            expected: entry.type,
            actual: bound.kind,
          },
        );
      }
      // 'auto' means what this pipeline declares: resolved here, at the draw or dispatch, not when bound
      const access =
        bound.kind === 'storage' && bound.access === 'auto'
          ? entry.type === 'storage'
            ? 'read-write'
            : 'read'
          : bound.kind === 'storage'
            ? bound.access
            : null;
      if (bound.kind === 'storage' && entry.type === 'storage' && access === 'read') {
        throw new ValidationError(
          'binding-access',
          `Slot ${slotName(entry)} of pipeline "${pipelineLabel}" is read_write in the shader but was bound with access 'read'`,
          this.passLabel,
          {
            binding: entry.binding,
          },
        );
      }
      if (
        bound.kind === 'uniform' &&
        entry.minBindingSize !== undefined &&
        bound.size < entry.minBindingSize
      )
        throw new ValidationError(
          'binding-min-size',
          `Slot ${slotName(entry)}${entry.name ? ` ("${entry.name}")` : ''} of pipeline "${pipelineLabel}" reads a ${entry.minBindingSize}-byte uniform struct, but ${bound.size} bytes of "${bound.buffer.label}" are bound`,
          this.passLabel,
          { binding: entry.binding, size: bound.size, minBindingSize: entry.minBindingSize },
        );
      if (bound.kind === 'texture' || bound.kind === 'storage-texture')
        this.#checkTexture(entry, bound.texture, pipelineLabel);
      if (
        bound.kind === 'sampler' &&
        (entry.samplerType === 'comparison') !== (bound.sampler.descriptor.compare !== undefined)
      )
        throw new ValidationError(
          'binding-sampler-compare',
          entry.samplerType === 'comparison'
            ? `Slot ${slotName(entry)}${entry.name ? ` ("${entry.name}")` : ''} of pipeline "${pipelineLabel}" is a comparison sampler (sampler_comparison, sampler2DShadow), but sampler "${bound.sampler.label}" has no compare function`
            : `Sampler "${bound.sampler.label}" compares (compare '${bound.sampler.descriptor.compare}'), but slot ${slotName(entry)}${entry.name ? ` ("${entry.name}")` : ''} of pipeline "${pipelineLabel}" is a plain sampler; declare it sampler_comparison (GLSL: sampler2DShadow, samplerType 'comparison')`,
          this.passLabel,
          { binding: entry.binding, compare: bound.sampler.descriptor.compare },
        );
      if (bound.kind === 'sampler' && entry.samplerType === 'non-filtering') {
        const d = bound.sampler.descriptor;
        const linear = (['magFilter', 'minFilter', 'mipmapFilter'] as const).filter(
          (k) => d[k] === 'linear',
        );
        if (linear.length > 0) {
          throw new ValidationError(
            'binding-sampler-filtering',
            `Sampler "${bound.sampler.label}" filters linearly (${linear.join(', ')}) but slot ${slotName(entry)}${entry.name ? ` ("${entry.name}")` : ''} of pipeline "${pipelineLabel}" is non-filtering (it samples an 'unfilterable-float' texture); use 'nearest'`,
            this.passLabel,
            { binding: entry.binding, linear },
          );
        }
      }
      if (bound.kind === 'uniform' || bound.kind === 'storage') {
        // (writable and writable together is allowed: both are the 'storage' usage)
        const clash = aliasOf(bound.buffer, access === 'read-write');
        if (clash !== undefined)
          throw new ValidationError(
            'binding-writable-alias',
            `Buffer "${bound.buffer.label}" is bound at slots ${slotName(clash)} and ${slotName(entry)} of pipeline "${pipelineLabel}", at least once as writable storage: WebGPU forbids a writable binding and another use of one buffer in the same draw or dispatch`,
            this.passLabel,
            { slots: [slotName(clash), slotName(entry)] },
          );
        BOUND_BUFFERS[boundCount] = bound.buffer;
        BOUND_ENTRIES[boundCount] = entry;
        BOUND_WRITABLE[boundCount] = access === 'read-write';
        boundCount++;
      }
      switch (bound.kind) {
        case 'uniform':
          this.recorder.trackRead(bound.buffer, readScopes);
          break;
        case 'storage':
          this.recorder.trackRead(bound.buffer, readScopes);
          if (access === 'read-write' && writeScope)
            this.recorder.trackWrite(bound.buffer, writeScope);
          break;
        case 'texture':
          this.recorder.trackRead(bound.texture, readScopes);
          break;
        case 'storage-texture':
          if (writeScope) this.recorder.trackWrite(bound.texture, writeScope);
          break;
        case 'sampler':
          break;
      }
    }
    this.#checkedLayout = layout;
    this.#checkedVersion = this.#version;
  }
}
