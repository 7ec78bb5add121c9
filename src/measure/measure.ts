import type { Candidate, CandidateTags } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import { CrosscheckError, readPositiveInt, readProbability } from '../errors/index.ts';
import {
  BUDGET_SPENT,
  combineIsolation,
  type IsolationUsed,
  type MatrixRow,
  type Outcome,
  run,
} from '../exec/index.ts';
import { bracketedInterval, type Interval } from '../stats/index.ts';
import type { Task } from '../task/index.ts';
import type { UnknownPolicy } from './agreement.ts';
import {
  Accumulator,
  type CandidateRan,
  type EquivalenceClass,
  equivalenceClasses,
  errorLowerBoundOf,
  intervalOf,
  meanOf,
  semanticEntropy,
  type UnknownCounts,
} from './analyze.ts';
import {
  drawInputs,
  type Estimator,
  MEASURE_KEYS,
  type MeasureOptions,
  type ReferenceLoss,
  referenceLoss,
  referenceLossText,
  resolveCommon,
} from './options.ts';
import { poolIdentity, silentPoolReason } from './pool.ts';
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
  /**
   * Which input distribution: the Gen's description; "these k fixed inputs" when the whole list
   * ran (the figures are exact about it); or "the uniform distribution over these k fixed inputs
   * (draws with replacement)" when `n` is below the list's length (`n` rows drawn with the seed).
   */
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
  /** Inputs asked for (`n`, else 1000 from a Gen, else the fixed list's length). */
  readonly asked: number;
  readonly delta: number;
  /** How timeouts and crashes counted (see `MeasureOptions.unknown`). */
  readonly unknownPolicy: UnknownPolicy;
  /** {@link poolIdentity} of the task and these candidates. */
  readonly pool: string;
  /**
   * Why the numbers do not support a verdict, or null when they do: fewer than two candidates
   * returned a value (each one's problem named), the Gen gave fewer inputs than `minInputs`, or
   * (with `unknown: 'inconclusive'`) some cell timed out or crashed. Matchers fail both ways
   * on an inconclusive measurement.
   */
  readonly inconclusive: string | null;
  /**
   * Î with its interval at 1 − δ (all-pairs: Hoeffding ∩ empirical Bernstein; paired: Hoeffding;
   * see `intervalOf`); `n` counts the draws with two or more known outcomes. Null
   * when none had (fewer than two candidates, or everything timed out).
   */
  readonly incoherence: Interval | null;
  /**
   * Ê with its interval (as for `incoherence`); null without a reference. The share of
   * (candidate, draw) cells that differ from the reference, where a candidate that does not
   * return (or did not load) is wrong. Where the reference itself did not return, the truth is
   * not known: those inputs count as 0 for the lower end and 1 for the upper end (a Hoeffding
   * interval around the two), and leave the estimate.
   */
  readonly error: Interval | null;
  /** Per-candidate error against the reference (empty without one). */
  readonly candidateErrors: readonly CandidateError[];
  /**
   * Î counting only the pairs that disagree beyond the equality's tolerance (with its interval):
   * two floats each within the tolerance of the truth can fail to be within it of each other, so
   * such a pair proves nothing. Equal to `incoherence` when no disagreement hinges on a tolerance
   * (and always under a custom equality, taken to be an equivalence relation). Null when
   * incoherence is.
   */
  readonly provenIncoherence: Interval | null;
  /**
   * E ≥ max(0, Î′ − ε′) / 2 with confidence 1 − δ, Î′ ± ε′ being `provenIncoherence` (Theorem 4.1,
   * I ≤ 2E, needs an equality that is an equivalence relation; a disagreement beyond the
   * tolerance is one at which a candidate is wrong whatever the truth, which restores it). About
   * the same E as `error`: the chance that a random one of these candidates is wrong on an input
   * from the Gen. Needs no reference; with one, it is never above `error.upper`. Null when
   * incoherence is.
   */
  readonly errorLowerBound: number | null;
  /** Inputs on which at least two candidates disagree. */
  readonly disagreements: number;
  readonly unknown: UnknownCounts;
  /**
   * Inputs the reference did not answer (timed out, crashed, or never ran once its budget was
   * spent), in the Gen's reference filter or while measured; null when it answered all. Unless
   * `unknown: 'exclude'`, they make the measurement inconclusive: a candidate wrong exactly there
   * would go unseen.
   */
  readonly referenceLoss: ReferenceLoss | null;
  /**
   * What `unknown: 'exclude'` left out of the figures, as one sentence (inputs the reference did
   * not answer, candidate cells that timed out or crashed, and whose); null when nothing was.
   * Certificates, records and reports repeat it.
   */
  readonly excluded: string | null;
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
  /** Per candidate: whether it ever returned a value, and its load failure if any. */
  readonly ran: readonly CandidateRan[];
  /** What the untrusted candidates ran under (`'none'`: only trusted functions ran). */
  readonly isolation: IsolationUsed;
}

/**
 * What `unknown: 'exclude'` left out, as one sentence: a pool whose candidate hung on 30 % of
 * inputs must not read like one that always returned. Null when nothing was left out.
 * @internal
 */
export const excludedText = (
  loss: ReferenceLoss | null,
  policy: UnknownPolicy,
  perCandidate: readonly number[],
  labels: readonly string[],
): string | null => {
  if (policy !== 'exclude') return null;
  const cells = perCandidate.reduce((a, b) => a + b, 0);
  const whose = perCandidate.flatMap((k, i) => (k > 0 ? [`${labels[i] ?? `#${i}`} ${k}`] : []));
  const parts = [
    loss ? referenceLossText(loss) : null,
    cells > 0
      ? `${cells} candidate cells that timed out or crashed were excluded (unknown: 'exclude'; ${whose.join(', ')}): the figures are about the inputs where those candidates returned`
      : null,
  ].filter((x): x is string => x !== null);
  return parts.length === 0 ? null : parts.join('; ');
};

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
 * Measures incoherence (and error, with a reference) over the full outcome matrix, as docs/design.md
 * "Measures" defines: all m candidates and the reference run on the same n inputs; timeouts and
 * crashes count as the `unknown` option says (by default as disagreements, and as wrong where the
 * reference returns), and are counted apart. `inconclusive` says when the numbers support no
 * verdict. Throws a `CrosscheckError` only for misuse.
 * @public
 */
export const measure = async <A extends Args>(
  task: Task<A>,
  candidates: readonly Candidate[],
  options: MeasureOptions<A> = {},
): Promise<Measurement<A>> => {
  const started = performance.now();
  const r = resolveCommon(WHERE, task, candidates, options, MEASURE_KEYS, 1);
  // Own properties only: a polluted Object.prototype must not set an option.
  const own: typeof options = Object.assign(Object.create(null), options);
  const delta = readProbability({ where: WHERE, field: 'delta' }, own.delta, 0.05);
  const n = own.n === undefined ? undefined : readPositiveInt({ where: WHERE, field: 'n' }, own.n, 1000);
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
  const asked = n ?? (r.gen ? 1000 : (r.source as readonly A[]).length);
  const minInputs =
    options.minInputs === undefined
      ? asked
      : readPositiveInt({ where: WHERE, field: 'minInputs' }, options.minInputs, asked);
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
  const proven = meanOf(analysis.provenDisagreement, analysis.weights);
  const provenIncoherence = proven.n > 0 ? intervalOf(estimator, proven, delta) : null;
  const err = meanOf(analysis.errorShare, analysis.errorWeights);
  const low = meanOf(analysis.errorLow, analysis.errorWeights);
  const high = meanOf(analysis.errorHigh, analysis.errorWeights);
  // Where the reference always returned, low = high = the estimate: the estimator's own interval.
  const bracketed = low.n !== err.n || low.mean !== high.mean;
  // A reference that never answered gives no error figure at all, never an invented one.
  const error =
    reference && low.n > 0 && err.n > 0
      ? bracketed
        ? bracketedInterval(
            err.n > 0 ? err.mean : (low.mean + high.mean) / 2,
            low.mean,
            high.mean,
            low.n,
            delta,
          )
        : intervalOf(estimator, err, delta)
      : null;
  const errorLowerBound = errorLowerBoundOf(provenIncoherence, error);
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

  const ran = analysis.ran;
  const unknown = analysis.unknown;
  const loss = referenceLoss(drawn.lost, reference ? unknown.referenceCells : 0, r.rules.unknown);
  const reasons = [
    loss !== null && !loss.excluded ? referenceLossText(loss) : null,
    candidates.length >= 2 ? silentPoolReason(labels, ran) : null,
    drawn.draws < minInputs
      ? `the inputs (${r.genDescription}) gave only ${drawn.draws} of the ${asked} asked (minInputs ${minInputs}); a Gen that runs short is not the distribution asked for`
      : null,
    r.rules.unknown === 'inconclusive' && unknown.cells > 0
      ? `${unknown.cells} candidate cells timed out or crashed (unknown: 'inconclusive')`
      : null,
  ].filter((x): x is string => x !== null);

  return {
    task: task.name,
    gen: drawn.population,
    seed: r.seed,
    estimator,
    interval: estimator === 'all-pairs' ? 'Hoeffding ∩ empirical Bernstein' : 'Hoeffding',
    equality: r.equalityName,
    m: candidates.length,
    n: drawn.draws,
    asked,
    delta,
    unknownPolicy: r.rules.unknown,
    pool: poolIdentity(
      task.name,
      candidates.map((c) => c.id),
    ),
    inconclusive: reasons.length === 0 ? null : reasons.join('; '),
    incoherence,
    error,
    candidateErrors,
    provenIncoherence,
    errorLowerBound,
    disagreements: disagreeing.length,
    unknown,
    referenceLoss: loss,
    excluded: excludedText(
      loss,
      r.rules.unknown,
      unknown.perCandidate,
      rows.map((c) => c.label),
    ),
    classes,
    plurality,
    majority: plurality.share > 0.5 ? plurality : null,
    semanticEntropy: semanticEntropy(classes),
    witness,
    durationMs: performance.now() - started,
    inputs,
    weights,
    candidates: rows,
    ran,
    isolation,
  };
};
