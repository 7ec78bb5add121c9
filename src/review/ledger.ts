import type { ReviewCall } from './port.ts';
import type { ReviewLlmRecord, ReviewUsageTotals } from './types.ts';

/** Token and cost totals of calls; cost sums priced calls only and is null when none was priced. */
export const totals = (calls: readonly ReviewCall[]): ReviewUsageTotals => {
  let prompt = 0;
  let completion = 0;
  let cost: number | null = null;
  let unpricedCalls = 0;
  let unreportedCalls = 0;
  for (const c of calls) {
    if (c.prompt === null || c.completion === null) unreportedCalls++;
    prompt += c.prompt ?? 0;
    completion += c.completion ?? 0;
    if (c.costUsd === null) unpricedCalls++;
    else cost = (cost ?? 0) + c.costUsd;
  }
  return { calls: calls.length, prompt, completion, costUsd: cost, unpricedCalls, unreportedCalls };
};

/** The record of a review's calls, live and replayed apart (a replayed call is not spent today). */
export const tallyCalls = (
  calls: readonly ReviewCall[],
  generatorModel: string,
  judgeModel: string,
): ReviewLlmRecord => ({
  calls: [...calls],
  live: totals(calls.filter((c) => c.live)),
  replayed: totals(calls.filter((c) => !c.live)),
  generatorModel,
  judgeModel,
});
