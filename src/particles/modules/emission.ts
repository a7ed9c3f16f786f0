/**
 * Spawn: emission over time — `emitRate` particles a second and `bursts`, in an emitter cycle of
 * `duration` seconds that may `loop`, after `prewarm` seconds simulated at the first update
 * (../emission.ts has the schedule). Without it the system is continuous: every slot alive,
 * respawning where it dies.
 */
import { ParticleOptionError, finite } from '../errors.js';
import type { Burst, BurstInput } from '../options.js';
import { emits } from '../emission.js';
import { defineModule } from './module.js';

/** Bursts with their defaults, each value checked. */
function resolveBursts(input: unknown): Burst[] {
  if (!Array.isArray(input))
    throw new ParticleOptionError(
      'bursts',
      input,
      'must be an array of { time, count, cycles?, interval? }',
    );
  return input.map((b: unknown, i) => {
    if (!b || typeof b !== 'object' || Array.isArray(b))
      throw new ParticleOptionError(
        `bursts[${i}]`,
        b,
        'must be { time, count, cycles?, interval? }',
      );
    const burst = { cycles: 1, interval: 0.1, ...(b as BurstInput) };
    for (const key of ['time', 'count', 'cycles', 'interval'] as const) {
      finite(`bursts[${i}].${key}`, burst[key]);
      if (burst[key] < 0)
        throw new ParticleOptionError(`bursts[${i}].${key}`, burst[key], 'must not be negative');
    }
    for (const key of ['count', 'cycles'] as const)
      if (!Number.isInteger(burst[key]))
        throw new ParticleOptionError(`bursts[${i}].${key}`, burst[key], 'must be an integer');
    if (burst.cycles > 1 && burst.interval <= 0)
      throw new ParticleOptionError(
        `bursts[${i}].interval`,
        burst.interval,
        `must be positive when the burst repeats (cycles ${burst.cycles})`,
      );
    return burst;
  });
}

export const emission = defineModule({
  name: 'emission',
  stage: 'spawn',
  summary: 'emission over time: emitRate, bursts, duration, loop, prewarm',
  keys: ['emitRate', 'bursts', 'duration', 'loop', 'prewarm'],
  present: (o) => emits(o),
  resolve(o) {
    const bursts = resolveBursts(o.bursts);
    if (o.emitRate !== null) {
      finite('emitRate', o.emitRate);
      if (o.emitRate < 0)
        throw new ParticleOptionError(
          'emitRate',
          o.emitRate,
          'must not be negative (or null: continuous)',
        );
    }
    finite('duration', o.duration);
    if (o.duration <= 0) throw new ParticleOptionError('duration', o.duration, 'must be positive');
    if (typeof o.loop !== 'boolean')
      throw new ParticleOptionError('loop', o.loop, 'must be true or false');
    finite('prewarm', o.prewarm);
    if (o.prewarm < 0 || o.prewarm > 60)
      throw new ParticleOptionError('prewarm', o.prewarm, 'must be from 0 to 60 seconds');
    return {
      emitRate: o.emitRate,
      bursts,
      duration: o.duration,
      loop: o.loop,
      prewarm: o.prewarm,
    };
  },
  // the kernel's body (kernel.ts) is the emission form when this module is in the stack
  kernel: () => ({ key: 'emits' }),
  fastCpu: true,
});
