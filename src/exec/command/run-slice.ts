import type { CandidateRunStats, RunContext } from '../backend.ts';
import { BUDGET_SPENT, fromWireOutcome, type Outcome, textOutcome, type WireOutcome } from '../outcome.ts';
import type { WorkerPool } from './pool.ts';
import { encodeHostMessage, isWireOutcome } from './protocol.ts';
import { type ExchangeEnd, maxLineChars, type WorkerProcess } from './worker-process.ts';

/** A candidate ready for a worker: what to load and how to call it. @internal */
export interface LoadSpec {
  /** Namespace key in the worker (the candidate id). */
  readonly key: string;
  readonly code: string;
  readonly entry: string;
}

/** One candidate's share of the inputs, `[from, to)`; slices of one row share its budget. @internal */
export interface Slice {
  readonly row: number;
  readonly load: LoadSpec;
  readonly from: number;
  readonly to: number;
  readonly invalid: readonly string[];
  readonly budget: { remainingMs: number };
  /** What is left of the row's `candidateTimeMs`, shared by its slices like the budget. */
  readonly time: { remainingMs: number };
}

let nextId = 1;

// A worker gets this long without a word before the host decides it stopped answering. The
// worker's own timer normally ends a hung call after `timeoutMs`; this is the backstop for code
// that ignores or disarms it, or loops inside C.
const silenceLimit = (timeoutMs: number): number => 2 * timeoutMs + 2000;

const timeoutOutcome = (ms: number): Outcome => ({ kind: 'timeout', reason: 'call', ms });

class SliceRunner {
  readonly #pool: WorkerPool;
  readonly #slice: Slice;
  readonly #ctx: RunContext;
  readonly #stats: CandidateRunStats;
  /** Ranges still to run; a failure splits the current range around the call that failed. */
  readonly #ranges: Array<[number, number]>;

  constructor(pool: WorkerPool, slice: Slice, ctx: RunContext) {
    this.#pool = pool;
    this.#slice = slice;
    this.#ctx = ctx;
    this.#stats = ctx.stats(slice.row);
    this.#ranges = slice.from < slice.to ? [[slice.from, slice.to]] : [];
  }

  #record(input: number, outcome: Outcome): void {
    this.#ctx.record(this.#slice.row, input, outcome);
  }

  #recordAll(outcome: Outcome): void {
    for (const [from, to] of this.#ranges.splice(0)) {
      for (let i = from; i < to; i++) this.#record(i, outcome);
    }
  }

  async run(): Promise<void> {
    while (this.#ranges.length > 0) {
      if (this.#ctx.signal?.aborted) return;
      if (this.#slice.budget.remainingMs <= 0 || this.#slice.time.remainingMs <= 0) {
        this.#stats.budgetSpent = true;
        this.#recordAll(BUDGET_SPENT);
        return;
      }
      const range = this.#ranges.shift() as [number, number];
      const worker = await this.#pool.acquire();
      const started = performance.now();
      let healthy = false;
      try {
        healthy = await this.#runRange(worker, range);
      } finally {
        const elapsed = performance.now() - started;
        this.#stats.durationMs += elapsed;
        this.#slice.time.remainingMs -= elapsed;
        if (healthy) this.#pool.release(worker);
        else await this.#pool.discard(worker);
      }
    }
  }

  /** Runs one range on one worker; returns whether the worker can be reused. */
  async #runRange(worker: WorkerProcess, [from, to]: [number, number]): Promise<boolean> {
    const ctx = this.#ctx;
    const { timeoutMs, budgetMs, maxOutputBytes } = ctx.limits;
    // A worker decodes a new input set before it answers the load: allow 1 s per MB for that.
    let decodeMs = 0;
    if (worker.inputsKey !== ctx.inputsKey) {
      worker.send(encodeHostMessage({ t: 'inputs', key: ctx.inputsKey, inputs: [] }, ctx.inputsWire));
      worker.inputsKey = ctx.inputsKey;
      decodeMs = ctx.inputsWire.length / 1000;
    }
    const { key, code, entry } = this.#slice.load;
    const loadId = nextId++;
    let loadError: WireOutcome | null = null;
    const loadEnd = await worker.exchange(
      encodeHostMessage({ t: 'load', id: loadId, key, code, entry, timeoutMs }),
      (m) => {
        if (m.t !== 'loaded' || m.id !== loadId) return false;
        if (!m.ok) {
          if (!isWireOutcome(m.error)) return `a malformed load error ${JSON.stringify(m.error)}`;
          loadError = m.error;
        }
        return true;
      },
      silenceLimit(timeoutMs) + decodeMs,
      ctx.signal,
    );
    if (loadEnd.kind !== 'done') {
      // Loading itself hung or killed the worker: every run would do the same.
      this.#ranges.unshift([from, to]);
      this.#failedLoad(loadEnd, timeoutMs);
      return false;
    }
    if (loadError !== null) {
      this.#ranges.unshift([from, to]);
      const outcome = fromWireOutcome(loadError);
      if (outcome.kind === 'timeout') {
        this.#stats.timeouts++;
        this.#slice.budget.remainingMs -= timeoutMs;
      }
      this.#recordAll(outcome);
      return true;
    }
    worker.lineLimit = maxLineChars(maxOutputBytes);
    const runId = nextId++;
    let next = from;
    let lastMessage = performance.now();
    const end = await worker.exchange(
      encodeHostMessage({
        t: 'run',
        id: runId,
        key,
        inputs: ctx.inputsKey,
        from,
        to,
        timeoutMs,
        budgetMs: Math.max(0, Math.min(budgetMs, this.#slice.budget.remainingMs)),
        timeLimitMs: Number.isFinite(this.#slice.time.remainingMs)
          ? Math.max(0, Math.round(this.#slice.time.remainingMs))
          : undefined,
        maxOutputBytes,
        invalid: this.#slice.invalid,
      }),
      (m) => {
        // Replies to an earlier request (a stale run id) are ignored.
        if (m.t !== 'out' || m.id !== runId) return false;
        if (m.from !== next || next + m.outcomes.length > to) {
          return `outcomes for [${m.from}, ${m.from + m.outcomes.length}) when [${next}, ${to}) was expected`;
        }
        for (const item of m.outcomes as unknown[]) {
          const outcome = this.#outcomeOf(item, timeoutMs);
          if (typeof outcome === 'string') return outcome;
          this.#record(next++, outcome);
        }
        lastMessage = performance.now();
        if (m.done === true && next !== to) return `"done" after ${next - from} of ${to - from} outcomes`;
        return m.done === true;
      },
      silenceLimit(timeoutMs),
      ctx.signal,
    );
    if (end.kind === 'done') {
      worker.send(encodeHostMessage({ t: 'unload', key }));
      return true;
    }
    if (end.kind === 'aborted') return false;
    this.#failedCall(worker, end, next, to, timeoutMs, performance.now() - lastMessage);
    return false;
  }

  /** A wire outcome, or its JSON text ("packed", see docs/protocol.md); a string describes a fault. */
  #outcomeOf(item: unknown, timeoutMs: number): Outcome | string {
    let w = item;
    if (typeof item === 'string') {
      const packedValue = item.startsWith('[0,') && item.endsWith(']');
      // Values from a worker whose encoder is crosscheck's own keep their text unchecked until
      // read (text that is not JSON then reads as a ProtocolError): checking 100,000 of them
      // costs the host about as much as the calls cost the workers. Other workers' values are
      // parsed once here, so their faults replace the worker at once.
      if (packedValue && this.#pool.spec.trustedValues) return textOutcome(item.slice(3, -1));
      try {
        w = JSON.parse(item);
      } catch {
        w = undefined;
      }
      if (packedValue && Array.isArray(w) && w[0] === 0 && w.length === 2) {
        return textOutcome(item.slice(3, -1));
      }
    }
    if (!isWireOutcome(w)) return `a malformed outcome ${JSON.stringify(item).slice(0, 120)}`;
    this.#account(w, timeoutMs);
    return fromWireOutcome(w);
  }

  #account(w: WireOutcome, timeoutMs: number): void {
    if (w[0] === 3) {
      if (w[1] === 'budget') this.#stats.budgetSpent = true;
      else {
        this.#stats.timeouts++;
        this.#slice.budget.remainingMs -= w[2] || timeoutMs;
      }
    } else if (w[0] === 4) this.#stats.crashes++;
  }

  /** The worker hung or died mid-range: blame the call it was running, rerun the rest. */
  #failedCall(
    worker: WorkerProcess,
    end: Exclude<ExchangeEnd, { kind: 'done' | 'aborted' }>,
    next: number,
    to: number,
    timeoutMs: number,
    silentMs: number,
  ): void {
    if (next >= to) return;
    const progress = worker.readProgress();
    // Calls in [next, culprit) finished but their results were not sent yet; they run again.
    const culprit = progress !== null && progress >= next && progress < to ? progress : next;
    this.#stats.restarts++;
    if (end.kind === 'hung') {
      this.#stats.timeouts++;
      this.#slice.budget.remainingMs -= Math.max(timeoutMs, silentMs);
      this.#record(culprit, timeoutOutcome(timeoutMs));
    } else {
      this.#stats.crashes++;
      this.#slice.budget.remainingMs -= Math.min(timeoutMs, silentMs);
      this.#record(culprit, { kind: 'crash', reason: end.reason });
    }
    if (culprit + 1 < to) this.#ranges.unshift([culprit + 1, to]);
    if (next < culprit) this.#ranges.unshift([next, culprit]);
  }

  #failedLoad(end: Exclude<ExchangeEnd, { kind: 'done' }>, timeoutMs: number): void {
    if (end.kind === 'aborted') return;
    this.#stats.restarts++;
    if (end.kind === 'hung') {
      this.#stats.timeouts++;
      this.#slice.budget.remainingMs -= timeoutMs;
      this.#recordAll(timeoutOutcome(timeoutMs));
    } else {
      this.#stats.crashes++;
      this.#recordAll({ kind: 'crash', reason: `while loading the candidate: ${end.reason}` });
    }
  }
}

/** Runs one slice to completion on workers of the pool, replacing any that hang or die. @internal */
export const runSlice = (pool: WorkerPool, slice: Slice, ctx: RunContext): Promise<void> =>
  new SliceRunner(pool, slice, ctx).run();
