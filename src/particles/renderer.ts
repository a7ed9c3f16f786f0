/**
 * The rendering half of a particle system: the draw mode (fixed, or measured at the first draw
 * under `auto`: calibrate.ts), the raster pipelines per pass shape, the depth sort, the splat, and
 * the draw's uniforms. It draws what a ParticleSimulation holds.
 */
import { ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { Sampler } from '../rhi/core/sampler.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import type {
  Camera,
  DrawMode,
  ParticleGeometry,
  ParticleLink,
  ParticleOptions,
} from './options.js';
import { createDrawPipeline, drawPipelineId, type DrawPipeline, type StateKind } from './draw.js';
import { DrawParamsWriter, DRAW_PARAMS_BYTES } from './draw-params.js';
import { SplatDraw } from './splat.js';
import { DepthSort } from './sort.js';
import { compileLook, type CompiledLook } from './look.js';
import { candidateModes, provisionalMode, isSoftwareAdapter, splatBlocker } from './draw-mode.js';
import { measureDrawModes } from './calibrate.js';
import type { ParticleSimulation } from './simulation.js';
import { passShape, type PassShape } from './pass-shape.js';
import { RibbonDraw, trailInput, type RibbonInput } from './ribbon.js';
import type { TrailHistory } from './trail-history.js';
import { LIVING_ARGS, type LivingList } from './living.js';
import { TINT } from './modules/sub-emitter.js';
import { MeshParticleDraw } from './mesh-draw.js';

export class ParticleRenderer {
  readonly #device: Device;
  readonly #sim: ParticleSimulation;
  readonly state: StateKind;
  /** options.look compiled for both shader languages. */
  #look: CompiledLook | null;
  /** The linear sampler of options.texture, made at the first textured draw. */
  #spriteSampler: Sampler | null = null;
  readonly #params: DrawParamsWriter;
  #lastShape: PassShape | null = null;
  readonly #pipelines = new Map<string, DrawPipeline>();
  #lastPipeline: {
    mode: DrawMode;
    shape: PassShape;
    living: boolean;
    tinted: boolean;
    pipeline: RenderPipeline;
  } | null = null;
  #destroyed = false;
  drawMode: DrawMode;
  drawModeReason: string;
  /** auto: the measured mode, applied at the next prepareDraw (or draw, in loops without one). */
  #measured: DrawMode | null = null;
  #calibration: 'fixed' | 'waiting' | 'running' | 'done' = 'fixed';
  readonly decided: Promise<DrawMode>;
  #resolveDecided: (mode: DrawMode) => void = () => {};
  #prepareSeen = false;
  #splat: SplatDraw | null = null;
  /** Mesh particles' draw (options.geometry), made at the first draw with a geometry. */
  #meshes: MeshParticleDraw | null = null;
  /** The trail module's ribbons, made at the first draw with trails. */
  #ribbons: RibbonDraw | null = null;
  /** The ribbon inputs, made once: the trail's (again for a new ring), the link's. */
  #trailInput: { history: TrailHistory; input: RibbonInput } | null = null;
  #linkInput: RibbonInput | null = null;
  /** options.sort: the depth sort, made at the first prepareDraw (again after a resize). */
  #sort: DepthSort | null = null;
  /** The step the order was last made for (-1: never): a sorted draw needs this step's. */
  #sortedStep = -1;
  /** What a running measurement made; destroyed with the system if it is still running. */
  readonly #calibrationResources: Array<{ destroy(): void }> = [];
  /** auto: the fastest raster mode measured (what a splat falls back to when blending turns to alpha). */
  #rasterFallback: 'instanced' | 'pulled' = 'pulled';

  constructor(device: Device, sim: ParticleSimulation) {
    this.#device = device;
    this.#sim = sim;
    const options = sim.options;
    this.#look = options.look ? compileLook(options.look.code) : null;
    this.state = Object.keys(sim.runner.buffers).length > 0 ? 'buffers' : 'textures';
    if (options.drawMode === 'auto') {
      this.drawMode = provisionalMode(device.caps);
      this.drawModeReason = `provisional (${isSoftwareAdapter(device.caps) ? 'a software adapter' : 'a hardware adapter'}): measured at the first draw`;
      this.#calibration = 'waiting';
      this.#rasterFallback = this.drawMode === 'instanced' ? 'instanced' : 'pulled';
      this.decided = new Promise((resolve) => (this.#resolveDecided = resolve));
    } else {
      this.drawMode = options.drawMode;
      this.drawModeReason = 'chosen in the options';
      this.decided = Promise.resolve(options.drawMode);
    }
    this.#params = new DrawParamsWriter(device);
  }

  get #options(): ParticleOptions {
    return this.#sim.options;
  }

  /** New options (setOptions): the look compiled again if it changed, the sort dropped when off. */
  optionsChanged(previous: ParticleOptions, next: ParticleOptions): void {
    // (a look a splat cannot draw under drawMode 'splat' was refused by resolveOptions)
    const blocker = splatBlocker(next);
    if (
      blocker !== null &&
      previous.drawMode === 'auto' &&
      (this.drawMode === 'splat' || this.#measured === 'splat')
    ) {
      // auto measured splat fastest, but the new look rules a splat out: the fastest raster mode
      this.drawMode = this.#rasterFallback;
      this.#measured = null;
      this.drawModeReason = `${this.drawModeReason}; a splat ${blocker}, so ${this.#rasterFallback}`;
    }
    if (next.look?.code !== previous.look?.code)
      this.#look = next.look ? compileLook(next.look.code) : null;
    if (!next.sort && this.#sort) {
      this.#sort.destroy();
      this.#sort = null;
    }
  }

  /** The capacity changed: the sort is made again for it. */
  resized(): void {
    this.#sort?.destroy();
    this.#sort = null;
    this.#sortedStep = -1;
  }

  #shape(pass: RenderPass): PassShape {
    return (this.#lastShape = passShape(pass, this.#options, this.#look, this.#lastShape));
  }

  /** The raster pipeline of `mode` for `shape`, made once (the last one is kept at hand: no key is built per frame). */
  #pipeline(mode: 'instanced' | 'pulled', shape: PassShape, living: boolean): RenderPipeline {
    const last = this.#lastPipeline;
    // #shape hands back the same object while nothing in it changes; another object goes
    // through the cache by id below
    const tinted = this.#tinted;
    if (
      last &&
      last.mode === mode &&
      last.shape === shape &&
      last.living === living &&
      last.tinted === tinted
    )
      return last.pipeline;
    const id = `${mode}|${living ? 'living' : 'all'}|${tinted ? 'tinted' : 'own'}|${drawPipelineId(shape)}`;
    let p = this.#pipelines.get(id);
    if (!p) {
      p = createDrawPipeline(this.#device, {
        ...shape,
        state: this.state,
        mode,
        living,
        tinted,
      });
      this.#pipelines.set(id, p);
    }
    this.#lastPipeline = { mode, shape, living, tinted, pipeline: p.pipeline };
    return p.pipeline;
  }

  /** Whether the state has a `tint` (a sub-emitter's inheritColor) that the draw multiplies by. */
  get #tinted(): boolean {
    const runner = this.#sim.runner;
    return TINT in (this.state === 'buffers' ? runner.buffers : runner.textures);
  }

  /** The splat for the state and options as they are (made again when the tint or targetAlpha change). */
  #splatDraw(): SplatDraw {
    const tinted = this.#tinted;
    const channels = this.#options.targetAlpha === 'keep' ? 3 : 4;
    if (this.#splat?.tinted !== tinted || this.#splat.channels !== channels) {
      this.#splat?.destroy();
      this.#splat = new SplatDraw(this.#device, tinted, channels);
    }
    return this.#splat;
  }

  /** The living list, where the system has one and it describes the state the draw reads. */
  get #living(): LivingList | null {
    const living = this.#sim.living;
    return living && living.step === this.#sim.stepIndex ? living : null;
  }

  /** This draw's DrawParams in the next ring slot: its offset. */
  #writeParams(camera: Camera, target?: { width: number; height: number }): number {
    const sim = this.#sim;
    const width = sim.runner.size.width;
    return this.#params.write(
      sim.options,
      width,
      sim.count,
      this.#sort?.width ?? 0,
      camera,
      target,
    );
  }

  /** Under `auto`, switches to the measured mode once it is in. */
  #applyMeasured(): void {
    if (this.#measured === null) return;
    this.drawMode = this.#measured;
    this.#measured = null;
  }

  /** The depth sort (with `sort`) and the splat's compute pass (in `splat` mode): ParticleSystem.prepareDraw. */
  prepare(
    encoder: CommandEncoder,
    camera: Camera,
    target: { readonly width: number; readonly height: number },
    timestampWrites?: PassTimestampWrites,
  ): void {
    checkCamera(camera);
    const { width, height } = target ?? {};
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
      throw new ValidationError(
        'particles-target',
        `prepareDraw target must be the pass's colour texture or its { width, height } in pixels; got ${String(width)}x${String(height)}`,
        'particle system',
        { width, height },
      );
    this.#prepareSeen = true;
    this.#applyMeasured();
    const sim = this.#sim;
    if (this.#options.sort) {
      this.#sort ??= new DepthSort(this.#device, sim.count, sim.path);
      this.#sort.record(
        encoder,
        camera.view,
        { runner: sim.runner, count: sim.count },
        this.#living,
      );
      this.#sortedStep = sim.stepIndex;
    }
    if (this.drawMode !== 'splat') return;
    const buffers = sim.runner.buffers;
    const offset = this.#writeParams(camera, { width, height });
    const living = this.#living;
    this.#splatDraw().prepare(
      encoder,
      {
        uniforms: this.#params.ring.buffer,
        offset,
        positions: buffers.position as Buffer,
        velocities: buffers.velocity as Buffer,
        tints: buffers[TINT],
        count: sim.count,
        width,
        height,
        living: living
          ? {
              list: living.living,
              total: living.total,
              args: living.args,
              offset: LIVING_ARGS.splat,
            }
          : undefined,
      },
      timestampWrites,
    );
  }

  /** One draw call (raster modes), or the splat's resolve: ParticleSystem.draw. */
  draw(pass: RenderPass, camera: Camera): void {
    checkCamera(camera);
    const shape = this.#shape(pass);
    const step = this.#sim.stepIndex;
    if (shape.sorted && (!this.#sort || this.#sortedStep !== step))
      throw new ValidationError(
        'particles-sort-unprepared',
        `sort: true draws in the order prepareDraw made; call ps.prepareDraw(encoder, camera, target) after update and before the pass (${this.#sort ? `the order is from step ${this.#sortedStep}, the state at step ${step}` : 'no order has been made yet'})`,
        'particle system',
        { sortedStep: this.#sortedStep, stepIndex: step },
      );
    if (!this.#prepareSeen) this.#applyMeasured();
    if (this.#calibration === 'waiting') {
      this.#calibration = 'running';
      void this.#calibrate(shape, camera, pass.width, pass.height);
    }
    // the ribbons first (trails, a link), behind the particles; in the raster mode the particles
    // use (a splat's ribbons: the fastest raster mode measured)
    this.#drawRibbons(pass, shape, camera);
    if (this.drawMode === 'splat') {
      this.#splatDraw().resolve(pass);
      return;
    }
    this.#recordRaster(
      pass,
      this.drawMode,
      shape,
      this.#params.ring.buffer,
      this.#writeParams(camera),
    );
  }

  /** The link module's ribbon input: the emitter's ring of slots, read live from the simulation. */
  #makeLinkInput(): RibbonInput {
    const sim = this.#sim;
    const buffers = this.state === 'buffers';
    const link = (): ParticleLink => this.#options.link!;
    return {
      kind: 'link',
      // a link belongs to an emitter's schedule, never a sub-emitter's (no tint)
      tinted: false,
      // its ribbons share the slots (link.ribbons, dealt by link.split)
      get ribbons() {
        return link().ribbons;
      },
      get split() {
        return link().split;
      },
      get samples() {
        return sim.count / link().ribbons;
      },
      // the emitter's ring: the slot before its head is the newest particle
      get newest() {
        return ((sim.emission?.head ?? 0) + sim.count - 1) % sim.count;
      },
      get filled() {
        return sim.count / link().ribbons;
      },
      times: null,
      get grid() {
        return sim.runner.size;
      },
      bind(p) {
        const runner = sim.runner;
        if (buffers) {
          p.setStorageBuffer(1, runner.buffers['position'] as Buffer);
          p.setStorageBuffer(2, runner.buffers['velocity'] as Buffer);
        } else {
          p.setTexture(1, runner.textures['position'] as Texture);
          p.setTexture(2, runner.textures['velocity'] as Texture);
        }
      },
    };
  }

  /** The trail module's ribbons and the link module's ribbon, where the options have them. */
  #drawRibbons(pass: RenderPass, shape: PassShape, camera: Camera): void {
    const o = this.#options;
    const sim = this.#sim;
    if (!o.trail && !o.link) return;
    const mode = this.drawMode === 'splat' ? this.#rasterFallback : this.drawMode;
    const ribbons = (this.#ribbons ??= new RibbonDraw(this.#device, this.state));
    // the inputs are made once (once per trail ring) and read the simulation live: a draw every
    // frame allocates nothing for them
    if (o.trail && sim.trail) {
      if (this.#trailInput?.history !== sim.trail)
        this.#trailInput = {
          history: sim.trail,
          input: trailInput(
            sim.trail,
            sim.runner.size,
            () =>
              this.state === 'buffers'
                ? (sim.runner.buffers['velocity'] as Buffer)
                : (sim.runner.textures['velocity'] as Texture),
            () => (this.state === 'buffers' ? sim.runner.buffers[TINT] : sim.runner.textures[TINT]),
          ),
        };
      ribbons.draw(pass, mode, shape, this.#trailInput.input, o.trail, camera, o);
    }
    if (o.link && sim.emission) {
      ribbons.draw(
        pass,
        mode,
        shape,
        (this.#linkInput ??= this.#makeLinkInput()),
        o.link,
        camera,
        o,
      );
    }
  }

  /**
   * One raster draw of the first `count` slots; without `count`, of every slot — or, where the
   * living list is current, of the living only (`drawIndirect`, the counts the GPU wrote).
   */
  #recordRaster(
    pass: RenderPass,
    mode: 'instanced' | 'pulled',
    shape: PassShape,
    uniforms: Buffer,
    offset: number,
    count?: number,
  ): void {
    const geometry = this.#options.geometry;
    if (geometry) {
      this.#recordMeshes(pass, mode, shape, uniforms, offset, geometry, count ?? this.#sim.count);
      return;
    }
    const living = count === undefined ? this.#living : null;
    // a sorted draw reads its order (the dead sort last): the list's count is enough
    const listed = living !== null && !shape.sorted;
    pass.setPipeline(this.#pipeline(mode, shape, listed));
    pass.setUniformBuffer(0, uniforms, offset, DRAW_PARAMS_BYTES);
    const runner = this.#sim.runner;
    const buffers = runner.buffers;
    const order = shape.sorted ? this.#sort?.order : undefined;
    if (this.state === 'buffers') {
      if (listed) {
        pass.setStorageBuffer(1, buffers.position as Buffer);
        pass.setStorageBuffer(2, buffers.velocity as Buffer);
        pass.setStorageBuffer(7, living.living);
      } else if (order) {
        pass.setStorageBuffer(1, buffers.position as Buffer);
        pass.setStorageBuffer(2, buffers.velocity as Buffer);
        pass.setStorageBuffer(6, order as Buffer);
      } else if (mode === 'instanced') {
        pass.setVertexBuffer(0, buffers.position as Buffer);
        pass.setVertexBuffer(1, buffers.velocity as Buffer);
      } else {
        pass.setStorageBuffer(1, buffers.position as Buffer);
        pass.setStorageBuffer(2, buffers.velocity as Buffer);
      }
      const tints = buffers[TINT];
      if (tints) pass.setStorageBuffer(8, tints);
    } else {
      const t = runner.textures;
      pass.setTexture(1, t.position as Texture);
      pass.setTexture(2, t.velocity as Texture);
      if (order) pass.setTexture(6, order as Texture);
      const tints = t[TINT];
      if (tints) pass.setTexture(8, tints);
    }
    const sprite = this.#options.texture;
    if (shape.textured && sprite) {
      pass.setTexture(3, sprite);
      pass.setSampler(
        4,
        (this.#spriteSampler ??= this.#device.createSampler({
          label: 'particles sprite',
          magFilter: 'linear',
          minFilter: 'linear',
        })),
      );
    }
    const soft = this.#options.softParticles;
    if (shape.soft && soft) {
      if (soft.depth.width !== pass.width || soft.depth.height !== pass.height)
        throw new ValidationError(
          'particles-soft-depth',
          `softParticles.depth is ${soft.depth.width}x${soft.depth.height}; the pass draws ${pass.width}x${pass.height}: the scene depth must be the target's size`,
          'particle system',
          { depth: [soft.depth.width, soft.depth.height], pass: [pass.width, pass.height] },
        );
      pass.setTexture(5, soft.depth);
    }
    const normalMap = this.#options.light?.normalMap;
    if (shape.normalMapped && normalMap) pass.setTexture(10, normalMap);
    this.#bindShadow(pass, shape);
    if (living) pass.drawIndirect(living.args, LIVING_ARGS[mode]);
    else if (mode === 'instanced') pass.draw(4, count ?? this.#sim.count);
    else pass.draw(6 * (count ?? this.#sim.count));
  }

  /**
   * Mesh particles (options.geometry): the first `count` slots, each drawn as the mesh (every
   * slot: the dead are moved out of view in the vertex stage; the living list's indirect counts
   * are for quads).
   */
  #recordMeshes(
    pass: RenderPass,
    mode: 'instanced' | 'pulled',
    shape: PassShape,
    uniforms: Buffer,
    offset: number,
    geometry: ParticleGeometry,
    count: number,
  ): void {
    const meshes = (this.#meshes ??= new MeshParticleDraw(this.#device, this.state));
    pass.setPipeline(meshes.pipeline(mode, shape, this.#tinted));
    pass.setUniformBuffer(0, uniforms, offset, DRAW_PARAMS_BYTES);
    const runner = this.#sim.runner;
    const order = shape.sorted ? this.#sort?.order : undefined;
    if (this.state === 'buffers') {
      const buffers = runner.buffers;
      pass.setStorageBuffer(1, buffers.position as Buffer);
      pass.setStorageBuffer(2, buffers.velocity as Buffer);
      if (order) pass.setStorageBuffer(6, order as Buffer);
      const tints = buffers[TINT];
      if (tints) pass.setStorageBuffer(8, tints);
    } else {
      const t = runner.textures;
      pass.setTexture(1, t.position as Texture);
      pass.setTexture(2, t.velocity as Texture);
      if (order) pass.setTexture(6, order as Texture);
      const tints = t[TINT];
      if (tints) pass.setTexture(8, tints);
    }
    this.#bindShadow(pass, shape);
    meshes.draw(pass, mode, geometry, count);
  }

  /** Lit particles' shadow map (light.shadow) at binding 11, when the pipeline reads it. */
  #bindShadow(pass: RenderPass, shape: PassShape): void {
    const shadow = this.#options.light?.shadow;
    if (shape.shadowed && shadow) pass.setTexture(11, shadow.depth);
  }

  /**
   * `drawMode: 'auto'`: times every candidate mode drawing the current state into a private target
   * shaped like the pass (draw-mode.ts) and switches to the fastest. It starts with the first
   * CALIBRATION_START particles and grows the sample eightfold while the fastest mode draws it in
   * under CALIBRATION_ENOUGH_MS, so a software rasteriser measures a small sample quickly and a
   * real GPU measures enough work to time. Runs once, in the background; never throws (a failure
   * keeps the provisional mode and says why in `drawModeReason`).
   */
  async #calibrate(shape: PassShape, camera: Camera, width: number, height: number): Promise<void> {
    const device = this.#device;
    const { modes, notes } = candidateModes(device.caps, {
      look: splatBlocker({ ...this.#options, blending: shape.blending }),
      buffers: this.state === 'buffers',
      prepared: this.#prepareSeen,
      depth: shape.depthFormat !== undefined,
    });
    const owned = this.#calibrationResources;
    try {
      // the frame whose draw started this is submitted first
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.#destroyed) return;
      const best = await measureDrawModes({
        device,
        count: this.#sim.count,
        options: this.#options,
        stateWidth: this.#sim.runner.size.width,
        buffers: this.#sim.runner.buffers,
        shape,
        camera,
        width,
        height,
        modes,
        notes,
        owned,
        destroyed: () => this.#destroyed,
        recordRaster: (pass, mode, uniforms, offset, n) =>
          this.#recordRaster(pass, mode, shape, uniforms, offset, n),
      });
      if (this.#destroyed) return;
      const blocker = splatBlocker(this.#options);
      if (blocker !== null && best.mode === 'splat') {
        this.#measured = best.raster;
        this.drawModeReason = `${best.reason}; the options changed (a splat ${blocker}), so ${best.raster}`;
      } else {
        this.#measured = best.mode;
        this.drawModeReason = best.reason;
      }
      this.#rasterFallback = best.raster;
    } catch (e) {
      this.drawModeReason = `${this.drawModeReason}; the measurement failed (${(e as Error).message}), so the provisional mode stays`;
    } finally {
      for (const r of owned.splice(0)) r.destroy();
      this.#calibration = 'done';
      this.#resolveDecided(this.#measured ?? this.drawMode);
    }
  }

  /** `sort: true`: the order the last prepare made, or null before the first. */
  async sortOrder(): Promise<Uint32Array | null> {
    return this.#sort ? this.#sort.read() : null;
  }

  destroy(): void {
    this.#destroyed = true;
    this.#params.destroy();
    this.#splat?.destroy();
    this.#ribbons?.destroy();
    this.#meshes?.destroy();
    this.#sort?.destroy();
    this.#spriteSampler?.destroy();
    for (const r of this.#calibrationResources.splice(0)) r.destroy();
    // a measurement never started leaves nothing waiting: the mode stays the provisional one
    if (this.#calibration === 'waiting') this.#resolveDecided(this.drawMode);
    for (const p of this.#pipelines.values()) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
  }
}

/** A camera must be { view, projection }: two 4×4 matrices of finite numbers. */
function checkCamera(camera: Camera): void {
  if (!camera || camera.view?.length !== 16 || camera.projection?.length !== 16) {
    throw new ValidationError(
      'particles-camera',
      'camera needs view and projection 4x4 matrices (16 numbers each)',
      'particle system',
    );
  }
  for (const key of ['view', 'projection'] as const) {
    const m = camera[key];
    for (let i = 0; i < 16; i++)
      if (!Number.isFinite(m[i]))
        throw new ValidationError(
          'particles-camera',
          `camera.${key}[${i}] is ${String(m[i])}: a camera's matrices hold finite numbers`,
          'particle system',
          { matrix: key, index: i, value: m[i] },
        );
  }
}
