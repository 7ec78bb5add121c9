import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';

/**
 * An equality over decoded values that says what it compares: a function `(a, b) => boolean`
 * usable wherever an `equality` is chosen (a task's `equality`, `measure`, `detect`, the
 * matchers, `coherenceProperty`), whose `description` names it in reports instead of `custom`.
 * @public
 */
export interface SemanticEquality {
  (a: unknown, b: unknown): boolean;
  /** What it compares, e.g. `fields(total: number(abs 0.01), vendor: text)`. */
  readonly description: string;
}

const named = (description: string, eq: (a: unknown, b: unknown) => boolean): SemanticEquality =>
  Object.defineProperty(eq, 'description', { value: description, enumerable: true }) as SemanticEquality;

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Map) && !(x instanceof Set);

/** Canonical JSON text: object keys sorted, Map and Set as sorted entries, -0 as 0. */
const canonical = (x: unknown): string => {
  if (x === undefined) return 'undefined';
  if (typeof x === 'number') return Object.is(x, -0) ? '0' : Number.isNaN(x) ? 'NaN' : JSON.stringify(x);
  if (typeof x === 'bigint') return `${x}n`;
  if (x === null || typeof x !== 'object') return JSON.stringify(x);
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (x instanceof Set) return `{set:[${[...x].map(canonical).sort().join(',')}]}`;
  if (x instanceof Map)
    return `{map:[${[...x]
      .map(([k, v]) => `${canonical(k)}:${canonical(v)}`)
      .sort()
      .join(',')}]}`;
  const keys = Object.keys(x).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((x as Record<string, unknown>)[k])}`).join(',')}}`;
};

const asEquality = (where: string, eq: unknown): ((a: unknown, b: unknown) => boolean) => {
  if (typeof eq !== 'function') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected an equality (a, b) => boolean such as same.text(), got ${describeValue(eq)}.`,
      { where },
    );
  }
  return eq as (a: unknown, b: unknown) => boolean;
};

const nameOf = (eq: (a: unknown, b: unknown) => boolean): string =>
  typeof (eq as Partial<SemanticEquality>).description === 'string'
    ? (eq as SemanticEquality).description
    : 'custom';

/** Options of {@link same.text}. @public */
export interface TextOptions {
  /** Ignore letter case. @defaultValue true */
  ignoreCase?: boolean;
  /** Ignore punctuation (Unicode categories P and S). @defaultValue false */
  ignorePunctuation?: boolean;
  /** Ignore accents (combining marks after NFKD). @defaultValue false */
  ignoreAccents?: boolean;
}

/** Normalised text: NFKC, trimmed, runs of white space as one space, and what the options ignore. */
const normaliseText = (s: string, o: TextOptions): string => {
  let t = s.normalize('NFKC');
  if (o.ignoreAccents) t = t.normalize('NFKD').replace(/\p{M}/gu, '');
  if (o.ignorePunctuation) t = t.replace(/[\p{P}\p{S}]/gu, ' ');
  t = t.replace(/\s+/gu, ' ').trim();
  return o.ignoreCase === false ? t : t.toLowerCase();
};

const TEXT_KEYS = knownKeys<TextOptions>({ ignoreCase: true, ignorePunctuation: true, ignoreAccents: true });

/** Options of {@link same.fields}. @public */
export interface FieldsOptions {
  /** Fields not named: compared as canonical JSON, or ignored. @defaultValue 'compare' */
  rest?: 'compare' | 'ignore';
}

const FIELDS_KEYS = knownKeys<FieldsOptions>({ rest: true });

/** Options of {@link same.number}. @public */
export interface NumberOptions {
  /** Absolute tolerance. @defaultValue 0 */
  abs?: number;
  /** Relative tolerance (of the larger magnitude). @defaultValue 1e-9 */
  rel?: number;
  /** Read numeric strings (`"12.50"`, `"1,200"`) as numbers too. @defaultValue true */
  parseStrings?: boolean;
}

const NUMBER_KEYS = knownKeys<NumberOptions>({ abs: true, rel: true, parseStrings: true });

const toNumber = (x: unknown, parse: boolean): number | null => {
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  if (parse && typeof x === 'string') {
    const t = x.trim().replace(/(?<=\d),(?=\d{3}\b)/g, '');
    if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return Number(t);
  }
  return null;
};

const tolerance = (where: string, field: string, x: unknown, fallback: number): number => {
  if (x === undefined) return fallback;
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`${field}\` must be a finite number ≥ 0, got ${describeValue(x)}. Pass e.g. { ${field}: 0.01 }.`,
      { where },
    );
  }
  return x;
};

/**
 * Small comparators for outputs with many right spellings, each an {@link SemanticEquality},
 * composable: `same.fields({ total: same.number({ abs: 0.01 }), items: same.set(same.text()) })`.
 * All but `number` compare canonical forms, so they are equivalence relations (classes of
 * candidates are well defined); `number` with a tolerance is not transitive, like any tolerance.
 * @public
 */
export const same = Object.freeze({
  /** Equal as data: canonical JSON (object keys in any order, Set and Map unordered). */
  json: (): SemanticEquality => named('json', (a, b) => canonical(a) === canonical(b)),

  /** Equal as text after normalising (case, white space, and optionally punctuation and accents). */
  text: (options: TextOptions = {}): SemanticEquality => {
    const where = 'same.text(options)';
    checkKeys({ where }, options, TEXT_KEYS);
    const o = { ...options };
    const flags = [
      o.ignoreCase === false ? 'case-sensitive' : null,
      o.ignorePunctuation ? 'no punctuation' : null,
      o.ignoreAccents ? 'no accents' : null,
    ].filter((x) => x !== null);
    return named(flags.length ? `text(${flags.join(', ')})` : 'text', (a, b) =>
      typeof a === 'string' && typeof b === 'string'
        ? normaliseText(a, o) === normaliseText(b, o)
        : canonical(a) === canonical(b),
    );
  },

  /** Equal numbers within `abs` or `rel` (numeric strings read as numbers unless told not to). */
  number: (options: NumberOptions = {}): SemanticEquality => {
    const where = 'same.number(options)';
    checkKeys({ where }, options, NUMBER_KEYS);
    const abs = tolerance(where, 'abs', options.abs, 0);
    const rel = tolerance(where, 'rel', options.rel, 1e-9);
    const parse = options.parseStrings !== false;
    return named(`number(${abs ? `abs ${abs}` : `rel ${rel}`})`, (a, b) => {
      const x = toNumber(a, parse);
      const y = toNumber(b, parse);
      if (x === null || y === null) return canonical(a) === canonical(b);
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
      if (x === y) return true;
      const d = Math.abs(x - y);
      return d <= abs || d <= rel * Math.max(Math.abs(x), Math.abs(y));
    });
  },

  /**
   * Equal as sets: arrays (or Sets) holding the same elements in any order, repeats ignored,
   * elements compared with `element` (canonical JSON by default).
   */
  set: (element: (a: unknown, b: unknown) => boolean = same.json()): SemanticEquality => {
    const eq = asEquality('same.set(element)', element);
    const items = (x: unknown): unknown[] | null => (Array.isArray(x) ? x : x instanceof Set ? [...x] : null);
    return named(`set(${nameOf(eq)})`, (a, b) => {
      const xs = items(a);
      const ys = items(b);
      if (xs === null || ys === null) return canonical(a) === canonical(b);
      return xs.every((x) => ys.some((y) => eq(x, y))) && ys.every((y) => xs.some((x) => eq(x, y)));
    });
  },

  /** Equal lists: the same length, elements equal in order under `element`. */
  list: (element: (a: unknown, b: unknown) => boolean): SemanticEquality => {
    const eq = asEquality('same.list(element)', element);
    return named(`list(${nameOf(eq)})`, (a, b) =>
      Array.isArray(a) && Array.isArray(b)
        ? a.length === b.length && a.every((x, i) => eq(x, b[i]))
        : canonical(a) === canonical(b),
    );
  },

  /**
   * Equal objects field by field: each named field with its equality, every other field as
   * canonical JSON (`rest: 'ignore'` leaves them out).
   */
  fields: (
    fields: Readonly<Record<string, (a: unknown, b: unknown) => boolean>>,
    options: FieldsOptions = {},
  ): SemanticEquality => {
    const where = 'same.fields(fields, options)';
    if (!isRecord(fields)) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${where}: expected an object of equalities by field name, got ${describeValue(fields)}.`,
        { where },
      );
    }
    checkKeys({ where }, options, FIELDS_KEYS);
    const eqs = Object.entries(fields).map(([k, eq]) => [k, asEquality(`${where}: ${k}`, eq)] as const);
    const ignoreRest = options.rest === 'ignore';
    const named_ = new Set(Object.keys(fields));
    const rest = (x: Record<string, unknown>) =>
      canonical(Object.fromEntries(Object.entries(x).filter(([k]) => !named_.has(k))));
    return named(`fields(${eqs.map(([k, eq]) => `${k}: ${nameOf(eq)}`).join(', ')})`, (a, b) => {
      if (!isRecord(a) || !isRecord(b)) return canonical(a) === canonical(b);
      if (!eqs.every(([k, eq]) => eq(a[k], b[k]))) return false;
      return ignoreRest || rest(a) === rest(b);
    });
  },

  /** Equal when `key(a)` and `key(b)` are equal under `then` (canonical JSON by default). */
  by: (
    key: (x: unknown) => unknown,
    then: (a: unknown, b: unknown) => boolean = same.json(),
  ): SemanticEquality => {
    if (typeof key !== 'function') {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `same.by(key): expected a key function (value) => key, got ${describeValue(key)}.`,
        { where: 'same.by(key)' },
      );
    }
    const eq = asEquality('same.by(key, then)', then);
    return named(`by(${key.name || 'key'}, ${nameOf(eq)})`, (a, b) => eq(key(a), key(b)));
  },
});

/** The name of an equality in reports: a mode, a {@link SemanticEquality}'s description, or `custom`. @internal */
export const equalityName = (equality: unknown): string =>
  typeof equality === 'string'
    ? equality
    : typeof equality === 'function'
      ? nameOf(equality as never)
      : 'custom';
