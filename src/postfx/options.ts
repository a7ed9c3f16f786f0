/**
 * The effects of a post-process chain, as plain option objects made by `bloom()`, `toneMap()` and
 * `grade()`, checked here: every invalid value is a `PostFxOptionError` naming the option.
 */
import { ValidationError } from '../rhi/core/errors.js';
import { TONE_OPERATORS, type ToneOperator } from './math.js';

/** An invalid post-processing option, naming the option, the value and the rule. */
export class PostFxOptionError extends ValidationError {
  readonly option: string;
  readonly value: unknown;
  constructor(option: string, value: unknown, why: string) {
    super(
      'postfx-option',
      `Post-process option ${option} = ${typeof value === 'string' ? `'${value}'` : String(value)} ${why}`,
      'post-process',
      {
        option,
        value,
      },
    );
    this.name = 'PostFxOptionError';
    this.option = option;
    this.value = value;
  }
}

/** Bloom: threshold, soft knee, intensity and radius. */
export interface BloomOptions {
  /** Brightness (max of r, g, b) above which light blooms. Default 1. */
  threshold: number;
  /** Soft knee, as a fraction of the threshold: light from threshold·(1 − knee) blooms partly. Default 0.5. */
  knee: number;
  /** Bloom added to the scene (×). Default 0.8. */
  intensity: number;
  /** How far the bloom spreads, 0…1: each level's mix towards the wider levels below it. Default 0.85. */
  radius: number;
}
/** Tone mapping: operator and exposure. */
export interface ToneMapOptions {
  operator: ToneOperator;
  /** Multiplies the HDR colour before the curve. Default 1. */
  exposure: number;
}
/** Grading: contrast, saturation, vignette. */
export interface GradeOptions {
  /** Around mid-grey of the encoded image. Default 1. */
  contrast: number;
  /** 0 is grey, 1 unchanged. Default 1. */
  saturation: number;
  /** Darkening towards the corners, 0…1. Default 0. */
  vignette: number;
}

/** One effect of a chain, as `bloom()`, `toneMap()` and `grade()` make them. */
export type Effect =
  | { kind: 'bloom'; options: BloomOptions }
  | { kind: 'toneMap'; options: ToneMapOptions }
  | { kind: 'grade'; options: GradeOptions };

function finite(option: string, value: unknown, min: number, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new PostFxOptionError(option, value, 'must be a finite number');
  if (value < min || value > max)
    throw new PostFxOptionError(
      option,
      value,
      max === Infinity ? `must be at least ${min}` : `must be between ${min} and ${max}`,
    );
  return value;
}

export function checkBloom(o: BloomOptions): BloomOptions {
  return {
    threshold: finite('bloom.threshold', o.threshold, 0),
    knee: finite('bloom.knee', o.knee, 0, 1),
    intensity: finite('bloom.intensity', o.intensity, 0),
    radius: finite('bloom.radius', o.radius, 0, 1),
  };
}
export function checkToneMap(o: ToneMapOptions): ToneMapOptions {
  if (!TONE_OPERATORS.includes(o.operator))
    throw new PostFxOptionError(
      'toneMap.operator',
      o.operator,
      `must be one of ${TONE_OPERATORS.join(', ')}`,
    );
  return { operator: o.operator, exposure: finite('toneMap.exposure', o.exposure, 0) };
}
export function checkGrade(o: GradeOptions): GradeOptions {
  return {
    contrast: finite('grade.contrast', o.contrast, 0),
    saturation: finite('grade.saturation', o.saturation, 0),
    vignette: finite('grade.vignette', o.vignette, 0, 1),
  };
}

/** A bloom: bright pass with a soft knee, a progressive downsample and a tent upsample, added to the scene. */
export function bloom(o: Partial<BloomOptions> = {}): Effect {
  return {
    kind: 'bloom',
    options: checkBloom({ threshold: 1, knee: 0.5, intensity: 0.8, radius: 0.85, ...o }),
  };
}
/** HDR → display: exposure, then a tone curve ('aces', 'agx', 'reinhard' or 'none'). */
export function toneMap(o: Partial<ToneMapOptions> = {}): Effect {
  return { kind: 'toneMap', options: checkToneMap({ operator: 'agx', exposure: 1, ...o }) };
}
/** Display-space grading after tone mapping: contrast, saturation, vignette. */
export function grade(o: Partial<GradeOptions> = {}): Effect {
  return { kind: 'grade', options: checkGrade({ contrast: 1, saturation: 1, vignette: 0, ...o }) };
}

/** The effects of a chain, one of each kind at most, resolved to the values the shaders use. */
export interface ChainSettings {
  bloom: BloomOptions | null;
  toneMap: ToneMapOptions;
  grade: GradeOptions;
}

/** The chain settings a list of effects amounts to (what the reference takes). */
export function settingsOf(effects: readonly Effect[]): ChainSettings {
  if (!Array.isArray(effects))
    throw new PostFxOptionError(
      'effects',
      effects,
      'must be an array of bloom(), toneMap() and grade()',
    );
  const seen = new Set<string>();
  const out: ChainSettings = {
    bloom: null,
    toneMap: { operator: 'none', exposure: 1 },
    grade: { contrast: 1, saturation: 1, vignette: 0 },
  };
  for (const e of effects) {
    const kind = (e as { kind?: unknown } | null)?.kind;
    if (kind !== 'bloom' && kind !== 'toneMap' && kind !== 'grade') {
      throw new PostFxOptionError(
        'effects',
        kind,
        'must each be made by bloom(), toneMap() or grade()',
      );
    }
    if (seen.has(kind))
      throw new PostFxOptionError(
        'effects',
        kind,
        'appears twice; a chain has at most one of each effect',
      );
    seen.add(kind);
    if (e.kind === 'bloom') out.bloom = checkBloom(e.options);
    else if (e.kind === 'toneMap') out.toneMap = checkToneMap(e.options);
    else out.grade = checkGrade(e.options);
  }
  return out;
}
