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
export { entropy } from './entropy.ts';
export {
  bracketedInterval,
  hoeffdingHalfWidth,
  hoeffdingInterval,
  hoeffdingSamples,
  type Interval,
} from './hoeffding.ts';
export { pacDetectionSamples } from './pac.ts';
export { averageRanks, spearman, spearmanPValue } from './spearman.ts';
