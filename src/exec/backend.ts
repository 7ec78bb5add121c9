import type { Candidate } from '../candidates/index.ts';
import type { Task } from '../task/index.ts';
import type { Tagged } from '../values/index.ts';
import type { IsolationUsed } from './isolation/index.ts';
import type { Outcome } from './outcome.ts';

/** Per-candidate execution figures, reported beside the outcomes. @public */
export interface CandidateRunStats {
  /** Wall time spent on this candidate's calls, in milliseconds. */
  durationMs: number;
  /** Calls that hit the per-call limit. */
  timeouts: number;
  /** Calls whose worker died. */
  crashes: number;
  /** True when the timeout budget ran out and later inputs were not run (their outcome is `timeout`, reason `budget`). */
  budgetSpent: boolean;
  /** Workers or processes replaced because of this candidate. */
  restarts: number;
  /**
   * Time counted against `candidateTimeMs` (CPU time where the runner measures it), where the
   * runner keeps that account (the command and Python runners); undefined elsewhere.
   */
  timeSpentMs?: number;
}

/** Limits applied to every call, resolved from the task and run options. @public */
export interface ExecLimits {
  /** Per-call limit. */
  timeoutMs: number;
  /** Total time a candidate may lose to timeouts and crashes before the rest of its calls are skipped. */
  budgetMs: number;
  /**
   * Wall time all of one candidate's calls may take in the run, timeouts or not; once spent, its
   * remaining calls are skipped as `timeout` (reason `budget`). `Infinity` (the default) sets
   * no limit. Unlike `budgetMs`, slow calls that finish count too: this is what bounds a run
   * over candidates that take just under the per-call limit on every input.
   */
  candidateTimeMs: number;
  /** Largest encoded result accepted; larger ones become `error` `OutputTooLarge`. */
  maxOutputBytes: number;
  /** Heap limit of a sandbox worker or subprocess, in MiB. */
  memoryMb: number;
}

/** What a backend gets to run a share of the candidates. @internal */
export interface RunContext {
  readonly task: Task;
  /** How many inputs there are. */
  readonly inputCount: number;
  /** Every input as an encoded argument list (a tagged JSON array); built on first read. */
  readonly inputs: readonly Tagged[];
  /** `JSON.stringify(inputs)`, computed once and shared by every worker. */
  readonly inputsWire: string;
  /** `JSON.stringify(inputs.slice(from, to))`: the share of one slice of a split candidate. */
  inputsWireOf(from: number, to: number): string;
  /** A stable key of the input set, so workers can cache decoded inputs. */
  readonly inputsKey: string;
  readonly limits: ExecLimits;
  /** The isolation untrusted candidates get in this run (`RunOptions.isolation`, resolved). */
  readonly isolation: 'os' | 'process';
  /** Error class names that make an outcome `invalid`, per language of the candidate. */
  invalidNames(candidate: Candidate): readonly string[];
  readonly signal: AbortSignal | undefined;
  /** Builds the outcome of a call that returned `tagged`, sharing objects for equal primitives. */
  valueOutcome(tagged: Tagged): Outcome;
  /** Builds the outcome of a call whose result came as JSON text, sharing one per distinct text. */
  textOutcome?(text: string): Outcome;
  /** Stores one outcome; backends may call it in any order. */
  record(row: number, input: number, outcome: Outcome): void;
  /**
   * Stores the outcomes of inputs `input`, `input + 1`, … as a sandbox chunk report gives them,
   * already checked (`readChunk`): `v[k]` a number, boolean or JSON text, or null, which is the
   * value null unless `e` holds `[k, 1 | 2, name, message]` for it. Optional: a context that
   * passes reports on as they are (the sandbox host) takes them whole; without it, each outcome
   * goes through `record`.
   */
  recordReport?(
    row: number,
    input: number,
    v: ReadonlyArray<string | number | boolean | null>,
    e: ReadonlyArray<readonly [number, 1 | 2, string, string]>,
  ): void;
  stats(row: number): CandidateRunStats;
}

/** One candidate to run, and its row in the matrix. @internal */
export interface RowJob {
  readonly row: number;
  readonly candidate: Candidate;
}

/** A way of running candidates (in-process, JS sandbox, Python, command). @internal */
export interface Backend {
  /** Runs every input of the context for each given row; resolves when all outcomes are recorded. */
  run(rows: readonly RowJob[], ctx: RunContext): Promise<void>;
  /**
   * The isolation its candidates actually get when the run resolved `mode`. Absent: `'process'`
   * (the backend does not put its candidates behind the OS boundary).
   */
  isolation?(mode: 'os' | 'process'): IsolationUsed;
}
