// The scene contract of the scene kit (ignis-check, ignis-bench, renderOnEveryRung): a module
// exporting `create`, which builds the scene on the device the kit made for a rung and returns
// what a frame does. Exported from `ignis-rhi/testing` for users' scenes.
import type { Device } from './rhi/core/device.js';
import type { Features } from './rhi/core/caps.js';

/** Parameters from the command line (`--params count=1e4,seed=2`), numbers where they parse. */
export type SceneParams = Readonly<Record<string, string | number>>;

/** A scene as `create` returns it: what the kit calls each frame, and at the end. */
export interface Scene {
  /** Records and submits one frame of `dt` seconds into `device.surface`. */
  frame(dt: number): void;
  /** Frees what `create` made. */
  destroy(): void;
  /** Optional state to compare between rungs as numbers (a particle state, a buffer's contents). */
  read?(): Promise<ArrayBuffer | ArrayBufferView | readonly number[]>;
  /**
   * Optional facts about the scene for ignis-bench's report, asked once after the measured frames:
   * what it chose at run time (a draw mode, a path) and counts (particles alive). Kept per cell
   * in bench.json.
   */
  info?(): SceneInfo | Promise<SceneInfo>;
}

/** What `Scene.info` reports: names and plain values. */
export type SceneInfo = Readonly<Record<string, string | number | boolean | null>>;

/**
 * What a scene module may export beside `create`: the features it needs (`export const needs =
 * ['compute']`). A rung without one of them is skipped, saying which, instead of failing.
 */
export type SceneNeeds = ReadonlyArray<keyof Features>;

/** What a scene module exports. */
export type CreateScene = (
  device: Device,
  canvas: HTMLCanvasElement,
  params: SceneParams,
) => Scene | Promise<Scene>;
