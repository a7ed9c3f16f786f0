import { UnsupportedFeatureError, ValidationError } from '../errors.js';
import { isPositiveInteger } from './buffer.js';
import type { Caps } from '../caps.js';
import type { QuerySetDescriptor } from '../descriptors.js';

/** Query set descriptors: timestamp queries where the device has them, 1 to 4096 of them. */
export function validateQuerySetDescriptor(desc: QuerySetDescriptor, caps: Caps): void {
  if (!caps.features.timestampQuery) {
    throw new UnsupportedFeatureError(
      'timestampQuery',
      caps.backend,
      'time frames with queue.onSubmittedWorkDone()',
      desc.label,
    );
  }
  if (desc.type !== 'timestamp')
    throw new ValidationError(
      'query-type',
      `Query type ${String(desc.type)} must be 'timestamp'`,
      desc.label,
      { type: desc.type },
    );
  if (!isPositiveInteger(desc.count) || desc.count > 4096) {
    throw new ValidationError(
      'query-count',
      `Query count ${String(desc.count)} must be an integer from 1 to 4096`,
      desc.label,
      { count: desc.count },
    );
  }
}
