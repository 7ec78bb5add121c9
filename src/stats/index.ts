/**
 * Statistics: Hoeffding intervals, PAC detection sample sizes, binomial intervals, Spearman's ρ
 * and entropy. Pure functions, no I/O.
 * @packageDocumentation
 */

export {
  type AbstentionCounts,
  type AbstentionMetrics,
  abstentionIdentities,
  abstentionMetrics,
  countDecisions,
  decision,
  probCorrectUnderAgreement,
} from './abstention.ts';
export { adaptiveInterval } from './bernstein.ts';
export { binomialLowerBound, binomialUpperBound, wilsonInterval } from './binomial.ts';
export {
  type Confusion,
  confusion,
  correctStability,
  type LabelStability,
  mcc,
  p4,
} from './classification.ts';
export {
  CLASSIFICATION_INTERVAL_MINIMUM,
  type ClassificationInterval,
  classificationInterval,
  type LabelledProgram,
} from './classification-interval.ts';
export { entropy } from './entropy.ts';
export {
  bracketedInterval,
  hoeffdingHalfWidth,
  hoeffdingInterval,
  hoeffdingSamples,
  type Interval,
} from './hoeffding.ts';
/** Internal: the seeded generator behind every random choice of the statistics and measures. @internal */
export { mulberry32 } from './mulberry32.ts';
export { pacDetectionSamples } from './pac.ts';
export {
  type EstimateInterval,
  type MetricRanking,
  type ModelIntervals,
  minSharedTasks,
  type PairSeparation,
  type RankedModel,
  type RankingAnalysis,
  type RankingObservation,
  type RankingOptions,
  type RankMetric,
  rankModels,
} from './ranking.ts';
export { clopperPearson, tQuantile } from './small-sample.ts';
export { averageRanks, spearman, spearmanPValue } from './spearman.ts';
