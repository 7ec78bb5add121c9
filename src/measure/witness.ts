import type { Args } from '../contract/index.ts';
import { describeOutcome, type Outcome, type OutcomeKind, run, uniqueLabels } from '../exec/index.ts';
import { compareComplexity, complexity, shrinkWitness } from '../inputs/index.ts';
import { toWire } from '../values/index.ts';
import { type Cell, cellsAgree, cellsDisagree, pairCounts, toCell } from './agreement.ts';
import type { Resolved } from './options.ts';

/** Why an input is a witness. @public */
export type WitnessReason = 'candidates disagree' | 'differs from the reference';

/** Candidates with the same output on the witness. @public */
export interface WitnessOutput {
  readonly labels: readonly string[];
  readonly kind: OutcomeKind;
  /** The outcome, described (`[1,2]`, `ValueError: bad`, `timeout after 1000 ms (call)`). */
  readonly outcome: string;
}

/** A distinguishing input, shrunk, with each class's output on it. @public */
export interface Witness<A extends Args = Args> {
  readonly reason: WitnessReason;
  /** The (shrunk) input. */
  readonly args: A;
  /** The input in the tagged wire form, as text: what to paste to replay. */
  readonly text: string;
  /** The input as first found, before shrinking, and its position among the inputs run. */
  readonly original: { readonly args: A; readonly text: string; readonly index: number };
  /** How shrinking went; null when it was off. */
  readonly shrink: {
    readonly steps: number;
    readonly improvements: number;
    readonly via: 'arbitrary' | 'structural' | 'none';
  } | null;
  /** Candidates grouped by their output on the witness, largest group first. */
  readonly outputs: readonly WitnessOutput[];
  /** The reference's output on the witness, when the task has one. */
  readonly reference: string | null;
  /** Each candidate's outcome on the witness, in candidate order (for diffs of the outputs). */
  readonly outcomes: readonly Outcome[];
  /** The reference's outcome on the witness, when the task has one. */
  readonly referenceOutcome: Outcome | null;
}

const safeWire = (args: Args): string => {
  try {
    return toWire(args);
  } catch {
    return '(cannot be encoded)';
  }
};

/** Whether the cells of one input show the disagreement `reason` names. */
const shows = (reason: WitnessReason, cells: readonly Cell[], ref: Cell | null, r: Resolved): boolean => {
  if (reason === 'candidates disagree') {
    const { agree, total } = pairCounts(cells, r.rules);
    return agree < total;
  }
  if (ref?.status !== 'known') return false;
  return cells.some(
    (c) =>
      (c.status !== 'unknown' || r.rules.unknown !== 'exclude') && cellsDisagree(c, ref, r.rules.compare),
  );
};

/** Least complex of the inputs that show a disagreement, so shrinking starts small. */
export const pickWitness = (inputs: readonly Args[], indexes: readonly number[]): number | null => {
  let best: number | null = null;
  for (const j of indexes) {
    if (best === null || compareComplexity(complexity(inputs[j]), complexity(inputs[best])) < 0) best = j;
  }
  return best;
};

/** Runs every candidate (and the reference) on one input. */
const runOne = async <A extends Args>(r: Resolved<A>, args: A) => {
  const matrix = await run(r.task, r.candidates, [args], { ...r.run, signal: r.signal });
  const outcomes = matrix.outcomes.map((row) => row[0] as Outcome);
  const reference = matrix.reference ? (matrix.reference.outcomes[0] as Outcome) : null;
  return { outcomes, reference };
};

const groupOutputs = (
  outcomes: readonly Outcome[],
  labels: readonly string[],
  r: Resolved,
): WitnessOutput[] => {
  const groups: Array<{ cell: Cell; outcome: Outcome; labels: string[] }> = [];
  outcomes.forEach((o, i) => {
    const cell = toCell(o, r.rules);
    const label = labels[i] ?? `#${i}`;
    const home = groups.find((g) =>
      cell.status !== 'known' || g.cell.status !== 'known'
        ? describeOutcome(g.outcome) === describeOutcome(o)
        : cellsAgree(g.cell, cell, r.rules.compare),
    );
    if (home) home.labels.push(label);
    else groups.push({ cell, outcome: o, labels: [label] });
  });
  return groups
    .sort((a, b) => b.labels.length - a.labels.length)
    .map((g) => ({ labels: g.labels, kind: g.outcome.kind, outcome: describeOutcome(g.outcome) }));
};

/**
 * Shrinks the witness found at input `index` while it keeps showing the disagreement (the inputs
 * helper's `shrinkWitness`: fast-check's shrinker for Gen inputs it recognises, structural
 * otherwise), then runs everyone once more on the result to show each class's output.
 * @internal
 */
export const buildWitness = async <A extends Args>(
  r: Resolved<A>,
  inputs: readonly A[],
  index: number,
  reason: WitnessReason,
): Promise<Witness<A>> => {
  const original = inputs[index] as A;
  // The names the run gives its rows: two pools' `model#0` stay two candidates in a witness.
  const labels = uniqueLabels(r.candidates.map((c) => c.label));
  let args = original;
  let shrink: Witness['shrink'] = null;
  // A witness with a timeout or crash is not shrunk: every step would wait for the hang again.
  const first = await runOne(r, original);
  const hangs = first.outcomes.some((o) => o.kind === 'timeout' || o.kind === 'crash');
  if (r.shrinkSteps > 0 && !hangs) {
    // Where the reference answers the original, a shrunk input must be one it answers too (a
    // valid input of the task), whatever the Gen's own filters say.
    const referenceAnswers = first.reference?.kind === 'value';
    const result = await shrinkWitness(
      r.gen,
      original,
      async (candidate) => {
        const { outcomes, reference } = await runOne(r, candidate);
        if (referenceAnswers && reference?.kind !== 'value') return false;
        const cells = outcomes.map((o) => toCell(o, r.rules));
        return shows(reason, cells, reference ? toCell(reference, r.rules) : null, r);
      },
      { maxSteps: r.shrinkSteps, signal: r.signal },
    );
    args = result.args;
    shrink = { steps: result.steps, improvements: result.improvements, via: result.via };
  }
  const { outcomes, reference } = args === original ? first : await runOne(r, args);
  return {
    reason,
    args,
    text: safeWire(args),
    original: { args: original, text: safeWire(original), index },
    shrink,
    outputs: groupOutputs(outcomes, labels, r),
    reference: reference ? describeOutcome(reference) : null,
    outcomes,
    referenceOutcome: reference,
  };
};
