import { readPositiveInt, readProbability } from '../errors/index.ts';

/** Checks a probability strictly between 0 and 1 (δ, ε, confidence). @internal */
export const checkProbability = (field: string, value: unknown, where: string): number =>
  readProbability({ where, field }, value);

/**
 * Half-width ε of the two-sided Hoeffding interval for the mean of `n` independent values in
 * [0, 1] at confidence 1 − δ: ε = √(ln(2/δ) / (2n)), so P(|mean − truth| ≥ ε) ≤ δ.
 * @public
 */
export const hoeffdingHalfWidth = (n: number, delta: number): number => {
  const where = 'hoeffdingHalfWidth(n, delta)';
  readPositiveInt({ where, field: 'n' }, n);
  checkProbability('delta', delta, where);
  return Math.sqrt(Math.log(2 / delta) / (2 * n));
};

/**
 * Inputs needed for a two-sided Hoeffding interval of half-width ε at confidence 1 − δ:
 * N = ⌈ln(2/δ) / (2ε²)⌉ (Theorem 4.2 of the incoherence paper).
 * @public
 */
export const hoeffdingSamples = (epsilon: number, delta: number): number => {
  const where = 'hoeffdingSamples(epsilon, delta)';
  checkProbability('epsilon', epsilon, where);
  checkProbability('delta', delta, where);
  return Math.ceil(Math.log(2 / delta) / (2 * epsilon * epsilon));
};

/** A two-sided confidence interval around an estimate, clamped to [0, 1]. @public */
export interface Interval {
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  /** Half-width before clamping. */
  readonly epsilon: number;
  /** The interval holds the truth with probability at least 1 − δ. */
  readonly delta: number;
  /** Independent observations behind the estimate. */
  readonly n: number;
}

/** The Hoeffding interval of a mean of `n` values in [0, 1]. @public */
export const hoeffdingInterval = (estimate: number, n: number, delta: number): Interval => {
  const epsilon = hoeffdingHalfWidth(n, delta);
  return {
    estimate,
    lower: Math.max(0, estimate - epsilon),
    upper: Math.min(1, estimate + epsilon),
    epsilon,
    delta,
    n,
  };
};

/**
 * The Hoeffding interval of a mean that is only known to lie in [`low`, `high`] (some of the `n`
 * values were not observed, so they count as 0 for `low` and 1 for `high`): the truth lies in
 * [low − ε, high + ε] with probability at least 1 − δ, because the unobserved full-sample mean
 * does. `estimate` (within [low, high]) is the mean of the observed values.
 * @public
 */
export const bracketedInterval = (
  estimate: number,
  low: number,
  high: number,
  n: number,
  delta: number,
): Interval => {
  const epsilon = hoeffdingHalfWidth(n, delta);
  return {
    estimate,
    lower: Math.max(0, low - epsilon),
    upper: Math.min(1, high + epsilon),
    epsilon,
    delta,
    n,
  };
};
