/** A camera for particle scenes, built with wgpu-matrix (WebGPU clip space, z in [0, 1]). */
import { mat4, vec3 } from 'wgpu-matrix';
import type { Camera } from './draw.js';

/** Where an orbit camera sits: aspect, field of view, distance, yaw, pitch, target. */
export interface OrbitCamera {
  aspect: number;
  /** Vertical field of view in radians. */
  fov?: number;
  distance?: number;
  yaw?: number;
  pitch?: number;
  target?: readonly [number, number, number];
}

/** A camera orbiting `target` at `distance`, with yaw and pitch in radians: view and projection matrices. */
export function orbitCamera(o: OrbitCamera): Camera {
  const distance = o.distance ?? 17;
  const yaw = o.yaw ?? 0;
  const pitch = o.pitch ?? 0.15;
  const target = o.target ?? [0, -4.5, 0];
  const eye = vec3.fromValues(
    target[0] + distance * Math.cos(pitch) * Math.sin(yaw),
    target[1] + distance * Math.sin(pitch),
    target[2] + distance * Math.cos(pitch) * Math.cos(yaw),
  );
  return {
    view: mat4.lookAt(
      eye,
      vec3.fromValues(target[0], target[1], target[2]),
      vec3.fromValues(0, 1, 0),
    ),
    projection: mat4.perspective(o.fov ?? Math.PI / 4, o.aspect, 0.1, 200),
  };
}
