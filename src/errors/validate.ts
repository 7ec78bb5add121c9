import { CrosscheckError, type CrosscheckErrorCode, describeValue } from './error.ts';

/**
 * One option that failed its rule, as data: the CLI re-words it with its `--flag`, everything
 * else prints the message built from it. @internal
 */
export interface OptionProblem {
  /** The API at fault, as users call it: `measure(task, candidates, options)`, `defineTask`. */
  readonly where: string;
  /** The option or field, as spelled in the API (`timeoutMs`, not `--timeout-ms`). */
  readonly field: string;
  /** The rule, as a predicate: `must be a positive integer`. */
  readonly rule: string;
  /** What arrived. */
  readonly got: unknown;
  /** A value that passes, for the fix `Pass e.g. { field: example }.`; ignored when `fix` is set. */
  readonly example?: unknown;
  /** The fix as a whole sentence, when an example alone does not say it. */
  readonly fix?: string;
  /** @defaultValue 'INVALID_OPTION' */
  readonly code?: CrosscheckErrorCode;
}

const literal = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
};

/** `measure(task, candidates, options)` + `seed` → `measure(task, candidates, options, { seed })`. */
const whereOf = (where: string, field: string): string =>
  where.endsWith(')') ? `${where.slice(0, -1)}, { ${field} })` : `${where}({ ${field} })`;

/** The sentence that says how to fix a problem. */
export const fixOf = (p: OptionProblem): string =>
  p.fix ??
  (p.example === undefined ? '' : `Pass e.g. { ${p.field.replace(/^.*[.\]]/, '')}: ${literal(p.example)} }.`);

/**
 * The one builder of option errors: `where: \`field\` rule, got what (type). fix`. The
 * problem rides on the error (`problem`), so a front end can re-word it in its own terms.
 * @internal
 */
export const optionError = (p: OptionProblem): CrosscheckError => {
  const fix = fixOf(p);
  const error = new CrosscheckError(
    p.code ?? 'INVALID_OPTION',
    `${p.where}: \`${p.field}\` ${p.rule}, got ${describeValue(p.got)}.${fix ? ` ${fix}` : ''}`,
    { where: whereOf(p.where, p.field) },
  );
  Object.defineProperty(error, 'problem', { value: Object.freeze({ ...p }), enumerable: false });
  return error;
};

/** The {@link OptionProblem} an {@link optionError} carries, if any. @internal */
export const problemOf = (error: unknown): OptionProblem | undefined =>
  typeof error === 'object' && error !== null
    ? ((error as { problem?: OptionProblem }).problem ?? undefined)
    : undefined;

/**
 * The one rule for an options object, top-level or nested (`run`, `sampling`): a plain object
 * (or one on a null prototype), not null, an array, a class instance or a primitive, which would
 * otherwise be read as "no options" and leave every option at its default. @internal
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // A root prototype of any realm (a Jest test's objects come from its own vm context).
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
};

/** Where a reader reports: the API and the field. @internal */
export interface FieldAt {
  readonly where: string;
  readonly field: string;
  /** Overrides the error code (`INVALID_TASK` for `defineTask`). */
  readonly code?: CrosscheckErrorCode;
}

const fail = (at: FieldAt, rule: string, got: unknown, example: unknown, fix?: string): never => {
  throw optionError({ ...at, rule, got, example, fix });
};

/**
 * The seed rule of every seeded API (inputs, measures, the benchmark): a safe integer, so the
 * same number replays the same run everywhere (fast-check and the paired estimator both take it
 * as an integer). @internal
 */
export const readSeed = (at: FieldAt, value: unknown, fallback?: number): number => {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    // An example, not a sentence: the CLI words it as a flag (`--seed 42`).
    fail(at, 'must be an integer', value, fallback ?? 42);
  }
  return value as number;
};

/** An integer ≥ `min` (1 unless said): counts, sizes, jobs. @internal */
export const readPositiveInt = (at: FieldAt, value: unknown, fallback?: number, min = 1): number => {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    const rule =
      min === 1
        ? 'must be a positive integer'
        : min === 0
          ? 'must be a non-negative integer'
          : `must be an integer of at least ${min}`;
    fail(at, rule, value, fallback ?? Math.max(min, 1000));
  }
  return value as number;
};

/** A probability strictly between 0 and 1 (δ, ε, confidence). @internal */
export const readProbability = (at: FieldAt, value: unknown, fallback?: number): number => {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value >= 1) {
    fail(at, 'must be a number strictly between 0 and 1', value, 0.05);
  }
  return value as number;
};

/** A positive, finite number of milliseconds (or of any positive unit, via `rule`). @internal */
export const readMs = (
  at: FieldAt,
  value: unknown,
  fallback: number,
  rule = 'must be a positive number of milliseconds',
): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    fail(at, rule, value, Number.isFinite(fallback) ? fallback : 1000);
  }
  return value as number;
};

/** Absent (the fallback) or a boolean. @internal */
export const readFlag = (at: FieldAt, value: unknown, fallback: boolean): boolean => {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(at, 'must be true or false', value, !fallback);
  return value as boolean;
};

/** One of a closed set of strings. @internal */
export const readOneOf = <T extends string>(at: FieldAt, value: unknown, allowed: readonly T[]): T => {
  if (!allowed.includes(value as T)) {
    const rule =
      allowed.length === 2
        ? `must be ${literal(allowed[0])} or ${literal(allowed[1])}`
        : `must be one of ${allowed.map(literal).join(', ')}`;
    fail(at, rule, value, allowed[0]);
  }
  return value as T;
};

/** A non-empty list of non-empty strings, without repeats (model names, task ids). @internal */
export const readNames = (at: FieldAt, value: unknown): readonly string[] => {
  if (!Array.isArray(value) || value.length === 0 || !value.every((x) => typeof x === 'string' && x !== '')) {
    fail(at, 'must be a non-empty list of non-empty strings', value, ['a', 'b']);
  }
  return [...new Set(value as string[])];
};

/** Absent, or a non-empty string (labels, names). @internal */
export const readLabel = (at: FieldAt, value: unknown): string | undefined => {
  if (value === undefined || (typeof value === 'string' && value !== '')) return value;
  return fail(at, 'must be a non-empty string', value, 'gpt-4o');
};

/** Tags put on a candidate: strings, numbers or booleans by name. @internal */
export type Tags = Readonly<Record<string, string | number | boolean>>;

/** Absent (no tags) or an object of strings, numbers or booleans; frozen copy. @internal */
export const readTags = (at: FieldAt, value: unknown): Tags => {
  if (value === undefined) return Object.freeze({});
  const example = 'Pass e.g. { tags: { model: "gpt-4o", temperature: 0.6 } }.';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(at, 'must be an object of strings, numbers or booleans', value, undefined, example);
  }
  for (const [k, v] of Object.entries(value as object)) {
    if (!['string', 'number', 'boolean'].includes(typeof v)) {
      fail(
        { ...at, field: `${at.field}.${k}` },
        'must be a string, number or boolean',
        v,
        undefined,
        example,
      );
    }
  }
  return Object.freeze({ ...(value as Tags) });
};

/**
 * Absent, or an AbortSignal: what `AbortSignal.any` and `addEventListener('abort')` accept, so a
 * wrong value is refused here, by name, rather than deep inside a run by Node. @internal
 */
export const readSignal = (at: FieldAt, value: unknown): AbortSignal | undefined => {
  if (value === undefined || value instanceof AbortSignal) return value;
  return fail(
    at,
    'must be an AbortSignal',
    value,
    undefined,
    'Pass e.g. { signal: AbortSignal.timeout(60_000) } or an AbortController’s signal, or leave it out.',
  );
};

/** Absent, or a plain object, copied onto a null prototype (two-layer options). @internal */
export const readOptionsObject = <T extends object>(at: FieldAt, value: unknown, example: string): T => {
  if (value !== undefined && !isPlainObject(value)) {
    fail(at, 'must be an object', value, undefined, `Pass e.g. ${example}.`);
  }
  return Object.assign(Object.create(null), value) as T;
};
