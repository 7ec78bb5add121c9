/**
 * Binary classification figures for a reviewer that labels programs correct or incorrect:
 * the confusion matrix, Matthews' correlation coefficient, P4 and TRAILS's correct stability
 * (RQ3). "Positive" means "correct"; MCC and P4 are symmetric in that choice.
 */

/** A 2×2 confusion matrix; positive = "correct". @public */
export interface Confusion {
  /** Correct programs labelled correct. */
  readonly tp: number;
  /** Incorrect programs labelled correct. */
  readonly fp: number;
  /** Incorrect programs labelled incorrect. */
  readonly tn: number;
  /** Correct programs labelled incorrect. */
  readonly fn: number;
}

const count = (name: string, value: number): number => {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`confusion: \`${name}\` must be a non-negative integer count, got ${value}.`);
  }
  return value;
};

/**
 * Counts a confusion matrix from (truth, label) pairs, `true` meaning "correct".
 * @public
 */
export const confusion = (
  pairs: Iterable<{ readonly truth: boolean; readonly label: boolean }>,
): Confusion => {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const { truth, label } of pairs) {
    if (typeof truth !== 'boolean' || typeof label !== 'boolean') {
      throw new TypeError(
        `confusion: each pair needs boolean \`truth\` and \`label\`, got ${typeof truth} and ${typeof label}.`,
      );
    }
    if (truth && label) tp++;
    else if (!truth && label) fp++;
    else if (!truth && !label) tn++;
    else fn++;
  }
  return { tp, fp, tn, fn };
};

/**
 * Matthews' correlation coefficient, (TP·TN − FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)).
 * 0 when the matrix is degenerate (a zero row or column: a reviewer that always says "correct",
 * or a set of programs that are all correct), the usual convention (scikit-learn's
 * `matthews_corrcoef`): such a labelling carries no information about the truth. With it every
 * rerun has an MCC, so a mean over reruns averages all of them.
 * @public
 */
export const mcc = (c: Confusion): number => {
  const tp = count('tp', c.tp);
  const fp = count('fp', c.fp);
  const tn = count('tn', c.tn);
  const fn = count('fn', c.fn);
  const d = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn);
  if (d === 0) return 0;
  return (tp * tn - fp * fn) / Math.sqrt(d);
};

/**
 * P4 = 4 / (1/precision + 1/recall + 1/specificity + 1/NPV), the harmonic mean of the four rates.
 * 0 when one rate is 0 (every rate lies in [0, 1], so the harmonic mean is 0 whatever value an
 * undefined rate would take), and 0 when a rate is undefined (its denominator is 0: the matrix
 * has a zero row or column), the same convention as {@link mcc}, so every rerun has a P4.
 * @public
 */
export const p4 = (c: Confusion): number => {
  const tp = count('tp', c.tp);
  const fp = count('fp', c.fp);
  const tn = count('tn', c.tn);
  const fn = count('fn', c.fn);
  const rate = (num: number, den: number): number | null => (den === 0 ? null : num / den);
  const rates = [rate(tp, tp + fp), rate(tp, tp + fn), rate(tn, tn + fp), rate(tn, tn + fn)];
  if (rates.some((r) => r === 0 || r === null)) return 0;
  return 4 / (rates as number[]).reduce((s, r) => s + 1 / r, 0);
};

/** Correct stability for one label (see {@link correctStability}). @public */
export interface LabelStability {
  /** Programs whose truth is the label and that every rerun labelled so. */
  readonly stable: number;
  /** Programs, of either truth, that at least one rerun labelled so. */
  readonly reachable: number;
  /** `stable / reachable`; `null` when no rerun ever gave the label. */
  readonly ratio: number | null;
}

/**
 * TRAILS's correct stability (RQ3), per label L ∈ {correct, incorrect}: the programs whose truth
 * is L and that every rerun labels L, divided by the programs (of either truth) that at least one
 * rerun labels L. An always-"correct" reviewer is perfectly stable but scores only the share of
 * correct programs. Programs with no verdicts are ignored.
 * @public
 */
export const correctStability = (
  items: Iterable<{ readonly truth: boolean; readonly verdicts: readonly boolean[] }>,
): { readonly correct: LabelStability; readonly incorrect: LabelStability } => {
  const tally = { correct: { stable: 0, reachable: 0 }, incorrect: { stable: 0, reachable: 0 } };
  for (const { truth, verdicts } of items) {
    if (
      typeof truth !== 'boolean' ||
      !Array.isArray(verdicts) ||
      verdicts.some((v) => typeof v !== 'boolean')
    ) {
      throw new TypeError(
        'correctStability: each item needs a boolean `truth` and an array of boolean `verdicts`.',
      );
    }
    if (verdicts.length === 0) continue;
    for (const label of [true, false]) {
      const t = label ? tally.correct : tally.incorrect;
      if (verdicts.includes(label)) t.reachable++;
      if (truth === label && verdicts.every((v) => v === label)) t.stable++;
    }
  }
  const done = (t: { stable: number; reachable: number }): LabelStability => ({
    ...t,
    ratio: t.reachable === 0 ? null : t.stable / t.reachable,
  });
  return { correct: done(tally.correct), incorrect: done(tally.incorrect) };
};
