/**
 * The abstention metrics of the semantic-triangulation paper (Fig. 8, §6.2) over the confusion
 * counts N₁…N₅: with a correct sample available, N₁ correctly selected, N₂ incorrectly selected,
 * N₃ abstained; with none, N₄ selected (necessarily wrong), N₅ abstained.
 * @packageDocumentation
 */

/** Confusion counts of selection with abstention. @public */
export interface AbstentionCounts {
  readonly n1: number;
  readonly n2: number;
  readonly n3: number;
  readonly n4: number;
  readonly n5: number;
}

/** The Fig. 8 metrics and the survey's extras; a ratio with a zero denominator is null. @public */
export interface AbstentionMetrics {
  readonly reliableAccuracy: number | null;
  readonly overallAccuracy: number | null;
  readonly abstentionRate: number | null;
  readonly abstentionPrecision: number | null;
  readonly abstentionRecall: number | null;
  readonly abstentionF1: number | null;
  readonly acceptanceRate: number | null;
  readonly benignAnsweringRate: number | null;
  readonly overConservativeness: number | null;
  readonly effectiveReliability: number | null;
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

const checkCounts = (c: AbstentionCounts): void => {
  for (const k of ['n1', 'n2', 'n3', 'n4', 'n5'] as const) {
    const v = c[k];
    if (!Number.isInteger(v) || v < 0) {
      throw new RangeError(`abstentionMetrics: ${k} must be a non-negative integer, got ${String(v)}.`);
    }
  }
};

/**
 * Reliable accuracy N₁/(N₁+N₂+N₄); overall accuracy (N₁+N₅)/N; abstention rate (N₃+N₅)/N;
 * abstention precision N₅/(N₃+N₅), recall N₅/(N₂+N₄+N₅) and their F1; acceptance rate
 * (N₁+N₂+N₄)/N; benign answering rate (N₁+N₂)/(N₁+N₂+N₃); over-conservativeness
 * N₃/(N₁+N₂+N₃); effective reliability (N₁−N₂−N₄)/N.
 * @public
 */
export const abstentionMetrics = (c: AbstentionCounts): AbstentionMetrics => {
  checkCounts(c);
  const { n1, n2, n3, n4, n5 } = c;
  const n = n1 + n2 + n3 + n4 + n5;
  const precision = ratio(n5, n3 + n5);
  const recall = ratio(n5, n2 + n4 + n5);
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return {
    reliableAccuracy: ratio(n1, n1 + n2 + n4),
    overallAccuracy: ratio(n1 + n5, n),
    abstentionRate: ratio(n3 + n5, n),
    abstentionPrecision: precision,
    abstentionRecall: recall,
    abstentionF1: f1,
    acceptanceRate: ratio(n1 + n2 + n4, n),
    benignAnsweringRate: ratio(n1 + n2, n1 + n2 + n3),
    overConservativeness: ratio(n3, n1 + n2 + n3),
    effectiveReliability: n === 0 ? null : (n1 - n2 - n4) / n,
  };
};

/**
 * Which cell a task falls in: `selected` is the chosen sample's index (null: abstained),
 * `correct[i]` whether sample i is correct. A task with no correct sample has ground truth
 * "abstain".
 * @public
 */
export const decision = (
  selected: number | null,
  correct: readonly boolean[],
): 'n1' | 'n2' | 'n3' | 'n4' | 'n5' => {
  const solvable = correct.some(Boolean);
  if (selected === null) return solvable ? 'n3' : 'n5';
  if (!solvable) return 'n4';
  return correct[selected] === true ? 'n1' : 'n2';
};

/** Counts the decisions of a list of tasks. @public */
export const countDecisions = (ds: readonly ('n1' | 'n2' | 'n3' | 'n4' | 'n5')[]): AbstentionCounts => {
  const c = { n1: 0, n2: 0, n3: 0, n4: 0, n5: 0 };
  for (const d of ds) c[d]++;
  return c;
};

/**
 * The identities Fig. 8's metrics obey, checked on the counts and the metrics computed from them
 * (each a string naming a broken identity; empty when all hold): the cells partition the tasks,
 * acceptance + abstention = 1, overall accuracy = reliable accuracy · acceptance + precision ·
 * abstention rate, and F1 lies between min(P, R) and max(P, R).
 * @public
 */
export const abstentionIdentities = (
  c: AbstentionCounts,
  m: AbstentionMetrics = abstentionMetrics(c),
): string[] => {
  const broken: string[] = [];
  const n = c.n1 + c.n2 + c.n3 + c.n4 + c.n5;
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12;
  if (n > 0) {
    if (!close((m.acceptanceRate ?? 0) + (m.abstentionRate ?? 0), 1))
      broken.push('acceptance rate + abstention rate = 1');
    const ra = (m.reliableAccuracy ?? 0) * (m.acceptanceRate ?? 0);
    const ab = (m.abstentionPrecision ?? 0) * (m.abstentionRate ?? 0);
    if (!close(ra + ab, m.overallAccuracy ?? 0))
      broken.push(
        'overall accuracy = reliable accuracy × acceptance + abstention precision × abstention rate',
      );
    if (!close((m.effectiveReliability ?? 0) * n, c.n1 - c.n2 - c.n4))
      broken.push('effective reliability × N = N₁ − N₂ − N₄');
  }
  const { abstentionPrecision: p, abstentionRecall: r, abstentionF1: f } = m;
  if (p !== null && r !== null && f !== null && (f < Math.min(p, r) - 1e-12 || f > Math.max(p, r) + 1e-12))
    broken.push('min(P, R) ≤ F1 ≤ max(P, R)');
  for (const [k, v] of Object.entries(m)) {
    if (v !== null && k !== 'effectiveReliability' && (v < 0 || v > 1)) broken.push(`${k} ∈ [0, 1]`);
  }
  return broken;
};

/**
 * P(p ⊢ d | agree(p, q)) pooled over tasks (RQ1, the authors' `prob_correct_under_agreement`):
 * Σ [p correct]·|W(p)| / Σ |W(p)| over the supports of non-abstaining runs; null with no support.
 * @public
 */
export const probCorrectUnderAgreement = (
  runs: readonly (readonly { readonly support: number }[])[],
  correct: readonly (readonly boolean[])[],
): number | null => {
  let num = 0;
  let den = 0;
  runs.forEach((supports, t) => {
    supports.forEach((s, i) => {
      den += s.support;
      if (correct[t]?.[i]) num += s.support;
    });
  });
  return den === 0 ? null : num / den;
};
