import type { RunContext } from '../backend.ts';
import type { Outcome } from '../outcome.ts';
import type { WorkerPool } from './pool.ts';
import { type LoadSpec, runSlice, type Slice } from './run-slice.ts';

/** A row ready to run on a pool, or a problem that is its outcome on every input. @internal */
export type PreparedRow =
  | {
      readonly row: number;
      readonly pool: WorkerPool;
      readonly load: LoadSpec;
      readonly invalid: readonly string[];
    }
  | { readonly row: number; readonly problem: Outcome };

// Below this many inputs per worker, splitting a candidate costs more (one more load) than it saves.
const MIN_SLICE = 256;

/**
 * Runs prepared rows: each candidate is one slice, or several when there are fewer candidates
 * than workers, so a lone candidate with many inputs still uses every core.
 * @internal
 */
export const runPrepared = async (prepared: readonly PreparedRow[], ctx: RunContext): Promise<void> => {
  const n = ctx.inputCount;
  const slices: Array<{ pool: WorkerPool; slice: Slice }> = [];
  const runnable = prepared.filter((p) => 'pool' in p);
  for (const p of prepared) {
    if (!('pool' in p)) {
      for (let i = 0; i < n; i++) ctx.record(p.row, i, p.problem);
      continue;
    }
    const parts = Math.max(1, Math.min(Math.ceil(p.pool.size / runnable.length), Math.floor(n / MIN_SLICE)));
    const budget = { remainingMs: ctx.limits.budgetMs };
    const time = { remainingMs: ctx.limits.candidateTimeMs };
    for (let k = 0; k < parts; k++) {
      const from = Math.floor((k * n) / parts);
      const to = Math.floor(((k + 1) * n) / parts);
      slices.push({
        pool: p.pool,
        slice: { row: p.row, load: p.load, from, to, invalid: p.invalid, budget, time },
      });
    }
  }
  await Promise.all(slices.map(({ pool, slice }) => runSlice(pool, slice, ctx)));
};
