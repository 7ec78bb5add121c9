import type { Tagged } from '../../values/index.ts';
import { WIRE, type WireOutcome } from '../outcome.ts';

/**
 * The JSON-lines protocol between the host and a worker process (`docs/protocol.md`). One JSON
 * object per line; requests on the worker's fd 3, replies on its fd 4, so whatever a candidate
 * prints on stdout or stderr never reaches the protocol.
 */

/**
 * Version announced in `hello`; the host refuses other versions. Version 2: workers report
 * values and exceptions only; the host assigns timeouts and crashes, and measures time in CPU.
 */
export const PROTOCOL_VERSION = 2;

/** Environment variables the host sets for every worker (besides a minimal PATH, HOME, TMPDIR, LANG). */
export const WORKER_ENV = {
  protocol: 'CROSSCHECK_PROTOCOL',
  memoryMb: 'CROSSCHECK_MEMORY_MB',
  progressFile: 'CROSSCHECK_PROGRESS_FILE',
} as const;

/** Host to worker. */
export type HostMessage =
  | {
      t: 'inputs';
      key: string;
      inputs: Tagged[];
      /**
       * The Python zygote only: the number of the first input sent, when a slice of a split
       * candidate needs only its share (docs/protocol.md "The Python zygote"). Default 0.
       */
      from?: number;
    }
  | {
      t: 'load';
      id: number;
      key: string;
      code: string;
      entry: string;
      timeoutMs: number;
      /**
       * The Python zygote only: the run to start once the load succeeds, saving a round trip
       * through the host per slice (docs/protocol.md "The Python zygote").
       */
      run?: Omit<RunMessage, 't' | 'key'>;
    }
  | RunMessage
  | { t: 'unload'; key: string }
  | { t: 'bye' };

/** Host to worker: run the loaded candidate on inputs [from, to). */
export interface RunMessage {
  readonly t: 'run';
  readonly id: number;
  readonly key: string;
  readonly inputs: string;
  readonly from: number;
  readonly to: number;
  /** CPU time one call may take; the host (or the Python zygote) ends calls past it. */
  readonly timeoutMs: number;
  /** Wall time one call may take before it counts as hung (a candidate that sleeps). */
  readonly wallTimeoutMs: number;
  /** CPU time the batch's calls may take; absent for no limit (docs/protocol.md). */
  readonly timeLimitMs?: number;
  readonly maxOutputBytes: number;
  readonly invalid: readonly string[];
}

/** Worker to host. */
export type WorkerMessage =
  | { t: 'hello'; protocol: number; language: string; runtime?: string; pid?: number }
  | { t: 'loaded'; id: number; ok: true }
  | { t: 'loaded'; id: number; ok: false; error: WireOutcome }
  | { t: 'out'; id: number; from: number; outcomes: Array<WireOutcome | string>; done?: boolean }
  | { t: 'fatal'; message: string }
  /** The Python zygote only: still watching a call, after a second without a word. */
  | { t: 'alive' }
  | Ended;

/**
 * How the process running one candidate ended, from the Python zygote only (trusted code in a
 * separate process from the candidate; docs/protocol.md "The Python zygote"). Never accepted
 * from other workers: a candidate must not be able to report its own timeouts or crashes.
 */
export interface Ended {
  readonly t: 'ended';
  readonly id: number;
  readonly cause: 'done' | 'timeout' | 'time' | 'exit' | 'fault';
  /** Index of the call that was running (-1 while loading). */
  readonly at?: number;
  /** CPU time the candidate's process used, load included. */
  readonly cpuMs: number;
  readonly reason?: string;
}

const ENDED_CAUSES: ReadonlySet<unknown> = new Set(['done', 'timeout', 'time', 'exit', 'fault']);

/** Serializes a host message; `inputs` messages reuse the already-encoded input list. */
export const encodeHostMessage = (message: HostMessage, inputsWire?: string): string => {
  if (message.t === 'inputs' && inputsWire !== undefined) {
    const from = message.from ? `"from":${message.from},` : '';
    return `{"t":"inputs","key":${JSON.stringify(message.key)},${from}"inputs":${inputsWire}}`;
  }
  return JSON.stringify(message);
};

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Parses and shape-checks one line from a worker; returns a description of the fault instead of throwing. */
export const parseWorkerMessage = (line: string): WorkerMessage | { fault: string } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { fault: `not JSON: ${line.slice(0, 120)}` };
  }
  if (!isObject(parsed) || typeof parsed.t !== 'string') {
    return { fault: `expected an object with a string "t", got ${line.slice(0, 120)}` };
  }
  switch (parsed.t) {
    case 'hello':
      return typeof parsed.protocol === 'number' && typeof parsed.language === 'string'
        ? (parsed as WorkerMessage)
        : { fault: 'hello needs a numeric "protocol" and a string "language"' };
    case 'loaded':
      return Number.isSafeInteger(parsed.id) && (parsed.ok === true || Array.isArray(parsed.error))
        ? (parsed as WorkerMessage)
        : { fault: 'loaded needs "id" and either "ok": true or an "error" wire outcome' };
    case 'out':
      return Number.isSafeInteger(parsed.id) &&
        Number.isSafeInteger(parsed.from) &&
        Array.isArray(parsed.outcomes)
        ? (parsed as WorkerMessage)
        : { fault: 'out needs "id", "from" and an "outcomes" array' };
    case 'fatal':
      return { t: 'fatal', message: String(parsed.message).slice(0, 2000) };
    case 'alive':
      return { t: 'alive' };
    case 'ended':
      return Number.isSafeInteger(parsed.id) &&
        ENDED_CAUSES.has(parsed.cause) &&
        (parsed.at === undefined || Number.isSafeInteger(parsed.at)) &&
        typeof parsed.cpuMs === 'number' &&
        Number.isFinite(parsed.cpuMs) &&
        parsed.cpuMs >= 0 &&
        (parsed.reason === undefined || typeof parsed.reason === 'string')
        ? (parsed as unknown as Ended)
        : { fault: 'ended needs "id", a known "cause" and a non-negative "cpuMs"' };
    default:
      return { fault: `unknown message type ${JSON.stringify(parsed.t)}` };
  }
};

/**
 * True when a worker may report this wire outcome: a value, an `invalid` or an `error`. Timeouts
 * and crashes are facts only the host (or the Python zygote, for its children) can observe, so a
 * worker that reports one is forging it.
 */
export const isReportableOutcome = (w: unknown): w is WireOutcome =>
  isWireOutcome(w) && (w[0] === WIRE.value || w[0] === WIRE.invalid || w[0] === WIRE.error);

/** True when a wire outcome has a valid shape (the host never trusts a worker's output blindly). */
export const isWireOutcome = (w: unknown): w is WireOutcome => {
  if (!Array.isArray(w)) return false;
  switch (w[0]) {
    case WIRE.value:
      return w.length === 2;
    case WIRE.invalid:
    case WIRE.error:
      return w.length === 3 && typeof w[1] === 'string' && typeof w[2] === 'string';
    case WIRE.timeout:
      return (
        w.length === 3 && ['call', 'budget', 'unsettled', 'wall'].includes(w[1]) && typeof w[2] === 'number'
      );
    case WIRE.crash:
      return w.length === 2 && typeof w[1] === 'string';
    default:
      return false;
  }
};
