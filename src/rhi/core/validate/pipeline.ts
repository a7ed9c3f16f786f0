import { LimitExceededError, UnsupportedFeatureError, ValidationError } from '../errors.js';
import { FORMAT_INFO, colorBytesPerSample, isDepthFormat, isTextureFormat } from '../formats.js';
import { deriveSamplerTypes, layoutFromReflection, wgslStaticUse } from '../reflect.js';
import { MAX_BIND_GROUPS, MAX_BINDINGS_PER_BIND_GROUP, slotName, slotOf } from '../slots.js';
import { reflectWorkgroupSize } from '../compute-pipeline.js';
import type { Caps } from '../caps.js';
import type {
  BindingLayoutEntry,
  BlendComponent,
  BlendState,
  ComputePipelineDescriptor,
  RenderPipelineDescriptor,
} from '../descriptors.js';
import type { ShaderModule } from '../shader-module.js';
import type { Device } from '../device.js';
import { requireResource } from './resource.js';
import { show } from '../show.js';

/** Every kind of binding a pipeline's flat layout may declare. */
const BINDING_TYPES: readonly string[] = [
  'uniform',
  'storage',
  'read-only-storage',
  'texture',
  'sampler',
  'storage-texture',
];
import { checkEntryPoint, validateRenderState, wgslEntryPoints } from './render-state.js';
import { checkVertexInputs } from './vertex-inputs.js';
import { wgslTypeSize } from '../wgsl-layout.js';

/** A blend state with its defaults filled in, as a comparable string ('none' without blending). */
function blendKey(blend: BlendState | undefined): string {
  if (!blend) return 'none';
  const c = (x: BlendComponent): string =>
    `${x.operation ?? 'add'} ${x.srcFactor ?? 'one'} ${x.dstFactor ?? 'zero'}`;
  return `${c(blend.color)} / ${c(blend.alpha)}`;
}

function checkModule(
  module: ShaderModule,
  stage: string,
  caps: Caps,
  label?: string,
  device?: Device,
): void {
  // a module of this device, alive (a plain object or another device's is a typed error here)
  requireResource(module, 'shader-module', `${stage}.module`, device);
  if (module.language !== caps.shaderLanguage) {
    throw new ValidationError(
      'shader-language',
      `The ${stage} module "${module.label}" is ${module.language}, but the ${caps.backend} backend runs ${caps.shaderLanguage}`,
      label,
      { language: module.language, expected: caps.shaderLanguage },
    );
  }
  if (module.language === 'glsl' && module.stage !== undefined && module.stage !== stage) {
    throw new ValidationError(
      'shader-stage',
      `GLSL module "${module.label}" is a ${module.stage} shader, used as ${stage}`,
      label,
      {
        stage: module.stage,
        expected: stage,
      },
    );
  }
}

/** WebGPU's `maxBindingsPerBindGroup` (1000 in every implementation): @binding numbers stay below it. */

/** WebGPU's `layout`: only 'auto' (Ignis reflects the layout, or takes `bindings`). */
function checkLayout(layout: unknown, label: string | undefined): void {
  if (layout !== undefined && layout !== 'auto')
    throw new ValidationError(
      'pipeline-layout',
      `layout ${typeof layout === 'string' ? `'${layout}'` : 'objects'} are not taken: Ignis reflects the layout from the WGSL (layout: 'auto', or leave it out) or takes the slots as \`bindings\``,
      label,
    );
}

/** A shader stage of a pipeline: its module and entry point. */
export interface PipelineStage {
  module: ShaderModule;
  stage: 'vertex' | 'fragment' | 'compute';
  entryPoint?: string;
}

/** The module's resources the stage's entry point uses (all of them where that is not known). */
function usedBindings(s: PipelineStage): ShaderModule['bindings'] {
  if (s.module.language !== 'wgsl') return s.module.bindings;
  const entry = s.entryPoint ?? wgslEntryPoints(s.module.code)[s.stage][0];
  const used = entry ? wgslStaticUse(s.module.code, entry) : null;
  return used ? s.module.bindings.filter((b) => used.has(b.name)) : s.module.bindings;
}

/**
 * The flat slot layout: the given one, or reflected from the WGSL of the pipeline's stages —
 * only what their entry points use, as WebGPU's `layout: 'auto'` does.
 */
export function resolveBindings(
  stages: PipelineStage[],
  given: BindingLayoutEntry[] | undefined,
  label?: string,
): BindingLayoutEntry[] {
  const modules = [...new Set(stages.map((s) => s.module))];
  const reflected = stages.flatMap(usedBindings);
  const other = reflected.find((b) => b.group >= MAX_BIND_GROUPS);
  if (other) {
    throw new LimitExceededError(
      'maxBindGroups',
      other.group,
      MAX_BIND_GROUPS - 1,
      `"${other.name}" in @group(${other.group})`,
      label,
    );
  }
  const bySlot = new Map<number, BindingLayoutEntry>();
  for (const entry of layoutFromReflection(reflected)) {
    const prev = bySlot.get(slotOf(entry));
    if (prev && prev.type !== entry.type) {
      throw new ValidationError(
        'binding-conflict',
        `Slot ${slotName(entry)} is ${prev.type} in one stage and ${entry.type} in another`,
        label,
        {
          group: entry.group ?? 0,
          binding: entry.binding,
        },
      );
    }
    bySlot.set(slotOf(entry), entry);
  }
  // a uniform binding must hold the whole struct the shader reads (WebGPU's minBindingSize)
  for (const st of stages)
    if (st.module.language === 'wgsl')
      for (const b of usedBindings(st)) {
        const entry = bySlot.get(slotOf(b));
        if (entry?.type !== 'uniform') continue;
        const size = wgslTypeSize(st.module.code, b.wgslType);
        if (size !== undefined) entry.minBindingSize = Math.max(entry.minBindingSize ?? 0, size);
      }
  for (const entry of bySlot.values())
    if (entry.binding >= MAX_BINDINGS_PER_BIND_GROUP)
      throw new LimitExceededError(
        'maxBindingsPerBindGroup',
        entry.binding,
        MAX_BINDINGS_PER_BIND_GROUP - 1,
        `@binding(${entry.binding})`,
        label,
      );
  if (given !== undefined && !Array.isArray(given))
    throw new ValidationError(
      'binding-list',
      `bindings ${show(given)} must be a list of { binding, type, … } entries`,
      label,
    );
  for (const [i, entry] of (given ?? []).entries()) {
    if (entry === null || typeof entry !== 'object')
      throw new ValidationError(
        'binding-list',
        `bindings[${i}] ${show(entry)} must be an object { binding, type, … }`,
        label,
      );
    if (entry.type !== undefined && !BINDING_TYPES.includes(entry.type))
      throw new ValidationError(
        'binding-type',
        `bindings[${i}].type ${show(entry.type)} is not one of ${BINDING_TYPES.join(', ')}`,
        label,
        { type: entry.type },
      );
    if (!Number.isInteger(entry.binding) || entry.binding < 0) {
      throw new ValidationError(
        'binding-slot',
        `Binding slot ${String(entry.binding)} must be a non-negative integer`,
        label,
        { binding: entry.binding },
      );
    }
    if (
      entry.group !== undefined &&
      (!Number.isInteger(entry.group) || entry.group < 0 || entry.group >= MAX_BIND_GROUPS)
    )
      throw new LimitExceededError(
        'maxBindGroups',
        Number(entry.group),
        MAX_BIND_GROUPS - 1,
        `bindings entry ${entry.binding} in group ${String(entry.group)}`,
        label,
      );
    bySlot.set(slotOf(entry), { ...bySlot.get(slotOf(entry)), ...entry });
  }
  const sources = modules.filter((m) => m.language === 'wgsl').map((m) => m.code);
  return deriveSamplerTypes([...bySlot.values()], sources).sort((a, b) => slotOf(a) - slotOf(b));
}

export function validateRenderPipelineDescriptor(
  desc: RenderPipelineDescriptor,
  caps: Caps,
  device?: Device,
): BindingLayoutEntry[] {
  const { label } = desc;
  if (!desc.vertex?.module)
    throw new ValidationError('pipeline-vertex', 'Render pipeline needs vertex.module', label);
  checkModule(desc.vertex.module, 'vertex', caps, label, device);
  checkLayout(desc.layout, label);
  validateRenderState(desc, caps.limits, label);
  if (!caps.features.vertexFormatBgra)
    desc.vertex.buffers?.forEach((b, i) =>
      b?.attributes.forEach((a, j) => {
        if (a.format === 'unorm8x4-bgra')
          throw new UnsupportedFeatureError(
            'vertexFormatBgra',
            caps.backend,
            `vertex.buffers[${i}].attributes[${j}] is unorm8x4-bgra; give the bytes in rgba order as unorm8x4`,
            label,
          );
      }),
    );
  if (desc.vertex.module.language === 'wgsl') {
    checkEntryPoint(desc.vertex.module.code, 'vertex', desc.vertex.entryPoint, label);
    const entry = desc.vertex.entryPoint ?? wgslEntryPoints(desc.vertex.module.code).vertex[0];
    if (entry !== undefined) checkVertexInputs(desc, entry, label);
  }
  const modules = [desc.vertex.module];
  if (desc.fragment) {
    if (!desc.fragment.module)
      throw new ValidationError('pipeline-fragment', 'fragment needs a module', label);
    checkModule(desc.fragment.module, 'fragment', caps, label, device);
    if (desc.fragment.module.language === 'wgsl')
      checkEntryPoint(desc.fragment.module.code, 'fragment', desc.fragment.entryPoint, label);
    if (desc.fragment.module !== desc.vertex.module) modules.push(desc.fragment.module);
    const targets = desc.fragment.targets;
    if (targets.length > caps.limits.maxColorAttachments) {
      throw new LimitExceededError(
        'maxColorAttachments',
        targets.length,
        caps.limits.maxColorAttachments,
        'Color target count',
        label,
      );
    }
    targets.forEach((t, i) => {
      if (!isTextureFormat(t.format) || isDepthFormat(t.format)) {
        throw new ValidationError(
          'pipeline-target-format',
          `Color target ${i} format ${String(t.format)} is not a color format`,
          label,
          {
            index: i,
            format: t.format,
          },
        );
      }
      const info = FORMAT_INFO[t.format];
      if (info.float32 && !caps.features.floatRenderTargets) {
        throw new UnsupportedFeatureError(
          'floatRenderTargets',
          caps.backend,
          `color target ${i} (${t.format}) cannot be rendered; use rgba16float`,
          label,
        );
      }
      if (info.float32 && t.blend && !caps.features.float32Blendable) {
        throw new UnsupportedFeatureError(
          'float32Blendable',
          caps.backend,
          `color target ${i} (${t.format}) cannot blend; drop the blend state`,
          label,
        );
      }
    });
    const bytes = colorBytesPerSample(targets.map((t) => t.format));
    if (bytes > caps.limits.maxColorAttachmentBytesPerSample)
      throw new LimitExceededError(
        'maxColorAttachmentBytesPerSample',
        bytes,
        caps.limits.maxColorAttachmentBytesPerSample,
        `Color targets (${targets.map((t) => t.format).join(', ')}) bytes per sample`,
        label,
      );
    const first = targets[0];
    const differing = targets.findIndex(
      (t) =>
        blendKey(t.blend) !== blendKey(first?.blend) ||
        (t.writeMask ?? 0xf) !== (first?.writeMask ?? 0xf),
    );
    if (differing > 0 && !caps.features.independentBlend) {
      throw new UnsupportedFeatureError(
        'independentBlend',
        caps.backend,
        `color target ${differing} has a different blend state or write mask from target 0 (${blendKey(targets[differing]?.blend)}, mask ${targets[differing]?.writeMask ?? 0xf} vs ${blendKey(first?.blend)}, mask ${first?.writeMask ?? 0xf}); give every target the same, or split the pass`,
        label,
      );
    }
  }
  const count = desc.multisample?.count ?? 1;
  if (count !== 1 && count !== 4) {
    throw new ValidationError(
      'pipeline-sample-count',
      `multisample.count ${String(count)} must be 1 or 4`,
      label,
      { count },
    );
  }
  const buffers = desc.vertex.buffers ?? [];
  if (buffers.length > caps.limits.maxVertexBuffers) {
    throw new LimitExceededError(
      'maxVertexBuffers',
      buffers.length,
      caps.limits.maxVertexBuffers,
      'Vertex buffer count',
      label,
    );
  }
  buffers.forEach((b, i) => {
    if (!Number.isInteger(b.arrayStride) || b.arrayStride < 0 || b.arrayStride % 4 !== 0) {
      throw new ValidationError(
        'pipeline-array-stride',
        `Vertex buffer ${i} arrayStride ${String(b.arrayStride)} must be a non-negative multiple of 4`,
        label,
        {
          index: i,
          arrayStride: b.arrayStride,
        },
      );
    }
  });
  const stages: PipelineStage[] = [
    { module: desc.vertex.module, stage: 'vertex', entryPoint: desc.vertex.entryPoint },
  ];
  if (desc.fragment)
    stages.push({
      module: desc.fragment.module,
      stage: 'fragment',
      entryPoint: desc.fragment.entryPoint,
    });
  const bindings = resolveBindings(stages, desc.bindings, label);
  if (caps.features.compute) for (const s of stages) checkStorageBuffers(s, bindings, caps, label);
  if (caps.shaderLanguage === 'glsl') {
    for (const b of bindings) {
      if (!b.name) {
        throw new ValidationError(
          'binding-name',
          `Slot ${b.binding} (${b.type}) needs a name: GLSL ES 3.00 has no binding qualifier, so the GL backend finds the uniform by name`,
          label,
          {
            binding: b.binding,
          },
        );
      }
      if (b.type === 'storage' || b.type === 'read-only-storage' || b.type === 'storage-texture') {
        throw new UnsupportedFeatureError(
          'storageBuffers',
          caps.backend,
          `slot ${b.binding} is ${b.type}; keep the data in a texture and read it with texelFetch`,
          label,
        );
      }
    }
  }
  return bindings;
}

export function validateComputePipelineDescriptor(
  desc: ComputePipelineDescriptor,
  caps: Caps,
  device?: Device,
): BindingLayoutEntry[] {
  const { label } = desc;
  if (!caps.features.compute) {
    throw new UnsupportedFeatureError(
      'compute',
      caps.backend,
      'run element-wise work with the ping-pong runner (createPingPongRunner of ignis-rhi/compute)',
      label,
    );
  }
  if (!desc.compute?.module)
    throw new ValidationError('pipeline-compute', 'Compute pipeline needs compute.module', label);
  checkLayout(desc.layout, label);
  checkModule(desc.compute.module, 'compute', caps, label, device);
  if (desc.compute.module.language === 'wgsl')
    checkEntryPoint(desc.compute.module.code, 'compute', desc.compute.entryPoint, label);
  if (desc.compute.constants !== undefined)
    checkConstants(desc.compute.constants, desc.compute.module.code, label);
  if (desc.compute.module.language === 'wgsl') {
    // WebGPU: every workgroup dimension ≥ 1, x within maxComputeWorkgroupSizeX, and the product
    // within maxComputeInvocationsPerWorkgroup
    const size = reflectWorkgroupSize(
      desc.compute.module.code,
      desc.compute.entryPoint,
      desc.compute.constants,
    );
    if (size.some((n) => !Number.isInteger(n) || n < 1))
      throw new ValidationError(
        'workgroup-size-positive',
        `@workgroup_size(${size.join(', ')}): every dimension must be a positive integer`,
        label,
        { workgroupSize: size },
      );
    if (size[0] > caps.limits.maxComputeWorkgroupSizeX)
      throw new LimitExceededError(
        'maxComputeWorkgroupSizeX',
        size[0],
        caps.limits.maxComputeWorkgroupSizeX,
        '@workgroup_size x',
        label,
      );
    for (const [axis, n, limit] of [
      ['y', size[1], 'maxComputeWorkgroupSizeY'],
      ['z', size[2], 'maxComputeWorkgroupSizeZ'],
    ] as const)
      if (n > caps.limits[limit])
        throw new LimitExceededError(
          limit,
          n,
          caps.limits[limit],
          `@workgroup_size ${axis}`,
          label,
        );
    const invocations = size[0] * size[1] * size[2];
    if (invocations > caps.limits.maxComputeInvocationsPerWorkgroup)
      throw new LimitExceededError(
        'maxComputeInvocationsPerWorkgroup',
        invocations,
        caps.limits.maxComputeInvocationsPerWorkgroup,
        `@workgroup_size(${size.join(', ')}) invocations`,
        label,
      );
  }
  const stage: PipelineStage = {
    module: desc.compute.module,
    stage: 'compute',
    entryPoint: desc.compute.entryPoint,
  };
  const bindings = resolveBindings([stage], desc.bindings, label);
  checkStorageBuffers(stage, bindings, caps, label);
  return bindings;
}

/**
 * The storage buffers one stage binds within `maxStorageBuffersPerShaderStage` (WebGPU refuses the
 * pipeline otherwise, in its own validation: a step that never runs, an error out of sight).
 */
function checkStorageBuffers(
  stage: PipelineStage,
  bindings: readonly BindingLayoutEntry[],
  caps: Caps,
  label: string | undefined,
): void {
  const used = new Set(usedBindings(stage).map((b) => slotOf(b)));
  const storage = bindings.filter(
    (b) => (b.type === 'storage' || b.type === 'read-only-storage') && used.has(slotOf(b)),
  );
  const limit = caps.limits.maxStorageBuffersPerShaderStage;
  if (storage.length > limit)
    throw new LimitExceededError(
      'maxStorageBuffersPerShaderStage',
      storage.length,
      limit,
      `Storage buffers of the ${stage.stage} stage (${storage.map((b) => b.name ?? slotName(b)).join(', ')})`,
      label,
    );
}

/**
 * `compute.constants` (WebGPU's `GPUProgrammableStage.constants`): each key an `override` of the
 * module, by name or by `@id`, each value a finite number or a boolean.
 */
function checkConstants(constants: unknown, code: string, label: string | undefined): void {
  if (!constants || typeof constants !== 'object' || Array.isArray(constants))
    throw new ValidationError(
      'pipeline-constants',
      `compute.constants must be an object of override values by name, got ${String(constants)}`,
      label,
    );
  const source = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const overrides = [...source.matchAll(/(?:@id\s*\(\s*(\d+)\s*\)\s*)?\boverride\s+(\w+)/g)];
  const names = new Set(overrides.flatMap((m) => [m[2] as string, ...(m[1] ? [m[1]] : [])]));
  for (const [key, value] of Object.entries(constants)) {
    if (!names.has(key))
      throw new ValidationError(
        'pipeline-constants',
        `compute.constants.${key}: the shader has no override ${key} (overrides: ${overrides.map((m) => m[2]).join(', ') || 'none'})`,
        label,
        { key },
      );
    if (typeof value !== 'boolean' && (typeof value !== 'number' || !Number.isFinite(value)))
      throw new ValidationError(
        'pipeline-constants',
        `compute.constants.${key} is ${String(value)}; an override takes a finite number or a boolean`,
        label,
        { key, value },
      );
  }
}
