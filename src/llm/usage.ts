import type { LlmUsage } from '../candidates/index.ts';
import type { LlmCall, Price, UsageLedger, UsageTotals } from './types.ts';

const count = (x: unknown): number | null =>
  typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : null;

/** Usage from an OpenAI `usage` object; what the server omitted is null, never 0. */
export const usageFrom = (raw: unknown): LlmUsage => {
  const u = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const pd = (u.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cd = (u.completion_tokens_details ?? {}) as Record<string, unknown>;
  return {
    prompt: count(u.prompt_tokens),
    cachedPrompt: count(pd?.cached_tokens),
    completion: count(u.completion_tokens),
    reasoning: count(cd?.reasoning_tokens),
    apportioned: false,
  };
};

/** Two usages summed (a count is null only when both are). */
export const addUsage = (a: LlmUsage | null, b: LlmUsage): LlmUsage => {
  if (a === null) return b;
  const sum = (x: number | null, y: number | null) => (x === null && y === null ? null : (x ?? 0) + (y ?? 0));
  return {
    prompt: sum(a.prompt, b.prompt),
    cachedPrompt: sum(a.cachedPrompt, b.cachedPrompt),
    completion: sum(a.completion, b.completion),
    reasoning: sum(a.reasoning, b.reasoning),
    apportioned: a.apportioned || b.apportioned,
  };
};

/** One n-request's usage shared among k samples; the rounding remainder goes to the first ones. */
export const apportion = (u: LlmUsage, k: number): LlmUsage[] => {
  const split = (x: number | null, i: number): number | null =>
    x === null ? null : Math.floor(x / k) + (i < x % k ? 1 : 0);
  return Array.from({ length: k }, (_, i) => ({
    prompt: split(u.prompt, i),
    cachedPrompt: split(u.cachedPrompt, i),
    completion: split(u.completion, i),
    reasoning: split(u.reasoning, i),
    apportioned: k > 1,
  }));
};

/**
 * USD cost: [(prompt - cached)·input + cached·(cachedInput ?? input) + completion·output] / 10⁶.
 * Null without a price, or when the server reported no token counts.
 */
export const costOf = (u: LlmUsage, price: Price | undefined): number | null => {
  if (price === undefined || u.prompt === null || u.completion === null) return null;
  const cached = Math.min(u.cachedPrompt ?? 0, u.prompt);
  return (
    ((u.prompt - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      u.completion * price.output) /
    1e6
  );
};

const emptyTotals = (): { -readonly [K in keyof UsageTotals]: UsageTotals[K] } => ({
  calls: 0,
  prompt: 0,
  cachedPrompt: 0,
  completion: 0,
  costUsd: null,
  unpricedCalls: 0,
  unreportedCalls: 0,
  retries: 0,
});

/**
 * Sums calls into live, replayed and failed totals, each call id once. Live and failed together
 * are every request that left the process: what was spent today.
 * @public
 */
export const usageTotals = (
  calls: readonly LlmCall[],
): { live: UsageTotals; replayed: UsageTotals; failed: UsageTotals; unpriced: string[] } => {
  const live = emptyTotals();
  const replayed = emptyTotals();
  const failed = emptyTotals();
  const unpriced = new Set<string>();
  const seen = new Set<string>();
  for (const c of calls) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    const t = c.failed ? failed : c.live ? live : replayed;
    t.calls++;
    t.retries += c.retries;
    if (c.prompt === null || c.completion === null) t.unreportedCalls++;
    t.prompt += c.prompt ?? 0;
    t.cachedPrompt += c.cachedPrompt ?? 0;
    t.completion += c.completion ?? 0;
    if (c.costUsd === null) {
      t.unpricedCalls++;
      unpriced.add(c.model);
    } else t.costUsd = (t.costUsd ?? 0) + c.costUsd;
  }
  return { live, replayed, failed, unpriced: [...unpriced].sort() };
};

/** The ledger of one client. */
export const createLedger = (): UsageLedger & { add(call: LlmCall): void } => {
  const calls: LlmCall[] = [];
  return {
    calls,
    add: (call) => {
      calls.push(call);
    },
    mark: () => calls.length,
    since: (mark) => calls.slice(mark),
    totals: (some) => usageTotals(some ?? calls),
  };
};
