/**
 * Statistics: Hoeffding intervals, PAC detection sample sizes, binomial intervals, Spearman's ρ
 * and entropy. Pure functions, no I/O.
 * @packageDocumentation
 */

export { adaptiveInterval } from './bernstein.ts';
export { wilsonInterval } from './binomial.ts';
export { entropy } from './entropy.ts';
export {
  bracketedInterval,
  hoeffdingHalfWidth,
  hoeffdingInterval,
  hoeffdingSamples,
  type Interval,
} from './hoeffding.ts';
export { pacDetectionSamples } from './pac.ts';
export { averageRanks, spearman } from './spearman.ts';
