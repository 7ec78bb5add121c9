import type { ReviewData, ReviewUsageRecord } from '../report/index.ts';
import type { PoolReview } from './pool.ts';
import type { Review, ReviewUsageTotals } from './types.ts';

const MAX_INPUTS = 60;

const usage = (t: ReviewUsageTotals): ReviewUsageRecord => ({
  calls: t.calls,
  prompt: t.prompt,
  completion: t.completion,
  costUsd: t.costUsd,
  unpricedCalls: t.unpricedCalls,
});

/** The record payload of a review; `truth` when the caller knows it (benchmark). @public */
export const reviewData = (
  r: Review,
  truth: 'correct' | 'incorrect' | null = null,
  pool: PoolReview | null = null,
): ReviewData => ({
  method: 'trails',
  extensions: [...r.extensions],
  threshold: r.threshold,
  calibration: r.calibration ? { ...r.calibration } : null,
  score: r.score,
  verdict: r.verdict,
  reason: r.reason,
  counts: { ...r.counts },
  scenarios: r.scenarios.map((s) => ({
    id: s.id,
    title: s.title,
    status: s.status,
    steps: s.steps,
    kept: s.inputs.length,
  })),
  // Rejections first, so a cap never hides the triples that explain a failure.
  inputs: r.scenarios
    .flatMap((s) =>
      s.inputs.map((x) => ({
        scenario: s.id,
        input: x.input,
        output: x.output,
        verdict: x.verdict,
        reason: x.reason,
      })),
    )
    .sort((a, b) => Number(a.verdict !== 'INCORRECT') - Number(b.verdict !== 'INCORRECT'))
    .slice(0, MAX_INPUTS),
  generatorModel: r.llm.generatorModel,
  judgeModel: r.llm.judgeModel,
  dedup: r.dedup,
  truth,
  usage: { live: usage(r.llm.live), replayed: usage(r.llm.replayed) },
  classes: pool
    ? pool.classes.map((c) => ({
        labels: [...c.labels],
        share: c.share,
        verdict: c.review.verdict,
        score: c.review.score,
      }))
    : null,
});

/** All tokens of the calls behind a review, and their cost (null when no call was priced). */
export const reviewTokens = (
  llm: Review['llm'],
): { prompt: number; completion: number; costUsd: number | null } => {
  const cost =
    llm.live.costUsd === null && llm.replayed.costUsd === null
      ? null
      : (llm.live.costUsd ?? 0) + (llm.replayed.costUsd ?? 0);
  return {
    prompt: llm.live.prompt + llm.replayed.prompt,
    completion: llm.live.completion + llm.replayed.completion,
    costUsd: cost,
  };
};
