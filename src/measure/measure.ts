import type { Candidate, CandidateTags } from '../candidates/index.ts';
import { CrosscheckError } from '../errors/index.ts';
import { combineIsolation, type IsolationUsed } from '../exec/isolation/index.ts';
import { BUDGET_SPENT, type Outcome } from '../exec/outcome.ts';
import { type MatrixRow, run } from '../exec/run.ts';
import type { Args } from '../inputs/gen-contract.ts';
import type { Interval } from '../stats/index.ts';
import type { Task } from '../task/index.ts';
import {
  Accumulator,
  type EquivalenceClass,
  equivalenceClasses,
  intervalOf,
  meanOf,
  semanticEntropy,
  type UnknownCounts,
} from './analyze.ts';
import {
  drawInputs,
  type Estimator,
  type MeasureOptions,
  readCount,
  readProbability,
  resolveCommon,
} from './options.ts';
import { buildWitness, pickWitness, type Witness } from './witness.ts';

/** One candidate's share of inputs where it disagrees with the reference. @public */
export interface CandidateError {
  readonly label: string;
  readonly id: string;
  readonly tags: CandidateTags;
  /** Ê_i, or null when no input had both this candidate's and the reference's outcome known. */
  readonly error: number | null;
  /** Inputs behind `error`. */
  readonly n: number;
}

/** What {@link measure} found. Guarantees hold for these m candidates and this Gen. @public */
export interface Measurement<A extends Args = Args> {
  readonly task: string;
  /** Which input distribution (the Gen's description, or "k fixed inputs"). */
  readonly gen: string;
  readonly seed: number;
  readonly estimator: Estimator;
  /**
   * How the intervals were made: `Hoeffding ∩ empirical Bernstein` (all-pairs) or `Hoeffding`
   * (paired); either holds with probability at least 1 − δ over the draws.
   */
  readonly interval: string;
  readonly equality: string;
  /** Candidates. */
  readonly m: number;
  /**
   * Draws from the Gen behind the estimates (i.i.d.; a value drawn twice counts twice), or the
   * number of fixed inputs. Distinct inputs ran once each: see `inputs`.
   */
  readonly n: number;
  readonly delta: number;
  /**
   * Î with its interval at 1 − δ (all-pairs: Hoeffding ∩ empirical Bernstein; paired: Hoeffding;
   * see `intervalOf`); `n` counts the draws with two or more known outcomes. Null
   * when none had (fewer than two candidates, or everything timed out).
   */
  readonly incoherence: Interval | null;
  /** Ê with its interval (as for `incoherence`); null without a reference. */
  readonly error: Interval | null;
  /** Per-candidate error against the reference (empty without one). */
  readonly candidateErrors: readonly CandidateError[];
  /**
   * E ≥ max(0, Î − ε) / 2 with confidence 1 − δ (Theorem 4.1 with the incoherence interval's half-width ε). Needs
   * no reference. Null when incoherence is.
   */
  readonly errorLowerBound: number | null;
  /** Inputs on which at least two candidates disagree. */
  readonly disagreements: number;
  readonly unknown: UnknownCounts;
  /** Candidates grouped by outcome vector, largest first. */
  readonly classes: readonly EquivalenceClass[];
  /** The largest class (first in candidate order on ties). */
  readonly plurality: EquivalenceClass;
  /** The class holding more than half of the candidates, if any. */
  readonly majority: EquivalenceClass | null;
  /** Entropy (nats) of the class sizes: 0 when all candidates agree everywhere. */
  readonly semanticEntropy: number;
  /** A shrunk distinguishing input (candidates disagree, else one differs from the reference). */
  readonly witness: Witness<A> | null;
  readonly durationMs: number;
  /** The distinct inputs run, in order of first draw (the witness's `original.index` points here). */
  readonly inputs: readonly A[];
  /** How many draws each of `inputs` stands for (Σ = `n`). */
  readonly weights: readonly number[];
  /** Who ran: labels, ids, tags and run statistics of each candidate. */
  readonly candidates: readonly MatrixRow[];
  /** What the untrusted candidates ran under (`'none'`: only trusted functions ran). */
  readonly isolation: IsolationUsed;
}

/**
 * Inputs per run: the matrix of a chunk is analysed and dropped, so memory stays bounded when
 * candidates return large values.
 */
const CHUNK = 200;

const WHERE = 'measure(task, candidates, options)';

/** Adds up the run statistics of the chunks, per candidate (rows of benched candidates stay as they were). */
const mergeStats = (acc: readonly MatrixRow[], next: readonly MatrixRow[]): MatrixRow[] =>
  next.map((row, i) => {
    const prev = acc[i];
    if (!prev || prev === row) return row;
    return {
      ...row,
      stats: {
        durationMs: prev.stats.durationMs + row.stats.durationMs,
        timeouts: prev.stats.timeouts + row.stats.timeouts,
        crashes: prev.stats.crashes + row.stats.crashes,
        budgetSpent: prev.stats.budgetSpent || row.stats.budgetSpent,
        restarts: prev.stats.restarts + row.stats.restarts,
      },
    };
  });

/**
 * Measures incoherence (and error, with a reference) over the full outcome matrix, as DESIGN.md
 * "Measures" defines: all m candidates and the reference run on the same n inputs; timeouts and
 * crashes are unknown and counted apart. Throws a `CrosscheckError` only for misuse.
 * @public
 */
export const measure = async <A extends Args>(
  task: Task<A>,
  candidates: readonly Candidate[],
  options: MeasureOptions<A> = {},
): Promise<Measurement<A>> => {
  const started = performance.now();
  const r = resolveCommon(WHERE, task, candidates, options, 1);
  // Own properties only: a polluted Object.prototype must not set an option.
  const own: typeof options = Object.assign(Object.create(null), options);
  const delta = readProbability(WHERE, 'delta', own.delta, 0.05);
  const n = own.n === undefined ? undefined : readCount(WHERE, 'n', own.n, 1000);
  const estimator = own.estimator ?? 'all-pairs';
  if (estimator !== 'all-pairs' && estimator !== 'paired') {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`estimator\` must be 'all-pairs' or 'paired', got ${JSON.stringify(estimator)}. 'all-pairs' has the lower variance.`,
      { where: `${WHERE}, { estimator }` },
    );
  }
  const drawn = await drawInputs(r, n);
  const { inputs, weights } = drawn;
  if (inputs.length === 0) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${WHERE}: the inputs (${r.genDescription}) produced nothing to run with seed ${r.seed}. Loosen the Gen's filters or give fixed inputs.`,
      { where: `${WHERE}, { inputs })` },
    );
  }
  const analysis = new Accumulator(candidates.length, r.rules, estimator, r.seed);
  let rows: readonly MatrixRow[] = [];
  let reference = false;
  let isolation: IsolationUsed = 'none';
  // A candidate whose timeout budget ran out sits out the later chunks, so the budget holds per
  // measure, not per chunk.
  const spent = candidates.map(() => false);
  for (let start = 0; start < inputs.length; start += CHUNK) {
    const slice = inputs.slice(start, start + CHUNK);
    const sliceWeights = weights.slice(start, start + CHUNK);
    const active = candidates.filter((_, i) => !spent[i]);
    const matrix = await run(task, active, slice, { ...r.run, signal: r.signal });
    const byCandidate = new Map(active.map((c, k) => [c, k]));
    const outcomes = candidates.map((c) => {
      const k = byCandidate.get(c);
      return k === undefined ? slice.map(() => BUDGET_SPENT) : (matrix.outcomes[k] as Outcome[]);
    });
    analysis.add({ inputs: slice, outcomes, reference: matrix.reference, weights: sliceWeights });
    rows = mergeStats(
      rows,
      candidates.map((c, i) => {
        const k = byCandidate.get(c);
        return k === undefined ? (rows[i] as MatrixRow) : (matrix.candidates[k] as MatrixRow);
      }),
    );
    matrix.candidates.forEach((row, k) => {
      if (row.stats.budgetSpent) spent[candidates.indexOf(active[k] as Candidate)] = true;
    });
    reference = matrix.reference !== null;
    isolation = combineIsolation(isolation, matrix.isolation);
  }
  const labels = rows.map((c) => c.label);

  const inc = meanOf(analysis.disagreement, analysis.weights);
  const incoherence = inc.n > 0 ? intervalOf(estimator, inc, delta) : null;
  const err = meanOf(analysis.errorShare, analysis.errorWeights);
  const error = reference && err.n > 0 ? intervalOf(estimator, err, delta) : null;
  const candidateErrors: CandidateError[] = reference
    ? analysis.perCandidate.map((s, i) => {
        const row = rows[i];
        return {
          label: row?.label ?? `#${i}`,
          id: row?.id ?? '',
          tags: row?.tags ?? {},
          error: s.known === 0 ? null : s.wrong / s.known,
          n: s.known,
        };
      })
    : [];
  const classes = equivalenceClasses(analysis.groups, labels);
  const plurality = classes[0] as EquivalenceClass;

  const disagreeing = analysis.disagrees.flatMap((d, j) => (d ? [j] : []));
  const offReference = analysis.errorShare.flatMap((e, j) => (e !== null && e > 0 ? [j] : []));
  let witness: Witness<A> | null = null;
  const incoherent = pickWitness(inputs, disagreeing);
  if (incoherent !== null) witness = await buildWitness(r, inputs, incoherent, 'candidates disagree');
  else {
    const wrong = pickWitness(inputs, offReference);
    if (wrong !== null) witness = await buildWitness(r, inputs, wrong, 'differs from the reference');
  }

  return {
    task: task.name,
    gen: r.genDescription,
    seed: r.seed,
    estimator,
    interval: estimator === 'all-pairs' ? 'Hoeffding ∩ empirical Bernstein' : 'Hoeffding',
    equality: r.equalityName,
    m: candidates.length,
    n: drawn.draws,
    delta,
    incoherence,
    error,
    candidateErrors,
    errorLowerBound: incoherence ? Math.max(0, incoherence.estimate - incoherence.epsilon) / 2 : null,
    disagreements: disagreeing.length,
    unknown: analysis.unknown,
    classes,
    plurality,
    majority: plurality.share > 0.5 ? plurality : null,
    semanticEntropy: semanticEntropy(classes),
    witness,
    durationMs: performance.now() - started,
    inputs,
    weights,
    candidates: rows,
    isolation,
  };
};
