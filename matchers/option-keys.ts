import { knownKeys } from '../src/errors/index.ts';
import { RUN_LIMIT_KEYS } from '../src/exec/index.ts';
import { RELATION_CHECK_KEYS } from '../src/metamorphic/index.ts';
import { REVIEW_KEYS } from '../src/review/index.ts';
import { TRIANGULATE_KEYS } from '../src/triangulate/index.ts';
import type {
  AgreeWithReferenceOptions,
  CoherentAcrossOptions,
  GroundedReviewOptions,
  IncoherenceBelowOptions,
  PlausibilityWitnessOptions,
  RankLikeOptions,
  SatisfyRelationOptions,
  TriangulatedByOptions,
} from './types.ts';

/** The options every run-based matcher shares with `measure` and `detect`. */
const SHARED = {
  inputs: true,
  seed: true,
  equality: true,
  compareErrorMessages: true,
  shrink: true,
  run: RUN_LIMIT_KEYS,
  unknown: true,
} as const;

/**
 * The keys each matcher's options may carry, one list per matcher, each checked against its
 * options interface at compile time (a key added to the interface but not here does not compile).
 */
export const MATCHER_KEYS = {
  toBeCoherentAcross: knownKeys<CoherentAcrossOptions>({ ...SHARED, epsilon: true, delta: true }),
  toHaveIncoherenceBelow: knownKeys<IncoherenceBelowOptions>({
    ...SHARED,
    n: true,
    estimator: true,
    minInputs: true,
    confidence: true,
  }),
  toAgreeWithReference: knownKeys<AgreeWithReferenceOptions>({
    ...SHARED,
    n: true,
    minInputs: true,
    maxError: true,
    delta: true,
  }),
  toRankLike: knownKeys<RankLikeOptions>({ minSpearman: true, alpha: true }),
  toBeTriangulatedBy: knownKeys<TriangulatedByOptions>({
    ...TRIANGULATE_KEYS,
    selects: true,
    minSupport: true,
  }),
  toHavePlausibilityWitness: knownKeys<PlausibilityWitnessOptions>({
    ...TRIANGULATE_KEYS,
    min: true,
  }),
  toPassGroundedReview: knownKeys<GroundedReviewOptions>(REVIEW_KEYS),
  toSatisfyRelation: knownKeys<SatisfyRelationOptions>(RELATION_CHECK_KEYS),
} as const;
