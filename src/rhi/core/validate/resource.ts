import { ValidationError } from '../errors.js';
import { Resource, type ResourceKind } from '../resource.js';
import type { Device } from '../device.js';

const ARTICLE: Record<ResourceKind, string> = {
  buffer: 'a Buffer',
  texture: 'a Texture',
  sampler: 'a Sampler',
  'shader-module': 'a ShaderModule',
  'render-pipeline': 'a RenderPipeline',
  'compute-pipeline': 'a ComputePipeline',
  'query-set': 'a QuerySet',
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Resource) return `${ARTICLE[value.kind]} ("${value.label}")`;
  if (typeof value === 'object')
    return `an object (${Object.keys(value).slice(0, 4).join(', ') || 'no keys'})`;
  return `${typeof value} ${String(value)}`;
}

/**
 * `value` is a live Ignis resource of `kind` made by `device` — where a call takes a resource, this
 * runs first, so a wrong argument (undefined, a plain object, a buffer where a sampler belongs, a
 * resource of another device, a destroyed one) is a typed error naming the call and what it got,
 * never a TypeError from inside Ignis or a backend error.
 */
export function requireResource(
  value: unknown,
  kind: ResourceKind,
  operation: string,
  device?: Device,
): void {
  if (!(value instanceof Resource) || value.kind !== kind)
    throw new ValidationError(
      'resource-kind',
      `${operation} takes ${ARTICLE[kind]}, got ${describe(value)}`,
      undefined,
      { expected: kind },
    );
  if (device !== undefined && value.device !== device)
    throw new ValidationError(
      'resource-device',
      `${operation}: ${describe(value)} belongs to another device`,
      value.label,
      { id: value.id },
    );
  value.assertAlive(operation);
}
