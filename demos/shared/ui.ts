// What every demo page shares: a canvas that follows its element's size, a control panel docked
// beside the scene (collapsible; it never covers the scene), and a frame-time meter that shows a
// smoothed value and a graph. Layout in demo.css; a page has #stage > canvas#canvas + #info, #panel.
import { Pane } from 'tweakpane';
import { createDevice, type BackendRequest, type Device } from '../../src/index.js';

export function element<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the demo page has no #${id}`);
  return el as T;
}

/** Sizes the canvas's backing store to its CSS box × devicePixelRatio; true when that changed it. */
export function fitCanvas(canvas: HTMLCanvasElement): boolean {
  const width = Math.max(1, Math.floor(canvas.clientWidth * devicePixelRatio));
  const height = Math.max(1, Math.floor(canvas.clientHeight * devicePixelRatio));
  if (canvas.width === width && canvas.height === height) return false;
  canvas.width = width;
  canvas.height = height;
  return true;
}

/** A tweakpane docked in #panel with a button that collapses the panel to a strip (?panel=closed starts so). */
export function dockedPane(title: string): Pane {
  const panel = element('panel');
  const toggle = document.createElement('button');
  toggle.className = 'toggle';
  const container = document.createElement('div');
  container.className = 'pane';
  panel.append(toggle, container);
  const label = (): void => {
    toggle.textContent = document.body.classList.contains('panel-collapsed')
      ? `◂ ${title}`
      : `${title} ▸ hide`;
  };
  toggle.addEventListener('click', () => {
    document.body.classList.toggle('panel-collapsed');
    label();
  });
  if (new URLSearchParams(location.search).get('panel') === 'closed')
    document.body.classList.add('panel-collapsed');
  label();
  return new Pane({ container });
}

/**
 * Frame time, smoothed: an exponential moving average over about `window` frames (a single frame's
 * time jumps too much to read), with the raw value drawn as a graph in the pane.
 */
export class FrameMeter {
  readonly #alpha: number;
  #last = -1;
  readonly value = { ms: 0, smoothed: 0 };

  constructor(pane: Pane, { window = 30, max = 100 } = {}) {
    this.#alpha = 2 / (window + 1);
    const folder = pane.addFolder({ title: 'frame time' });
    folder.addBinding(this.value, 'smoothed', {
      readonly: true,
      label: 'ms (smoothed)',
      format: (v: number) => v.toFixed(1),
    });
    folder.addBinding(this.value, 'ms', {
      readonly: true,
      view: 'graph',
      min: 0,
      max,
      label: 'ms',
    });
  }

  /** Call once per frame; returns the smoothed frame time in ms (0 until the second frame). */
  tick(now = performance.now()): number {
    if (this.#last >= 0) {
      this.value.ms = now - this.#last;
      this.value.smoothed =
        this.value.smoothed === 0
          ? this.value.ms
          : this.value.smoothed + this.#alpha * (this.value.ms - this.value.smoothed);
    }
    this.#last = now;
    return this.value.smoothed;
  }

  /** "16.7 ms · 60 fps", or "…" before there is a value. */
  text(): string {
    const ms = this.value.smoothed;
    return ms > 0 ? `${ms.toFixed(1)} ms · ${(1000 / ms).toFixed(0)} fps` : '…';
  }
}

/**
 * The start of every demo: the page's URL parameters, its canvas sized to its box, the info line,
 * and a device on the canvas (`?backend=webgpu|webgl2|auto`, auto by default).
 */
export async function openDemo(): Promise<{
  url: URLSearchParams;
  canvas: HTMLCanvasElement;
  info: HTMLElement;
  device: Device;
}> {
  const url = new URLSearchParams(location.search);
  const canvas = element<HTMLCanvasElement>('canvas');
  fitCanvas(canvas);
  const device = await createDevice({
    backend: (url.get('backend') ?? 'auto') as BackendRequest,
    canvas,
  });
  return { url, canvas, info: element('info'), device };
}
