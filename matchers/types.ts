import type { Candidate } from '../src/candidates/index.ts';
import type { Args } from '../src/contract/index.ts';
import type { DetectOptions, MeasureOptions } from '../src/measure/index.ts';
import type { Task } from '../src/task/index.ts';

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
    'inputs' | 'n' | 'seed' | 'equality' | 'compareErrorMessages' | 'shrink' | 'run' | 'unknown' | 'minInputs'
  > {
  /**
   * Largest tolerated share of inputs on which the candidate differs from the reference.
   * @defaultValue 0
   */
  maxError?: number;
}

/** Options of `toRankLike`. @public */
export interface RankLikeOptions {
  /** Smallest acceptable Spearman ρ between the two rankings, in [-1, 1]. */
  minSpearman: number;
}

/** Scores of items to rank: by position, or by name (both sides need the same names). @public */
export type Scores = readonly number[] | Readonly<Record<string, number>>;

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
   * The received candidate (or trusted function) differs from the task's reference on at most
   * a `maxError` share of inputs (default 0: never).
   *
   * @example
   * ```ts
   * await expect(candidate).toAgreeWithReference(task, { maxError: 0 });
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
}
