import type { CrosscheckRecord, EstimateRecord, RecordBase } from '../../src/report/index.ts';

/** Synthetic records for aggregation and rendering tests (the matchers write real ones). */

const est = (estimate: number, n = 100): EstimateRecord => ({
  estimate,
  lower: Math.max(0, estimate - 0.1),
  upper: Math.min(1, estimate + 0.1),
  epsilon: 0.1,
  delta: 0.05,
  n,
});

const base = {
  schema: 'crosscheck/record',
  version: 1,
  seed: 1,
  gen: 'test gen',
  witness: null,
  isolation: 'os',
  pool: null,
  unknown: null,
  inconclusive: null,
  tokens: null,
} as const;

/** A `toHaveIncoherenceBelow` record: Î and, when given, Ê. */
export const coherence = (o: {
  task: string;
  model?: string;
  incoherence: number;
  error?: number;
  file?: string;
  name?: string;
  pass?: boolean;
  classes?: number[];
  ms?: number;
}): RecordBase<'coherence'> => ({
  ...base,
  kind: 'coherence',
  test: {
    file: o.file ?? 'a.spec.ts',
    name: o.name ?? `${o.task} ${o.model ?? ''}`,
    matcher: 'toHaveIncoherenceBelow',
    negated: false,
  },
  task: o.task,
  tags: o.model === undefined ? {} : { model: o.model },
  verdict: o.pass === false ? 'fail' : 'pass',
  m: 3,
  n: 100,
  classes: (o.classes ?? [1]).map((share, i) => ({ labels: [`c${i}`], share })),
  timings: { durationMs: o.ms ?? 12 },
  data: {
    estimator: 'all-pairs',
    incoherence: est(o.incoherence),
    bound: 0.5,
    errorLowerBound: Math.max(0, o.incoherence - 0.1) / 2,
    error: o.error === undefined ? null : est(o.error),
    semanticEntropy: 0,
    disagreements: o.incoherence > 0 ? 1 : 0,
    unknownCells: 0,
  },
});

/** A `toBeCoherentAcross` record. */
export const detection = (o: {
  task: string;
  model?: string;
  verdict: 'coherent' | 'incoherent' | 'inconclusive';
  file?: string;
  name?: string;
}): RecordBase<'detection'> => ({
  ...base,
  kind: 'detection',
  test: {
    file: o.file ?? 'b.spec.ts',
    name: o.name ?? `${o.task} detect`,
    matcher: 'toBeCoherentAcross',
    negated: false,
  },
  task: o.task,
  tags: o.model === undefined ? {} : { model: o.model },
  verdict: o.verdict === 'incoherent' ? 'fail' : 'pass',
  m: 2,
  n: 59,
  classes: [],
  timings: { durationMs: 3 },
  data: {
    verdict: o.verdict,
    epsilon: 0.05,
    delta: 0.05,
    required: 59,
    inputsRun: 59,
    inputsCounted: 59,
    unknownCells: 0,
    certificate: null,
    reason: null,
  },
});

/**
 * The suite of the paper's shape: three models, three tasks, every task with a reference.
 * alpha: all correct. beta: one task wrong and caught, one right. gamma: one wrong but coherent
 * (undetected), one wrong and caught, one right.
 */
export const suiteRecords = (): CrosscheckRecord[] => [
  coherence({ task: 'sum', model: 'alpha', incoherence: 0, error: 0 }),
  coherence({ task: 'max', model: 'alpha', incoherence: 0, error: 0 }),
  coherence({ task: 'sort', model: 'alpha', incoherence: 0, error: 0, file: 'b.spec.ts' }),
  coherence({ task: 'sum', model: 'beta', incoherence: 0.4, error: 0.3, classes: [2 / 3, 1 / 3] }),
  coherence({ task: 'max', model: 'beta', incoherence: 0, error: 0 }),
  coherence({ task: 'sort', model: 'beta', incoherence: 0, error: 0, file: 'b.spec.ts' }),
  coherence({ task: 'sum', model: 'gamma', incoherence: 0, error: 0.5 }),
  coherence({ task: 'max', model: 'gamma', incoherence: 0.2, error: 0.6, classes: [0.5, 0.5], pass: false }),
  coherence({ task: 'sort', model: 'gamma', incoherence: 0, error: 0, file: 'b.spec.ts' }),
  detection({ task: 'max', model: 'gamma', verdict: 'incoherent' }),
];
