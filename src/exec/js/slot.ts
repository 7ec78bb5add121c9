import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { PHASE, SLOT, SLOT_COUNT } from './harness.ts';
import type { ChunkMessage, WorkerMessage } from './protocol.ts';
import type { Job } from './scheduler.ts';
import { workerSource } from './worker-source.ts';

/**
 * Worker lifecycle of the JS pool: a slot holds one worker thread at a time and its progress
 * counter; a worker is spawned confined (no environment, bounded heap), heard until it is
 * discarded, and reported lost on `exit` or `messageerror` (`error` only says why).
 */

/** What the pool hears from a slot's worker. */
export interface WorkerEvents {
  /** The worker loaded its harness; `tid` is its Linux thread id (-1: unknown). */
  ready(tid: number): void;
  chunk(m: ChunkMessage): void;
  done(jobId: number, cpuMs: number): void;
  /** The worker is gone or cannot be believed: its current call is lost. */
  lost(reason: string): void;
}

export interface Slot {
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
  /** Time the worker thread had waited for a CPU when the watchdog first saw the call stand still (-1: unknown). */
  callDelayBase: number;
  /** When the watchdog first saw the current call stand still. */
  callWallBase: number;
  /** Time the current call had used (CPU and sleep) at the watchdog's last look. */
  callUsedMs: number;
}

/** Input sets a worker keeps; the host evicts the least recently used and tells the worker. */
export const INPUT_SETS_PER_WORKER = 4;
/**
 * The backstop of a call: per-call limits count CPU time (and time asleep), so a busy machine
 * does not time out a fast call; a call that neither runs nor sleeps (a platform without
 * per-thread CPU time, or a state the sampling misses) is still ended once its wall time, less
 * the time it waited for a CPU, passes this.
 */
export const wallBackstopMs = (timeoutMs: number): number => Math.max(10 * timeoutMs, timeoutMs + 5000);

/**
 * Plain wall time after which a call ends whatever the clocks say: a defence should the run
 * delay be misread, never what decides a call on a working kernel.
 */
export const hardWallMs = (timeoutMs: number): number => Math.max(60_000, 10 * wallBackstopMs(timeoutMs));

/**
 * Time (ms) one thread of this process has waited on a run queue for a CPU (the run delay of
 * /proc/<pid>/task/<tid>/schedstat); null where the kernel does not keep it. This is the time a
 * busy machine adds to a call, which no limit should count.
 */
export const threadRunDelayMs = (tid: number): number | null => {
  if (tid < 0) return null;
  try {
    const delay = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ')[1]) / 1e6;
    return Number.isFinite(delay) ? delay : null;
  } catch {
    return null;
  }
};
/** Clock ticks per second of /proc/<pid>/task/<tid>/stat (USER_HZ, 100 on every Linux ABI). */
const USER_HZ = 100;

/** CPU time (ms) of one thread of this process and whether it is asleep; null where /proc cannot say. */
export const threadCpu = (tid: number): { cpuMs: number; asleep: boolean } | null => {
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

/**
 * Jobs after which an idle worker is replaced by a fresh one. V8 frees a dropped `vm` context
 * only in a full collection, which a worker's heuristics put off until hundreds of dead
 * contexts fill its heap and every collection is slow; a new worker starts clean.
 */
export const RETIRE_AFTER_JOBS = 64;

/** A slot with no worker yet. */
export const newSlot = (): Slot => {
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
    callDelayBase: -1,
    callWallBase: 0,
    callUsedMs: 0,
    sleptMs: 0,
    lastTick: 0,
    jobCpuBase: -1,
  };
};

/**
 * Node options of every sandbox worker thread. vm's import() hook is called only under
 * --experimental-vm-modules; without it an import() that got past the candidate's checks
 * rejects with an error of the worker's own realm, and what is reached from that error is
 * shared by every candidate the worker runs. With the flag the hook answers in the candidate's
 * context. (Freezing the worker realm's built-ins as well, --frozen-intrinsics, cost about a
 * tenth of the CPU of a moderate candidate's calls in `npm run bench:exec`.)
 */
export const WORKER_EXEC_ARGV: readonly string[] = ['--experimental-vm-modules'];

/** The young generation of a worker with heap limit `memoryMb`: a quarter of it, within 8 to 64 MiB. */
export const youngGenerationMb = (memoryMb: number): number =>
  Math.max(8, Math.min(64, Math.floor(memoryMb / 4)));

/** Starts the slot's worker and wires its lifecycle to `on`. */
export const spawnWorker = (slot: Slot, memoryMb: number, on: WorkerEvents): Worker => {
  const worker = new Worker(workerSource(), {
    eval: true,
    name: 'crosscheck-sandbox',
    workerData: { sab: slot.sab },
    // The worker sees no environment: even code that escaped the context finds no secrets.
    env: {},
    execArgv: [...WORKER_EXEC_ARGV],
    stdout: true,
    stderr: true,
    resourceLimits: {
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: youngGenerationMb(memoryMb),
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
      on.ready(slot.tid);
    } else if (m.type === 'chunk') on.chunk(m);
    else if (m.type === 'done') on.done(m.jobId, m.cpuMs);
    else if (m.type === 'fatal') slot.lastError = m.reason;
  });
  worker.on('messageerror', () => {
    if (slot.worker !== worker) return;
    on.lost('the sandbox worker sent a message that could not be read');
  });
  worker.on('error', (error: Error & { code?: string }) => {
    if (slot.worker !== worker) return;
    slot.lastError =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `out of memory: the call exceeded the ${memoryMb} MB heap limit`
        : `the worker failed: ${error.message}`;
  });
  worker.on('exit', (code) => {
    if (slot.worker !== worker) return;
    on.lost(slot.lastError ?? `the worker exited with code ${code}`);
  });
  return worker;
};

/**
 * Whether the worker has made progress since the last look. The sequence number moves once
 * per chunk and job; within a chunk, each call writes its index, which only grows.
 */
export const moved = (slot: Slot): boolean => {
  const seq = Atomics.load(slot.progress, SLOT.seq);
  const index = Atomics.load(slot.progress, SLOT.index);
  // Within a chunk the index only grows: anything else is not progress.
  if (seq === slot.lastSeq && index <= slot.lastIndex) return false;
  slot.lastSeq = seq;
  slot.lastIndex = index;
  return true;
};

/** Lets the slot's worker go: its messages are no longer heard and its jobs are no longer its own. */
export const discard = (slot: Slot): void => {
  slot.worker?.removeAllListeners('message');
  slot.worker = null;
  slot.jobs = [];
  slot.ready = false;
  slot.inputsKeys = new Set();
  Atomics.store(slot.progress, SLOT.phase, PHASE.idle);
};
