/** Render: how a quad faces — the camera, or stretched along the velocity on screen (`stretch`). */
import { ParticleOptionError, finite } from '../errors.js';
import { defineModule } from './module.js';

export const billboard = defineModule({
  name: 'billboard',
  stage: 'render',
  summary:
    "quads facing the camera, or along the velocity: billboard 'camera' | 'velocity', stretch",
  keys: ['billboard', 'stretch'],
  present: () => true,
  resolve(o) {
    if (o.billboard !== 'camera' && o.billboard !== 'velocity')
      throw new ParticleOptionError('billboard', o.billboard, "must be 'camera' or 'velocity'");
    finite('stretch', o.stretch);
    if (o.stretch < 0) throw new ParticleOptionError('stretch', o.stretch, 'must not be negative');
    return { billboard: o.billboard, stretch: o.stretch };
  },
});
