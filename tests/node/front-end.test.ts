// The WGSL front end is loaded on demand (src/compute/front-end.ts): a particle system on the
// compute path with Ignis's own modules never loads it; one on another path, or with code of yours,
// has it check that code at creation; a look first given by setOptions where it is not loaded is a typed error
// naming `look`, and works once `loadFrontEnd()` has run. (Each test file has its own modules, so
// nothing loaded it before this file's first test.)
import { describe, expect, it } from 'vitest';
import { NullDevice } from '../../src/rhi/null/device.js';
import { createParticleSystem, loadFrontEnd } from '../../src/particles/index.js';
import { frontEndLoaded } from '../../src/compute/front-end.js';
import { ParticleOptionError } from '../../src/particles/errors.js';

const LOOK = { code: 'fn look(p: ParticleFragment) -> vec4f { return p.color; }' };

describe('the WGSL front end, on demand', () => {
  it('compute with built-in modules never loads it; a look given later asks for it by name; loadFrontEnd() lets it through', async () => {
    const device = new NullDevice();
    const ps = await createParticleSystem(device, { count: 64, path: 'compute' });
    expect(ps.path).toBe('compute');
    expect(frontEndLoaded()).toBe(false);
    let error: unknown;
    try {
      ps.setOptions({ look: LOOK });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParticleOptionError);
    expect(String(error)).toMatch(/look = \(its WGSL\) needs the WGSL front end.*loadFrontEnd\(\)/);
    await loadFrontEnd();
    expect(frontEndLoaded()).toBe(true);
    ps.setOptions({ look: LOOK });
    ps.destroy();
  });

  it('a behavior on compute is checked by the front end: code that cannot be translated is refused there too', async () => {
    // (WebGPU would compile it; the fallbacks could not run it: refused on every path alike. That
    // the ping-pong loads the front end for itself: tests/gpu/dist.gpu.test.ts, in the browser)
    const device = new NullDevice();
    let error: unknown;
    try {
      await createParticleSystem(device, {
        count: 64,
        path: 'compute',
        behavior: {
          code: 'fn behavior(index: u32, p: Particle) -> Particle { var q = p; q.position.x = arrayLength(&q); return q; }',
        },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParticleOptionError);
    expect(String(error)).toMatch(/behavior/);
  });
});
