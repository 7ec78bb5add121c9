import { readProbability } from '../src/errors/index.ts';
import { rankingRecord } from '../src/report/index.ts';
import { averageRanks, spearman, spearmanPValue } from '../src/stats/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { checkOptions } from './guards.ts';
import { formatMessage, misuse, num } from './message.ts';
import type { RankLikeOptions, Scores } from './types.ts';

const NAME = 'toRankLike';

const isScores = (x: unknown): x is Scores =>
  typeof x === 'object' &&
  x !== null &&
  (Array.isArray(x) ? x : Object.values(x)).every((v) => typeof v === 'number' && Number.isFinite(v));

/** Aligns two score lists: by position for arrays, by name for records. */
const align = (a: Scores, b: Scores): { items: string[]; xs: number[]; ys: number[] } | string => {
  if (Array.isArray(a) !== Array.isArray(b)) return 'both sides must be arrays, or both records';
  if (Array.isArray(a)) {
    const bs = b as readonly number[];
    if (a.length !== bs.length) return `the arrays differ in length (${a.length} vs ${bs.length})`;
    return { items: a.map((_, i) => String(i)), xs: [...a], ys: [...bs] };
  }
  const ra = a as Readonly<Record<string, number>>;
  const rb = b as Readonly<Record<string, number>>;
  const items = Object.keys(ra).sort();
  const missing = [
    ...items.filter((k) => !Object.hasOwn(rb, k)),
    ...Object.keys(rb).filter((k) => !Object.hasOwn(ra, k)),
  ];
  if (missing.length > 0)
    return `the records must name the same items; only on one side: ${missing.join(', ')}`;
  return { items, xs: items.map((k) => ra[k] as number), ys: items.map((k) => rb[k] as number) };
};

/** The fewest items at which a perfect agreement (ρ = 1, p = 1/n!) reaches p ≤ α. */
const fewestItems = (alpha: number): number => {
  let n = 2;
  let orders = 2;
  while (1 / orders > alpha) orders *= ++n;
  return n;
};

/** ρ between n items ranked alike but for one swap of neighbours: 1 − 12 / (n³ − n). */
const oneSwapRho = (n: number): number => 1 - 12 / (n ** 3 - n);

/**
 * Why `minSpearman` has no default, and a value to start from. How alike two rankings must be is
 * the claim the test makes, and ρ moves in steps set by the number of items (3 items: 1, 0.5,
 * −0.5, −1), so one default would be too strict for few items and too lax for many.
 */
const missingMinimum = (received: Scores): string => {
  const n = Array.isArray(received) ? received.length : Object.keys(received).length;
  const example =
    n >= 3
      ? ` With these ${n} items, one swap of two neighbours gives ρ = ${num(oneSwapRho(n))}: { minSpearman: ${num(Math.floor(oneSwapRho(n) * 100) / 100)} } allows it, { minSpearman: 1 } asks for the same order.`
      : '';
  return (
    'Pass the smallest Spearman ρ (in [-1, 1]) at which the two rankings count as alike, e.g. ' +
    '{ minSpearman: 0.8 }; there is no default, since how close rankings must be is your claim and ' +
    `ρ moves in steps that depend on the number of items.${example}`
  );
};

/**
 * `expect(scoresA).toRankLike(scoresB, { minSpearman, alpha })`: Spearman's ρ (ties averaged) of
 * the two rankings is at least `minSpearman`, and unrelated orders reach that ρ with probability
 * at most `alpha` (the permutation p-value, exact up to 8 items). With few items even ρ = 1
 * arises by chance (1 time in 6 with 3 items), so the check then fails as inconclusive instead
 * of passing. `.not` passes when ρ is below `minSpearman`.
 * @public
 */
export function toRankLike(
  this: MatcherContext,
  received: Scores,
  expected: Scores,
  options: RankLikeOptions,
): CrosscheckMatcherResult {
  checkOptions({ name: NAME, anchor: toRankLike }, options);
  if (!isScores(received)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      'the received value must be an array or a record of finite numbers',
      received,
      'Write expect([0.9, 0.7]).toRankLike([0.8, 0.5], { minSpearman: 0.8 }).',
      toRankLike,
    );
  }
  if (!isScores(expected)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`expected` must be an array or a record of finite numbers',
      expected,
      'Pass scores of the same items.',
      toRankLike,
    );
  }
  const minSpearman = options?.minSpearman;
  if (minSpearman === undefined) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`minSpearman` is required',
      minSpearman,
      missingMinimum(received),
      toRankLike,
    );
  }
  if (typeof minSpearman !== 'number' || !(minSpearman >= -1 && minSpearman <= 1)) {
    misuse(
      'INVALID_OPTION',
      NAME,
      '`minSpearman` must be a number in [-1, 1]',
      minSpearman,
      'Pass e.g. { minSpearman: 0.8 }.',
      toRankLike,
    );
  }
  const alpha = readProbability(
    { where: `${NAME}(expected, options)`, field: 'alpha' },
    options?.alpha,
    0.05,
  );
  const aligned = align(received, expected);
  if (typeof aligned === 'string' || aligned.items.length < 2) {
    return misuse(
      'INVALID_OPTION',
      NAME,
      typeof aligned === 'string' ? aligned : 'at least two items are needed to rank',
      received,
      'Give scores of the same items on both sides.',
      toRankLike,
    );
  }
  const rho = spearman(aligned.xs, aligned.ys);
  const n = aligned.items.length;
  const pValue = spearmanPValue(aligned.xs, aligned.ys);
  // ρ at the threshold, but no more often than chance allows at α: the items cannot support it.
  const chance =
    Number.isFinite(rho) && rho >= minSpearman && pValue > alpha
      ? `with ${n} items unrelated orders reach ρ ≥ ${num(rho)} with probability ${num(pValue)} (permutation p-value${n <= 8 ? ', exact' : ''}), above α = ${num(alpha)}; ${n < fewestItems(alpha) ? `no ranking of fewer than ${fewestItems(alpha)} items can pass at this α` : 'more items, or a larger α, are needed'}`
      : null;
  // ρ is undefined when a side is constant: no evidence either way, so `.not` fails too. Too few
  // items for the threshold fails both ways as well.
  const pass = Number.isFinite(rho)
    ? this.isNot
      ? rho >= minSpearman
      : rho >= minSpearman && chance === null
    : this.isNot === true;
  const record = rankingRecord(
    {
      spearman: rho,
      minSpearman,
      items: aligned.items,
      received: aligned.xs,
      expected: aligned.ys,
      pValue,
      alpha,
      inconclusive: chance,
    },
    recordContext(this, NAME, pass),
  );
  const ra = averageRanks(aligned.xs);
  const rb = averageRanks(aligned.ys);
  const rows = aligned.items.map((item, k) => `  ${item}: rank ${ra[k]} vs ${rb[k]}`);
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'scores',
      expectedName: 'expected',
      summary: `Rankings of ${n} items compared by Spearman's ρ (ties averaged).\n${rows.join('\n')}`,
      expected: this.isNot
        ? `ρ < ${num(minSpearman)}`
        : `ρ ≥ ${num(minSpearman)}, with permutation p-value ≤ α = ${num(alpha)}`,
      received: !Number.isFinite(rho)
        ? 'inconclusive: ρ is undefined, one side gives every item the same score'
        : chance !== null && !this.isNot
          ? `inconclusive: ρ = ${num(rho)} over ${n} items, but ${chance}`
          : `ρ = ${num(rho)} over ${n} items (permutation p-value ${num(pValue)})`,
    });
  // The two rankings, item by item, for the host's diff.
  const ranking = (ranks: readonly number[]) =>
    Object.fromEntries(aligned.items.map((item, k) => [item, ranks[k] as number]));
  return { pass, message, record, actual: ranking(ra), expected: ranking(rb) };
}
