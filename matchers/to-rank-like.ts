import { rankingRecord } from '../src/report/index.ts';
import { averageRanks, spearman } from '../src/stats/index.ts';
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

/**
 * `expect(scoresA).toRankLike(scoresB, { minSpearman })`: Spearman's ρ (ties averaged) of the two
 * rankings is at least `minSpearman`.
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
  // ρ is undefined when a side is constant: no evidence either way, so `.not` fails too.
  const pass = Number.isFinite(rho) ? rho >= minSpearman : this.isNot === true;
  const record = rankingRecord(
    { spearman: rho, minSpearman, items: aligned.items, received: aligned.xs, expected: aligned.ys },
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
      summary: `Rankings of ${aligned.items.length} items compared by Spearman's ρ (ties averaged).\n${rows.join('\n')}`,
      expected: `${this.isNot ? 'ρ <' : 'ρ ≥'} ${num(minSpearman)}`,
      received: Number.isFinite(rho)
        ? `ρ = ${num(rho)}`
        : 'inconclusive: ρ is undefined, one side gives every item the same score',
    });
  // The two rankings, item by item, for the host's diff.
  const ranking = (ranks: readonly number[]) =>
    Object.fromEntries(aligned.items.map((item, k) => [item, ranks[k] as number]));
  return { pass, message, record, actual: ranking(ra), expected: ranking(rb) };
}
