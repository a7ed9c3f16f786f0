/** Render: soft particles — fade where a particle nears the scene's depth (`softParticles`). */
import { ParticleOptionError, checkDepthTexture, finite } from '../errors.js';
import type { SoftParticles } from '../options.js';
import { defineModule } from './module.js';

export const soft = defineModule({
  name: 'soft',
  stage: 'render',
  summary: 'fade near the scene depth: softParticles { depth, distance }',
  keys: ['softParticles'],
  present: (o) => o.softParticles !== null,
  resolve(o) {
    const s = o.softParticles as unknown;
    if (s !== null) {
      const d = (s as { depth?: { kind?: unknown } } | undefined)?.depth;
      if (!s || typeof s !== 'object' || !d || d.kind !== 'texture')
        throw new ParticleOptionError(
          'softParticles',
          s,
          'must be null or { depth: the scene depth texture, distance }',
        );
      const distance = (s as SoftParticles).distance;
      finite('softParticles.distance', distance);
      if (distance <= 0)
        throw new ParticleOptionError('softParticles.distance', distance, 'must be positive');
    }
    return { softParticles: o.softParticles };
  },
  checkDevice(device, o) {
    if (o.softParticles) checkDepthTexture(device, o.softParticles.depth, 'softParticles.depth');
  },
});
