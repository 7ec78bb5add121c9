import { CrosscheckError, describeValue } from '../errors/index.ts';
import { checkProbability, type Interval } from './hoeffding.ts';

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export const normalQuantile = (p: number): number => {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const poly = (k: number[], x: number): number => k.reduce((acc, v) => acc * x + v, 0);
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(c, q) / (poly(d, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
};

/**
 * Wilson score interval for a binomial proportion `k / n` at confidence 1 − δ. Tighter than
 * Hoeffding when the proportion is near 0 or 1 (a detection rate, a pass rate over tasks); an
 * approximation, so the PAC guarantees of crosscheck use Hoeffding instead.
 * @public
 */
export const wilsonInterval = (k: number, n: number, delta: number): Interval => {
  const where = 'wilsonInterval(k, n, delta)';
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 0 || k > n) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected integers 0 <= k <= n with n >= 1, got k = ${describeValue(k)}, n = ${describeValue(n)}.`,
      { where },
    );
  }
  checkProbability('delta', delta, where);
  const z = normalQuantile(1 - delta / 2);
  const p = k / n;
  const z2n = (z * z) / n;
  const center = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / (1 + z2n);
  return {
    estimate: p,
    lower: Math.max(0, center - half),
    upper: Math.min(1, center + half),
    epsilon: half,
    delta,
    n,
  };
};

const checkCounts = (where: string, k: number, n: number): void => {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 0 || k > n) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected integers 0 <= k <= n with n >= 1, got k = ${describeValue(k)}, n = ${describeValue(n)}.`,
      { where },
    );
  }
};

/** log P(X ≤ k) for X ~ Binomial(n, p), 0 < p < 1, summed in log space (no under- or overflow). */
const logCdf = (k: number, n: number, p: number): number => {
  const step = Math.log(p) - Math.log1p(-p);
  let term = n * Math.log1p(-p);
  let max = term;
  const terms = [term];
  for (let i = 1; i <= k; i++) {
    term += Math.log((n - i + 1) / i) + step;
    terms.push(term);
    if (term > max) max = term;
  }
  return max + Math.log(terms.reduce((s, t) => s + Math.exp(t - max), 0));
};

/**
 * One-sided exact (Clopper–Pearson) upper confidence bound for a binomial proportion: the p at
 * which k or fewer successes in n trials have probability δ. The true proportion lies below it
 * with probability at least 1 − δ, for every n (no approximation). With k = 0 it is
 * 1 − δ^(1/n): after N clean trials, "p ≤ ε with confidence 1 − δ" for N = ⌈ln δ / ln(1 − ε)⌉.
 * @public
 */
export const binomialUpperBound = (k: number, n: number, delta: number): number => {
  const where = 'binomialUpperBound(k, n, delta)';
  checkCounts(where, k, n);
  checkProbability('delta', delta, where);
  if (k === n) return 1;
  if (k === 0) return 1 - delta ** (1 / n);
  // P(X ≤ k) falls as p grows: bisect for the p where it equals δ.
  const target = Math.log(delta);
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (logCdf(k, n, mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
};

/**
 * One-sided exact (Clopper–Pearson) lower confidence bound: the true proportion lies above it
 * with probability at least 1 − δ. 0 when k = 0.
 * @public
 */
export const binomialLowerBound = (k: number, n: number, delta: number): number => {
  const where = 'binomialLowerBound(k, n, delta)';
  checkCounts(where, k, n);
  checkProbability('delta', delta, where);
  return k === 0 ? 0 : 1 - binomialUpperBound(n - k, n, delta);
};
