import { CrosscheckError, describeValue } from '../errors/index.ts';

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
