import type { Candidate } from '../src/candidates/index.ts';
import type { Args } from '../src/contract/index.ts';
import type { DetectOptions, MeasureOptions } from '../src/measure/index.ts';
import type { Relation, RelationCheckOptions } from '../src/metamorphic/index.ts';
import type { ReviewOptions } from '../src/review/index.ts';
import type { Task } from '../src/task/index.ts';
import type { TriangulateOptions } from '../src/triangulate/index.ts';

/** Options of `toBeCoherentAcross`: PAC detection. @public */
export interface CoherentAcrossOptions<A extends Args = Args>
  extends Pick<
    DetectOptions<A>,
    | 'epsilon'
    | 'delta'
    | 'inputs'
    | 'seed'
    | 'equality'
    | 'compareErrorMessages'
    | 'shrink'
    | 'run'
    | 'unknown'
  > {}

/** Options of `toHaveIncoherenceBelow`. @public */
export interface IncoherenceBelowOptions<A extends Args = Args>
  extends Pick<
    MeasureOptions<A>,
    | 'inputs'
    | 'n'
    | 'seed'
    | 'estimator'
    | 'equality'
    | 'compareErrorMessages'
    | 'shrink'
    | 'run'
    | 'unknown'
    | 'minInputs'
  > {
  /**
   * Confidence 1 − δ of the interval whose upper end must lie below the bound.
   * @defaultValue 0.95
   */
  confidence?: number;
}

/** Options of `toAgreeWithReference`. @public */
export interface AgreeWithReferenceOptions<A extends Args = Args>
  extends Pick<
    MeasureOptions<A>,
    | 'inputs'
    | 'n'
    | 'seed'
    | 'delta'
    | 'equality'
    | 'compareErrorMessages'
    | 'shrink'
    | 'run'
    | 'unknown'
    | 'minInputs'
  > {
  /**
   * Largest tolerated error (the share of the Gen's inputs on which the candidate differs from
   * the reference), in (0, 1). The check passes when the exact one-sided binomial upper bound at
   * 1 − δ is at most this. 0 is refused: no finite sample supports it.
   * @defaultValue none: no input may differ, and the message states the bound that supports
   * (1 − δ^(1/n) after n clean inputs)
   */
  maxError?: number;
}

/**
 * Options of `toPassGroundedReview`: those of `review()`, all optional (`llm` may come from
 * `configureReview`).
 * @public
 */
export type GroundedReviewOptions = Partial<ReviewOptions>;

/** Options of `toRankLike`. @public */
export interface RankLikeOptions {
  /**
   * Smallest acceptable Spearman ρ between the two rankings, in [-1, 1]. Required: how alike two
   * rankings must be is the test's claim, and ρ moves in steps set by the number of items (one
   * swap of neighbours gives ρ = 0.5 with 3 items, 0.9 with 5, 0.988 with 10), so no default fits
   * every list. Leaving it out throws a `CrosscheckError` that suggests a value for your items.
   */
  minSpearman: number;
  /**
   * Largest accepted chance that unrelated orders reach the observed ρ (its one-sided permutation
   * p-value, exact up to 8 items). With fewer items than this allows (fewer than 4 at 0.05: even
   * ρ = 1 has p = 1/6 with 3) the check fails as inconclusive.
   * @defaultValue 0.05
   */
  alpha?: number;
}

/** Options of `toRankModels`. @public */
export interface RankModelsOptions {
  /** 1 − α: each stated pair must be separated by simultaneous intervals at this confidence. @defaultValue 0.95 */
  confidence?: number;
  /** The figure ranked on; lower is better. @defaultValue 'incoherence' */
  metric?: 'incoherence' | 'error';
}

/** Scores of items to rank: by position, or by name (both sides need the same names). @public */
export type Scores = readonly number[] | Readonly<Record<string, number>>;

/** Options of `toBeTriangulatedBy`: the triangulation's, plus what the selection must be. @public */
export interface TriangulatedByOptions<A extends Args = Args> extends TriangulateOptions<A> {
  /** Also require this candidate (or label), or one of its RANSAC group, to be selected. */
  selects?: Candidate | string;
  /**
   * Least number of plausibility witnesses of the selection.
   * @defaultValue 1
   */
  minSupport?: number;
}

/** Options of `toHavePlausibilityWitness`. @public */
export interface PlausibilityWitnessOptions<A extends Args = Args> extends TriangulateOptions<A> {
  /**
   * Least number of witnesses that must hold.
   * @defaultValue 1
   */
  min?: number;
}

/**
 * Options of `toSatisfyRelation`: where inputs come from, how many fast-check runs, the seed
 * (and path) to replay, the equality `relate` receives, execution limits.
 * @public
 */
export type SatisfyRelationOptions<A extends Args = Args> = RelationCheckOptions<A>;

/**
 * The crosscheck matchers, generic over what the host's matchers return (`R`). The per-host
 * augmentations (`crosscheck/vitest`, `crosscheck/jest`) merge this into `expect`.
 * @public
 */
export interface CrosscheckMatchers<R = unknown> {
  /**
   * PAC detection: the candidates agree on N = ⌈ln δ / ln(1 − ε)⌉ inputs of the task's Gen,
   * which certifies incoherence ≤ ε with confidence 1 − δ. Fails at the first disagreement, with
   * the shrunk witness, each class's output on it and the seed to replay. `.not` passes only
   * when a disagreement is witnessed.
   *
   * @example
   * ```ts
   * await expect(task).toBeCoherentAcross(candidates, { epsilon: 0.01, delta: 0.05 });
   * ```
   */
  toBeCoherentAcross(candidates: readonly Candidate[], options?: CoherentAcrossOptions): Promise<R>;
  /**
   * The upper end of the interval (at 1 − δ) around the measured incoherence is below `bound`.
   * `.not` passes only when the lower end is at or above it.
   *
   * @example
   * ```ts
   * await expect(task).toHaveIncoherenceBelow(0.1, candidates, { confidence: 0.95, n: 1000 });
   * ```
   */
  toHaveIncoherenceBelow(
    bound: number,
    candidates: readonly Candidate[],
    options?: IncoherenceBelowOptions,
  ): Promise<R>;
  /**
   * The data supports "the received candidate (or trusted function) differs from the task's
   * reference on at most a `maxError` share of inputs" at confidence 1 − δ (exact binomial upper
   * bound); without `maxError`, no input may differ.
   *
   * @example
   * ```ts
   * await expect(candidate).toAgreeWithReference(task, { maxError: 0.01, n: 600 });
   * ```
   */
  toAgreeWithReference(task: Task, options?: AgreeWithReferenceOptions): Promise<R>;
  /**
   * Two score lists rank their items alike: Spearman's ρ (ties averaged) is at least
   * `minSpearman`. Arrays compare by position, records by name.
   *
   * @example
   * ```ts
   * expect({ gpt4o: 0.91, llama: 0.72 }).toRankLike({ gpt4o: 0.2, llama: 0.4 }, { minSpearman: -1 });
   * ```
   */
  toRankLike(expected: Scores, options: RankLikeOptions): R;
  /**
   * The report supports the stated order of models (best first) at the confidence: for every
   * stated pair "a above b", the simultaneous interval of their difference over the tasks both
   * were measured on (two-stage bootstrap over tasks and candidates, max-t over all pairs) lies on
   * a's side of 0, and they share at least `minSharedTasks(confidence)` tasks. The received value
   * is a crosscheck report (bench or test reporter), a bench result or a `rankModels` analysis.
   * Fails listing each unsupported pair and why (not separated, reversed, or not comparable).
   *
   * @example
   * ```ts
   * expect(report).toRankModels(['gpt-4o', 'llama-3-70b', 'llama-3-8b'], { confidence: 0.95 });
   * ```
   */
  toRankModels(order: readonly string[], options?: RankModelsOptions): R;
  /**
   * Semantic triangulation: some forward candidate has a plausibility witness (a program for the
   * transformed problem satisfying the hyperproperty with it), and RANSAC selects one. Fails on
   * abstention with the counterexamples. `.not` passes only when every pair fails.
   *
   * @example
   * ```ts
   * await expect(task).toBeTriangulatedBy(forward, { transformation: 'fwd-inv', witnesses: inverses });
   * ```
   */
  toBeTriangulatedBy(forward: readonly Candidate[], options: TriangulatedByOptions): Promise<R>;
  /**
   * The received candidate has at least `min` plausibility witnesses among `witnesses`.
   *
   * @example
   * ```ts
   * await expect(candidate).toHavePlausibilityWitness(task, { transformation: tri.fwdInv({ invert: 'a' }), witnesses: [inverse] });
   * ```
   */
  toHavePlausibilityWitness(task: Task, options: PlausibilityWitnessOptions): Promise<R>;
  /**
   * Grounded review (TRAILS): an LLM judge that never sees the code finds at least a `threshold`
   * share (default 0.8) of the candidate's outputs conforming to the task's description, on inputs
   * generated per scenario of the specification. A judged review, not a proof. With an array,
   * every candidate must pass (one review per equivalence class). A failure lists every rejected
   * triple (scenario, input, output, the judge's reason) and the seed.
   *
   * @example
   * ```ts
   * await expect(candidate).toPassGroundedReview(task, { llm: createLlm(), threshold: 0.8 });
   * ```
   */
  toPassGroundedReview(task: Task, options?: GroundedReviewOptions): Promise<R>;
  /**
   * Metamorphic relation: each candidate keeps the relation between its output on an input drawn
   * by fast-check and its output (or a partner's) on the transformed input. A violation is shrunk
   * and shown with both calls, the seed and the path to replay; it proves the candidate (or the
   * partner) wrong on at least one of the two calls. `.not` passes only on a witnessed violation.
   *
   * @example
   * ```ts
   * await expect(task).toSatisfyRelation(relations.permutation(), candidates, { numRuns: 50 });
   * ```
   */
  toSatisfyRelation(
    relation: Relation,
    candidates: readonly Candidate[],
    options?: SatisfyRelationOptions,
  ): Promise<R>;
}
