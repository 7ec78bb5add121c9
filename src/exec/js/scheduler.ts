import type { CandidateRunStats, RunContext } from '../backend.ts';
import { BUDGET_SPENT, type Outcome } from '../outcome.ts';
import type { CandidatePayload } from './protocol.ts';

/**
 * Scheduling of the JS pool: the ranges of inputs (jobs) waiting for a worker, and what happens
 * to a job that cannot run (its run was aborted, its candidate cannot load, its budget is spent).
 */

/** One candidate's state within a run. */
export interface RowState {
  readonly row: number;
  readonly ctx: RunContext;
  readonly run: RunState;
  readonly payload: CandidatePayload;
  readonly stats: CandidateRunStats;
  budgetLeftMs: number;
  /** What is left of `candidateTimeMs` (Infinity without a limit). */
  timeLeftMs: number;
  /** Set when the candidate cannot even load (it hangs or crashes at top level). */
  dead: Outcome | null;
  /** How often a worker was lost while it ran none of this candidate's calls (see the pool). */
  idleLosses: number;
}

export interface RunState {
  readonly id: number;
  readonly ctx: RunContext;
  pendingJobs: number;
  resolve: () => void;
  aborted: boolean;
  abortedAt: number;
}

/** A range of inputs of one candidate. `next` is the first index whose outcome is not yet recorded. */
export interface Job {
  readonly id: number;
  readonly rs: RowState;
  readonly from: number;
  readonly to: number;
  next: number;
  readonly isolated: boolean;
  startedAt: number;
}

/** Jobs sent to one worker at a time: one running, one queued behind it. */
export const JOBS_PER_WORKER = 2;

let nextJobId = 1;

/** Retires a job: its time counts, and its run resolves with its last job. */
export const finishJob = (job: Job): void => {
  job.rs.stats.durationMs += performance.now() - job.startedAt;
  const run = job.rs.run;
  if (--run.pendingJobs === 0) run.resolve();
};

/** Records an outcome for every input of the job not yet recorded. */
export const recordRest = (job: Job, outcome: Outcome): void => {
  for (let i = job.next; i < job.to; i++) job.rs.ctx.record(job.rs.row, i, outcome);
  job.next = job.to;
};

/** Records an outcome for every input of the job not yet recorded, and retires the job. */
export const fillJob = (job: Job, outcome: Outcome): void => {
  recordRest(job, outcome);
  if (job.startedAt === 0) job.startedAt = performance.now();
  finishJob(job);
};

/** The jobs waiting for a worker, in order; a range put back after a failure goes first. */
export class JobQueue {
  readonly #jobs: Job[] = [];

  enqueue(rs: RowState, from: number, to: number, isolated: boolean, front = false): void {
    if (from >= to) return;
    const job: Job = { id: nextJobId++, rs, from, to, next: from, isolated, startedAt: 0 };
    rs.run.pendingJobs++;
    if (front) this.#jobs.unshift(job);
    else this.#jobs.push(job);
  }

  /** The next job that can run; jobs that cannot are settled on the way. */
  take(): Job | undefined {
    for (;;) {
      const job = this.#jobs.shift();
      if (job === undefined) return undefined;
      const { rs } = job;
      if (rs.run.aborted) {
        finishJob(job);
        continue;
      }
      if (rs.dead !== null) {
        fillJob(job, rs.dead);
        continue;
      }
      if (rs.budgetLeftMs <= 0 || rs.timeLeftMs <= 0) {
        rs.stats.budgetSpent = true;
        fillJob(job, BUDGET_SPENT);
        continue;
      }
      return job;
    }
  }
}
