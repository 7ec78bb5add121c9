import { benchReportRanking } from '../src/bench/index.ts';
import { checkKeys, knownKeys, optionError, readOneOf, readProbability } from '../src/errors/index.ts';
import {
  type CrosscheckReport,
  isRankingAnalysis,
  orderRecord,
  rankTaskPoints,
} from '../src/report/index.ts';
import { type MetricRanking, minSharedTasks, type RankingAnalysis } from '../src/stats/index.ts';
import { type CrosscheckMatcherResult, type MatcherContext, recordContext } from './context.ts';
import { formatMessage, misuse, num, pct } from './message.ts';
import type { RankModelsOptions } from './types.ts';

const NAME = 'toRankModels';
const WHERE = `${NAME}(order, options)`;
const OPTION_KEYS = knownKeys<RankModelsOptions>({ confidence: true, metric: true });

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const readOptions = (options: unknown): Required<RankModelsOptions> => {
  if (options !== undefined && !isObject(options))
    throw optionError({
      where: WHERE,
      field: 'options',
      rule: 'must be an object',
      got: options,
      example: { confidence: 0.95 },
    });
  const o = (options ?? {}) as Record<string, unknown>;
  checkKeys({ where: WHERE }, o, OPTION_KEYS);
  return {
    confidence: readProbability({ where: WHERE, field: 'confidence' }, o.confidence, 0.95),
    metric:
      o.metric === undefined
        ? 'incoherence'
        : readOneOf({ where: WHERE, field: 'metric' }, o.metric, ['incoherence', 'error'] as const),
  };
};

/**
 * The ranking at the asked confidence from what was received: a bench report (ranked again from
 * its pairs), a test reporter's report (from its task points), a bench result, or a
 * `rankModels` analysis (which must have been computed at that confidence).
 */
const rankingOf = (received: unknown, confidence: number): RankingAnalysis | null => {
  if (isRankingAnalysis(received)) {
    if (Math.abs(received.confidence - confidence) > 1e-12)
      misuse(
        'INVALID_OPTION',
        NAME,
        `the analysis was computed at confidence ${received.confidence}, not ${confidence}`,
        confidence,
        `Rank at that confidence (rankModels(observations, { confidence: ${confidence} })) or assert at ${received.confidence}.`,
        toRankModels,
      );
    return received;
  }
  if (isObject(received) && received.report !== undefined && isObject(received.report))
    return rankingOf(received.report, confidence);
  if (isObject(received) && received.schema !== undefined && isObject(received.summary)) {
    const report = received as unknown as CrosscheckReport;
    if (report.bench !== undefined) return benchReportRanking(report, confidence);
    return rankTaskPoints(report.summary.points, confidence);
  }
  return misuse(
    'INVALID_INPUT',
    NAME,
    'the received value must be a crosscheck report (bench or test reporter), a bench result or a rankModels analysis',
    received,
    'Write e.g. expect(JSON.parse(readFileSync("bench.json", "utf8"))).toRankModels(["a", "b"], { confidence: 0.95 }).',
    toRankModels,
  );
};

/** Each stated "above over below" (every pair of the order, not only neighbours) and whether the ranking separates it. */
const unsupportedPairs = (ranking: MetricRanking, order: readonly string[], confidence: number) => {
  const out: { above: string; below: string; reason: string }[] = [];
  const need = minSharedTasks(confidence);
  for (let i = 0; i < order.length; i++)
    for (let j = i + 1; j < order.length; j++) {
      const above = order[i] as string;
      const below = order[j] as string;
      const pair = ranking.pairs.find(
        (p) => (p.better === above && p.worse === below) || (p.better === below && p.worse === above),
      );
      if (!pair) {
        out.push({ above, below, reason: 'not compared (a model without this figure)' });
        continue;
      }
      const interval = `difference ${num(pair.difference)} [${num(pair.low)}, ${num(pair.high)}]`;
      if (pair.better === above && pair.separated) continue;
      // Too few shared tasks: no figure could have separated them, so say that rather than a spread.
      if (typeof pair.sharedTasks === 'number' && pair.sharedTasks < need) {
        out.push({
          above,
          below,
          reason:
            pair.sharedTasks === 0
              ? `not comparable: ${above} and ${below} have no task in common, and a pair is compared only on the tasks both were measured on`
              : `not comparable: ${above} and ${below} share ${pair.sharedTasks} task${pair.sharedTasks === 1 ? '' : 's'}; separating at ${pct(confidence)} takes at least ${need} (with k shared tasks, even k differences all one way happen by chance with probability 2^(1−k))`,
        });
        continue;
      }
      if (pair.better === above)
        out.push({
          above,
          below,
          reason: `not separated: ${interval}, better in ${pct(pair.probabilityBetter)} of resamples`,
        });
      else
        out.push({
          above,
          below,
          reason: pair.separated
            ? `reversed: ${below} is separated above ${above} (${interval})`
            : `not separated, and ${below} has the better estimate: ${interval}`,
        });
    }
  return out;
};

/**
 * `expect(report).toRankModels(['a', 'b', 'c'], { confidence })`: every stated "a above b" (each
 * pair of the order) is separated at the confidence: the simultaneous interval of the difference
 * excludes 0 in the stated direction. Fails listing the unsupported pairs.
 * @public
 */
export function toRankModels(
  this: MatcherContext,
  received: unknown,
  order: readonly string[],
  options?: RankModelsOptions,
): CrosscheckMatcherResult {
  const o = readOptions(options);
  if (
    !Array.isArray(order) ||
    order.length < 2 ||
    !order.every((x) => typeof x === 'string' && x !== '') ||
    new Set(order).size !== order.length
  )
    misuse(
      'INVALID_OPTION',
      NAME,
      '`order` must list at least two distinct model names, best first',
      order,
      'Write e.g. toRankModels(["gpt-4o", "llama-3-8b"], { confidence: 0.95 }).',
      toRankModels,
    );
  const analysis = rankingOf(received, o.confidence);
  const ranking = analysis?.rankings[o.metric] ?? null;
  if (!analysis || !ranking)
    return misuse(
      'INVALID_INPUT',
      NAME,
      `the received report ranks no models by ${o.metric} (fewer than two models${o.metric === 'error' ? ', or no reference' : ''})`,
      o.metric,
      'Rank a report of at least two models (tags: { model }) on shared tasks.',
      toRankModels,
    );
  const known = new Set(ranking.models.map((m) => m.model));
  const unknown = order.filter((m) => !known.has(m));
  if (unknown.length > 0)
    misuse(
      'INVALID_OPTION',
      NAME,
      `\`order\` names models the ranking does not have: ${unknown.join(', ')}`,
      order,
      `The ranked models are ${[...known].join(', ')}.`,
      toRankModels,
    );
  const unsupported = unsupportedPairs(ranking, order, o.confidence);
  const pass = unsupported.length === 0;
  const ranks = order.map((model) => {
    const r = ranking.models.find((m) => m.model === model);
    return { model, rank: r?.rank ?? 0, rankLow: r?.rankLow ?? 0, rankHigh: r?.rankHigh ?? 0 };
  });
  const record = orderRecord(
    { metric: o.metric, confidence: o.confidence, stated: [...order], unsupported, ranks },
    recordContext(this, NAME, pass),
  );
  const rows = ranking.models
    .filter((m) => order.includes(m.model))
    .map(
      (m) =>
        `  ${m.model}: rank ${m.rank} [${m.rankLow}–${m.rankHigh}], ${o.metric} ${num(m.estimate)} [${num(m.low)}, ${num(m.high)}], group ${m.group}`,
    );
  const message = () =>
    formatMessage(this, {
      matcher: NAME,
      receivedName: 'report',
      expectedName: 'order',
      summary: `Models ranked by mean ${o.metric} over ${analysis.tasks} tasks, ${pct(o.confidence)} simultaneous intervals (two-stage bootstrap, ${analysis.resamples} resamples, seed ${analysis.seed}).\n${rows.join('\n')}`,
      expected: `${this.isNot ? 'some stated pair not separated in' : 'every stated pair separated in'} ${order.join(' > ')}`,
      received: pass
        ? `all ${(order.length * (order.length - 1)) / 2} stated pairs separated`
        : `${unsupported.length} of ${(order.length * (order.length - 1)) / 2} stated pairs not supported`,
      details: unsupported.map((u) => ['Unsupported', `${u.above} above ${u.below}: ${u.reason}`] as const),
      hints: pass
        ? []
        : [
            `groups that cannot be told apart: ${ranking.groups.map((g) => `{${g.join(', ')}}`).join(' > ')}; state an order between groups, or measure more tasks.`,
          ],
    });
  return { pass, message, record };
}
