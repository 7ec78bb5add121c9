import type { Outcome } from '../exec/outcome.ts';
import { adaptiveInterval, entropy, hoeffdingInterval, type Interval } from '../stats/index.ts';
import type { Comparator } from '../values/index.ts';
import { type Cell, type CellRules, cellsAgree, pairCounts, relate, toCell } from './cells.ts';
import type { Estimator } from './options.ts';
import { seededRandom } from './rng.ts';

/** Candidates with the same outcome on every input (unknown cells match anything). @public */
export interface EquivalenceClass {
  /** Indexes of the candidates, in input order. */
  readonly members: readonly number[];
  readonly labels: readonly string[];
  /** members / m. */
  readonly share: number;
}

/** Timeouts and crashes: excluded from every count, reported here. @public */
export interface UnknownCounts {
  /** Candidate cells with a timeout or crash outcome. */
  readonly cells: number;
  readonly timeouts: number;
  readonly crashes: number;
  /** Reference cells with a timeout or crash (those inputs leave the error estimate). */
  readonly referenceCells: number;
  /** Inputs left out of the incoherence estimate: fewer than two known candidate outcomes. */
  readonly inputs: number;
}

/**
 * Reads outcome matrices chunk by chunk and keeps only what the measures need: per-input numbers
 * and, per candidate, the id of its agreement group on each input. Outputs themselves are
 * dropped with their chunk, so memory does not grow with n × m × output size.
 * @internal
 */
export class Accumulator {
  /**
   * Per input: disagreement d_j in [0, 1] (with `paired`: the share of its draws whose random
   * pair disagreed), or null with fewer than two known outcomes or no draw for incoherence.
   */
  readonly disagreement: (number | null)[] = [];
  /** Per input: the i.i.d. draws of the Gen it stands for in the incoherence estimate. */
  readonly weights: number[] = [];
  /** Per input: the draws it stands for in the error estimate (the same, unless given apart). */
  readonly errorWeights: number[] = [];
  /** Per input: whether any two known candidate outcomes disagree. */
  readonly disagrees: boolean[] = [];
  /**
   * Per input: the share e_j of known candidate cells disagreeing with the reference (with
   * `paired`: the share of its draws whose one random candidate did), or null.
   */
  readonly errorShare: (number | null)[] = [];
  /** Per candidate: draws on which it disagrees with the reference, and draws with both known. */
  readonly perCandidate: Array<{ wrong: number; known: number }>;
  /** Per candidate, per input: its agreement group on that input (-1: unknown). */
  readonly groups: number[][];
  readonly #rules: CellRules;
  readonly #estimator: Estimator;
  readonly #random: () => number;
  #timeouts = 0;
  #crashes = 0;
  #referenceUnknown = 0;
  #unknownInputs = 0;

  constructor(m: number, rules: CellRules, estimator: Estimator, seed: number) {
    this.perCandidate = Array.from({ length: m }, () => ({ wrong: 0, known: 0 }));
    this.groups = Array.from({ length: m }, () => []);
    this.#rules = rules;
    this.#estimator = estimator;
    this.#random = seededRandom(seed);
  }

  /**
   * Adds the inputs of one chunk of the run: `outcomes[i][j]`, and the reference's. `weights[j]`
   * is how many i.i.d. draws input j stands for (default 1); `errorWeights[j]` the same for the
   * error estimate, when it uses draws of its own (the paper's protocol; default `weights`).
   */
  add(matrix: {
    readonly inputs: readonly unknown[];
    readonly outcomes: readonly (readonly Outcome[])[];
    readonly reference: { readonly outcomes: readonly Outcome[] } | null;
    readonly weights?: readonly number[];
    readonly errorWeights?: readonly number[];
  }): void {
    const compare = this.#rules.compare;
    const m = matrix.outcomes.length;
    for (const row of matrix.outcomes)
      for (const o of row) {
        if (o.kind === 'timeout') this.#timeouts++;
        else if (o.kind === 'crash') this.#crashes++;
      }
    const column: Cell[] = new Array(m);
    for (let j = 0; j < matrix.inputs.length; j++) {
      for (let i = 0; i < m; i++) column[i] = toCell(matrix.outcomes[i]?.[j] as never, this.#rules);
      const w = matrix.weights?.[j] ?? 1;
      const we = matrix.errorWeights?.[j] ?? w;
      this.weights.push(w);
      this.errorWeights.push(we);
      const { agree, total } = pairCounts(column, compare);
      this.disagrees.push(agree < total);
      if (total === 0) {
        this.#unknownInputs++;
        this.disagreement.push(null);
      } else if (w === 0) {
        this.disagreement.push(null);
      } else if (this.#estimator === 'all-pairs') {
        this.disagreement.push(1 - agree / total);
      } else {
        // One independent random pair per draw: an input drawn w times is w observations. A
        // pair left undecided (outputs kept only as digests under a tolerance) is no observation.
        let hits = 0;
        let decided = 0;
        for (let k = 0; k < w; k++) {
          const r = randomPairDisagrees(column, compare, this.#random);
          if (r === null) continue;
          decided++;
          if (r) hits++;
        }
        this.disagreement.push(decided === 0 ? null : hits / decided);
      }
      this.#group(column);
      const refOutcome = matrix.reference?.outcomes[j];
      const ref = refOutcome ? toCell(refOutcome, this.#rules) : null;
      if (ref?.key === null) this.#referenceUnknown++;
      if (!ref || ref.key === null) {
        this.errorShare.push(null);
        continue;
      }
      let wrong = 0;
      let known = 0;
      const isWrong: boolean[] = [];
      column.forEach((cell, i) => {
        if (cell.key === null) return;
        // Undecided against the reference (a digest under a tolerance): not evidence either way.
        const agrees = relate(cell, ref, compare);
        if (agrees === null) return;
        known++;
        const bad = !agrees;
        isWrong.push(bad);
        const stats = this.perCandidate[i] as { wrong: number; known: number };
        stats.known += we;
        if (bad) {
          wrong++;
          stats.wrong += we;
        }
      });
      if (known === 0 || we === 0) this.errorShare.push(null);
      else if (this.#estimator === 'all-pairs') this.errorShare.push(wrong / known);
      else {
        // The paper's error: one uniformly random (known) candidate per draw.
        let hits = 0;
        for (let k = 0; k < we; k++) if (isWrong[Math.floor(this.#random() * known)]) hits++;
        this.errorShare.push(hits / we);
      }
    }
  }

  /** Greedy agreement groups of one input: each candidate joins the first group it agrees with. */
  #group(column: readonly Cell[]): void {
    const reps: Cell[] = [];
    column.forEach((cell, i) => {
      let id = -1;
      if (cell.key !== null) {
        id = reps.findIndex((r) => cellsAgree(r, cell, this.#rules.compare));
        // Undecided against some group (a digest): its group is unknown, which matches anything.
        if (id < 0 && !reps.some((r) => relate(r, cell, this.#rules.compare) === null))
          id = reps.push(cell) - 1;
      }
      (this.groups[i] as number[]).push(id);
    });
  }

  get unknown(): UnknownCounts {
    return {
      cells: this.#timeouts + this.#crashes,
      timeouts: this.#timeouts,
      crashes: this.#crashes,
      referenceCells: this.#referenceUnknown,
      inputs: this.#unknownInputs,
    };
  }
}

/** The paper's estimator: one uniformly random pair of distinct known candidates (null: undecided). */
const randomPairDisagrees = (
  column: readonly Cell[],
  compare: Comparator,
  random: () => number,
): boolean | null => {
  const known = column.filter((c) => c.key !== null);
  const a = Math.floor(random() * known.length);
  let b = Math.floor(random() * (known.length - 1));
  if (b >= a) b++;
  const r = relate(known[a] as Cell, known[b] as Cell, compare);
  return r === null ? null : !r;
};

/**
 * Mean of the non-null values, each counted `weights[j]` times (the draws it stands for; 1 each
 * by default), how many draws that was, and their sample variance (unbiased; 0 below 2 draws).
 */
export const meanOf = (
  xs: readonly (number | null)[],
  weights?: readonly number[],
): { mean: number; n: number; variance: number } => {
  let sum = 0;
  let n = 0;
  xs.forEach((x, j) => {
    if (x === null) return;
    const w = weights?.[j] ?? 1;
    sum += x * w;
    n += w;
  });
  const mean = n === 0 ? 0 : sum / n;
  let squares = 0;
  xs.forEach((x, j) => {
    if (x !== null) squares += (weights?.[j] ?? 1) * (x - mean) ** 2;
  });
  return { mean, n, variance: n < 2 ? 0 : squares / (n - 1) };
};

/** Whether two candidates' group vectors agree wherever both are known. */
const compatible = (a: readonly number[], b: readonly number[]): boolean =>
  a.every((g, j) => g < 0 || (b[j] as number) < 0 || g === b[j]);

/**
 * Equivalence classes of candidates by outcome vector. Identical vectors group by key first;
 * groups then merge greedily when they agree on every input where both are known (unknown cells
 * match anything), largest class first.
 */
export const equivalenceClasses = (
  groups: readonly (readonly number[])[],
  labels: readonly string[],
): EquivalenceClass[] => {
  const m = groups.length;
  const byVector = new Map<string, number[]>();
  groups.forEach((vector, i) => {
    const key = vector.join(',');
    const members = byVector.get(key);
    if (members) members.push(i);
    else byVector.set(key, [i]);
  });
  const classes: number[][] = [];
  for (const members of byVector.values()) {
    const vector = groups[members[0] as number] as number[];
    const home = classes.find((c) => compatible(vector, groups[c[0] as number] as number[]));
    if (home) home.push(...members);
    else classes.push([...members]);
  }
  return classes
    .map((members) => members.sort((a, b) => a - b))
    .sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number))
    .map((members) => ({
      members,
      labels: members.map((i) => labels[i] ?? `#${i}`),
      share: m === 0 ? 0 : members.length / m,
    }));
};

/** Semantic entropy (nats) of the class sizes. */
export const semanticEntropy = (classes: readonly EquivalenceClass[]): number =>
  entropy(classes.map((c) => c.members.length));

/**
 * The interval `measure` states for a mean of per-draw values at confidence 1 − δ. All-pairs:
 * each draw's value is a fixed function of the input (every pair, every candidate) and varies
 * less than a 0/1 pair (not at all in a coherent pool), so the variance-adaptive interval
 * applies (Hoeffding at 0.8 δ ∩ empirical Bernstein at 0.2 δ, see `adaptiveInterval`). Paired:
 * Hoeffding, since an input's several draws each have their own random pair and the per-input
 * averages do not give the per-draw variance.
 */
export const intervalOf = (
  estimator: Estimator,
  s: { readonly mean: number; readonly n: number; readonly variance: number },
  delta: number,
): Interval =>
  estimator === 'all-pairs'
    ? adaptiveInterval(s.mean, s.variance, s.n, delta)
    : hoeffdingInterval(s.mean, s.n, delta);
