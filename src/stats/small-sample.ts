import { normalQuantile } from './binomial.ts';

/**
 * Small-sample tools of the ranking statistics: Student's t quantiles (intervals over few tasks)
 * and the exact (Clopper–Pearson) binomial interval (shares of tasks).
 */

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 through erf; absolute error < 1.5e-7). */
export const normalCdf = (x: number): number => {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
};

/**
 * Student's t quantile with `df` degrees of freedom (Cornish–Fisher expansion about the normal
 * quantile, Abramowitz–Stegun 26.7.5; within 1% of the exact value for df ≥ 3 at p ≤ 0.9995).
 * Wider than the normal quantile for few degrees of freedom: intervals over 10 tasks must be.
 */
export const tQuantile = (p: number, df: number): number => {
  const z = normalQuantile(p);
  if (!Number.isFinite(df) || df > 1e6) return z;
  const v = Math.max(1, df);
  const z2 = z * z;
  const g1 = (z2 * z + z) / 4;
  const g2 = (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / 96;
  const g3 = (3 * z2 ** 3 * z + 19 * z2 * z2 * z + 17 * z2 * z - 15 * z) / 384;
  const g4 = (79 * z2 ** 4 * z + 776 * z2 ** 3 * z + 1482 * z2 * z2 * z - 1920 * z2 * z - 945 * z) / 92160;
  return z + g1 / v + g2 / v ** 2 + g3 / v ** 3 + g4 / v ** 4;
};

/** P(X ≥ k) for X ~ Binomial(n, p), summed in log space (n up to millions of tasks is not needed). */
const upperTail = (k: number, n: number, p: number): number => {
  if (k <= 0) return 1;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  let logPmf = n * Math.log1p(-p); // P(X = 0)
  let cdfBelow = 0;
  const ratio = Math.log(p) - Math.log1p(-p);
  for (let x = 0; x < k; x++) {
    cdfBelow += Math.exp(logPmf);
    logPmf += Math.log((n - x) / (x + 1)) + ratio;
  }
  return Math.max(0, 1 - cdfBelow);
};

/**
 * The exact binomial interval (Clopper–Pearson) of `k` successes in `n` trials at confidence
 * 1 − α: conservative, so its coverage is at least 1 − α for every true share, including 0 and 1
 * where a normal interval collapses. Bisection on the binomial tails.
 */
export const clopperPearson = (k: number, n: number, alpha: number): { low: number; high: number } => {
  const solve = (f: (p: number) => number): number => {
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (f(mid) < 0) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  // low: P(X ≥ k | p) = α/2 (increasing in p); high: P(X ≤ k | p) = α/2 (decreasing in p).
  const low = k === 0 ? 0 : solve((p) => upperTail(k, n, p) - alpha / 2);
  const high = k === n ? 1 : solve((p) => alpha / 2 - (1 - upperTail(k + 1, n, p)));
  return { low, high };
};
