/**
 * Grounded review (TRAILS): judge one program on inputs drawn from its specification, with a
 * judge that never sees the code; its pool composition with incoherence, the zero-shot baseline,
 * threshold calibration and the review benchmark. docs/review.md has the reply formats.
 * @packageDocumentation
 */
import { type Candidate, isCandidate } from '../candidates/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys, type OptionKeys } from '../errors/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { type ReviewBenchOptions, type ReviewBenchResult, runReviewBench } from './bench.ts';
import { isLlm, reviewLlmOf } from './llm-adapter.ts';
import {
  REVIEW_KEYS,
  type ResolvedReviewOptions,
  type ReviewOptions,
  resolveReviewOptions,
} from './options.ts';
import { type PoolMeasureOptions, type PoolReview, reviewPoolWith } from './pool.ts';
import { reviewWith } from './review.ts';
import { type ZeroShotReview, zeroShotWith } from './zero-shot.ts';

export {
  type ReviewBenchFigures,
  type ReviewBenchItem,
  type ReviewBenchOptions,
  type ReviewBenchResult,
  renderReviewBench,
} from './bench.ts';

export { showInput, showOutcome, syntaxOf } from './review.ts';
export type { ZeroShotReview } from './zero-shot.ts';

import type { Review } from './types.ts';

export {
  CALIBRATION_MINIMUM,
  type CalibrationItem,
  calibrateThreshold,
  type ThresholdCalibration,
} from './calibrate.ts';
export { REVIEW_KEYS, type ReviewCalibration, type ReviewOptions } from './options.ts';
export type { PoolMeasureOptions, PoolReview, ReviewedClass } from './pool.ts';
export type { ReviewCall, ReviewPurpose } from './port.ts';
export { reviewData, reviewTokens } from './record.ts';
export type {
  JudgeVerdict,
  Review,
  ReviewedInput,
  ReviewedScenario,
  ReviewLlmRecord,
  ReviewReason,
  ReviewUsageTotals,
  Scenario,
} from './types.ts';

let defaults: Partial<ReviewOptions> = {};

/**
 * Resolves public options (clients from createLlm) into review's view of them, after refusing
 * keys `known` does not list (the defaults were checked by configureReview).
 */
const resolve = (
  options: Partial<ReviewOptions> | undefined,
  where: string,
  known: OptionKeys = REVIEW_KEYS,
): ResolvedReviewOptions => {
  if (typeof options === 'object' && options !== null) checkKeys({ where }, options, known);
  const o = resolveReviewOptions({ ...defaults, ...options } as ReviewOptions, isLlm);
  return { ...o, llm: reviewLlmOf(o.llm), judge: reviewLlmOf(o.judge) };
};

/**
 * Defaults for every later review (e.g. `{ llm, judge }` in a test setup file). Later calls
 * replace earlier ones field by field; `configureReview({})` keeps them, pass `undefined` values to clear.
 * @public
 */
export const configureReview = (options: Partial<ReviewOptions>): void => {
  if (typeof options !== 'object' || options === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `configureReview: expected an options object, got ${describeValue(options)}.`,
      {
        where: 'configureReview(options)',
      },
    );
  }
  checkKeys({ where: 'configureReview(options)' }, options, REVIEW_KEYS);
  defaults = { ...defaults, ...options };
};

/** The configured defaults (for the matcher's misuse check). @internal */
export const reviewDefaults = (): Partial<ReviewOptions> => defaults;

const checkArgs = (task: unknown, candidate: unknown, where: string): void => {
  if (!isTask(task))
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: expected a task from defineTask(), got ${describeValue(task)}.`,
      { where },
    );
  if (!isCandidate(candidate))
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${where}: expected a candidate (candidates.fromSources, fromFunctions or fromModel), got ${describeValue(candidate)}.`,
      { where },
    );
};

/**
 * Grounded review of one candidate: s scenarios by category partitioning, inputs per scenario
 * generated and repaired within g steps, at most k coverage-distinct inputs kept per scenario,
 * the candidate run on them in the sandbox, and a judge asked, for each (specification, input,
 * output), whether the output conforms, without seeing the code. `accept` when the share of
 * CORRECT verdicts reaches τ; `reject` below it or when two scenarios in a row yield no valid
 * input; `inconclusive` when no verdict could be read or the call budget ran out.
 * @public
 */
export const review = async (
  task: Task,
  candidate: Candidate,
  options?: Partial<ReviewOptions>,
): Promise<Review> => {
  const where = 'review(task, candidate, options)';
  checkArgs(task, candidate, where);
  const o = resolve(options, where);
  return reviewWith(task, candidate, o, where);
};

/** The keys {@link reviewPool} takes: {@link review}'s and the pool's `measure`. @internal */
export const REVIEW_POOL_KEYS = knownKeys<ReviewPoolOptions>({
  ...REVIEW_KEYS,
  measure: knownKeys<PoolMeasureOptions>({ n: true, seed: true, inputs: true, equality: true }),
  disagreements: true,
});

const STABILITY_KEYS = knownKeys<ReviewStabilityOptions>({ ...REVIEW_KEYS, runs: true });

/** Options of {@link reviewStability}: {@link review}'s (but `seed`, which each rerun sets) and `runs`. @public */
export type ReviewStabilityOptions = Partial<ReviewOptions> & {
  /**
   * How many reviews, with seeds 0 to runs − 1.
   * @defaultValue 3
   */
  runs?: number;
};

/**
 * The zero-shot chain-of-thought baseline (the grounded-review paper's main comparison): one
 * model call that reads the specification and the code and answers CORRECT or INCORRECT. Use it
 * to compare judges on a labelled sample; `review` is the method, this is what it improves on.
 * Options as {@link review} (only `llm`, `judge`, `temperature`, `seed` and `signal` apply).
 * @public
 */
export const reviewZeroShot = async (
  task: Task,
  candidate: Candidate,
  options?: Partial<ReviewOptions>,
): Promise<ZeroShotReview> => {
  const where = 'reviewZeroShot(task, candidate, options)';
  checkArgs(task, candidate, where);
  return zeroShotWith(task, candidate, resolve(options, where), where);
};

/** Options of {@link reviewPool}. @public */
export interface ReviewPoolOptions extends Partial<ReviewOptions> {
  /** How the pool's equivalence classes are measured. */
  measure?: PoolMeasureOptions;
  /**
   * Extension (not in the paper): add a scenario S*, "inputs where the samples disagree" (the
   * shrunk witness and the first input separating each pair of classes), judged for every class,
   * so the judge arbitrates exactly the disagreements incoherence found. @defaultValue true
   */
  disagreements?: boolean;
}

/**
 * Composition with incoherence: one full review per equivalence class of the pool (its first
 * member), members inheriting the verdict only where their outputs on the judged inputs are
 * identical. Reports which classes the judge accepts.
 * @public
 */
export const reviewPool = async (
  task: Task,
  pool: readonly Candidate[],
  options?: ReviewPoolOptions,
): Promise<PoolReview> => {
  const where = 'reviewPool(task, pool, options)';
  if (!Array.isArray(pool) || pool.length === 0)
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${where}: expected a non-empty array of candidates, got ${describeValue(pool)}.`,
      {
        where,
      },
    );
  for (const c of pool) checkArgs(task, c, where);
  if (typeof options === 'object' && options !== null) checkKeys({ where }, options, REVIEW_POOL_KEYS);
  const { measure: measureOptions, disagreements = true, ...rest } = options ?? {};
  if (typeof disagreements !== 'boolean')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`disagreements\` must be a boolean, got ${describeValue(disagreements)}. Use false to judge only the generated scenarios.`,
      { where },
    );
  const o = resolve(rest, where);
  return reviewPoolWith(task, pool, o, measureOptions ?? {}, where, disagreements);
};

/**
 * Reviews with `seed` 0…runs−1: every rerun draws fresh samples (distinct sample indices), so a
 * warm cache cannot fake agreement. `stable` when every rerun gave the same verdict.
 * @public
 */
export const reviewStability = async (
  task: Task,
  candidate: Candidate,
  options: ReviewStabilityOptions,
): Promise<{
  reviews: Review[];
  verdicts: Review['verdict'][];
  scores: (number | null)[];
  stable: boolean;
}> => {
  if (typeof options === 'object' && options !== null)
    checkKeys({ where: 'reviewStability(task, candidate, options)' }, options, STABILITY_KEYS);
  const { runs = 3, seed: _ignored, ...rest } = options ?? {};
  if (!Number.isInteger(runs) || runs < 1)
    throw new CrosscheckError(
      'INVALID_OPTION',
      `reviewStability: \`runs\` must be a positive integer, got ${describeValue(runs)}.`,
      {
        where: 'reviewStability(task, candidate, { runs })',
      },
    );
  const reviews: Review[] = [];
  for (let r = 0; r < runs; r++) reviews.push(await review(task, candidate, { ...rest, seed: r }));
  const verdicts = reviews.map((x) => x.verdict);
  return {
    reviews,
    verdicts,
    scores: reviews.map((x) => x.score),
    stable: verdicts.every((v) => v === verdicts[0]),
  };
};

/**
 * `crosscheck bench review` as a function: reviews a dataset's candidates against their
 * references and reports MCC, P4, confusion matrices, correct stability and tokens per task.
 * @public
 */
export const benchReview = async (
  options: ReviewBenchOptions & { review: Partial<ReviewOptions> },
): Promise<ReviewBenchResult> => runReviewBench(options, resolve(options.review, 'benchReview(options)'));
