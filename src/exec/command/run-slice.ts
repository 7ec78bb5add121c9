import type { CandidateRunStats, RunContext } from '../backend.ts';
import { inputsKeyOf } from '../inputs-key.ts';
import {
  BUDGET_SPENT,
  fromWireOutcome,
  type Outcome,
  outcomeOfText,
  WIRE,
  WIRE_VALUE_HEAD,
  type WireOutcome,
} from '../outcome.ts';
import { blameCall, type CallFailure, failureCost } from '../range-ledger.ts';
import type { WorkerPool } from './pool.ts';
import { type Ended, encodeHostMessage, isReportableOutcome, type WorkerMessage } from './protocol.ts';
import { type ExchangeEnd, type ExchangeWatch, maxLineChars, type WorkerProcess } from './worker-process.ts';

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

/** An input set as a worker holds it: its key and its `inputs` message, encoded on first use. */
interface InputSet {
  readonly key: string;
  message(): Uint8Array;
}

// Per run: the whole set, and the share of each slice of a split candidate. Encoded to UTF-8
// once, however many workers receive it.
const inputSets = new WeakMap<RunContext, Map<string, InputSet>>();

/**
 * The inputs a worker needs for `slice`. The Python zygote holds only a split candidate's share
 * (its `from` field): each worker then decodes its half of a lone candidate's inputs, say a
 * reference filter's, not all of them. Other workers always get the whole set.
 */
const inputSet = (ctx: RunContext, slice: Slice, zygote: boolean): InputSet => {
  const whole = !zygote || (slice.from === 0 && slice.to === ctx.inputCount);
  let sets = inputSets.get(ctx);
  if (sets === undefined) {
    sets = new Map();
    inputSets.set(ctx, sets);
  }
  const range = whole ? '' : `${slice.from}-${slice.to}`;
  let set = sets.get(range);
  if (set === undefined) {
    // A share's key is its own text's (with where it starts): the whole set's text, which the
    // run's key hashes, is then never made when every candidate is split.
    const wire = whole ? null : ctx.inputsWireOf(slice.from, slice.to);
    const key = wire === null ? ctx.inputsKey : `${inputsKeyOf(wire)}:${slice.from}`;
    let bytes: Uint8Array | null = null;
    set = {
      key,
      message: () => {
        bytes ??= Buffer.from(
          `${encodeHostMessage(
            { t: 'inputs', key, inputs: [], ...(whole ? {} : { from: slice.from }) },
            wire ?? ctx.inputsWire,
          )}\n`,
        );
        return bytes;
      },
    };
    sets.set(range, set);
  }
  return set;
};

/**
 * Wall time one call may take before it counts as hung even though it uses no CPU (a candidate
 * that sleeps or blocks): generous, because on a busy machine a call gets only a share of a core.
 */
export const wallTimeoutMs = (timeoutMs: number): number => 5 * timeoutMs + 1000;

/**
 * CPU time a candidate's top level (imports, definitions, tables built at import) may take: the
 * load's own limit, never less than the per-call `timeoutMs`. A load is not a call: `import
 * numpy` alone costs 150-300 ms of CPU, and more on a busy machine (cold caches, page faults,
 * contended cores), so holding it to the bench's 250 ms per-call limit turned every outcome of
 * such a candidate into a timeout whenever the machine was loaded. 5 s of CPU is far above any
 * library's import, and still ends a top level that loops forever.
 */
export const LOAD_TIMEOUT_MS = 5000;

/** The CPU-time limit of a load under a per-call limit of `timeoutMs`. */
export const loadTimeoutMs = (timeoutMs: number): number => Math.max(timeoutMs, LOAD_TIMEOUT_MS);

// A worker gets this long without a word before the host decides it stopped answering: past the
// wall-time backstop of the call it runs, so only a worker that stopped serving reaches it.
const silenceLimit = (timeoutMs: number): number => wallTimeoutMs(timeoutMs) + 2000;

// How often the host samples an untrusted worker's CPU time while it runs calls.
const watchEveryMs = (timeoutMs: number): number => Math.max(5, Math.min(25, Math.floor(timeoutMs / 10)));

// Only the zygote, which never runs candidate code itself, may keep the host waiting on a long
// call (it ends calls by their CPU time); a worker that runs candidates in its own process could
// keep a sleeping candidate alive past every limit.
const aliveFrom = (zygote: boolean): false | string =>
  zygote ? false : 'an "alive" message, which only the Python zygote may send';

const timeoutOutcome = (ms: number): Outcome => ({ kind: 'timeout', reason: 'call', ms });

const protocolError = (message: string): Outcome => ({
  kind: 'error',
  name: 'ProtocolError',
  message: message.slice(0, 300),
});

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
      const worker = await this.#pool.acquire(this.#slice.load.key);
      const started = performance.now();
      const cpuBefore = this.#pool.spec.zygote ? null : worker.cpuMs();
      let healthy = false;
      let spentMs: number | null = null;
      try {
        const result = await this.#runRange(worker, range);
        healthy = result.healthy;
        spentMs = result.cpuMs;
      } finally {
        const elapsed = performance.now() - started;
        this.#stats.durationMs += elapsed;
        // Candidate time counts CPU time where it can be measured (a busy machine must not
        // change a verdict): the zygote's figure for its child, else the worker's own.
        if (spentMs === null && cpuBefore !== null) {
          const after = worker.cpuMs();
          if (after !== null) spentMs = Math.max(0, after - cpuBefore);
        }
        this.#slice.time.remainingMs -= spentMs ?? elapsed;
        this.#stats.timeSpentMs = (this.#stats.timeSpentMs ?? 0) + (spentMs ?? elapsed);
        if (healthy) this.#pool.release(worker);
        else await this.#pool.discard(worker);
      }
    }
  }

  /** Runs one range on one worker; says whether the worker can be reused and, from the zygote, the CPU time spent. */
  async #runRange(
    worker: WorkerProcess,
    [from, to]: [number, number],
  ): Promise<{ healthy: boolean; cpuMs: number | null }> {
    const ctx = this.#ctx;
    const zygote = this.#pool.spec.zygote === true;
    const { timeoutMs, maxOutputBytes } = ctx.limits;
    // A worker decodes a new input set before it answers the load: allow 1 s per MB for that.
    let decodeMs = 0;
    const inputs = inputSet(ctx, this.#slice, zygote);
    if (worker.inputsKey !== inputs.key) {
      worker.sendBytes(inputs.message());
      worker.inputsKey = inputs.key;
      decodeMs = inputs.message().length / 1000;
    }
    const { key, code, entry } = this.#slice.load;
    const loadId = nextId++;
    const runId = nextId++;
    const timeLimitMs = Number.isFinite(this.#slice.time.remainingMs)
      ? Math.max(0, Math.round(this.#slice.time.remainingMs))
      : undefined;
    const run = {
      id: runId,
      inputs: inputs.key,
      from,
      to,
      timeoutMs,
      wallTimeoutMs: wallTimeoutMs(timeoutMs),
      timeLimitMs,
      maxOutputBytes,
      invalid: this.#slice.invalid,
    };
    let loadError: WireOutcome | null = null;
    let loadEnded: Ended | null = null;
    const onLoad = (m: WorkerMessage): boolean | string => {
      if (m.t === 'alive') return aliveFrom(zygote);
      if (m.t === 'ended') {
        if (!zygote) return 'an "ended" message, which only the host and the Python zygote may send';
        if (m.id !== loadId) return false;
        loadEnded = m;
        return true;
      }
      if (m.t !== 'loaded' || m.id !== loadId) return false;
      if (!m.ok) {
        if (!isReportableOutcome(m.error) || m.error[0] !== 2) {
          return `a malformed load error ${JSON.stringify(m.error).slice(0, 120)}`;
        }
        loadError = m.error;
      }
      return true;
    };
    let next = from;
    let lastMessage = performance.now();
    let ended: Ended | null = null;
    const onRun = (m: WorkerMessage): boolean | string => {
      if (m.t === 'alive') {
        lastMessage = performance.now();
        return aliveFrom(zygote);
      }
      if (m.t === 'ended') {
        if (!zygote) return 'an "ended" message, which only the host and the Python zygote may send';
        if (m.id !== runId) return false;
        if (m.cause === 'done' && next !== to) return `"done" after ${next - from} of ${to - from} outcomes`;
        ended = m;
        return true;
      }
      // Replies to an earlier request (a stale run id) are ignored.
      if (m.t !== 'out' || m.id !== runId) return false;
      if (m.from !== next || next + m.outcomes.length > to) {
        return `outcomes for [${m.from}, ${m.from + m.outcomes.length}) when [${next}, ${to}) was expected`;
      }
      // Validate the whole message before recording any of it.
      const outcomes: Outcome[] = [];
      for (const item of m.outcomes as unknown[]) {
        const outcome = this.#outcomeOf(item);
        if (typeof outcome === 'string') return outcome;
        outcomes.push(outcome);
      }
      for (const outcome of outcomes) this.#record(next++, outcome);
      lastMessage = performance.now();
      if (m.done !== undefined && typeof m.done !== 'boolean') return 'a "done" that is not a boolean';
      if (m.done === true && next !== to) return `"done" after ${next - from} of ${to - from} outcomes`;
      // The zygote's own "ended" message closes a zygote's run.
      return m.done === true && !zygote;
    };
    // The zygote takes the run with the load and starts it as soon as the load succeeds: one
    // round trip per slice. Other workers get the run once they answered the load.
    let running = false;
    if (zygote) worker.lineLimit = maxLineChars(maxOutputBytes);
    // The load message's `timeoutMs` is the load's own limit; a carried run keeps the call's.
    const loadLimitMs = loadTimeoutMs(timeoutMs);
    const loadEnd = await worker.exchange(
      encodeHostMessage({
        t: 'load',
        id: loadId,
        key,
        code,
        entry,
        timeoutMs: loadLimitMs,
        ...(zygote ? { run } : {}),
      }),
      (m) => {
        if (running) return onRun(m);
        const loaded = onLoad(m);
        if (loaded !== true || !zygote || loadEnded !== null || loadError !== null) return loaded;
        running = true;
        return false;
      },
      // With a carried run, the zygote's beats keep the exchange alive past the load.
      silenceLimit(loadLimitMs) + decodeMs,
      ctx.signal,
      zygote ? undefined : this.#callWatch(worker, loadLimitMs, () => -1, Number.POSITIVE_INFINITY),
    );
    if (!running) {
      if (loadEnd.kind !== 'done') {
        // Loading itself hung or killed the worker: every run would do the same.
        this.#ranges.unshift([from, to]);
        this.#failedLoad(loadEnd, timeoutMs);
        return { healthy: false, cpuMs: null };
      }
      if (loadEnded !== null) {
        this.#ranges.unshift([from, to]);
        this.#endedLoad(loadEnded, timeoutMs);
        return { healthy: true, cpuMs: (loadEnded as Ended).cpuMs };
      }
      if (loadError !== null) {
        this.#ranges.unshift([from, to]);
        this.#recordAll(fromWireOutcome(loadError));
        return { healthy: true, cpuMs: null };
      }
    }
    // The running call's CPU time at the watch's last look: what a crash under it cost.
    const spent = { ms: Number.NaN };
    const end = running
      ? loadEnd
      : await (() => {
          worker.lineLimit = maxLineChars(maxOutputBytes);
          return worker.exchange(
            encodeHostMessage({ t: 'run', key, ...run }),
            onRun,
            silenceLimit(timeoutMs),
            ctx.signal,
            this.#callWatch(
              worker,
              timeoutMs,
              () => next,
              timeLimitMs ?? Number.POSITIVE_INFINITY,
              to,
              spent,
            ),
          );
        })();
    if (end.kind === 'done') {
      if (ended !== null) {
        this.#endedRun(ended, next, to, timeoutMs);
        return { healthy: true, cpuMs: (ended as Ended).cpuMs };
      }
      worker.send(encodeHostMessage({ t: 'unload', key }));
      return { healthy: true, cpuMs: null };
    }
    if (end.kind === 'aborted') return { healthy: false, cpuMs: null };
    if (end.kind === 'spent') {
      this.#timeSpent(next, to);
      return { healthy: false, cpuMs: null };
    }
    this.#failedCall(worker, end, next, to, timeoutMs, performance.now() - lastMessage, spent.ms);
    return { healthy: false, cpuMs: null };
  }

  /**
   * The host's own clock on an untrusted worker: the CPU time of the call it runs (the one its
   * progress file names, else the first without an outcome) and of the whole range. Wall time
   * where /proc is not available.
   */
  #callWatch(
    worker: WorkerProcess,
    timeoutMs: number,
    next: () => number,
    timeLimitMs: number,
    to = Number.POSITIVE_INFINITY,
    spent?: { ms: number },
  ): ExchangeWatch {
    const clock = (): number => worker.cpuMs() ?? performance.now();
    const rangeStart = clock();
    let call = Number.NaN;
    let callStart = rangeStart;
    return {
      everyMs: watchEveryMs(timeoutMs),
      check: () => {
        const cpu = worker.cpuMs();
        const now = cpu ?? performance.now();
        const first = next();
        const progress = worker.readProgress();
        const running = progress !== null && progress >= first && progress < to ? progress : first;
        if (running !== call) {
          call = running;
          callStart = now;
        } else if (now - callStart > timeoutMs) {
          return { kind: 'hung' };
        }
        // Only a CPU-time reading says what a call cost; wall time would charge the machine's load.
        if (spent) spent.ms = cpu === null ? Number.NaN : now - callStart;
        return now - rangeStart > timeLimitMs ? { kind: 'spent' } : null;
      },
    };
  }

  /** A wire outcome, or its JSON text ("packed", see docs/protocol.md); a string describes a fault. */
  #outcomeOf(item: unknown): Outcome | string {
    let w = item;
    if (typeof item === 'string') {
      const packedValue = item.startsWith(WIRE_VALUE_HEAD) && item.endsWith(']');
      // Values from a worker whose encoder is crosscheck's own keep their text unchecked until
      // read (text that is not JSON then reads as a ProtocolError): checking 100,000 of them
      // costs the host about as much as the calls cost the workers. Other workers' values are
      // parsed once here, so their faults replace the worker at once.
      if (packedValue && this.#pool.spec.trustedValues) return this.#text(item.slice(3, -1));
      try {
        w = JSON.parse(item);
      } catch {
        w = undefined;
      }
      if (packedValue && Array.isArray(w) && w[0] === WIRE.value && w.length === 2) {
        return this.#text(item.slice(3, -1));
      }
    }
    // Timeouts and crashes are the host's to assign: a worker reporting one is forging it.
    if (!isReportableOutcome(w)) return `a malformed outcome ${JSON.stringify(item)?.slice(0, 120)}`;
    return fromWireOutcome(w);
  }

  #text(text: string): Outcome {
    return outcomeOfText(this.#ctx, text);
  }

  /** The range bookkeeping of a failed call (src/exec/range-ledger.ts), over this slice. */
  #blame(
    failure: CallFailure,
    outcome: Outcome,
    claimed: number | null | undefined,
    next: number,
    to: number,
    timeoutMs: number,
    lostMs: number,
  ): void {
    blameCall(
      {
        record: (i, o) => this.#record(i, o),
        rerun: (from, upTo) => this.#ranges.unshift([from, upTo]),
        charge: (ms) => {
          this.#slice.budget.remainingMs -= ms;
        },
        stats: this.#stats,
      },
      { failure, outcome, claimed, next, to, timeoutMs, lostMs },
    );
  }

  #chargeTimeout(timeoutMs: number): void {
    this.#stats.timeouts++;
    this.#slice.budget.remainingMs -= failureCost('timeout', timeoutMs, 0);
  }

  /** The candidate's CPU time ran out mid-range: what did not report gets `budget`. */
  #timeSpent(next: number, to: number): void {
    this.#slice.time.remainingMs = Math.min(this.#slice.time.remainingMs, 0);
    if (next < to) this.#ranges.unshift([next, to]);
  }

  /** The zygote's account of how the child running a batch ended. */
  #endedRun(e: Ended, next: number, to: number, timeoutMs: number): void {
    if (e.cause === 'done' || next >= to) return;
    if (e.cause === 'time') {
      this.#slice.time.remainingMs -= e.cpuMs;
      this.#timeSpent(next, to);
      return;
    }
    this.#stats.restarts++;
    if (e.cause === 'timeout') {
      this.#blame('timeout', timeoutOutcome(timeoutMs), e.at, next, to, timeoutMs, 0);
    } else if (e.cause === 'exit') {
      // The zygote says how the child ended, not how long it ran: the crash costs no budget.
      this.#blame(
        'crash',
        { kind: 'crash', reason: e.reason ?? 'the worker exited' },
        e.at,
        next,
        to,
        timeoutMs,
        0,
      );
    } else {
      const fault = protocolError(`the candidate broke the protocol: ${e.reason ?? ''}`);
      this.#blame('fault', fault, e.at, next, to, timeoutMs, 0);
    }
  }

  #endedLoad(e: Ended, timeoutMs: number): void {
    this.#stats.restarts++;
    if (e.cause === 'timeout') {
      this.#chargeTimeout(timeoutMs);
      this.#recordAll(timeoutOutcome(timeoutMs));
    } else if (e.cause === 'exit') {
      this.#stats.crashes++;
      this.#recordAll({ kind: 'crash', reason: `while loading the candidate: ${e.reason ?? 'it exited'}` });
    } else {
      this.#recordAll(protocolError(`while loading the candidate, it broke the protocol: ${e.reason ?? ''}`));
    }
  }

  /** The worker hung, died or broke the protocol mid-range: blame the call it was running, rerun the rest. */
  #failedCall(
    worker: WorkerProcess,
    end: Exclude<ExchangeEnd, { kind: 'done' | 'aborted' | 'spent' }>,
    next: number,
    to: number,
    timeoutMs: number,
    silentMs: number,
    spentMs: number,
  ): void {
    if (next >= to) return;
    const claimed = worker.readProgress();
    this.#stats.restarts++;
    if (end.kind === 'hung') {
      // Silent past the silence limit: a wall-time hang; else the call's own limit ran out.
      const wall = silentMs > silenceLimit(timeoutMs);
      this.#blame(
        wall ? 'wall' : 'timeout',
        timeoutOutcome(timeoutMs),
        claimed,
        next,
        to,
        timeoutMs,
        silentMs,
      );
    } else if (end.kind === 'fault') {
      // A worker that breaks the protocol costs its own candidate that call, nothing more.
      const fault = protocolError(`the worker broke the protocol: ${end.reason}`);
      this.#blame('fault', fault, claimed, next, to, timeoutMs, silentMs);
    } else {
      const lostMs = Number.isNaN(spentMs) ? silentMs : spentMs;
      this.#blame('crash', { kind: 'crash', reason: end.reason }, claimed, next, to, timeoutMs, lostMs);
    }
  }

  #failedLoad(end: Exclude<ExchangeEnd, { kind: 'done' }>, timeoutMs: number): void {
    if (end.kind === 'aborted') return;
    this.#stats.restarts++;
    if (end.kind === 'hung' || end.kind === 'spent') {
      this.#chargeTimeout(timeoutMs);
      this.#recordAll(timeoutOutcome(timeoutMs));
    } else if (end.kind === 'fault') {
      this.#recordAll(
        protocolError(`while loading the candidate, the worker broke the protocol: ${end.reason}`),
      );
    } else {
      this.#stats.crashes++;
      this.#recordAll({ kind: 'crash', reason: `while loading the candidate: ${end.reason}` });
    }
  }
}

/** Runs one slice to completion on workers of the pool, replacing any that hang or die. @internal */
export const runSlice = (pool: WorkerPool, slice: Slice, ctx: RunContext): Promise<void> =>
  new SliceRunner(pool, slice, ctx).run();
