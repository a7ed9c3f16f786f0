import { UnsupportedFeatureError, ValidationError } from '../errors.js';
import { isNonNegativeInteger } from './buffer.js';
import type { Caps } from '../caps.js';
import type { QuerySetDescriptor } from '../descriptors.js';
import { show } from '../show.js';

/**
 * Query set descriptors: timestamp queries where the device has them (occlusion queries are valid
 * WebGPU that Ignis does not offer yet), 0 to 4096 of them.
 */
export function validateQuerySetDescriptor(desc: QuerySetDescriptor, caps: Caps): void {
  const type = desc.type as unknown;
  if (type !== 'timestamp')
    throw new ValidationError(
      'query-type',
      type === 'occlusion'
        ? `Query type 'occlusion': occlusion queries are not supported yet (only 'timestamp')`
        : `Query type ${show(type)} must be 'timestamp' (or WebGPU's 'occlusion', not supported yet)`,
      desc.label,
      { type },
    );
  if (!isNonNegativeInteger(desc.count) || desc.count > 4096) {
    throw new ValidationError(
      'query-count',
      `Query count ${show(desc.count)} must be an integer from 0 to 4096`,
      desc.label,
      { count: desc.count },
    );
  }
  if (!caps.features.timestampQuery) {
    throw new UnsupportedFeatureError(
      'timestampQuery',
      caps.backend,
      'time frames with queue.onSubmittedWorkDone()',
      desc.label,
    );
  }
}
