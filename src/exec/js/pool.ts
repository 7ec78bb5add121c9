import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { SourceCandidate } from '../../candidates/index.ts';
import type { RunContext } from '../backend.ts';
import { BUDGET_SPENT, type Outcome, outcomeOfText } from '../outcome.ts';
import { blameCall, failureCost } from '../range-ledger.ts';
import { readChunk, readPending, UNSETTLED } from './chunk.ts';
import { PHASE, SLOT } from './harness.ts';
import type { ChunkMessage, HostMessage } from './protocol.ts';
import {
  fillJob,
  finishJob,
  JOBS_PER_WORKER,
  type Job,
  JobQueue,
  type RowState,
  type RunState,
  recordRest,
} from './scheduler.ts';
import {
  discard,
  hardWallMs,
  INPUT_SETS_PER_WORKER,
  moved,
  newSlot,
  RETIRE_AFTER_JOBS,
  type Slot,
  spawnWorker,
  threadCpu,
  threadRunDelayMs,
  wallBackstopMs,
  youngGenerationMb,
} from './slot.ts';

/** Name of the error outcome for a report the harness could not have made. */
export const HARNESS_VIOLATION = 'HarnessViolation';

/**
 * How many times a candidate's job may lose its worker while no call of it runs (the worker is
 * between calls) before that loss is charged to it after all. Nothing a candidate can schedule
 * runs between calls, so such a loss is the host's or another candidate's doing; the bound only
 * keeps a worker that dies on every job (for instance on an input set too big to parse) from
 * requeueing the same range for ever.
 */
const IDLE_LOSSES_FORGIVEN = 3;

/** How long an aborted run's chunk may go on before its worker is replaced. */
const ABORT_GRACE_MS = 100;

let nextRunId = 1;

/** What a candidate whose entry is missing gets on every input: the functions it does define, and the fixes. */
const entryNotFoundMessage = (c: SourceCandidate): string =>
  `no function named "${c.entry}" in the candidate` +
  (c.functions.length > 0 ? ` (it defines ${c.functions.join(', ')})` : '') +
  `; name the function "${c.entry}", export it, or pass the right \`entry\``;

/** Worker threads of a pool: never fewer than two, so one being replaced does not stall the rest. */
export const defaultSandboxWorkers = (): number => Math.max(2, Math.min(availableParallelism(), 8));

/**
 * The memory bound of a sandbox host whose workers have heap limit `memoryMb`: 512 MiB for its
 * main thread and, per worker, its heap (old and young generations), as many bytes again for
 * `ArrayBuffer` contents (which V8's heap limit does not count) and 64 MiB for code and stacks.
 */
export const sandboxHostDataBytes = (memoryMb: number): number => {
  const perWorker = 2 * memoryMb + youngGenerationMb(memoryMb) + 64;
  return (512 + defaultSandboxWorkers() * perWorker) * 1024 * 1024;
};

/**
 * A pool of sandbox workers. Each worker runs one job at a time; the host watches each busy
 * worker's progress counter and replaces a worker whose current call has not finished within the
 * per-call limit, or that died, recording `timeout` or `crash` for that one call and resuming
 * the job after it.
 */
export class JsSandboxPool {
  readonly size: number;
  readonly memoryMb: number;
  readonly #slots: Slot[];
  readonly #queue = new JobQueue();
  #watchdog: NodeJS.Timeout | null = null;

  constructor(options: { size?: number; memoryMb: number }) {
    this.size = Math.max(1, options.size ?? defaultSandboxWorkers());
    this.memoryMb = options.memoryMb;
    this.#slots = Array.from({ length: this.size }, newSlot);
  }

  /** Runs each row's candidate on every input of the context. */
  run(rows: ReadonlyArray<{ row: number; candidate: SourceCandidate }>, ctx: RunContext): Promise<void> {
    return new Promise<void>((resolve) => {
      const runId = nextRunId++;
      const keys: string[] = [];
      const runState: RunState = {
        id: runId,
        ctx,
        pendingJobs: 0,
        aborted: false,
        abortedAt: 0,
        resolve: () => {
          // Sandboxes hold a candidate's state: they serve one row of one run, then go.
          this.#broadcast({ type: 'forget', keys });
          resolve();
        },
      };
      const n = ctx.inputCount;
      // Split each candidate's inputs so that even a single candidate keeps every worker busy.
      const parts = Math.max(1, Math.ceil((this.size * 2) / Math.max(1, rows.length)));
      const partSize = Math.max(64, Math.ceil(n / parts));
      for (const { row, candidate } of rows) {
        const rs: RowState = {
          row,
          ctx,
          run: runState,
          stats: ctx.stats(row),
          budgetLeftMs: ctx.limits.budgetMs,
          timeLeftMs: ctx.limits.candidateTimeMs,
          dead: null,
          idleLosses: 0,
          payload: {
            // One sandbox per row and run: identical samples never share state, and no run
            // inherits what a candidate left behind in an earlier one.
            key: `${runId}:${row}:${candidate.id}`,
            label: candidate.label,
            wrapper: candidate.prepared ?? '',
            entry: candidate.entry,
            entryNotFound: entryNotFoundMessage(candidate),
            invalid: [...ctx.invalidNames(candidate)],
            maxOutputBytes: ctx.limits.maxOutputBytes,
          },
        };
        keys.push(rs.payload.key);
        if (candidate.problem !== null || candidate.prepared === null) {
          const problem: Outcome = {
            kind: 'error',
            name: candidate.problem?.name ?? 'CompileError',
            message: candidate.problem?.message ?? 'the candidate has no runnable code',
          };
          for (let i = 0; i < n; i++) ctx.record(row, i, problem);
          continue;
        }
        for (let from = 0; from < n; from += partSize)
          this.#queue.enqueue(rs, from, Math.min(n, from + partSize), false);
      }
      if (ctx.signal) {
        ctx.signal.addEventListener('abort', () => this.#abort(runState), { once: true });
      }
      if (runState.pendingJobs === 0) runState.resolve();
      this.#pump();
    });
  }

  /** Terminates every worker. The pool can still be used afterwards; workers restart on demand. */
  async close(): Promise<void> {
    this.#stopWatchdog();
    await Promise.all(
      this.#slots.map(async (slot) => {
        const w = slot.worker;
        discard(slot);
        await w?.terminate();
      }),
    );
  }

  #broadcast(message: HostMessage): void {
    for (const slot of this.#slots) slot.worker?.postMessage(message);
  }

  #pump(): void {
    // Every idle worker gets a job before any busy one gets a second.
    fill: for (let depth = 1; depth <= JOBS_PER_WORKER; depth++) {
      for (const slot of this.#slots) {
        if (slot.jobs.length >= depth) continue;
        const job = this.#queue.take();
        if (job === undefined) break fill;
        this.#start(slot, job);
      }
    }
    const busy = this.#slots.some((s) => s.jobs.length > 0);
    if (busy) this.#startWatchdog();
    else this.#stopWatchdog();
  }

  #spawn(slot: Slot): Worker {
    return spawnWorker(slot, this.memoryMb, {
      ready: (tid) => {
        slot.lastChange = performance.now();
        slot.callCpuBase = -1;
        slot.callUsedMs = 0;
        slot.jobCpuBase = threadCpu(tid)?.cpuMs ?? -1;
        moved(slot);
      },
      chunk: (m) => this.#onChunk(slot, m),
      done: (jobId, cpuMs) => this.#onDone(slot, jobId, cpuMs),
      lost: (reason) => this.#fail(slot, 'crash', reason),
    });
  }

  #start(slot: Slot, job: Job): void {
    const worker = slot.worker ?? this.#spawn(slot);
    worker.ref();
    const { ctx } = job.rs;
    if (slot.inputsKeys.has(ctx.inputsKey)) slot.inputsKeys.delete(ctx.inputsKey);
    else
      worker.postMessage({ type: 'inputs', key: ctx.inputsKey, wire: ctx.inputsWire } satisfies HostMessage);
    // Most recently used last. The jobs sent to the worker use the last two, so an evicted set is
    // never one a job still waiting in the worker needs; a later job sends it again.
    slot.inputsKeys.add(ctx.inputsKey);
    for (const key of slot.inputsKeys) {
      if (slot.inputsKeys.size <= INPUT_SETS_PER_WORKER) break;
      slot.inputsKeys.delete(key);
      worker.postMessage({ type: 'forget-inputs', key } satisfies HostMessage);
    }
    slot.jobs.push(job);
    slot.jobsRun++;
    if (slot.jobs.length === 1) this.#began(slot, job);
    worker.postMessage({
      type: 'run',
      jobId: job.id,
      runId: job.rs.run.id,
      timeLimitMs: Number.isFinite(job.rs.timeLeftMs) ? Math.max(0, job.rs.timeLeftMs) : -1,
      candidate: job.rs.payload,
      inputsKey: ctx.inputsKey,
      from: job.next,
      to: job.to,
      isolated: job.isolated,
    } satisfies HostMessage);
  }

  /** Marks the job at the head of the slot as the one its worker is on. */
  #began(slot: Slot, job: Job): void {
    job.startedAt = performance.now();
    slot.lastChange = job.startedAt;
    slot.callCpuBase = -1;
    slot.callUsedMs = 0;
    slot.jobCpuBase = threadCpu(slot.tid)?.cpuMs ?? -1;
    moved(slot);
  }

  /** The job the slot's worker is on: the one it last announced, if the host still holds it. */
  #current(slot: Slot): Job | undefined {
    const id = Atomics.load(slot.progress, SLOT.job);
    return slot.jobs.find((j) => j.id === id) ?? slot.jobs[0];
  }

  #onChunk(slot: Slot, m: ChunkMessage): void {
    const job = slot.jobs[0];
    if (job === undefined || job.id !== m.jobId) return;
    const { rs } = job;
    const report = m.from === job.next ? readChunk(m.text, m.from, job.to) : null;
    const pending = report !== null && report.p === 1 ? readPending(m.pending) : undefined;
    if (report === null || pending === null) {
      // Only code that reached past the harness could write this: nothing of this job's context
      // can be believed any more. Its remaining calls are errors; the candidate's other jobs and
      // every other candidate are untouched.
      this.#fail(slot, 'violation', 'the sandbox sent a report its harness cannot produce');
      return;
    }
    const { v, e } = report;
    if (rs.ctx.recordReport !== undefined) rs.ctx.recordReport(rs.row, m.from, v, e);
    else {
      let nextOther = 0;
      for (let k = 0; k < v.length; k++) {
        const o = e[nextOther];
        if (o !== undefined && o[0] === k) {
          nextOther++;
          rs.ctx.record(rs.row, m.from + k, {
            kind: o[1] === 1 ? 'invalid' : 'error',
            name: o[2],
            message: o[3],
          });
        } else {
          const x = v[k] as string | number | boolean | null;
          rs.ctx.record(
            rs.row,
            m.from + k,
            typeof x === 'string' ? outcomeOfText(rs.ctx, x) : rs.ctx.valueOutcome(x),
          );
        }
      }
    }
    if (report.p === 1) rs.ctx.record(rs.row, report.n - 1, pending ?? UNSETTLED);
    job.next = report.n;
  }

  #onDone(slot: Slot, jobId: number, cpuMs: number): void {
    const job = slot.jobs[0];
    if (job === undefined || job.id !== jobId) return;
    slot.jobs.shift();
    const { rs } = job;
    // CPU time where the worker could measure it: the machine's load must not spend the limit.
    rs.timeLeftMs -=
      Number.isFinite(cpuMs) && cpuMs >= 0 && slot.tid >= 0 ? cpuMs : performance.now() - job.startedAt;
    if (job.next < job.to && !rs.run.aborted) {
      // The worker stopped early: the candidate's time limit ran out.
      rs.stats.budgetSpent = true;
      recordRest(job, BUDGET_SPENT);
    }
    const next = slot.jobs[0];
    if (next !== undefined) this.#began(slot, next);
    else if (slot.jobsRun >= RETIRE_AFTER_JOBS) this.#retire(slot);
    else slot.worker?.unref();
    finishJob(job);
    this.#pump();
  }

  /** Replaces the slot's worker after a hang or a crash, records the lost call, requeues the rest. */
  #fail(slot: Slot, kind: 'timeout' | 'wall' | 'crash' | 'budget' | 'violation', reason: string): void {
    const job = this.#current(slot);
    const others = slot.jobs.filter((j) => j !== job);
    const index = Atomics.load(slot.progress, SLOT.index);
    const phase = Atomics.load(slot.progress, SLOT.phase);
    // What the failed call cost, as the watchdog last measured it (CPU time and sleep, not the
    // wall time a busy machine adds); wall time where the thread's CPU time cannot be read.
    const lostMs = kind === 'wall' || slot.tid < 0 ? performance.now() - slot.lastChange : slot.callUsedMs;
    const worker = slot.worker;
    discard(slot);
    void worker?.terminate();
    // The other jobs sent to this worker lose nothing but their place: what the host has not
    // recorded of them runs again elsewhere (their unread chunks died with the worker).
    for (const other of others.reverse()) {
      this.#queue.enqueue(other.rs, other.next, other.to, other.isolated, true);
      other.next = other.to;
      if (other.startedAt === 0) other.startedAt = performance.now();
      finishJob(other);
    }
    if (job === undefined) {
      this.#pump();
      return;
    }
    const { rs } = job;
    const betweenCalls = phase === PHASE.idle && (kind === 'crash' || kind === 'timeout' || kind === 'wall');
    if (betweenCalls && !rs.run.aborted && rs.idleLosses < IDLE_LOSSES_FORGIVEN) {
      // The worker died or stalled between calls: no call of this job was running, so none is
      // blamed. Its unrecorded range runs again on a fresh worker, like the jobs queued behind it.
      rs.idleLosses++;
      this.#queue.enqueue(rs, job.next, job.to, job.isolated, true);
      job.next = job.to;
      finishJob(job);
      this.#pump();
      return;
    }
    rs.stats.restarts++;
    if (rs.run.aborted) {
      job.next = job.to;
      finishJob(job);
      this.#pump();
      return;
    }
    if (kind === 'budget' || kind === 'violation') {
      // The candidate's time limit ran out within a chunk, or its context broke the harness.
      if (kind === 'budget') {
        rs.stats.budgetSpent = true;
        rs.timeLeftMs = 0;
      }
      fillJob(
        job,
        kind === 'budget' ? BUDGET_SPENT : { kind: 'error', name: HARNESS_VIOLATION, message: reason },
      );
      this.#pump();
      return;
    }
    const timeoutMs = rs.ctx.limits.timeoutMs;
    const outcome: Outcome =
      kind === 'timeout'
        ? { kind: 'timeout', reason: 'call', ms: timeoutMs }
        : kind === 'wall'
          ? { kind: 'timeout', reason: 'wall', ms: wallBackstopMs(timeoutMs) }
          : { kind: 'crash', reason };
    const cost = failureCost(kind, timeoutMs, lostMs);
    if (phase === PHASE.loading) {
      // The candidate's top-level code itself hangs or crashes: no call can ever run.
      rs.budgetLeftMs -= cost;
      rs.dead = outcome;
      if (kind === 'crash') rs.stats.crashes++;
      else rs.stats.timeouts++;
      fillJob(job, outcome);
    } else if (phase === PHASE.draining && !job.isolated) {
      // Some call of the last chunk left work in the microtask queue that never ends; rerun
      // that stretch one call per evaluation to find which.
      rs.budgetLeftMs -= cost;
      this.#queue.enqueue(rs, job.next, job.to, true, true);
      job.next = job.to;
      finishJob(job);
    } else {
      blameCall(
        {
          record: (i, o) => rs.ctx.record(rs.row, i, o),
          rerun: (from, to) => this.#queue.enqueue(rs, from, to, job.isolated, true),
          charge: (ms) => {
            rs.budgetLeftMs -= ms;
          },
          stats: rs.stats,
        },
        { failure: kind, outcome, claimed: index, next: job.next, to: job.to, timeoutMs, lostMs },
      );
      job.next = job.to;
      finishJob(job);
    }
    this.#pump();
  }

  /** Replaces an idle worker with a fresh one, started now so that it is ready when needed. */
  #retire(slot: Slot): void {
    const old = slot.worker;
    discard(slot);
    void old?.terminate();
    this.#spawn(slot).unref();
  }

  /**
   * Ends a run early without losing finished work: queued jobs are dropped, running ones stop at
   * their next chunk and report what they have; a call that hangs is still ended by the watchdog.
   */
  #abort(run: RunState): void {
    run.aborted = true;
    run.abortedAt = performance.now();
    for (const slot of this.#slots) {
      if (slot.jobs.some((j) => j.rs.run === run)) Atomics.store(slot.progress, SLOT.stop, run.id);
    }
    this.#pump();
  }

  #startWatchdog(): void {
    if (this.#watchdog !== null) return;
    this.#watchdog = setInterval(() => this.#check(), 10);
    this.#watchdog.unref();
  }

  #stopWatchdog(): void {
    if (this.#watchdog === null) return;
    clearInterval(this.#watchdog);
    this.#watchdog = null;
  }

  #check(): void {
    const now = performance.now();
    for (const slot of this.#slots) {
      const job = this.#current(slot);
      if (job === undefined || !slot.ready) continue;
      const { rs } = job;
      const timeoutMs = rs.ctx.limits.timeoutMs;
      // An aborted run's chunk may not run on: its worker goes, the jobs queued behind it move on.
      if (rs.run.aborted && now - rs.run.abortedAt > ABORT_GRACE_MS) {
        this.#fail(slot, 'crash', 'the run was aborted');
        continue;
      }
      const progressed = moved(slot);
      const cpu = progressed && !Number.isFinite(rs.timeLeftMs) ? null : threadCpu(slot.tid);
      // The candidate's time limit, enforced while a chunk runs too (the worker checks it only
      // between chunks).
      if (Number.isFinite(rs.timeLeftMs)) {
        const spent =
          cpu !== null && slot.jobCpuBase >= 0 ? cpu.cpuMs - slot.jobCpuBase : now - job.startedAt;
        if (spent > rs.timeLeftMs + Math.max(50, Math.min(timeoutMs, 1000))) {
          this.#fail(slot, 'budget', 'budget');
          continue;
        }
      }
      if (progressed) {
        slot.lastChange = now;
        slot.callCpuBase = -1;
        slot.callUsedMs = 0;
        slot.sleptMs = 0;
      } else if (cpu === null) {
        // No per-thread CPU time here: wall time it is.
        if (now - slot.lastChange > timeoutMs) this.#fail(slot, 'timeout', 'timeout');
      } else {
        if (slot.callCpuBase < 0) {
          slot.callCpuBase = cpu.cpuMs;
          slot.callDelayBase = threadRunDelayMs(slot.tid) ?? -1;
          slot.callWallBase = now;
          slot.sleptMs = 0;
        } else if (slot.callDelayBase < 0 && cpu.asleep) slot.sleptMs += now - slot.lastTick;
        slot.callUsedMs = this.#usedMs(slot, cpu.cpuMs, now);
        if (slot.callUsedMs > timeoutMs) this.#fail(slot, 'timeout', 'timeout');
        else if (this.#pastBackstop(slot, now - slot.lastChange, timeoutMs)) this.#fail(slot, 'wall', 'wall');
      }
      slot.lastTick = now;
    }
  }

  /**
   * Time the current call has used: its thread's CPU time plus the time it slept. Where the
   * kernel keeps the run delay, that is wall time less the time the thread waited for a CPU,
   * exact whatever the load; elsewhere, sleep is sampled once a tick (a late tick on a busy
   * machine counts a whole gap as asleep), and CPU time alone still decides a busy call.
   */
  #usedMs(slot: Slot, cpuMs: number, now: number): number {
    const cpu = cpuMs - slot.callCpuBase;
    const delay = slot.callDelayBase >= 0 ? threadRunDelayMs(slot.tid) : null;
    if (delay === null) return cpu + slot.sleptMs;
    return Math.max(cpu, now - slot.callWallBase - (delay - slot.callDelayBase));
  }

  /** Wall time of the stalled call, less the time its thread waited for a CPU, past the backstop. */
  #pastBackstop(slot: Slot, wallMs: number, timeoutMs: number): boolean {
    if (wallMs <= wallBackstopMs(timeoutMs)) return false;
    if (wallMs > hardWallMs(timeoutMs)) return true;
    const delay = slot.callDelayBase >= 0 ? threadRunDelayMs(slot.tid) : null;
    return wallMs - (delay === null ? 0 : delay - slot.callDelayBase) > wallBackstopMs(timeoutMs);
  }
}
