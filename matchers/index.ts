/**
 * The crosscheck matchers, host-neutral: each returns `{ pass, message, record }`. The entries
 * `crosscheck/vitest` and `crosscheck/jest` register them with `expect.extend` and deliver the
 * records.
 * @packageDocumentation
 */
import { toAgreeWithReference } from './to-agree-with-reference.ts';
import { toBeCoherentAcross } from './to-be-coherent-across.ts';
import { toHaveIncoherenceBelow } from './to-have-incoherence-below.ts';
import { toPassGroundedReview } from './to-pass-grounded-review.ts';
import { toRankLike } from './to-rank-like.ts';

export type { CrosscheckMatcherResult, MatcherContext } from './context.ts';
export type {
  AgreeWithReferenceOptions,
  CoherentAcrossOptions,
  CrosscheckMatchers,
  GroundedReviewOptions,
  IncoherenceBelowOptions,
  RankLikeOptions,
  Scores,
} from './types.ts';
export { toAgreeWithReference, toBeCoherentAcross, toHaveIncoherenceBelow, toPassGroundedReview, toRankLike };

/** Every matcher, by name. @public */
export const matchers = {
  toBeCoherentAcross,
  toHaveIncoherenceBelow,
  toAgreeWithReference,
  toRankLike,
  toPassGroundedReview,
} as const;
