/** The effect file's error: each problem with its JSON pointer into the file. */
import { ValidationError } from '../rhi/core/errors.js';

/** One problem of an effect file: where (a JSON pointer, `/systems/0/modules/3/emitRate`) and what. */
export interface EffectProblem {
  pointer: string;
  message: string;
}

/**
 * An effect file that cannot load: `problems` lists every problem found with its JSON pointer;
 * the message leads with the first (`/systems/0/modules/3/emitRate: must be >= 0`).
 */
export class EffectError extends ValidationError {
  readonly problems: readonly EffectProblem[];
  /** The first problem's pointer. */
  readonly pointer: string;
  constructor(problems: readonly EffectProblem[], label = 'effect') {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    super(
      'effect-file',
      `Effect file: ${first ? `${first.pointer || '/'}: ${first.message}` : 'invalid'}${more}`,
      label,
      { problems },
    );
    this.problems = problems;
    this.pointer = first?.pointer ?? '';
  }
}

/** A JSON pointer's token for a key (RFC 6901: ~ as ~0, / as ~1). */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}
