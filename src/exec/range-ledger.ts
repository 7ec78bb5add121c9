import type { Outcome } from './outcome.ts';

/**
 * The bookkeeping of a range of calls when one of them fails, shared by the runners that run a
 * range of inputs in a worker (the JS pool, the command runner): which call is blamed, which
 * calls run again, what is counted and what the failure costs the candidate's timeout budget.
 * One rule, so a hang or a crash costs a candidate the same whichever runner ran it.
 */

/**
 * How a call failed. `timeout`: over its per-call limit (CPU time); `wall`: no progress for
 * longer than the wall-time backstop (starved, or no CPU clock to read); `crash`: the worker
 * died under it; `fault`: the worker broke the protocol.
 */
export type CallFailure = 'timeout' | 'wall' | 'crash' | 'fault';

/**
 * What a failed call costs the candidate's timeout budget (`budgetMs`): a timeout the per-call
 * limit; a wall-time hang the time really lost (at least the limit); a crash the time the call
 * had used (its CPU time where the runner can read it, so a busy machine does not spend the
 * budget faster), at most the limit (a crash is no hang); a protocol fault nothing (it is the
 * worker's, not the call's).
 */
export const failureCost = (failure: CallFailure, timeoutMs: number, lostMs: number): number => {
  switch (failure) {
    case 'timeout':
      return timeoutMs;
    case 'wall':
      return Math.max(timeoutMs, lostMs);
    case 'crash':
      return Math.min(timeoutMs, Math.max(0, lostMs));
    case 'fault':
      return 0;
  }
};

/** The call a failure is blamed on: the worker's word if it is in range, else the first without an outcome. */
export const culpritOf = (claimed: number | null | undefined, next: number, to: number): number =>
  typeof claimed === 'number' && Number.isInteger(claimed) && claimed >= next && claimed < to
    ? claimed
    : next;

/** Where the bookkeeping writes: the runner's outcome matrix, its queue and its budget. */
export interface RangeLedger {
  record(index: number, outcome: Outcome): void;
  /** Puts the calls [from, to) back, to run again ahead of other work. */
  rerun(from: number, to: number): void;
  /** Takes `ms` from the candidate's timeout budget. */
  charge(ms: number): void;
  readonly stats: { timeouts: number; crashes: number };
}

/** One failed call of the range [next, to). */
export interface FailedCall {
  readonly failure: CallFailure;
  /** What the blamed call gets. */
  readonly outcome: Outcome;
  /** The call the worker said it was on, if it said. */
  readonly claimed: number | null | undefined;
  readonly next: number;
  readonly to: number;
  readonly timeoutMs: number;
  /** Time since the worker last made progress. */
  readonly lostMs: number;
}

/**
 * Records the failed call's outcome for the culprit, puts back the calls after it and the ones
 * before it (they finished, but their results died with the worker), counts the failure and
 * charges the budget. Returns the culprit.
 */
export const blameCall = (ledger: RangeLedger, f: FailedCall): number => {
  const culprit = culpritOf(f.claimed, f.next, f.to);
  ledger.record(culprit, f.outcome);
  if (culprit + 1 < f.to) ledger.rerun(culprit + 1, f.to);
  if (f.next < culprit) ledger.rerun(f.next, culprit);
  if (f.failure === 'crash') ledger.stats.crashes++;
  else if (f.failure !== 'fault') ledger.stats.timeouts++;
  ledger.charge(failureCost(f.failure, f.timeoutMs, f.lostMs));
  return culprit;
};
