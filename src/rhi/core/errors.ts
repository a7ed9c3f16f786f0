/**
 * Typed errors. Every error Ignis throws or reports is an `RhiError`: it has a stable `code`, the
 * `label` of the resource involved (when there is one) and the offending values, both as fields
 * (`details`) and inside the message, so a log line alone tells what went wrong.
 */
export type RhiErrorCode =
  | 'validation'
  | 'limit-exceeded'
  | 'invalid-usage'
  | 'destroyed-resource'
  | 'encoder-state'
  | 'unsupported-feature'
  | 'shader-compile'
  | 'missing-barrier'
  | 'device-lost'
  | 'out-of-memory'
  | 'backend';

/** The offending values an error carries. */
export type ErrorDetails = Record<string, unknown>;

/** The base of every Ignis error: a `code`, the resource `label` and the offending values in `details`. */
export class RhiError extends Error {
  readonly code: RhiErrorCode;
  readonly label: string | undefined;
  readonly details: ErrorDetails;
  constructor(code: RhiErrorCode, message: string, label?: string, details: ErrorDetails = {}) {
    super(label !== undefined && label !== '' ? `[${label}] ${message}` : message);
    this.name = new.target.name;
    this.code = code;
    this.label = label;
    this.details = details;
  }
}

/** A descriptor or call argument is malformed ("Buffer size 6 must be a multiple of 4"). */
export class ValidationError extends RhiError {
  /** Which rule failed, e.g. `buffer-size-alignment`. */
  readonly rule: string;
  constructor(rule: string, message: string, label?: string, details: ErrorDetails = {}) {
    super('validation', message, label, { rule, ...details });
    this.rule = rule;
  }
}

/** A value is beyond a device limit; carries the limit's name, the request and the maximum. */
export class LimitExceededError extends RhiError {
  readonly limit: string;
  readonly requested: number;
  readonly maximum: number;
  constructor(limit: string, requested: number, maximum: number, what: string, label?: string) {
    super('limit-exceeded', `${what} ${requested} exceeds limits.${limit} (${maximum})`, label, {
      limit,
      requested,
      maximum,
    });
    this.limit = limit;
    this.requested = requested;
    this.maximum = maximum;
  }
}

/** A resource is used in a way its usage flags do not allow, or the flags are an illegal mix. */
export class UsageError extends RhiError {
  readonly required: string;
  readonly actual: string;
  constructor(message: string, required: string, actual: string, label?: string) {
    super('invalid-usage', message, label, { required, actual });
    this.required = required;
    this.actual = actual;
  }
}

/** A destroyed resource used, naming the resource and the operation. */
export class DestroyedResourceError extends RhiError {
  readonly operation: string;
  constructor(kind: string, operation: string, label?: string) {
    super('destroyed-resource', `${kind} used in ${operation} after destroy()`, label, {
      kind,
      operation,
    });
    this.operation = operation;
  }
}

/** A call out of order: a pass begun while another is open, finish() with a pass open, … */
export class EncoderStateError extends RhiError {
  readonly state: string;
  constructor(message: string, state: string, label?: string) {
    super('encoder-state', message, label, { state });
    this.state = state;
  }
}

/** The device lacks a capability; names the `caps` flag and the documented fallback. */
export class UnsupportedFeatureError extends RhiError {
  readonly feature: string;
  readonly fallback: string;
  constructor(feature: string, backend: string, fallback: string, label?: string) {
    super(
      'unsupported-feature',
      `caps.features.${feature} is false on the ${backend} backend; ${fallback}`,
      label,
      { feature, backend, fallback },
    );
    this.feature = feature;
    this.fallback = fallback;
  }
}

/** One compiler message with its line and the source line. */
export interface ShaderDiagnostic {
  readonly line: number;
  readonly message: string;
  readonly sourceLine: string;
}

/** A shader that did not compile, with every diagnostic and its line. */
export class ShaderCompileError extends RhiError {
  readonly diagnostics: readonly ShaderDiagnostic[];
  constructor(stage: string, diagnostics: ShaderDiagnostic[], label?: string) {
    const first = diagnostics[0];
    const where = first
      ? ` at line ${first.line}: ${first.message}\n  ${first.sourceLine.trim()}`
      : '';
    super('shader-compile', `${stage} shader failed to compile${where}`, label, {
      stage,
      diagnostics,
    });
    this.diagnostics = diagnostics;
  }
}

/** Explicit barrier mode: a pass read what an earlier pass wrote and no barrier covered it. */
export class MissingBarrierError extends RhiError {
  readonly resource: string;
  readonly writer: string;
  readonly reader: string;
  constructor(resource: string, writer: string, reader: string, from: string, to: string) {
    super(
      'missing-barrier',
      `${resource} was written by pass "${writer}" (${from}) and read by pass "${reader}" (${to}) with no barrier between them; add encoder.barrier({ from: '${from}', to: '${to}' })`,
      resource,
      { resource, writer, reader, from, to },
    );
    this.resource = resource;
    this.writer = writer;
    this.reader = reader;
  }
}

/** A call on a lost or destroyed device. */
export class DeviceLostError extends RhiError {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super('device-lost', `device lost (${reason}): ${message}`, undefined, { reason });
    this.reason = reason;
  }
}

/** The GPU ran out of memory creating a resource. */
export class OutOfMemoryError extends RhiError {
  constructor(message: string, label?: string) {
    super('out-of-memory', message, label);
  }
}

/** Something the backend reported that core could not foresee (a driver error, a GL error). */
export class BackendError extends RhiError {
  constructor(message: string, label?: string, details: ErrorDetails = {}) {
    super('backend', message, label, details);
  }
}
