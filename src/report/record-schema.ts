/**
 * The shape of a record read from disk, checked field by field. A report file is input like any
 * other: a hand-edited, truncated or hostile one must be refused with a message that names the
 * field, never reach the renderers as a half-record that throws a TypeError there.
 */

/** A check: returns null when `value` fits, else what is wrong with it, naming `path`. */
type Check = (value: unknown, path: string) => string | null;

/** Longest array or string a record field may hold: far past any real run, short of exhausting memory. */
const MAX_ITEMS = 1_000_000;

const show = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value === 'object' ? 'an object' : `${String(value)} (${typeof value})`;
};

const expected = (path: string, what: string, value: unknown): string =>
  `${path} must be ${what}, got ${show(value)}`;

const str: Check = (v, p) => (typeof v === 'string' ? null : expected(p, 'a string', v));
const num: Check = (v, p) =>
  typeof v === 'number' && Number.isFinite(v) ? null : expected(p, 'a finite number', v);
const count: Check = (v, p) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
    ? null
    : expected(p, 'a non-negative integer', v);
const bool: Check = (v, p) => (typeof v === 'boolean' ? null : expected(p, 'a boolean', v));
const oneOf =
  (...options: readonly unknown[]): Check =>
  (v, p) =>
    options.includes(v) ? null : expected(p, `one of ${options.map((o) => JSON.stringify(o)).join(', ')}`, v);
const nullable =
  (check: Check): Check =>
  (v, p) =>
    v === null ? null : check(v, p);
/** A field newer than the schema version: absent in older records. */
const optional =
  (check: Check): Check =>
  (v, p) =>
    v === undefined ? null : check(v, p);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const arrayOf =
  (item: Check): Check =>
  (v, p) => {
    if (!Array.isArray(v)) return expected(p, 'an array', v);
    if (v.length > MAX_ITEMS) return `${p} has ${v.length} items, more than ${MAX_ITEMS}`;
    for (let i = 0; i < v.length; i++) {
      const why = item(v[i], `${p}[${i}]`);
      if (why !== null) return why;
    }
    return null;
  };
const obj =
  (fields: Readonly<Record<string, Check>>): Check =>
  (v, p) => {
    if (!isObject(v)) return expected(p, 'an object', v);
    for (const [key, check] of Object.entries(fields)) {
      const why = check(Object.hasOwn(v, key) ? v[key] : undefined, `${p}.${key}`);
      if (why !== null) return why;
    }
    return null;
  };
/** An object whose own values all pass `check` (tags, free-form payloads). */
const recordOf =
  (check: Check): Check =>
  (v, p) => {
    if (!isObject(v)) return expected(p, 'an object', v);
    for (const [key, value] of Object.entries(v)) {
      const why = check(value, `${p}.${key}`);
      if (why !== null) return why;
    }
    return null;
  };
const any: Check = () => null;

const estimate = obj({ estimate: num, lower: num, upper: num, epsilon: num, delta: num, n: count });

const DATA: Readonly<Record<string, Check>> = {
  coherence: obj({
    estimator: str,
    incoherence: nullable(estimate),
    bound: nullable(num),
    errorLowerBound: nullable(num),
    error: nullable(estimate),
    semanticEntropy: num,
    disagreements: count,
    unknownCells: count,
  }),
  error: obj({
    error: nullable(estimate),
    maxError: num,
    candidates: arrayOf(obj({ label: str, error: nullable(num), n: count })),
    unknownCells: count,
  }),
  detection: obj({
    verdict: str,
    epsilon: num,
    delta: num,
    required: count,
    inputsRun: count,
    inputsCounted: count,
    unknownCells: count,
    certificate: nullable(str),
    reason: nullable(str),
  }),
  ranking: obj({
    spearman: nullable(num),
    minSpearman: num,
    items: arrayOf(str),
    received: arrayOf(num),
    expected: arrayOf(num),
    pValue: optional(nullable(num)),
    alpha: optional(num),
  }),
  order: obj({
    metric: oneOf('incoherence', 'error'),
    confidence: num,
    stated: arrayOf(str),
    unsupported: arrayOf(obj({ above: str, below: str, reason: str })),
    ranks: arrayOf(obj({ model: str, rank: count, rankLow: count, rankHigh: count })),
  }),
  property: obj({
    property: str,
    biased: oneOf(true),
    outcome: oneOf('held', 'falsified', 'too-many-skips', 'interrupted'),
    seed: num,
    path: nullable(str),
    runsRequested: nullable(count),
    runs: count,
    skips: count,
    shrinks: count,
    inputsRun: count,
    counterexample: nullable(str),
    failure: nullable(str),
    candidates: arrayOf(
      obj({
        label: str,
        value: count,
        invalid: count,
        error: count,
        timeout: count,
        crash: count,
        verdict: optional(oneOf('held', 'violated', 'inconclusive')),
      }),
    ),
  }),
  triangulation: recordOf(any),
  review: (v, p) => {
    const usage = obj({
      calls: count,
      prompt: num,
      completion: num,
      costUsd: nullable(num),
      unpricedCalls: count,
    });
    return obj({
      method: str,
      threshold: num,
      score: nullable(num),
      verdict: oneOf('accept', 'reject', 'inconclusive'),
      reason: str,
      counts: obj({ correct: count, incorrect: count, unparseable: count }),
      scenarios: arrayOf(obj({ id: str, title: str, status: str, steps: count, kept: count })),
      inputs: arrayOf(obj({ scenario: str, input: str, output: str, verdict: str, reason: str })),
      usage: obj({ live: usage, replayed: usage }),
    })(v, p);
  },
};

const common = obj({
  test: obj({ file: nullable(str), name: nullable(str), matcher: str, negated: bool }),
  task: nullable(str),
  tags: recordOf((v, p) =>
    typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
      ? null
      : expected(p, 'a string, number or boolean', v),
  ),
  verdict: oneOf('pass', 'fail'),
  seed: nullable(num),
  m: nullable(count),
  n: nullable(count),
  gen: nullable(str),
  witness: nullable(
    obj({
      reason: str,
      input: str,
      original: str,
      shrinkSteps: nullable(count),
      outputs: arrayOf(obj({ labels: arrayOf(str), kind: str, outcome: str })),
      reference: nullable(str),
    }),
  ),
  classes: arrayOf(obj({ labels: arrayOf(str), share: num })),
  timings: obj({ durationMs: num }),
  tokens: nullable(obj({ prompt: num, completion: num, costUsd: nullable(num) })),
  // Absent in records written before the field existed.
  llm: (v, p) =>
    v === undefined || v === null
      ? null
      : obj({
          calls: arrayOf(
            obj({
              id: str,
              model: str,
              live: (x, q) => (typeof x === 'boolean' ? null : expected(q, 'a boolean', x)),
            }),
          ),
          truncated: count,
        })(v, p),
  isolation: (v, p) => (v === undefined ? null : nullable(oneOf('os', 'process', 'none'))(v, p)),
  unknown: optional(nullable(obj({ referenceLost: optional(count), excluded: optional(nullable(str)) }))),
});

/**
 * What is wrong with a record whose schema, version and kind were already checked, or null when
 * every field has its documented type. @internal
 */
export const recordProblem = (record: Record<string, unknown>, kind: string): string | null =>
  common(record, 'record') ?? (DATA[kind] ?? any)(record.data, 'record.data');
