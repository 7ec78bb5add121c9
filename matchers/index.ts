/**
 * The crosscheck matchers, host-neutral: each returns `{ pass, message, record }`. The entries
 * `crosscheck/vitest` and `crosscheck/jest` register them with `expect.extend` and deliver the
 * records.
 * @packageDocumentation
 */
import { toAgreeWithReference } from './to-agree-with-reference.ts';
import { toBeCoherentAcross } from './to-be-coherent-across.ts';
import { toBeTriangulatedBy } from './to-be-triangulated-by.ts';
import { toHaveIncoherenceBelow } from './to-have-incoherence-below.ts';
import { toHavePlausibilityWitness } from './to-have-plausibility-witness.ts';
import { toPassGroundedReview } from './to-pass-grounded-review.ts';
import { toRankLike } from './to-rank-like.ts';
import { toRankModels } from './to-rank-models.ts';
import { toSatisfyRelation } from './to-satisfy-relation.ts';

export type { CrosscheckMatcherResult, MatcherContext } from './context.ts';
export { configureSuite, type SuiteOptions } from './suite.ts';
export type {
  AgreeWithReferenceOptions,
  CoherentAcrossOptions,
  CrosscheckMatchers,
  GroundedReviewOptions,
  IncoherenceBelowOptions,
  PlausibilityWitnessOptions,
  RankLikeOptions,
  RankModelsOptions,
  SatisfyRelationOptions,
  Scores,
  TriangulatedByOptions,
} from './types.ts';
export {
  toAgreeWithReference,
  toBeCoherentAcross,
  toBeTriangulatedBy,
  toHaveIncoherenceBelow,
  toHavePlausibilityWitness,
  toPassGroundedReview,
  toRankLike,
  toRankModels,
  toSatisfyRelation,
};

/** Every matcher, by name. @public */
export const matchers = {
  toBeCoherentAcross,
  toHaveIncoherenceBelow,
  toAgreeWithReference,
  toRankLike,
  toRankModels,
  toBeTriangulatedBy,
  toHavePlausibilityWitness,
  toPassGroundedReview,
  toSatisfyRelation,
} as const;
