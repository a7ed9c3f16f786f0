// Ignis particles inside a three.js scene: three's WebGPURenderer draws the scene, Ignis draws the
// particles over it on the same GPUDevice (WebGPU) or the same WebGL2 context (three's WebGL2
// backend, `forceWebGL`), with three's camera. Shared by the demo and its test.
import * as THREE from 'three/webgpu';
import { createDevice, type Device } from '../../src/index.js';
import {
  createParticleSystem,
  type Camera,
  type ParticleSystem,
} from '../../src/particles/index.js';

export interface ThreeWithIgnis {
  renderer: THREE.WebGPURenderer;
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  /** Ignis on three's device or context; `null` when particles are off. */
  device: Device | null;
  particles: ParticleSystem | null;
  /** three draws the scene, then Ignis updates and draws the particles on top of it. */
  frame(dt: number): void;
  destroy(): void;
}

export async function createThreeWithIgnis(
  canvas: HTMLCanvasElement,
  options: { backend: 'webgpu' | 'webgl2'; count: number; particles?: boolean },
): Promise<ThreeWithIgnis> {
  // three first: it owns the device (or context) and the canvas
  const renderer = new THREE.WebGPURenderer({
    canvas,
    forceWebGL: options.backend === 'webgl2',
    antialias: false,
  });
  renderer.setPixelRatio(1);
  renderer.setSize(canvas.width, canvas.height, false);
  await renderer.init();

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x0b0d14);
  const camera = new THREE.PerspectiveCamera(55, canvas.width / canvas.height, 0.1, 100);
  camera.position.set(0, 4.5, 14);
  camera.lookAt(0, 3, 0);
  const floor = new THREE.Mesh(
    new THREE.PlaneGeometry(16, 16),
    new THREE.MeshBasicMaterial({ color: 0x1c2433 }),
  );
  floor.rotation.x = -Math.PI / 2;
  const cube = new THREE.Mesh(
    new THREE.BoxGeometry(2.4, 2.4, 2.4),
    new THREE.MeshBasicMaterial({ color: 0x2f6bff }),
  );
  cube.position.set(-5.5, 1.2, 0);
  scene.add(floor, cube);

  let device: Device | null = null;
  let particles: ParticleSystem | null = null;
  if (options.particles !== false) {
    // Ignis on three's own GPUDevice, or on three's WebGL2 context; the canvas is shared too
    const backend = renderer.backend as unknown as {
      device?: GPUDevice;
      gl?: WebGL2RenderingContext;
    };
    device =
      options.backend === 'webgpu'
        ? await createDevice({ backend: 'webgpu', gpuDevice: backend.device, canvas })
        : await createDevice({ backend: 'webgl2', gl: backend.gl, canvas });
    // the fountain on three's floor (y = 0), a second of it already in the air
    particles = await createParticleSystem(device, {
      count: options.count,
      emitter: { position: [0, 0, 0] },
      floorY: 0,
    });
    const encoder = device.createCommandEncoder({ label: 'pre-roll' });
    for (let i = 0; i < 60; i++) particles.update(encoder, 1 / 60);
    device.queue.submit([encoder.finish()]);
  }

  // three's matrices as they are after its render (column-major, its clip-space convention)
  const ignisCamera = (): Camera => ({
    view: camera.matrixWorldInverse.elements,
    projection: camera.projectionMatrix.elements,
  });

  return {
    renderer,
    scene,
    camera,
    device,
    particles,
    frame(dt) {
      cube.rotation.y += dt * 0.6;
      renderer.render(scene, camera);
      if (!device || !particles) return;
      // three changed GL state behind Ignis's cache (WebGL2); a no-op on WebGPU
      device.resetState();
      const surface = device.surface!;
      const target = surface.getCurrentTexture();
      const cam = ignisCamera();
      const encoder = device.createCommandEncoder({ label: 'particles over three' });
      particles.update(encoder, dt);
      particles.prepareDraw(encoder, cam, target);
      // 'load': keep what three drew this frame, add the particles
      const pass = encoder.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'load' }],
      });
      particles.draw(pass, cam);
      pass.end();
      device.queue.submit([encoder.finish()]);
      // and Ignis changed it behind three's
      if (options.backend === 'webgl2') renderer.resetState();
    },
    destroy() {
      particles?.destroy();
      device?.destroy();
      void renderer.dispose();
    },
  };
}
