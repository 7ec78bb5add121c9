import { distance } from 'fastest-levenshtein';
import { CrosscheckError, type CrosscheckErrorCode, describeValue } from './error.ts';
import { isPlainObject, optionError } from './validate.ts';

/**
 * The keys an options object may carry, at run time: each maps to `true`, or to the keys of
 * the nested options object it holds (`run: { timeoutMs, … }`). @internal
 */
export interface OptionKeys {
  readonly [key: string]: true | OptionKeys;
}

/**
 * The keys of the options type `T`, as data. Typed so that the list cannot drift from the
 * interface: a key added to `T` but not here is a compile error (the mapped type requires it),
 * and a key here that `T` lacks is one too (an excess property of the literal). @internal
 */
export type KnownKeys<T> = { readonly [K in keyof Required<T>]-?: true | OptionKeys };

const OR_FALSE = Symbol('crosscheck.orFalse');

/**
 * A nested options object that may also be `false` (off), as `createLlm({ cache: false })`: the
 * one exception to "a nested option is a plain object", said where its keys are listed. @internal
 */
export const orFalse = (keys: OptionKeys): OptionKeys =>
  Object.freeze(Object.defineProperty({ ...keys }, OR_FALSE, { value: true }));

/** Freezes a list of known keys (and says, by its type, which interface it lists). @internal */
export const knownKeys = <T>(keys: KnownKeys<T>): KnownKeys<T> & OptionKeys =>
  Object.freeze({ ...keys }) as KnownKeys<T> & OptionKeys;

/** Where a key check reports: the API as users call it. @internal */
export interface KeysAt {
  /** `measure(task, candidates, options)`, `createLlm(options)`. */
  readonly where: string;
  /** Overrides the error code (`INVALID_TASK` for `defineTask`). */
  readonly code?: CrosscheckErrorCode;
  /** What the object is called in the message: `option` (the default), `field`, `flag`. */
  readonly noun?: string;
  /** How a key is shown: `epsilon` as-is (the default), or `--timeout-ms` for a CLI. */
  readonly show?: (key: string) => string;
  /** A sentence added to the message: where keys the API does not know belong, say. */
  readonly hint?: string;
}

/**
 * The known key nearest to `key`, when it is near enough to be the one meant: equal but for
 * case (`timeoutMS`), or within an edit distance that grows with the length (two edits, so a
 * swap of two letters counts, or a third of the length for long names) and is shorter than the
 * key itself (so `-z` suggests no one-letter flag). Ties go to the first listed. @internal
 */
export const nearestKey = (key: string, known: readonly string[]): string | undefined => {
  const wanted = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(wanted, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  const near = bestDistance <= Math.max(2, Math.floor(wanted.length / 3)) && bestDistance < wanted.length;
  return near ? best : undefined;
};

/**
 * The nested key (`sampling.temperature`) whose last name is nearest to `key`, for a key given
 * one level too high (`createLlm({ temperature })`); only when no key of its own level is near.
 */
const nearestDeeper = (key: string, deeper: readonly string[]): string | undefined => {
  const leaf = (path: string) => path.slice(path.lastIndexOf('.') + 1);
  const near = nearestKey(key, deeper.map(leaf));
  return near === undefined ? undefined : deeper.find((path) => leaf(path) === near);
};

/** The keys one level inside each nested options object of `known`: `sampling.temperature`. */
const nestedKeys = (known: OptionKeys): string[] =>
  Object.entries(known).flatMap(([name, rule]) =>
    rule === true ? [] : Object.keys(rule).map((k) => `${name}.${k}`),
  );

/**
 * The error for one unknown key: `where: unknown option \`epsilion\`; did you mean \`epsilon\`?
 * The options are …`. It carries its problem (`problemOf`) like every option error. @internal
 */
export const unknownKeyError = (
  at: KeysAt,
  path: string,
  key: string,
  got: unknown,
  known: readonly string[],
  deeper: readonly string[] = [],
): CrosscheckError => {
  const show = at.show ?? ((k: string) => k);
  const noun = at.noun ?? 'option';
  const near = nearestKey(key, known) ?? nearestDeeper(key, deeper);
  const field = show(path + key);
  const list = known.map((k) => `\`${show(path + k)}\``).join(', ');
  const owner = path ? ` of \`${show(path.slice(0, -1))}\`` : '';
  const fix = `The ${noun}s${owner} are ${list}.${at.hint ? ` ${at.hint}` : ''}`;
  const error = new CrosscheckError(
    at.code ?? 'INVALID_OPTION',
    `${at.where}: unknown ${noun} \`${field}\`${near ? `; did you mean \`${show(path + near)}\`?` : '.'} ${fix}`,
    { where: at.where },
  );
  const problem = { where: at.where, field, rule: `is not a known ${noun}`, got, fix, code: at.code };
  Object.defineProperty(error, 'problem', { value: Object.freeze(problem), enumerable: false });
  return error;
};

/**
 * Refuses every own key of `value` that `known` does not list, and the same inside each
 * nested options object `known` describes. Throws the error of {@link unknownKeyError}.
 * @internal
 */
export const checkKeys = (at: KeysAt, value: object, known: OptionKeys, path = ''): void => {
  const names = Object.keys(known);
  for (const key of Object.keys(value)) {
    const rule = Object.hasOwn(known, key) ? known[key] : undefined;
    const inner = (value as Record<string, unknown>)[key];
    if (rule === undefined) throw unknownKeyError(at, path, key, inner, names, nestedKeys(known));
    if (rule === true || inner === undefined) continue;
    if (inner === false && (rule as { [OR_FALSE]?: true })[OR_FALSE]) continue;
    if (!isPlainObject(inner)) throw nestedNotObject(at, `${path}${key}`, inner, rule);
    checkKeys(at, inner, rule, `${path}${key}.`);
  }
};

/** The error for a nested options object (`run: 5`) that is not a plain object. */
const nestedNotObject = (at: KeysAt, path: string, got: unknown, known: OptionKeys): CrosscheckError => {
  const show = at.show ?? ((k: string) => k);
  const first = Object.keys(known)[0];
  return optionError({
    where: at.where,
    field: show(path),
    rule: 'must be an object',
    got,
    fix: `Pass an object of its ${at.noun ?? 'option'}s, e.g. { ${path.slice(path.lastIndexOf('.') + 1)}: { ${first ?? ''}: … } }, or leave it out.`,
    code: at.code,
  });
};

/**
 * Reads an options object: absent (an empty one), or a plain object whose every key (nested
 * ones too) is known. Returns a copy on a null prototype, so an inherited `Object.prototype`
 * key never reads as an option.
 * @internal
 */
export const readOptions = <T extends object>(
  at: KeysAt,
  value: unknown,
  known: KnownKeys<T> & OptionKeys,
  example = '{}',
): T => {
  if (value === undefined) return Object.create(null) as T;
  if (!isPlainObject(value)) {
    throw new CrosscheckError(
      at.code ?? 'INVALID_OPTION',
      `${at.where}: options must be an object, got ${describeValue(value)}. Pass e.g. ${example}.`,
      { where: at.where },
    );
  }
  checkKeys(at, value, known);
  return Object.assign(Object.create(null), value) as T;
};
