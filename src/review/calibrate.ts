import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import { type Confusion, confusion, mcc, p4 } from '../stats/index.ts';

/** A reviewed program with known truth: its review score (null when inconclusive) and whether it is correct. @public */
export interface CalibrationItem {
  readonly score: number | null;
  readonly correct: boolean;
}

/**
 * A threshold τ chosen on a labelled sample, and what it was chosen at. Pass it as
 * `threshold` to `review`, `reviewPool` or `toPassGroundedReview`: the review then uses
 * `threshold` and its record says how τ was calibrated.
 * @public
 */
export interface ThresholdCalibration {
  readonly kind: 'threshold-calibration';
  readonly threshold: number;
  readonly metric: 'mcc' | 'p4';
  /** The metric at `threshold` on the calibration sample (undefined figures count as 0). */
  readonly value: number;
  readonly programs: number;
  readonly correct: number;
  readonly incorrect: number;
  /** Every threshold tried, ascending, with its metric and confusion matrix. */
  readonly table: ReadonlyArray<{
    readonly threshold: number;
    readonly value: number;
    readonly confusion: Confusion;
  }>;
  /** Set when the sample is too small for τ to transfer (fewer than 30 programs). */
  readonly warning: string | null;
}

/** The paper's candidate thresholds, tried besides every score seen. */
const PAPER_THRESHOLDS = [0.6, 0.7, 0.8];

/** Fewer programs than this make a calibrated τ fragile (the warning says so). @public */
export const CALIBRATION_MINIMUM = 30;

const WHERE = 'calibrateThreshold(items, { metric })';
const CALIBRATE_KEYS = knownKeys<{ metric?: 'mcc' | 'p4' }>({ metric: true });

/**
 * Chooses τ on labelled programs: tries every distinct score and 0.6, 0.7 and 0.8, labels a
 * program "correct" when its score reaches τ (an inconclusive review, score null, never does),
 * and keeps the τ with the best MCC or P4 (ties: the higher τ, the stricter). Undefined figures
 * (a zero row or column of the confusion matrix) count as 0.
 * @public
 */
export const calibrateThreshold = (
  items: readonly CalibrationItem[],
  options: { readonly metric?: 'mcc' | 'p4' } = {},
): ThresholdCalibration => {
  if (typeof options !== 'object' || options === null)
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: options must be an object, got ${describeValue(options)}. Pass e.g. { metric: 'mcc' }.`,
      {
        where: WHERE,
      },
    );
  checkKeys({ where: WHERE }, options, CALIBRATE_KEYS);
  const metric = options.metric ?? 'mcc';
  if (metric !== 'mcc' && metric !== 'p4')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`metric\` must be 'mcc' or 'p4', got ${describeValue(metric)}.`,
      {
        where: WHERE,
      },
    );
  if (!Array.isArray(items) || items.length === 0)
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${WHERE}: expected a non-empty array of { score, correct }, got ${describeValue(items)}. Review programs whose truth you know (for example with benchReview) and pass their scores.`,
      { where: WHERE },
    );
  items.forEach((it, i) => {
    const ok =
      typeof it === 'object' &&
      it !== null &&
      typeof it.correct === 'boolean' &&
      (it.score === null || (typeof it.score === 'number' && it.score >= 0 && it.score <= 1));
    if (!ok)
      throw new CrosscheckError(
        'INVALID_INPUT',
        `${WHERE}: item ${i} must be { score: number in [0, 1] or null, correct: boolean }, got ${describeValue(it)}.`,
        { where: WHERE },
      );
  });
  const correct = items.filter((x) => x.correct).length;
  const incorrect = items.length - correct;
  if (correct === 0 || incorrect === 0)
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${WHERE}: the sample has ${correct} correct and ${incorrect} incorrect programs; a threshold can only be calibrated on both. Add programs of the missing kind.`,
      { where: WHERE },
    );
  const scores = items.flatMap((x) => (x.score === null ? [] : [x.score]));
  const candidates = [...new Set([...scores, ...PAPER_THRESHOLDS])].sort((a, b) => a - b);
  const table = candidates.map((threshold) => {
    const c = confusion(
      items.map((x) => ({ truth: x.correct, label: x.score !== null && x.score >= threshold })),
    );
    return { threshold, value: (metric === 'mcc' ? mcc(c) : p4(c)) ?? 0, confusion: c };
  });
  let best = table[0] as (typeof table)[number];
  for (const row of table) if (row.value >= best.value) best = row;
  return {
    kind: 'threshold-calibration',
    threshold: best.threshold,
    metric,
    value: best.value,
    programs: items.length,
    correct,
    incorrect,
    table,
    warning:
      items.length < CALIBRATION_MINIMUM
        ? `calibrated on ${items.length} programs (fewer than ${CALIBRATION_MINIMUM}): τ may not carry over to new tasks`
        : null,
  };
};

/** Whether a value is a {@link ThresholdCalibration}. @internal */
export const isCalibration = (x: unknown): x is ThresholdCalibration =>
  typeof x === 'object' &&
  x !== null &&
  (x as { kind?: unknown }).kind === 'threshold-calibration' &&
  typeof (x as { threshold?: unknown }).threshold === 'number';
