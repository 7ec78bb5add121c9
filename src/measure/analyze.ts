import type { OutcomeMatrix } from '../exec/run.ts';
import { entropy } from '../stats/index.ts';
import type { Comparator } from '../values/index.ts';
import { type Cell, type CellRules, cellsAgree, pairCounts, toCell } from './cells.ts';
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

/** The matrix as prepared cells, and what the estimators read from it. @internal */
export interface Analysis {
  readonly cells: readonly (readonly Cell[])[];
  readonly referenceCells: readonly Cell[] | null;
  /** Per input: disagreement d_j in [0, 1], or null with fewer than two known outcomes. */
  readonly disagreement: readonly (number | null)[];
  /** Per input: whether any two known candidate outcomes disagree. */
  readonly disagrees: readonly boolean[];
  /** Per input: the share e_j of known candidate cells disagreeing with the reference, or null. */
  readonly errorShare: readonly (number | null)[];
  /** Per candidate: cells disagreeing with the reference, and known cells compared. */
  readonly perCandidate: ReadonlyArray<{ readonly wrong: number; readonly known: number }>;
  readonly unknown: UnknownCounts;
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

/** Prepares every cell once and computes the per-input quantities. @internal */
export const analyze = (
  matrix: OutcomeMatrix,
  rules: CellRules,
  estimator: Estimator,
  seed: number,
): Analysis => {
  const m = matrix.outcomes.length;
  const n = matrix.inputs.length;
  const compare = rules.compare;
  const cells = matrix.outcomes.map((row) => row.map((o) => toCell(o, rules)));
  const referenceCells = matrix.reference ? matrix.reference.outcomes.map((o) => toCell(o, rules)) : null;
  let timeouts = 0;
  let crashes = 0;
  for (const row of matrix.outcomes)
    for (const o of row) {
      if (o.kind === 'timeout') timeouts++;
      else if (o.kind === 'crash') crashes++;
    }
  const random = seededRandom(seed);
  const disagreement: (number | null)[] = [];
  const disagrees: boolean[] = [];
  const errorShare: (number | null)[] = [];
  const perCandidate = cells.map(() => ({ wrong: 0, known: 0 }));
  let unknownInputs = 0;
  const column: Cell[] = new Array(m);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < m; i++) column[i] = (cells[i] as Cell[])[j] as Cell;
    const { agree, total } = pairCounts(column, compare);
    disagrees.push(agree < total);
    if (total === 0) {
      unknownInputs++;
      disagreement.push(null);
    } else if (estimator === 'all-pairs') {
      disagreement.push(1 - agree / total);
    } else {
      disagreement.push(randomPairDisagrees(column, compare, random) ? 1 : 0);
    }
    const ref = referenceCells?.[j];
    if (!ref || ref.key === null) {
      errorShare.push(null);
      continue;
    }
    let wrong = 0;
    let known = 0;
    column.forEach((cell, i) => {
      if (cell.key === null) return;
      known++;
      const stats = perCandidate[i] as { wrong: number; known: number };
      stats.known++;
      if (!cellsAgree(cell, ref, compare)) {
        wrong++;
        stats.wrong++;
      }
    });
    errorShare.push(known === 0 ? null : wrong / known);
  }
  return {
    cells,
    referenceCells,
    disagreement,
    disagrees,
    errorShare,
    perCandidate,
    unknown: {
      cells: timeouts + crashes,
      timeouts,
      crashes,
      referenceCells: referenceCells?.filter((c) => c.key === null).length ?? 0,
      inputs: unknownInputs,
    },
  };
};

/** The paper's estimator: one uniformly random pair of distinct known candidates. */
const randomPairDisagrees = (column: readonly Cell[], compare: Comparator, random: () => number): boolean => {
  const known = column.filter((c) => c.key !== null);
  const a = Math.floor(random() * known.length);
  let b = Math.floor(random() * (known.length - 1));
  if (b >= a) b++;
  return !cellsAgree(known[a] as Cell, known[b] as Cell, compare);
};

/** Mean of the non-null values, and how many there were. */
export const meanOf = (xs: readonly (number | null)[]): { mean: number; n: number } => {
  let sum = 0;
  let n = 0;
  for (const x of xs)
    if (x !== null) {
      sum += x;
      n++;
    }
  return { mean: n === 0 ? 0 : sum / n, n };
};

/**
 * Equivalence classes of candidates by outcome vector. Identical vectors group by key first;
 * groups then merge greedily when their outcomes agree on every input where both are known
 * (tolerant floats, unknown cells), largest class first.
 */
export const equivalenceClasses = (
  analysis: Analysis,
  labels: readonly string[],
  compare: Comparator,
): EquivalenceClass[] => {
  const m = analysis.cells.length;
  const byVector = new Map<string, number[]>();
  analysis.cells.forEach((row, i) => {
    const key = row.map((c) => c.key ?? '?').join('\u0001');
    const members = byVector.get(key);
    if (members) members.push(i);
    else byVector.set(key, [i]);
  });
  const classes: number[][] = [];
  for (const members of byVector.values()) {
    const rep = analysis.cells[members[0] as number] as Cell[];
    const home = classes.find((c) => {
      const other = analysis.cells[c[0] as number] as Cell[];
      return rep.every((cell, j) => {
        const o = other[j] as Cell;
        return cell.key === null || o.key === null || cellsAgree(cell, o, compare);
      });
    });
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
