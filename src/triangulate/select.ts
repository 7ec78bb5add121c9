/**
 * From agreements to one selection or an abstention (design §1.6; the authors' `selection.py`).
 * @packageDocumentation
 */

/** One forward program's agreements, as selection sees them. @public */
export interface SupportEntry {
  /** Witness ids, with repetitions (propagated through cascades). */
  readonly witnesses: readonly string[];
}

/** A selection, or an abstention. @public */
export type Selection =
  | { readonly kind: 'selected'; readonly index: number; readonly score: number }
  | { readonly kind: 'abstained' };

/** RANSAC scores: group programs by their sorted witness ids; score = |W| × |group|. @public */
export const ransacScores = (entries: readonly SupportEntry[]): { score: number[]; group: number[][] } => {
  const keys = entries.map((e) =>
    e.witnesses.length === 0 ? null : JSON.stringify([...e.witnesses].sort()),
  );
  const groups = new Map<string, number[]>();
  keys.forEach((k, i) => {
    if (k === null) return;
    const g = groups.get(k) ?? [];
    g.push(i);
    groups.set(k, g);
  });
  const group = keys.map((k) => (k === null ? [] : (groups.get(k) as number[])));
  const score = entries.map((e, i) => e.witnesses.length * (group[i] as number[]).length);
  return { score, group };
};

/**
 * RANSAC: abstain iff no program has a witness; otherwise the first program with the largest
 * score (Python's `max` keeps the first).
 * @public
 */
export const ransac = (entries: readonly SupportEntry[]): Selection => {
  const { score } = ransacScores(entries);
  let best = -1;
  score.forEach((s, i) => {
    if (s > 0 && (best < 0 || s > (score[best] as number))) best = i;
  });
  return best < 0 ? { kind: 'abstained' } : { kind: 'selected', index: best, score: score[best] as number };
};

/** MaxWitness: the first program with the most witnesses. @public */
export const maxWitness = (entries: readonly SupportEntry[]): Selection => {
  let best = -1;
  entries.forEach((e, i) => {
    if (
      e.witnesses.length > 0 &&
      (best < 0 || e.witnesses.length > (entries[best] as SupportEntry).witnesses.length)
    )
      best = i;
  });
  return best < 0
    ? { kind: 'abstained' }
    : { kind: 'selected', index: best, score: (entries[best] as SupportEntry).witnesses.length };
};

/** The order in which JUST-TRI-IT combines its schemes. @public */
export const COMBINATION_ORDER = ['enum-sinv', 'fwd-sinv', 'fwd-inv'] as const;

/**
 * JUST-TRI-IT: the first scheme that selects, in the order ENUM-SINV, FWD-SINV, FWD-INV; abstains
 * when all abstain. `results` are keyed by scheme; a missing scheme counts as abstaining.
 * @public
 */
export const combine = (
  results: Partial<Record<(typeof COMBINATION_ORDER)[number], Selection>>,
): Selection & { readonly from: string | null } => {
  for (const scheme of COMBINATION_ORDER) {
    const s = results[scheme];
    if (s?.kind === 'selected') return { ...s, from: scheme };
  }
  return { kind: 'abstained', from: null };
};
