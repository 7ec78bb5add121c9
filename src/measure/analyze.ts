import { describeOutcome, type Outcome } from '../exec/index.ts';
import { adaptiveInterval, entropy, hoeffdingInterval, type Interval } from '../stats/index.ts';
import type { Comparator } from '../values/index.ts';
import {
  type Cell,
  CellCache,
  type CellRules,
  counts,
  pairCounts,
  provenApart,
  relate,
} from './agreement.ts';
import type { Estimator } from './options.ts';
import { seededRandom } from './rng.ts';

/**
 * Candidates with the same outcome on every input. A candidate with an unknown outcome (timeout,
 * crash) on some input never joins a class: what it would have returned is not known, so it is
 * alone in its class, marked `unknown`. @public
 */
export interface EquivalenceClass {
  /** Indexes of the candidates, in input order. */
  readonly members: readonly number[];
  readonly labels: readonly string[];
  /** members / m. */
  readonly share: number;
  /** The (single) member has unknown outcomes, so it was not classified with anyone. */
  readonly unknown: boolean;
}

/** Timeouts and crashes, and how they counted (see `MeasureOptions.unknown`). @public */
export interface UnknownCounts {
  /** Candidate cells with a timeout or crash outcome. */
  readonly cells: number;
  readonly timeouts: number;
  readonly crashes: number;
  /** Per candidate (in candidate order): its cells with a timeout or crash outcome. */
  readonly perCandidate: readonly number[];
  /** Reference cells with a timeout or crash: the error on those inputs is bracketed by [0, 1]. */
  readonly referenceCells: number;
  /** Inputs left out of the incoherence estimate: fewer than two counted candidate outcomes. */
  readonly inputs: number;
}

/** Per candidate: whether it ever returned a value, and its first load failure. @public */
export interface CandidateRan {
  /** Returned a value (not an exception, timeout or crash) on at least one input. */
  readonly returned: boolean;
  /** The first load failure (`CompileError: …`, `EntryNotFound: …`), or null. */
  readonly loadProblem: string | null;
  /** The first outcome that was not a value, described; null when it always returned. */
  readonly firstProblem: string | null;
}

/**
 * Reads outcome matrices chunk by chunk and keeps only what the measures need: per-input numbers
 * and, per candidate, the id of its agreement group on each input. Outputs themselves are
 * dropped with their chunk, so memory does not grow with n × m × output size. Every per-input
 * number is computed in {@link Accumulator.add}, the one loop over inputs.
 * @internal
 */
export class Accumulator {
  /**
   * Per input: disagreement d_j in [0, 1] (with `paired`: the share of its draws whose random
   * pair disagreed), or null with fewer than two counted outcomes or no draw for incoherence.
   */
  readonly disagreement: (number | null)[] = [];
  /**
   * Per input: as `disagreement`, counting only the pairs that disagree beyond the equality's
   * tolerance ({@link provenApart}), where at least one of the two is wrong whatever the truth.
   * I ≤ 2E holds for this share input by input; for `disagreement` only when the equality is an
   * equivalence relation (no float tolerance in play). Null where `disagreement` is.
   */
  readonly provenDisagreement: (number | null)[] = [];
  /** Per input: the i.i.d. draws of the Gen it stands for in the incoherence estimate. */
  readonly weights: number[] = [];
  /** Per input: the draws it stands for in the error estimate (the same, unless given apart). */
  readonly errorWeights: number[] = [];
  /** Per input: whether any two counted candidate outcomes disagree. */
  readonly disagrees: boolean[] = [];
  /**
   * Per input: the share e_j of counted candidate cells disagreeing with the reference (with
   * `paired`: the share of its draws whose one random candidate did), or null where the
   * reference did not return (or no cell counted).
   */
  readonly errorShare: (number | null)[] = [];
  /**
   * Per input: the least and greatest e_j the evidence allows. Equal to `errorShare` where the
   * reference returned; 0 and 1 where it did not (its output there is not known) unless unknown
   * cells are excluded, then null.
   */
  readonly errorLow: (number | null)[] = [];
  readonly errorHigh: (number | null)[] = [];
  /** Per candidate: draws on which it disagrees with the reference, and draws compared. */
  readonly perCandidate: Array<{ wrong: number; known: number }>;
  /** Per candidate, per input: its agreement group on that input (-1: unknown). */
  readonly groups: number[][];
  /** CPU time spent turning outcomes into cells, and on the analysis of the cells (for profiles). */
  readonly cpuMs = { cells: 0, analysis: 0 };
  readonly #rules: CellRules;
  readonly #estimator: Estimator;
  readonly #random: () => number;
  readonly #unknownPer: number[];
  readonly #ran: Array<{ returned: boolean; loadProblem: string | null; firstProblem: string | null }>;
  #timeouts = 0;
  #crashes = 0;
  #referenceUnknown = 0;
  #unknownInputs = 0;

  // Scratch arrays reused from one input to the next: the per-input loops below allocate none.
  readonly #counted: Cell[] = [];
  readonly #reps: Cell[] = [];
  readonly #isWrong: boolean[] = [];

  /** relate() of the input being analysed, memoised. */
  readonly #memo: RelateMemo;

  /** Cells shared beyond one chunk (given), or null: then each chunk prepares its own. */
  readonly #cells: CellCache | null;

  /**
   * `cells`: a cache that outlives one chunk, shared with other accumulators that read the same
   * outcomes under the same rules (the benchmark's models on one task's matrix).
   */
  constructor(m: number, rules: CellRules, estimator: Estimator, seed: number, cells?: CellCache) {
    if (cells !== undefined && !cells.serves(rules))
      throw new Error('Accumulator: a cell cache of other rules');
    this.#cells = cells ?? null;
    this.perCandidate = Array.from({ length: m }, () => ({ wrong: 0, known: 0 }));
    this.groups = Array.from({ length: m }, () => []);
    this.#unknownPer = Array.from({ length: m }, () => 0);
    this.#ran = Array.from({ length: m }, () => ({ returned: false, loadProblem: null, firstProblem: null }));
    this.#rules = rules;
    this.#memo = new RelateMemo(rules.compare);
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
    const rules = this.#rules;
    const m = matrix.outcomes.length;
    const count = matrix.inputs.length;
    // Two passes, timed apart for the benchmark's breakdown: outcomes to cells (parsing and
    // canonical keys), then the per-input analysis over the cells.
    const t0 = process.cpuUsage();
    // A cell is a pure function of its outcome, and runs share one outcome object per distinct
    // output (see `textOutcomes`): each distinct output is prepared once per chunk, or once for
    // all who share the given cache.
    const prepared = this.#cells ?? new CellCache(rules);
    const cells: Cell[][] = new Array(m);
    for (let i = 0; i < m; i++) {
      const row = matrix.outcomes[i] as readonly Outcome[];
      const out: Cell[] = new Array(count);
      for (let j = 0; j < count; j++) {
        const o = row[j] as Outcome;
        const cell = prepared.cell(o);
        out[j] = cell;
        this.#note(i, o, cell);
      }
      cells[i] = out;
    }
    const t1 = process.cpuUsage();
    const column: Cell[] = new Array(m);
    const counted = this.#counted;
    const memo = this.#memo;
    for (let j = 0; j < count; j++) {
      for (let i = 0; i < m; i++) column[i] = (cells[i] as Cell[])[j] as Cell;
      const w = matrix.weights?.[j] ?? 1;
      const we = matrix.errorWeights?.[j] ?? w;
      this.weights.push(w);
      this.errorWeights.push(we);
      counted.length = 0;
      for (let i = 0; i < m; i++)
        if (counts(column[i] as Cell, rules.unknown)) counted.push(column[i] as Cell);
      memo.reset();
      const { agree, total } = pairCounts(column, rules, memo.relate);
      this.disagrees.push(agree < total);
      const compare = rules.compare;
      if (total === 0) {
        this.#unknownInputs++;
        this.disagreement.push(null);
        this.provenDisagreement.push(null);
      } else if (w === 0) {
        this.disagreement.push(null);
        this.provenDisagreement.push(null);
      } else if (this.#estimator === 'all-pairs') {
        this.disagreement.push(1 - agree / total);
        // The same pairs and total, a pair counting as disagreeing only when proven apart.
        const proven =
          agree === total
            ? total
            : pairCounts(column, rules, (a, b) => {
                const r = memo.relate(a, b);
                return r === false ? !provenApart(a, b, compare) : r;
              }).agree;
        this.provenDisagreement.push(1 - proven / total);
      } else {
        // One independent random pair per draw: an input drawn w times is w observations. A
        // pair left undecided (outputs kept only as digests under a tolerance) is no observation.
        let hits = 0;
        let provenHits = 0;
        let decided = 0;
        for (let k = 0; k < w; k++) {
          const pair = randomPair(counted, this.#random);
          const r = memo.relate(pair[0], pair[1]);
          if (r === null) continue;
          decided++;
          if (!r) {
            hits++;
            if (provenApart(pair[0], pair[1], compare)) provenHits++;
          }
        }
        this.disagreement.push(decided === 0 ? null : hits / decided);
        this.provenDisagreement.push(decided === 0 ? null : provenHits / decided);
      }
      this.#group(column);
      this.#error(column, matrix.reference?.outcomes[j], we, prepared);
    }
    const t2 = process.cpuUsage();
    this.cpuMs.cells += (t1.user + t1.system - t0.user - t0.system) / 1000;
    this.cpuMs.analysis += (t2.user + t2.system - t1.user - t1.system) / 1000;
  }

  /** Counts the unknown outcomes and remembers whether each candidate ever ran. */
  #note(i: number, o: Outcome, cell: Cell): void {
    if (o.kind === 'timeout') this.#timeouts++;
    else if (o.kind === 'crash') this.#crashes++;
    if (cell.status === 'unknown') (this.#unknownPer[i] as number)++;
    const ran = this.#ran[i] as {
      returned: boolean;
      loadProblem: string | null;
      firstProblem: string | null;
    };
    if (cell.returned) ran.returned = true;
    else if (ran.firstProblem === null) ran.firstProblem = describeOutcome(o);
    if (cell.status === 'failed' && ran.loadProblem === null) ran.loadProblem = describeOutcome(o);
  }

  /**
   * Error of one input against the reference, counted `we` times (its draws for the error): a
   * counted cell that does not agree is wrong; a cell undecided against it (a digest under a
   * tolerance) is no evidence either way.
   */
  #error(column: readonly Cell[], refOutcome: Outcome | undefined, we: number, cells: CellCache): void {
    const ref = refOutcome ? cells.cell(refOutcome) : null;
    const exclude = this.#rules.unknown === 'exclude';
    if (ref && ref.status !== 'known') {
      this.#referenceUnknown++;
      this.errorShare.push(null);
      // The reference's output exists but was not seen: any share of wrong cells is possible.
      this.errorLow.push(exclude || we === 0 ? null : 0);
      this.errorHigh.push(exclude || we === 0 ? null : 1);
      return;
    }
    if (!ref) {
      this.errorShare.push(null);
      this.errorLow.push(null);
      this.errorHigh.push(null);
      return;
    }
    let wrong = 0;
    let known = 0;
    const isWrong = this.#isWrong;
    isWrong.length = 0;
    const relate = this.#memo.relate;
    const policy = this.#rules.unknown;
    for (let i = 0; i < column.length; i++) {
      const cell = column[i] as Cell;
      if (!counts(cell, policy)) continue;
      const agrees = relate(cell, ref);
      if (agrees === null) continue;
      known++;
      isWrong.push(!agrees);
      const stats = this.perCandidate[i] as { wrong: number; known: number };
      stats.known += we;
      if (!agrees) {
        wrong++;
        stats.wrong += we;
      }
    }
    let e: number | null;
    if (known === 0 || we === 0) e = null;
    else if (this.#estimator === 'all-pairs') e = wrong / known;
    else {
      // The paper's error: one uniformly random counted candidate per draw.
      let hits = 0;
      for (let k = 0; k < we; k++) if (isWrong[Math.floor(this.#random() * known)]) hits++;
      e = hits / we;
    }
    this.errorShare.push(e);
    this.errorLow.push(e);
    this.errorHigh.push(e);
  }

  /**
   * Greedy agreement groups of one input: each known cell joins the first group it agrees with;
   * a failed cell is a group of its own (it agrees with nothing); an unknown cell has none (-1).
   */
  #group(column: readonly Cell[]): void {
    const reps = this.#reps;
    reps.length = 0;
    const relate = this.#memo.relate;
    for (let i = 0; i < column.length; i++) {
      const cell = column[i] as Cell;
      let id = -1;
      if (cell.status === 'known') {
        let undecided = false;
        for (let g = 0; g < reps.length; g++) {
          const r = relate(reps[g] as Cell, cell);
          if (r === true) {
            id = g;
            break;
          }
          if (r === null) undecided = true;
        }
        // Undecided against some group (a digest): its group is not known (-1), like a hang's.
        if (id < 0 && !undecided) id = reps.push(cell) - 1;
      } else if (cell.status === 'failed') {
        id = reps.push(cell) - 1;
      }
      (this.groups[i] as number[]).push(id);
    }
  }

  get unknown(): UnknownCounts {
    return {
      cells: this.#timeouts + this.#crashes,
      timeouts: this.#timeouts,
      crashes: this.#crashes,
      perCandidate: [...this.#unknownPer],
      referenceCells: this.#referenceUnknown,
      inputs: this.#unknownInputs,
    };
  }

  /** Per candidate: whether it ever returned a value, and its load failure if any. */
  get ran(): readonly CandidateRan[] {
    return this.#ran.map((r) => ({ ...r }));
  }
}

/**
 * {@link relate} within one input's column, each ordered pair of cells holding values compared
 * once: the pair counts, the groups, the random pairs and the error ask about the same few
 * outputs again and again, and comparing two values (a tolerance in difftrust) is the costly
 * case. Cheap cases go straight to `relate`. Cleared for each input.
 */
class RelateMemo {
  readonly #compare: Comparator;
  readonly #a: Cell[] = [];
  readonly #b: Cell[] = [];
  readonly #r: (boolean | null)[] = [];

  constructor(compare: Comparator) {
    this.#compare = compare;
  }

  reset(): void {
    this.#a.length = 0;
    this.#b.length = 0;
    this.#r.length = 0;
  }

  readonly relate = (x: Cell, y: Cell): boolean | null => {
    if (x.value === null || y.value === null || x.key === y.key) return relate(x, y, this.#compare);
    const a = this.#a;
    const b = this.#b;
    for (let i = 0; i < a.length; i++) if (a[i] === x && b[i] === y) return this.#r[i] as boolean | null;
    const r = relate(x, y, this.#compare);
    a.push(x);
    b.push(y);
    this.#r.push(r);
    return r;
  };
}

/** The paper's estimator: one uniformly random pair of distinct counted candidates. */
const randomPair = (counted: readonly Cell[], random: () => number): [Cell, Cell] => {
  const a = Math.floor(random() * counted.length);
  let b = Math.floor(random() * (counted.length - 1));
  if (b >= a) b++;
  return [counted[a] as Cell, counted[b] as Cell];
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

/**
 * Equivalence classes of candidates by outcome vector: candidates whose group ids are equal on
 * every input. A vector with an unknown entry never joins a class, so neither the order of the
 * candidates nor a hang can make a majority.
 */
export const equivalenceClasses = (
  groups: readonly (readonly number[])[],
  labels: readonly string[],
): EquivalenceClass[] => {
  const m = groups.length;
  const byVector = new Map<string, number[]>();
  const alone: number[][] = [];
  groups.forEach((vector, i) => {
    if (vector.some((g) => g < 0)) {
      alone.push([i]);
      return;
    }
    const key = vector.join(',');
    const members = byVector.get(key);
    if (members) members.push(i);
    else byVector.set(key, [i]);
  });
  const classes = [...[...byVector.values()].map((members) => ({ members, unknown: false }))];
  for (const members of alone) classes.push({ members, unknown: true });
  return classes
    .sort(
      (a, b) =>
        b.members.length - a.members.length ||
        Number(a.unknown) - Number(b.unknown) ||
        (a.members[0] as number) - (b.members[0] as number),
    )
    .map(({ members, unknown }) => ({
      members,
      labels: members.map((i) => labels[i] ?? `#${i}`),
      share: m === 0 ? 0 : members.length / m,
      unknown,
    }));
};

/** Semantic entropy (nats) of the class sizes. */
export const semanticEntropy = (classes: readonly EquivalenceClass[]): number =>
  entropy(classes.map((c) => c.members.length));

/**
 * Theorem 4.1 (I ≤ 2E): E ≥ max(0, Î′ − ε′) / 2, Î′ ± ε′ being the incoherence counted only on
 * pairs proven apart (beyond the equality's tolerance), and never above the error's upper end
 * when a reference gives one. Input by input, pairs proven apart number at most 2·m·e_j of
 * m(m − 1)/2 (each has a wrong cell), so the bound is below Ê; the clamp keeps two intervals at
 * 1 − δ each from reading as a contradiction (and covers `unknown: 'exclude'`, where the two
 * count different cells). Null without an incoherence interval.
 */
export const errorLowerBoundOf = (proven: Interval | null, error: Interval | null): number | null => {
  if (proven === null) return null;
  const bound = Math.max(0, proven.estimate - proven.epsilon) / 2;
  return error === null ? bound : Math.min(bound, error.upper);
};

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
