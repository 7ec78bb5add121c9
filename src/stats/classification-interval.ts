/**
 * Intervals for a reviewer's MCC and P4 over a labelled sample of programs: a percentile
 * bootstrap that resamples programs (each with all its reruns), refused below a documented size
 * where a handful of programs would make any figure, and any ranking of reviewers, noise.
 */
import { type Confusion, mcc, p4 } from './classification.ts';
import { mulberry32 } from './mulberry32.ts';

/** A program with known truth and the labels its reruns gave it (`true`: "correct"). @public */
export interface LabelledProgram {
  readonly truth: boolean;
  readonly labels: readonly boolean[];
}

/** MCC or P4 with its bootstrap interval, or the reason no interval is given. @public */
export interface ClassificationInterval {
  readonly metric: 'mcc' | 'p4';
  /** On every rerun pooled; an undefined figure (a zero row or column) counts as 0. */
  readonly value: number;
  /** Percentile-bootstrap bounds at `confidence`; null when `refused`. */
  readonly low: number | null;
  readonly high: number | null;
  readonly confidence: number;
  readonly programs: number;
  readonly correct: number;
  readonly incorrect: number;
  /** Why there is no interval (too few programs, or too few of one truth); null otherwise. */
  readonly refused: string | null;
}

/** Fewest programs, and fewest of each truth, for which an interval is given. @public */
export const CLASSIFICATION_INTERVAL_MINIMUM = Object.freeze({ programs: 20, perTruth: 5 });

const figure = (metric: 'mcc' | 'p4', c: Confusion): number => (metric === 'mcc' ? mcc(c) : p4(c)) ?? 0;

const uniform = (seed: number): (() => number) => mulberry32(seed);

/**
 * MCC or P4 of a reviewer on labelled programs, pooled over reruns, with a percentile bootstrap
 * interval over programs (`resamples` draws, seeded). Below
 * {@link CLASSIFICATION_INTERVAL_MINIMUM} the interval is refused and `refused` says why.
 * @public
 */
export const classificationInterval = (
  programs: readonly LabelledProgram[],
  metric: 'mcc' | 'p4',
  options: { readonly confidence?: number; readonly resamples?: number; readonly seed?: number } = {},
): ClassificationInterval => {
  const { confidence = 0.95, resamples = 2000, seed = 1 } = options;
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`classificationInterval: \`confidence\` must lie in (0, 1), got ${confidence}.`);
  if (!Number.isInteger(resamples) || resamples < 100)
    throw new RangeError(`classificationInterval: \`resamples\` must be an integer ≥ 100, got ${resamples}.`);
  // Per program: its counts in the four cells, so a resample sums rows.
  const rows = programs.map((p) => {
    let pos = 0;
    for (const l of p.labels) if (l) pos++;
    const neg = p.labels.length - pos;
    return p.truth ? { tp: pos, fn: neg, fp: 0, tn: 0 } : { tp: 0, fn: 0, fp: pos, tn: neg };
  });
  const sum = (pick: (i: number) => number, n: number): Confusion => {
    let tp = 0;
    let fp = 0;
    let tn = 0;
    let fn = 0;
    for (let k = 0; k < n; k++) {
      const r = rows[pick(k)] as Confusion;
      tp += r.tp;
      fp += r.fp;
      tn += r.tn;
      fn += r.fn;
    }
    return { tp, fp, tn, fn };
  };
  const n = rows.length;
  const correct = programs.filter((p) => p.truth).length;
  const incorrect = n - correct;
  const value = figure(
    metric,
    sum((k) => k, n),
  );
  const base = { metric, value, confidence, programs: n, correct, incorrect };
  const { programs: minN, perTruth } = CLASSIFICATION_INTERVAL_MINIMUM;
  if (n < minN || correct < perTruth || incorrect < perTruth) {
    return {
      ...base,
      low: null,
      high: null,
      refused: `${n} programs (${correct} correct, ${incorrect} incorrect): an interval needs at least ${minN} programs with at least ${perTruth} of each truth`,
    };
  }
  const draw = uniform(seed);
  const values = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++)
    values[b] = figure(
      metric,
      sum(() => Math.floor(draw() * n), n),
    );
  values.sort();
  const tail = (1 - confidence) / 2;
  const at = (q: number) => values[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))] as number;
  return { ...base, low: at(tail), high: at(1 - tail), refused: null };
};
