import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SourceCandidate } from '../../candidates/index.ts';
import type { Tagged } from '../../values/index.ts';
import type { CandidateRunStats, RunContext } from '../backend.ts';
import { BUDGET_SPENT, fromWireOutcome, type Outcome, WIRE, type WireOutcome } from '../outcome.ts';
import { PHASE, SLOT, SLOT_COUNT } from './harness.ts';
import type { CandidatePayload, ChunkMessage, HostMessage, WorkerMessage } from './protocol.ts';
import { workerSource } from './worker-source.ts';

/** One candidate's state within a run. */
interface RowState {
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
}

interface RunState {
  readonly id: number;
  readonly ctx: RunContext;
  pendingJobs: number;
  resolve: () => void;
  aborted: boolean;
  abortedAt: number;
}

/** A range of inputs of one candidate. `next` is the first index whose outcome is not yet recorded. */
interface Job {
  readonly id: number;
  readonly rs: RowState;
  readonly from: number;
  readonly to: number;
  next: number;
  readonly isolated: boolean;
  startedAt: number;
}

interface Slot {
  worker: Worker | null;
  readonly progress: Int32Array;
  readonly sab: SharedArrayBuffer;
  ready: boolean;
  inputsKeys: Set<string>;
  /**
   * Jobs sent to the worker, in the order it runs them. The head is running (or its last chunks
   * are on their way); the rest wait in the worker's queue, so it never sits idle while the host
   * takes in a finished job's results.
   */
  jobs: Job[];
  /** Progress last seen: the sequence number and the call index the worker wrote. */
  lastSeq: number;
  lastIndex: number;
  lastChange: number;
  lastError: string | null;
  /** Jobs the current worker has started: about one sandbox (a `vm` context) each. */
  jobsRun: number;
  /** The worker thread's Linux thread id, to read its CPU time (-1: unknown, wall time is used). */
  tid: number;
  /** CPU time of the worker when the watchdog first saw the current call stand still (-1: not yet). */
  callCpuBase: number;
  /** Time the worker spent asleep (Atomics.wait, a lock) during the current call, sampled per tick. */
  sleptMs: number;
  lastTick: number;
  /** CPU time of the worker when the current job began (-1: unknown). */
  jobCpuBase: number;
}

/** Input sets a worker keeps; the host evicts the least recently used and tells the worker. */
const INPUT_SETS_PER_WORKER = 4;
/** How long an aborted run's chunk may go on before its worker is replaced. */
const ABORT_GRACE_MS = 100;
/**
 * The wall-time backstop of a call: per-call limits count CPU time (and time asleep), so a busy
 * machine does not time out a fast call; a call that neither runs nor sleeps (starved, or a
 * platform without per-thread CPU time) is still ended after this much wall time.
 */
const wallBackstopMs = (timeoutMs: number): number => Math.max(10 * timeoutMs, timeoutMs + 5000);
/** Clock ticks per second of /proc/<pid>/task/<tid>/stat (USER_HZ, 100 on every Linux ABI). */
const USER_HZ = 100;

/** CPU time (ms) of one thread of this process and whether it is asleep; null where /proc cannot say. */
const threadCpu = (tid: number): { cpuMs: number; asleep: boolean } | null => {
  if (tid < 0) return null;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(f[11]) + Number(f[12])) * 1000) / USER_HZ;
    if (!Number.isFinite(cpuMs)) return null;
    return { cpuMs, asleep: f[0] === 'S' || f[0] === 'D' };
  } catch {
    return null;
  }
};

/** Name of the error outcome for a report the harness could not have made. */
export const HARNESS_VIOLATION = 'HarnessViolation';

let nextJobId = 1;
let nextRunId = 1;
/** Jobs sent to one worker at a time: one running, one queued behind it. */
const JOBS_PER_WORKER = 2;
/**
 * Jobs after which an idle worker is replaced by a fresh one. V8 frees a dropped `vm` context
 * only in a full collection, which a worker's heuristics put off until hundreds of dead
 * contexts fill its heap and every collection is slow; a new worker starts clean.
 */
const RETIRE_AFTER_JOBS = 64;

/** What the harness reports for a chunk (see `runChunk` in harness.ts). */
interface ChunkReport {
  n: number;
  p: 0 | 1;
  v: unknown[];
  e: Array<[number, 1 | 2, string, string]>;
}

/** What a candidate whose entry is missing gets on every input: the functions it does define, and the fixes. */
const entryNotFoundMessage = (c: SourceCandidate): string =>
  `no function named "${c.entry}" in the candidate` +
  (c.functions.length > 0 ? ` (it defines ${c.functions.join(', ')})` : '') +
  `; name the function "${c.entry}", export it, or pass the right \`entry\``;

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
  readonly #queue: Job[] = [];
  #watchdog: NodeJS.Timeout | null = null;

  constructor(options: { size?: number; memoryMb: number }) {
    // Never fewer than two: one worker being replaced must not stall every other candidate.
    this.size = Math.max(1, options.size ?? Math.max(2, Math.min(availableParallelism(), 8)));
    this.memoryMb = options.memoryMb;
    this.#slots = Array.from({ length: this.size }, () => {
      const sab = new SharedArrayBuffer(SLOT_COUNT * Int32Array.BYTES_PER_ELEMENT);
      return {
        worker: null,
        progress: new Int32Array(sab),
        sab,
        ready: false,
        inputsKeys: new Set<string>(),
        jobs: [],
        lastSeq: 0,
        lastIndex: -1,
        lastChange: 0,
        lastError: null,
        jobsRun: 0,
        tid: -1,
        callCpuBase: -1,
        sleptMs: 0,
        lastTick: 0,
        jobCpuBase: -1,
      };
    });
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
          this.#enqueue(rs, from, Math.min(n, from + partSize), false);
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
        this.#discard(slot);
        await w?.terminate();
      }),
    );
  }

  #broadcast(message: HostMessage): void {
    for (const slot of this.#slots) slot.worker?.postMessage(message);
  }

  #enqueue(rs: RowState, from: number, to: number, isolated: boolean, front = false): void {
    if (from >= to) return;
    const job: Job = { id: nextJobId++, rs, from, to, next: from, isolated, startedAt: 0 };
    rs.run.pendingJobs++;
    if (front) this.#queue.unshift(job);
    else this.#queue.push(job);
  }

  #finishJob(job: Job): void {
    job.rs.stats.durationMs += performance.now() - job.startedAt;
    const run = job.rs.run;
    if (--run.pendingJobs === 0) run.resolve();
  }

  /** Records an outcome for every input of the job not yet recorded. */
  #recordRest(job: Job, outcome: Outcome): void {
    for (let i = job.next; i < job.to; i++) job.rs.ctx.record(job.rs.row, i, outcome);
    job.next = job.to;
  }

  /** Records an outcome for every input of the job not yet recorded, and retires the job. */
  #fillJob(job: Job, outcome: Outcome): void {
    this.#recordRest(job, outcome);
    if (job.startedAt === 0) job.startedAt = performance.now();
    this.#finishJob(job);
  }

  #pump(): void {
    // Every idle worker gets a job before any busy one gets a second.
    fill: for (let depth = 1; depth <= JOBS_PER_WORKER; depth++) {
      for (const slot of this.#slots) {
        if (slot.jobs.length >= depth) continue;
        const job = this.#takeJob();
        if (job === undefined) break fill;
        this.#start(slot, job);
      }
    }
    const busy = this.#slots.some((s) => s.jobs.length > 0);
    if (busy) this.#startWatchdog();
    else this.#stopWatchdog();
  }

  #takeJob(): Job | undefined {
    for (;;) {
      const job = this.#queue.shift();
      if (job === undefined) return undefined;
      const { rs } = job;
      if (rs.run.aborted) {
        this.#finishJob(job);
        continue;
      }
      if (rs.dead !== null) {
        this.#fillJob(job, rs.dead);
        continue;
      }
      if (rs.budgetLeftMs <= 0 || rs.timeLeftMs <= 0) {
        rs.stats.budgetSpent = true;
        this.#fillJob(job, BUDGET_SPENT);
        continue;
      }
      return job;
    }
  }

  #spawn(slot: Slot): Worker {
    const worker = new Worker(workerSource(), {
      eval: true,
      name: 'crosscheck-sandbox',
      workerData: { sab: slot.sab },
      // The worker sees no environment: even code that escaped the context finds no secrets.
      env: {},
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: {
        maxOldGenerationSizeMb: this.memoryMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.min(64, Math.floor(this.memoryMb / 4))),
        stackSizeMb: 4,
      },
    });
    // Output is dropped unread. Reading it (even `resume()`) refs the worker's internal port until
    // the stream ends, which defeats `unref()` on idle workers and keeps a finished script alive;
    // a destroyed stream is never read, and what an escaped candidate writes goes nowhere.
    worker.stdout.destroy();
    worker.stderr.destroy();
    slot.worker = worker;
    slot.ready = false;
    slot.inputsKeys = new Set();
    slot.lastError = null;
    slot.jobsRun = 0;
    slot.tid = -1;
    worker.on('message', (m: WorkerMessage) => {
      if (slot.worker !== worker) return;
      if (m.type === 'ready') {
        slot.ready = true;
        slot.tid = Number.isInteger(m.tid) ? m.tid : -1;
        slot.lastChange = performance.now();
        slot.callCpuBase = -1;
        slot.jobCpuBase = threadCpu(slot.tid)?.cpuMs ?? -1;
        this.#moved(slot);
      } else if (m.type === 'chunk') this.#onChunk(slot, m);
      else if (m.type === 'done') this.#onDone(slot, m.jobId, m.cpuMs);
      else if (m.type === 'fatal') slot.lastError = m.reason;
    });
    worker.on('messageerror', () => {
      if (slot.worker !== worker) return;
      this.#fail(slot, 'crash', 'the sandbox worker sent a message that could not be read');
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      slot.lastError =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `out of memory: the call exceeded the ${this.memoryMb} MB heap limit`
          : `the worker failed: ${error.message}`;
    });
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return;
      this.#fail(slot, 'crash', slot.lastError ?? `the worker exited with code ${code}`);
    });
    return worker;
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
    slot.jobCpuBase = threadCpu(slot.tid)?.cpuMs ?? -1;
    this.#moved(slot);
  }

  /**
   * Whether the worker has made progress since the last look. The sequence number moves once
   * per chunk and job; within a chunk, each call writes its index, which only grows.
   */
  #moved(slot: Slot): boolean {
    const seq = Atomics.load(slot.progress, SLOT.seq);
    const index = Atomics.load(slot.progress, SLOT.index);
    // Within a chunk the index only grows: anything else is not progress.
    if (seq === slot.lastSeq && index <= slot.lastIndex) return false;
    slot.lastSeq = seq;
    slot.lastIndex = index;
    return true;
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
        rs.ctx.record(rs.row, m.from + k, rs.ctx.valueOutcome(v[k] as Tagged));
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
      this.#recordRest(job, BUDGET_SPENT);
    }
    const next = slot.jobs[0];
    if (next !== undefined) this.#began(slot, next);
    else if (slot.jobsRun >= RETIRE_AFTER_JOBS) this.#retire(slot);
    else slot.worker?.unref();
    this.#finishJob(job);
    this.#pump();
  }

  /** Replaces the slot's worker after a hang or a crash, records the lost call, requeues the rest. */
  #fail(slot: Slot, kind: 'timeout' | 'wall' | 'crash' | 'budget' | 'violation', reason: string): void {
    const job = this.#current(slot);
    const others = slot.jobs.filter((j) => j !== job);
    const index = Atomics.load(slot.progress, SLOT.index);
    const phase = Atomics.load(slot.progress, SLOT.phase);
    const lostMs = performance.now() - slot.lastChange;
    const worker = slot.worker;
    this.#discard(slot);
    void worker?.terminate();
    // The other jobs sent to this worker lose nothing but their place: what the host has not
    // recorded of them runs again elsewhere (their unread chunks died with the worker).
    for (const other of others.reverse()) {
      this.#enqueue(other.rs, other.next, other.to, other.isolated, true);
      other.next = other.to;
      if (other.startedAt === 0) other.startedAt = performance.now();
      this.#finishJob(other);
    }
    if (job === undefined) {
      this.#pump();
      return;
    }
    const { rs } = job;
    rs.stats.restarts++;
    if (rs.run.aborted) {
      job.next = job.to;
      this.#finishJob(job);
      this.#pump();
      return;
    }
    if (kind === 'budget' || kind === 'violation') {
      // The candidate's time limit ran out within a chunk, or its context broke the harness.
      if (kind === 'budget') {
        rs.stats.budgetSpent = true;
        rs.timeLeftMs = 0;
      }
      this.#fillJob(
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
    rs.budgetLeftMs -= kind === 'timeout' ? timeoutMs : lostMs;
    const timedOut = kind !== 'crash';
    if (phase === PHASE.loading) {
      // The candidate's top-level code itself hangs or crashes: no call can ever run.
      rs.dead = outcome;
      if (timedOut) rs.stats.timeouts++;
      else rs.stats.crashes++;
      this.#fillJob(job, outcome);
    } else if (phase === PHASE.draining && !job.isolated) {
      // Some call of the last chunk left work in the microtask queue that never ends; rerun
      // that stretch one call per evaluation to find which.
      this.#enqueue(rs, job.next, job.to, true, true);
      job.next = job.to;
      this.#finishJob(job);
    } else {
      const at = Math.min(Math.max(index, job.next), job.to - 1);
      rs.ctx.record(rs.row, at, outcome);
      if (timedOut) rs.stats.timeouts++;
      else rs.stats.crashes++;
      this.#enqueue(rs, job.next, at, job.isolated, true);
      this.#enqueue(rs, at + 1, job.to, job.isolated, true);
      job.next = job.to;
      this.#finishJob(job);
    }
    this.#pump();
  }

  /** Replaces an idle worker with a fresh one, started now so that it is ready when needed. */
  #retire(slot: Slot): void {
    const old = slot.worker;
    this.#discard(slot);
    void old?.terminate();
    this.#spawn(slot).unref();
  }

  #discard(slot: Slot): void {
    slot.worker?.removeAllListeners('message');
    slot.worker = null;
    slot.jobs = [];
    slot.ready = false;
    slot.inputsKeys = new Set();
    Atomics.store(slot.progress, SLOT.phase, PHASE.idle);
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
      const moved = this.#moved(slot);
      const cpu = moved && !Number.isFinite(rs.timeLeftMs) ? null : threadCpu(slot.tid);
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
      if (moved) {
        slot.lastChange = now;
        slot.callCpuBase = -1;
        slot.sleptMs = 0;
      } else if (cpu === null) {
        // No per-thread CPU time here: wall time it is.
        if (now - slot.lastChange > timeoutMs) this.#fail(slot, 'timeout', 'timeout');
      } else {
        if (slot.callCpuBase < 0) {
          slot.callCpuBase = cpu.cpuMs;
          slot.sleptMs = 0;
        } else if (cpu.asleep) slot.sleptMs += now - slot.lastTick;
        if (cpu.cpuMs - slot.callCpuBase + slot.sleptMs > timeoutMs) this.#fail(slot, 'timeout', 'timeout');
        else if (now - slot.lastChange > wallBackstopMs(timeoutMs)) this.#fail(slot, 'wall', 'wall');
      }
      slot.lastTick = now;
    }
  }
}

/** The timeout of a call whose promise never settled. */
const UNSETTLED: Outcome = Object.freeze({ kind: 'timeout', reason: 'unsettled', ms: 0 });

const isIndex = (x: unknown, below: number): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < below;

/**
 * A chunk report, checked against everything the harness guarantees: `n` within the job, exactly
 * one outcome per call, other outcomes in order, of kind invalid or error only (crash and timeout
 * are the host's to assign). Null when anything is off.
 */
const readChunk = (text: string, from: number, to: number): ChunkReport | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { n, p, v, e } = parsed as Record<string, unknown>;
  if (!(p === 0 || p === 1) || !Array.isArray(v) || !Array.isArray(e)) return null;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= from || n > to) return null;
  if (v.length !== n - from - p || e.length > v.length) return null;
  let last = -1;
  for (const o of e) {
    if (!Array.isArray(o) || o.length !== 4) return null;
    const [k, kind, name, message] = o as unknown[];
    if (!isIndex(k, v.length) || k <= last || v[k] !== null) return null;
    if (!(kind === 1 || kind === 2) || typeof name !== 'string' || typeof message !== 'string') return null;
    last = k;
  }
  return { n, p, v, e: e as ChunkReport['e'] };
};

/**
 * The outcome a promise settled with (`[0, tagged]`, `[1|2, name, message]`), an unsettled
 * timeout for '' or null, and null for anything the harness cannot produce.
 */
const readPending = (text: string | null): Outcome | null => {
  if (text === null || text === '') return UNSETTLED;
  let w: unknown;
  try {
    w = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(w)) return null;
  if (w.length === 2 && w[0] === WIRE.value) return fromWireOutcome(w as WireOutcome);
  if (
    w.length === 3 &&
    (w[0] === WIRE.invalid || w[0] === WIRE.error) &&
    typeof w[1] === 'string' &&
    typeof w[2] === 'string'
  ) {
    return fromWireOutcome(w as WireOutcome);
  }
  return null;
};
