// 100,000 particles (?count=…) updated on the GPU and drawn with one draw per frame. The path is
// chosen by capability (?path=compute|pingpong|cpu forces one, ?backend=webgl2 forces the
// fallback); every option has a control in the docked panel; the meter shows smoothed frame time
// and a graph. The simulation is pre-rolled (one particle lifetime of update-only steps) so the first
// frame already looks like the steady state, not a fountain starting from a point.
import {
  createParticleSystem,
  orbitCamera,
  DEFAULT_OPTIONS,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../src/particles/index.js';
import { FrameMeter, dockedPane, fitCanvas, openDemo } from '../shared/ui.js';
import { Scenery } from './scene.js';
import {
  debris,
  fire,
  fireworks,
  flameSheet,
  puffTexture,
  puffNormalTexture,
  shapes,
  smoke,
  sparks,
  swirl,
} from './presets.js';
import type { Texture } from '../../src/index.js';

const { url, canvas, info, device } = await openDemo();
const surface = device.surface!;

const settings = {
  /** fountain: the continuous default; fireworks: emission over time with trails; sparks: velocity streaks; swirl: ribbons in a vortex (?preset=). */
  preset:
    (['fireworks', 'sparks', 'fire', 'smoke', 'swirl', 'shapes', 'debris'] as const).find(
      (p) => p === url.get('preset'),
    ) ?? 'fountain',
  count: Number(url.get('count') ?? 100_000),
  path: (url.get('path') ?? 'auto') as 'auto' | 'compute' | 'pingpong' | 'cpu',
  drawMode: (url.get('draw') ?? 'auto') as 'auto' | 'instanced' | 'pulled' | 'splat',
  shape: DEFAULT_OPTIONS.emitter.shape as string,
  radius: DEFAULT_OPTIONS.emitter.radius,
  angle: DEFAULT_OPTIONS.emitter.angle,
  spread: DEFAULT_OPTIONS.spread,
  speedMin: DEFAULT_OPTIONS.speedMin,
  speedMax: DEFAULT_OPTIONS.speedMax,
  lifeMin: DEFAULT_OPTIONS.lifeMin,
  lifeMax: DEFAULT_OPTIONS.lifeMax,
  gravity: DEFAULT_OPTIONS.gravity[1],
  drag: DEFAULT_OPTIONS.drag,
  attractors: 0,
  attractorStrength: 8,
  turbulence: 0,
  frequency: 1,
  size: DEFAULT_OPTIONS.size,
  sizeEnd: DEFAULT_OPTIONS.sizeOverLife[1],
  blending: DEFAULT_OPTIONS.blending as string,
  color0: { r: 255, g: 217, b: 102, a: 1 },
  color1: { r: 255, g: 115, b: 26, a: 0.9 },
  color2: { r: 153, g: 31, b: 13, a: 0.6 },
  color3: { r: 51, g: 13, b: 8, a: 0 },
  orbit: true,
  /** A floor and a pillar drawn with depth: the particles are depth-tested against them (?scene=0: none). */
  scene: url.get('scene') !== '0',
};

function colors(): ParticleOptionsInput['colors'] {
  const c = (v: {
    r: number;
    g: number;
    b: number;
    a: number;
  }): [number, number, number, number] => [v.r / 255, v.g / 255, v.b / 255, v.a];
  return [c(settings.color0), c(settings.color1), c(settings.color2), c(settings.color3)];
}

/** The fire preset's flipbook and the smoke's puff, drawn at their first use. */
let flames: Texture | undefined;
let puff: Texture | undefined;
let puffNormals: Texture | undefined;

function options(): ParticleOptionsInput {
  // the fireworks preset brings its own emitter, forces and look; the panel picks path and draw
  if (settings.preset !== 'fountain') {
    const preset =
      settings.preset === 'fireworks'
        ? fireworks(settings.count)
        : settings.preset === 'sparks'
          ? sparks(settings.count)
          : settings.preset === 'swirl'
            ? swirl(settings.count)
            : settings.preset === 'shapes'
              ? shapes(settings.count)
              : settings.preset === 'debris'
                ? debris(settings.count)
                : settings.preset === 'smoke'
                  ? smoke(
                      settings.count,
                      (puff ??= puffTexture(device)),
                      (puffNormals ??= puffNormalTexture(device)),
                    )
                  : fire(settings.count, (flames ??= flameSheet(device)));
    return { ...preset, path: settings.path, drawMode: settings.drawMode };
  }
  return {
    count: settings.count,
    path: settings.path,
    drawMode: settings.drawMode,
    emitter: {
      shape: settings.shape as 'box',
      radius: settings.radius,
      angle: settings.angle,
      position: [0, 0, 0],
    },
    spread: settings.spread,
    speedMin: Math.min(settings.speedMin, settings.speedMax),
    speedMax: settings.speedMax,
    lifeMin: Math.min(settings.lifeMin, settings.lifeMax),
    lifeMax: settings.lifeMax,
    gravity: [0, settings.gravity, 0],
    drag: settings.drag,
    attractors: Array.from({ length: settings.attractors }, (_, i) => ({
      position: [
        3 * Math.cos((i / Math.max(1, settings.attractors)) * Math.PI * 2),
        1,
        3 * Math.sin((i / Math.max(1, settings.attractors)) * Math.PI * 2),
      ] as [number, number, number],
      strength: settings.attractorStrength,
    })),
    turbulence: { strength: settings.turbulence, frequency: settings.frequency },
    colors: colors(),
    size: settings.size,
    sizeOverLife: [1, settings.sizeEnd],
    blending: settings.blending as 'additive',
  };
}

/** Update-only steps of 0.1 s covering one particle lifetime, ten per submit: the steady state. */
function preroll(system: ParticleSystem): number {
  const steps = Math.ceil(settings.lifeMax / 0.1);
  for (let i = 0; i < steps; i += 10) {
    const encoder = device.createCommandEncoder({ label: 'preroll' });
    for (let k = i; k < Math.min(steps, i + 10); k++) system.update(encoder, 0.1);
    device.queue.submit([encoder.finish()]);
  }
  return steps;
}

/** The last error of a control (a typed error from Ignis), shown in the info line until the next change. */
let notice = '';
let ps: ParticleSystem = await createParticleSystem(device, options());
let prerolled = preroll(ps);
let structure = JSON.stringify([
  settings.preset,
  settings.count,
  settings.path,
  settings.drawMode,
  settings.shape,
  settings.attractors,
  settings.turbulence !== 0,
]);

async function rebuild(): Promise<void> {
  const next = JSON.stringify([
    settings.preset,
    settings.count,
    settings.path,
    settings.drawMode,
    settings.shape,
    settings.attractors,
    settings.turbulence !== 0,
  ]);
  try {
    if (next !== structure) {
      const old = ps;
      ps = await createParticleSystem(device, options());
      prerolled = preroll(ps);
      old.destroy();
      structure = next;
    } else ps.setOptions(options());
  } catch (e) {
    notice = `${(e as Error).name}: ${(e as Error).message}`;
  }
}

const pane = dockedPane('particles');
const meter = new FrameMeter(pane);
const sim = pane.addFolder({ title: 'system' });
sim.addBinding(settings, 'preset', {
  options: {
    'fountain (continuous)': 'fountain',
    'fireworks (emission, trails)': 'fireworks',
    'sparks (velocity streaks)': 'sparks',
    'swirl (ribbons, a vortex)': 'swirl',
    'shapes (colliders, lit)': 'shapes',
    'debris (mesh particles)': 'debris',
    'fire (flipbook sprites)': 'fire',
    'smoke (sorted alpha)': 'smoke',
  },
});
// emission over time (the fireworks): stop lets the sparks die out, start resumes, reset empties
const emitterControl = (title: string, act: (p: ParticleSystem) => void): void => {
  sim.addButton({ title }).on('click', () => {
    try {
      act(ps);
    } catch (e) {
      notice = `${(e as Error).name}: ${(e as Error).message}`;
    }
  });
};
emitterControl('stop emitting', (p) => p.stop());
emitterControl('start emitting', (p) => p.start());
emitterControl('reset', (p) => p.reset());
sim.addBinding(settings, 'count', {
  options: {
    '1k': 1000,
    '10k': 10_000,
    '100k': 100_000,
    '500k': 500_000,
    '1M': 1_000_000,
    [settings.count.toLocaleString()]: settings.count,
  },
});
sim.addBinding(settings, 'path', {
  options: { auto: 'auto', compute: 'compute', 'ping-pong': 'pingpong', cpu: 'cpu' },
});
sim.addBinding(settings, 'drawMode', {
  options: { auto: 'auto', instanced: 'instanced', pulled: 'pulled', 'splat (WebGPU)': 'splat' },
});
const emitter = pane.addFolder({ title: 'emitter' });
emitter.addBinding(settings, 'shape', {
  options: { box: 'box', point: 'point', sphere: 'sphere', cone: 'cone' },
});
emitter.addBinding(settings, 'radius', { min: 0, max: 2 });
emitter.addBinding(settings, 'angle', { min: 0, max: 1.5 });
emitter.addBinding(settings, 'spread', { min: 0, max: 3 });
emitter.addBinding(settings, 'speedMin', { min: 0, max: 10 });
emitter.addBinding(settings, 'speedMax', { min: 0, max: 10 });
emitter.addBinding(settings, 'lifeMin', { min: 0.1, max: 6 });
emitter.addBinding(settings, 'lifeMax', { min: 0.1, max: 6 });
const forces = pane.addFolder({ title: 'forces' });
forces.addBinding(settings, 'gravity', { min: -20, max: 5 });
forces.addBinding(settings, 'drag', { min: 0, max: 3 });
forces.addBinding(settings, 'attractors', { min: 0, max: 8, step: 1 });
forces.addBinding(settings, 'attractorStrength', { min: -20, max: 40 });
forces.addBinding(settings, 'turbulence', { min: 0, max: 20 });
forces.addBinding(settings, 'frequency', { min: 0.1, max: 4 });
const look = pane.addFolder({ title: 'look', expanded: false });
look.addBinding(settings, 'size', { min: 0.01, max: 0.5 });
look.addBinding(settings, 'sizeEnd', { min: 0, max: 2 });
look.addBinding(settings, 'blending', { options: { additive: 'additive', alpha: 'alpha' } });
for (const key of ['color0', 'color1', 'color2', 'color3'] as const)
  look.addBinding(settings, key, { color: { type: 'float' }, picker: 'inline' });
pane.addBinding(settings, 'orbit');
pane.addBinding(settings, 'scene');
const scenery = new Scenery(device, surface.format, DEFAULT_OPTIONS.floorY);
pane.on('change', () => {
  notice = '';
  void rebuild();
});

let last = performance.now();
let frames = 0;
let yaw = 0;
async function frame(): Promise<void> {
  await device.beginFrame();
  const now = performance.now();
  const dt = Math.min(0.05, (now - last) / 1000);
  last = now;
  meter.tick(now);
  if (settings.orbit) yaw += dt * 0.2;
  fitCanvas(canvas);
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, yaw });
  const encoder = device.createCommandEncoder({ label: 'frame' });
  ps.update(encoder, dt);
  const color = surface.getCurrentTexture();
  // the splat's compute pass in drawMode 'splat' (and lets 'auto' measure it); nothing otherwise
  ps.prepareDraw(encoder, camera, color);
  // a splat does not depth-test: the scene (which needs depth) is left out while drawing with it
  const scene = settings.scene && ps.drawMode !== 'splat';
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: color, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    depthStencilAttachment: scene
      ? {
          texture: scenery.depthFor(color.width, color.height),
          depthLoadOp: 'clear',
          depthClearValue: 1,
        }
      : undefined,
  });
  if (scene) scenery.draw(pass, camera);
  ps.draw(pass, camera);
  pass.end();
  device.queue.submit([encoder.finish()]);
  frames++;
  const emission = ps.options.emitRate !== null || ps.options.bursts.length > 0;
  info.textContent = `${device.caps.backend} · ${ps.path} (${ps.reason}) · ${ps.drawMode} (${ps.drawModeReason}) · ${ps.count.toLocaleString()} particles${emission ? (ps.emitting ? ' · emitting' : ' · not emitting') : ''} · ${meter.text()}${notice ? ` · ${notice}` : ''}`;
  Object.assign(window, { __frames: frames, __prerolled: prerolled });
  // ?frames=N stops after N frames (tests look at the first frame with ?frames=1)
  if (frames < Number(url.get('frames') ?? Infinity)) requestAnimationFrame(() => void frame());
}
void frame();
