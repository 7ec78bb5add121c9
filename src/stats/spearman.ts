import { CrosscheckError, describeValue } from '../errors/index.ts';
import { mulberry32 } from './mulberry32.ts';

/** Ranks starting at 1; tied values share the mean of the ranks they span. @public */
export const averageRanks = (xs: readonly number[]): number[] => {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.[0] === order[start]?.[0]) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[(order[k] as readonly [number, number])[1]] = rank;
    start = end + 1;
  }
  return ranks;
};

const pearson = (xs: readonly number[], ys: readonly number[]): number => {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
};

/**
 * Spearman's rank correlation ρ with ties handled by average ranks (Pearson correlation of the
 * ranks, as `scipy.stats.spearmanr`). NaN when either side is constant: no ranking to compare.
 * @public
 */
export const spearman = (xs: readonly number[], ys: readonly number[]): number => {
  const where = 'spearman(xs, ys)';
  const ok = (v: unknown): v is number[] =>
    Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
  if (!ok(xs) || !ok(ys) || xs.length !== ys.length || xs.length < 2) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected two arrays of finite numbers of the same length (at least 2), got ${describeValue(xs)} and ${describeValue(ys)}.`,
      { where },
    );
  }
  return pearson(averageRanks(xs), averageRanks(ys));
};

/** Items up to which {@link spearmanPValue} enumerates every permutation (8! = 40,320). */
const EXACT_ITEMS = 8;
/** Random permutations drawn above {@link EXACT_ITEMS}: the p-value's Monte Carlo error is below 0.004. */
const RANDOM_PERMUTATIONS = 20_000;

/** Seeded, so the same scores always give the same p-value. */
const seeded = (seed: number): (() => number) => mulberry32(seed);

/** Calls `visit` with every permutation of `a` (Heap's algorithm, in place). */
const permutations = (a: number[], visit: (p: readonly number[]) => void): void => {
  const c = a.map(() => 0);
  visit(a);
  for (let i = 1; i < a.length; ) {
    if ((c[i] as number) < i) {
      const k = i % 2 === 0 ? 0 : (c[i] as number);
      [a[k], a[i]] = [a[i] as number, a[k] as number];
      visit(a);
      c[i] = (c[i] as number) + 1;
      i = 1;
    } else {
      c[i] = 0;
      i++;
    }
  }
};

/**
 * One-sided permutation p-value of Spearman's ρ: the chance that an unrelated order (the items of
 * `ys` shuffled uniformly against `xs`) gives ρ at least as large as the observed one. Exact (all
 * n! orders) up to 8 items; above, from 20,000 seeded random orders, as (1 + hits) / (1 + draws),
 * which is itself a valid p-value. With 3 items no ρ has p below 1/6, with 4 below 1/24: a
 * threshold on ρ alone cannot tell such rankings from chance. NaN when ρ is.
 * @public
 */
export const spearmanPValue = (xs: readonly number[], ys: readonly number[]): number => {
  const observed = spearman(xs, ys);
  if (!Number.isFinite(observed)) return Number.NaN;
  const ra = averageRanks(xs);
  const rb = averageRanks(ys);
  const n = ra.length;
  const mean = (n + 1) / 2;
  const da = ra.map((r) => r - mean);
  // Only the cross term of ρ changes under a shuffle of rb; compare it, with a float margin.
  const cross = (perm: readonly number[]): number => {
    let s = 0;
    for (let i = 0; i < n; i++) s += (da[i] as number) * ((perm[i] as number) - mean);
    return s;
  };
  const threshold = cross(rb) - 1e-9;
  let hits = 0;
  let total = 0;
  if (n <= EXACT_ITEMS) {
    permutations([...rb], (p) => {
      total++;
      if (cross(p) >= threshold) hits++;
    });
    return hits / total;
  }
  const random = seeded(n * 0x9e3779b1);
  const perm = [...rb];
  for (let d = 0; d < RANDOM_PERMUTATIONS; d++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [perm[i], perm[j]] = [perm[j] as number, perm[i] as number];
    }
    if (cross(perm) >= threshold) hits++;
  }
  return (1 + hits) / (1 + RANDOM_PERMUTATIONS);
};
