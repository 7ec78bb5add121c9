import type { Candidate } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import { optionError, readProbability } from '../errors/index.ts';
import { combineIsolation, describeOutcome, type IsolationUsed, run, uniqueLabels } from '../exec/index.ts';
import { pacDetectionSamples } from '../stats/index.ts';
import type { Task } from '../task/index.ts';
import { counts, pairCounts, provenApart, toCell, type UnknownPolicy } from './agreement.ts';
import { excludedText } from './measure.ts';
import {
  DETECT_KEYS,
  type DetectOptions,
  drawInputs,
  type ReferenceLoss,
  referenceLoss,
  referenceLossText,
  resolveCommon,
} from './options.ts';
import { poolIdentity, silentPoolReason } from './pool.ts';
import { buildWitness, type Witness } from './witness.ts';

/** Verdicts of {@link detect}. @public */
export type DetectionVerdict = 'incoherent' | 'coherent' | 'inconclusive';

/** What every {@link Detection} says, whatever its verdict. @public */
export interface DetectionBase {
  readonly task: string;
  readonly gen: string;
  readonly seed: number;
  readonly equality: string;
  readonly m: number;
  readonly epsilon: number;
  readonly delta: number;
  /** N = ⌈ln δ / ln(1 − ε)⌉: disagreement-free inputs needed for the certificate. */
  readonly required: number;
  /** Draws from the Gen used before stopping (a value drawn again costs no call). */
  readonly inputsRun: number;
  /** Draws with at least two known (not timeout or crash) outcomes: what counts toward N. */
  readonly inputsCounted: number;
  /** Candidate cells with a timeout or crash outcome. */
  readonly unknownCells: number;
  /** Per candidate (in candidate order): its cells with a timeout or crash outcome. */
  readonly unknownPerCandidate: readonly number[];
  /** How timeouts and crashes counted (see `DetectOptions.unknown`). */
  readonly unknownPolicy: UnknownPolicy;
  /**
   * Draws the Gen's reference filter could not judge (timeout, crash, budget spent), left out of
   * the inputs; null when none. Unless `unknown: 'exclude'`, they make the run inconclusive.
   */
  readonly referenceLoss: ReferenceLoss | null;
  /** What `unknown: 'exclude'` left out, as one sentence (the certificate repeats it); null when nothing. */
  readonly excluded: string | null;
  /** {@link poolIdentity} of the task and these candidates. */
  readonly pool: string;
  readonly durationMs: number;
  /** What the untrusted candidates ran under (`'none'`: only trusted functions ran). */
  readonly isolation: IsolationUsed;
}

/**
 * Two candidates disagree on `witness`, so some candidate is wrong (no false positives; with
 * `unknown: 'disagree'`, a timeout or crash is such a disagreement). @public
 */
export interface IncoherentDetection<A extends Args = Args> extends DetectionBase {
  readonly verdict: 'incoherent';
  readonly witness: Witness<A>;
  /**
   * Whether two candidates disagreed on the first disagreeing input beyond the equality's
   * tolerance, so that one is wrong whatever the truth. False when they differ only as floats
   * within twice the tolerance: each may then be within it of the truth (a tolerance is not
   * transitive), and the disagreement proves nothing.
   */
  readonly proven: boolean;
  readonly certificate: null;
  readonly reason: null;
}

/** No disagreement in N inputs. @public */
export interface CoherentDetection extends DetectionBase {
  readonly verdict: 'coherent';
  readonly witness: null;
  /**
   * "incoherence ≤ ε with confidence 1 − δ (for these m candidates and this Gen)"; from a fixed
   * list longer than N, "… and the uniform distribution over these k fixed inputs (draws with
   * replacement)": N rows drawn with the seed, never the list's first N.
   */
  readonly certificate: string;
  readonly reason: null;
}

/**
 * Neither: fewer than N inputs counted, fewer than two candidates returned a value (identical
 * load failures are not agreement), or (with `unknown: 'inconclusive'`) a cell timed out or
 * crashed. @public
 */
export interface InconclusiveDetection extends DetectionBase {
  readonly verdict: 'inconclusive';
  readonly witness: null;
  readonly certificate: null;
  /** Why the run is inconclusive. */
  readonly reason: string;
}

/**
 * What {@link detect} found: a union keyed on `verdict`, so a witness comes only with
 * `incoherent`, a certificate only with `coherent` and a reason only with `inconclusive`.
 * @public
 */
export type Detection<A extends Args = Args> =
  | IncoherentDetection<A>
  | CoherentDetection
  | InconclusiveDetection;

const WHERE = 'detect(task, candidates, options)';
const FIRST_BATCH = 16;
/**
 * Most draws detect asks a Gen for: they are made up front, so N must fit in memory and in a
 * test's time. 10⁶ draws is ε ≈ 3·10⁻⁶ at δ = 0.05, far below what a test can tell apart.
 */
const MAX_DRAWS = 1_000_000;
const MAX_BATCH = 1024;

/** Formats a probability for the certificate without float noise (0.95, not 0.9500000000000001). */
const fmt = (x: number): string => String(Number(x.toPrecision(6)));

/**
 * The certificate text of a coherent run. `excluded`: what `unknown: 'exclude'` left out, which
 * the claim then covers only in part, so the text says it. `population`: the distribution the
 * inputs were drawn from, as `drawInputs` names it (a fixed list is not "this Gen").
 * @public
 */
export const certificateText = (
  epsilon: number,
  delta: number,
  m: number,
  excluded: string | null = null,
  population = 'this Gen',
): string =>
  `incoherence ≤ ${fmt(epsilon)} with confidence ${fmt(1 - delta)} (for these ${m} candidates and ${population}${excluded === null ? '' : `; ${excluded}`})`;

/**
 * PAC detection (Theorem 4.3 of the incoherence paper): run inputs in order and stop at the first
 * disagreement, a witness that some candidate is wrong; after N = ⌈ln δ / ln(1 − ε)⌉ inputs
 * without one, certify incoherence ≤ ε with confidence 1 − δ. Inputs run in doubling batches, so
 * an early disagreement costs little and the witness is the first disagreeing input, exactly as
 * one-at-a-time sampling would find. Every pair is checked per input, which only detects more
 * often than the paper's one random pair.
 * @public
 */
export const detect = async <A extends Args>(
  task: Task<A>,
  candidates: readonly Candidate[],
  options: DetectOptions<A> = {},
): Promise<Detection<A>> => {
  const started = performance.now();
  const r = resolveCommon(WHERE, task, candidates, options, DETECT_KEYS, 2);
  // Own properties only: a polluted Object.prototype must not set an option.
  const own: typeof options = Object.assign(Object.create(null), options);
  const epsilon = readProbability({ where: WHERE, field: 'epsilon' }, own.epsilon, 0.05);
  const delta = readProbability({ where: WHERE, field: 'delta' }, own.delta, 0.05);
  const required = pacDetectionSamples(epsilon, delta);
  if (required > MAX_DRAWS) {
    throw optionError({
      where: WHERE,
      field: 'epsilon',
      rule: `with delta ${delta} needs N = ${required} inputs, above the ${MAX_DRAWS} detect draws`,
      got: epsilon,
      fix: `Pass a larger epsilon (at delta 0.05, epsilon ≥ 3e-6 keeps N within ${MAX_DRAWS}) or a larger delta.`,
    });
  }
  // N counts i.i.d. draws; each distinct value runs once and counts as often as it was drawn.
  // Whether N draws show a disagreement does not depend on the order they are checked in.
  const { inputs, weights, draws, lost, population } = await drawInputs(r, required);
  const isGen = r.gen !== null;
  const loss = referenceLoss(lost, 0, r.rules.unknown);
  let next = 0;
  let inputsRun = 0;
  let counted = 0;
  let unknownCells = 0;
  const unknownPer = candidates.map(() => 0);
  const ran = candidates.map(() => ({
    returned: false,
    loadProblem: null as string | null,
    firstProblem: null as string | null,
  }));
  // With 'inconclusive', an unknown cell neither witnesses nor counts; it only makes the verdict
  // inconclusive. Pairs are then counted as under 'exclude'.
  const countRules =
    r.rules.unknown === 'inconclusive' ? { ...r.rules, unknown: 'exclude' as const } : r.rules;
  let found: number | null = null;
  let proven = false;
  let isolation: IsolationUsed = 'none';
  for (
    let batch = FIRST_BATCH;
    next < inputs.length && found === null;
    batch = Math.min(batch * 2, MAX_BATCH)
  ) {
    const slice = inputs.slice(next, next + batch);
    const matrix = await run(task, candidates, slice, { ...r.run, signal: r.signal });
    isolation = combineIsolation(isolation, matrix.isolation);
    for (let j = 0; j < slice.length; j++) {
      const cells = matrix.outcomes.map((row, i) => {
        const o = row[j] as never;
        const cell = toCell(o, r.rules);
        const seen = ran[i] as (typeof ran)[number];
        if (cell.returned) seen.returned = true;
        else if (seen.firstProblem === null) seen.firstProblem = describeOutcome(o);
        if (cell.status === 'failed' && seen.loadProblem === null) seen.loadProblem = describeOutcome(o);
        if (cell.status === 'unknown') {
          unknownCells++;
          unknownPer[i] = (unknownPer[i] as number) + 1;
        }
        return cell;
      });
      const { agree, total, undecided } = pairCounts(cells, countRules);
      const w = weights[next] as number;
      next++;
      inputsRun += w;
      // An input with undecided pairs (outputs kept only as digests) is no evidence of agreement.
      if (total > 0 && undecided === 0) counted += w;
      if (agree < total) {
        found = next - 1;
        const counted = cells.filter((c) => counts(c, countRules.unknown));
        proven = counted.some((a, x) => counted.some((b, y) => y > x && provenApart(a, b, r.rules.compare)));
        break;
      }
    }
  }
  const base = {
    task: task.name,
    gen: population,
    seed: r.seed,
    equality: r.equalityName,
    m: candidates.length,
    epsilon,
    delta,
    required,
    inputsRun,
    inputsCounted: counted,
    unknownCells,
    unknownPerCandidate: unknownPer,
    unknownPolicy: r.rules.unknown,
    referenceLoss: loss,
    excluded: excludedText(
      loss,
      r.rules.unknown,
      unknownPer,
      candidates.map((c) => c.label),
    ),
    pool: poolIdentity(
      task.name,
      candidates.map((c) => c.id),
    ),
    isolation,
  };
  const silent = silentPoolReason(uniqueLabels(candidates.map((c) => c.label)), ran);
  // Inputs the reference filter could not judge change the distribution: no certificate on it.
  const lossReason = loss !== null && !loss.excluded ? referenceLossText(loss) : null;
  if (silent !== null || (lossReason !== null && found === null)) {
    return {
      ...base,
      verdict: 'inconclusive',
      witness: null,
      certificate: null,
      reason: silent ?? (lossReason as string),
      durationMs: performance.now() - started,
    };
  }
  if (found !== null) {
    const witness = await buildWitness(r, inputs, found, 'candidates disagree');
    return {
      ...base,
      verdict: 'incoherent',
      witness,
      proven,
      certificate: null,
      reason: null,
      durationMs: performance.now() - started,
    };
  }
  if (counted >= required && !(r.rules.unknown === 'inconclusive' && unknownCells > 0)) {
    return {
      ...base,
      verdict: 'coherent',
      witness: null,
      certificate: certificateText(
        epsilon,
        delta,
        candidates.length,
        base.excluded,
        isGen ? 'this Gen' : population,
      ),
      reason: null,
      durationMs: performance.now() - started,
    };
  }
  const reason =
    draws < required
      ? `the inputs (${r.genDescription}) gave only ${draws} of the ${required} needed`
      : counted < required
        ? `only ${counted} of ${required} inputs had two or more known outcomes (${unknownCells} timeouts or crashes)`
        : `${unknownCells} candidate cells timed out or crashed (unknown: 'inconclusive')`;
  return {
    ...base,
    verdict: 'inconclusive',
    witness: null,
    certificate: null,
    reason,
    durationMs: performance.now() - started,
  };
};
