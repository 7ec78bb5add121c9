import { type Candidate, isCandidate } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import {
  CrosscheckError,
  describeValue,
  knownKeys,
  readMs,
  readOptions,
  readPositiveInt,
  readSignal,
} from '../errors/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { encode, type Tagged } from '../values/index.ts';
import type { Backend, CandidateRunStats, ExecLimits, RowJob, RunContext } from './backend.ts';
import { inputsKeyOf } from './inputs-key.ts';
import {
  combineIsolation,
  type IsolationMode,
  type IsolationUsed,
  resolveIsolation,
} from './isolation/index.ts';
import { type Outcome, textOutcomes, valueOutcomes } from './outcome.ts';
import { type OutputBudgetOptions, outputBudget } from './output-budget.ts';
import { backendFor } from './select-backend.ts';
import { uniqueLabels } from './unique-labels.ts';

/** Options of {@link run}. All optional. @public */
export interface RunOptions extends Partial<ExecLimits>, OutputBudgetOptions {
  /** Cancels the run; the promise rejects with a `CrosscheckError` (`ABORTED`) holding the partial matrix. */
  signal?: AbortSignal;
  /** Called as calls finish, with the number done and the total, for progress displays. */
  onProgress?: (done: number, total: number) => void;
  /**
   * How untrusted candidates (sources, commands) are confined: `'os'` (bubblewrap), `'process'`
   * or `'auto'` (`'os'` when bubblewrap works here). See {@link IsolationMode}.
   * @defaultValue `$CROSSCHECK_ISOLATION`, else `'auto'`
   */
  isolation?: IsolationMode;
}

/**
 * The execution limits an analysing API (`measure`, `detect`, the matchers, …) takes under
 * its `run` option: those of {@link RunOptions} but the signal and the progress callback, which
 * the API owns. @internal
 */
export const RUN_LIMIT_KEYS = knownKeys<Omit<RunOptions, 'signal' | 'onProgress'>>({
  timeoutMs: true,
  budgetMs: true,
  candidateTimeMs: true,
  maxOutputBytes: true,
  memoryMb: true,
  maxRowOutputBytes: true,
  maxRunOutputBytes: true,
  isolation: true,
});

/** The keys of {@link RunOptions}. @internal */
export const RUN_OPTION_KEYS = knownKeys<RunOptions>({ ...RUN_LIMIT_KEYS, signal: true, onProgress: true });

/** One row of the matrix: who ran. @public */
export interface MatrixRow {
  readonly label: string;
  readonly id: string;
  readonly tags: Candidate['tags'];
  readonly stats: CandidateRunStats;
}

/**
 * The outcome of every candidate (and the reference, if any) on every input.
 * `outcomes[i][j]` is candidate i on input j.
 * @public
 */
export interface OutcomeMatrix {
  readonly task: Task;
  readonly inputs: readonly Args[];
  /** Each input as a tagged argument list (the wire form every runner received). */
  readonly encodedInputs: readonly Tagged[];
  readonly candidates: readonly MatrixRow[];
  readonly outcomes: readonly (readonly Outcome[])[];
  readonly reference: { readonly row: MatrixRow; readonly outcomes: readonly Outcome[] } | null;
  readonly durationMs: number;
  readonly limits: ExecLimits;
  /**
   * The isolation the untrusted candidates ran under (the weakest, if backends differ), or
   * `'none'` when every row was a trusted in-process function.
   */
  readonly isolation: IsolationUsed;
}

const DEFAULTS: Omit<ExecLimits, 'timeoutMs' | 'candidateTimeMs'> = {
  budgetMs: 10_000,
  maxOutputBytes: 16 * 1024 * 1024,
  memoryMb: 256,
};

const RUN_WHERE = 'run(task, candidates, inputs, options)';

/** Every limit is a positive number; only the time limits are milliseconds. */
const positive = (field: keyof ExecLimits, value: unknown, fallback: number): number =>
  readMs({ where: RUN_WHERE, field }, value, fallback, 'must be a positive number');

/**
 * A run cancelled by its signal (`code: 'ABORTED'`). Like execa's error, it has the result's
 * shape: `partial` is the matrix as far as it got (cells that never ran are `undefined`).
 * `partial` is not enumerable, so logging the error does not print the whole matrix.
 * @public
 */
export class RunAbortedError extends CrosscheckError {
  declare readonly partial: OutcomeMatrix;

  constructor(message: string, partial: OutcomeMatrix, options: { where?: string; cause?: unknown } = {}) {
    super('ABORTED', message, options);
    this.name = 'RunAbortedError';
    Object.defineProperty(this, 'partial', { value: partial, enumerable: false });
  }
}

/** Resolves run options into limits (one reader per field). @internal */
export const resolveLimits = (task: Task, options: RunOptions): ExecLimits => ({
  timeoutMs: positive('timeoutMs', options.timeoutMs, task.timeoutMs),
  budgetMs: positive('budgetMs', options.budgetMs, DEFAULTS.budgetMs),
  candidateTimeMs:
    options.candidateTimeMs === Number.POSITIVE_INFINITY
      ? options.candidateTimeMs
      : positive('candidateTimeMs', options.candidateTimeMs, Number.POSITIVE_INFINITY),
  // A byte count: a fraction would read as a limit no output can meet exactly.
  maxOutputBytes: readPositiveInt(
    { where: RUN_WHERE, field: 'maxOutputBytes' },
    options.maxOutputBytes,
    DEFAULTS.maxOutputBytes,
  ),
  memoryMb: positive('memoryMb', options.memoryMb, DEFAULTS.memoryMb),
});

/**
 * True when a value is plain JSON data whose tagged form is itself: arrays (not tuples) of
 * finite numbers other than -0, strings, booleans, null and such arrays. Objects take the
 * codec's path (their keys may need escaping); so does anything nested deeper than the codec
 * would check for cycles.
 */
const isPlainData = (x: unknown, depth: number): boolean => {
  switch (typeof x) {
    case 'number':
      return Number.isFinite(x) && (x !== 0 || 1 / x > 0);
    case 'string':
    case 'boolean':
      return true;
    case 'object':
      if (x === null) return true;
      if (!Array.isArray(x) || Object.getPrototypeOf(x) !== Array.prototype || depth > 32) return false;
      for (let i = 0; i < x.length; i++) if (!isPlainData(x[i], depth + 1)) return false;
      return true;
    default:
      return false;
  }
};

const languageOf = (c: Candidate): string => (c.kind === 'function' ? 'javascript' : c.language);

const DEFAULT_INVALID: Record<string, readonly string[]> = {
  javascript: ['RangeError'],
  typescript: ['RangeError'],
  python: ['ValueError'],
};

// Validates the option without probing the sandbox (nothing untrusted will run).
const checkedProcessMode = (requested: IsolationMode | undefined): 'process' => {
  if (requested !== undefined && requested !== 'auto' && requested !== 'os' && requested !== 'process') {
    resolveIsolation(requested);
  }
  return 'process';
};

/**
 * Runs every candidate, and the task's reference, on every input. Never throws for a bad
 * candidate: compile errors, missing entries, hangs and crashes become outcomes. Throws a
 * {@link CrosscheckError} only for misuse (not a task, not candidates, inputs that cannot be
 * encoded).
 * @public
 */
export const run = async (
  task: Task,
  candidates: readonly Candidate[],
  inputs: readonly Args[],
  options: RunOptions = {},
): Promise<OutcomeMatrix> => {
  const where = 'run(task, candidates, inputs)';
  if (!isTask(task)) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `run: expected a task from defineTask(), got ${describeValue(task)}.`,
      { where },
    );
  }
  if (!Array.isArray(candidates) || !candidates.every(isCandidate)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `run: expected an array of candidates (from candidates.fromFunctions or fromSources), got ${describeValue(candidates)}.`,
      { where },
    );
  }
  if (!Array.isArray(inputs) || !inputs.every(Array.isArray)) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `run: expected \`inputs\` to be an array of argument tuples, got ${describeValue(inputs)}. Wrap single arguments: [[1], [2]].`,
      { where },
    );
  }
  // Own properties only: a polluted Object.prototype (say `maxOutputBytes`) must not set a limit.
  options = readOptions<RunOptions>({ where }, options, RUN_OPTION_KEYS, '{ timeoutMs: 1000 }');
  readSignal({ where, field: 'signal' }, options.signal);
  const limits = resolveLimits(task, options);
  const rows: Candidate[] = task.reference ? [...candidates, task.reference] : [...candidates];
  const trusted = rows.every((c) => c.kind === 'function');
  // Trusted functions need no sandbox: a run of them neither probes nor requires bubblewrap.
  const isolationMode = trusted ? checkedProcessMode(options.isolation) : resolveIsolation(options.isolation);
  // Inputs of plain JSON data (the common case) are their own wire form: one native stringify
  // replaces encoding every value, and the tagged copy is parsed back only if someone reads it.
  // The whole set's text is made when a worker needs it: a lone candidate split over the
  // workers sends each its share instead (`inputsWireOf`).
  const plain = inputs.every((args) => isPlainData(args, 0));
  let encoded: Tagged[] | null = plain
    ? null
    : inputs.map((args, i) => {
        try {
          return encode(args);
        } catch (error) {
          throw new CrosscheckError(
            'INVALID_INPUT',
            `run: input ${i} cannot be sent to a candidate: ${(error as Error).message}`,
            { where, cause: error },
          );
        }
      });
  let inputsWire: string | null = null;
  const wholeWire = (): string => {
    inputsWire ??= JSON.stringify(encoded ?? inputs);
    return inputsWire;
  };
  let inputsKey: string | null = null;
  const encodedInputs = (): Tagged[] => {
    encoded ??= JSON.parse(wholeWire()) as Tagged[];
    return encoded;
  };
  const outcomes: Outcome[][] = rows.map(() => new Array<Outcome>(inputs.length));
  const stats: CandidateRunStats[] = rows.map(() => ({
    durationMs: 0,
    timeouts: 0,
    crashes: 0,
    budgetSpent: false,
    restarts: 0,
  }));
  const total = rows.length * inputs.length;
  let done = 0;
  // Outputs past the row's or the run's output memory budget are kept as digests.
  const budget = outputBudget(rows.length, options);
  const ctx: RunContext = {
    task,
    inputCount: inputs.length,
    get inputs() {
      return encodedInputs();
    },
    get inputsWire() {
      return wholeWire();
    },
    // Plain inputs are their own wire form; others were encoded above.
    inputsWireOf: (from, to) =>
      from === 0 && to === inputs.length
        ? wholeWire()
        : JSON.stringify(encoded === null ? inputs.slice(from, to) : encoded.slice(from, to)),
    get inputsKey() {
      inputsKey ??= inputsKeyOf(wholeWire());
      return inputsKey;
    },
    limits,
    isolation: isolationMode,
    invalidNames: (c) => task.invalidInput ?? DEFAULT_INVALID[languageOf(c)] ?? [],
    signal: options.signal,
    valueOutcome: valueOutcomes(),
    textOutcome: textOutcomes(),
    record(row, input, outcome) {
      const cells = outcomes[row] as Outcome[];
      if (cells[input] === undefined) done++;
      cells[input] = budget.admit(row, outcome);
      options.onProgress?.(done, total);
    },
    stats: (row) => stats[row] as CandidateRunStats,
  };
  const byBackend = new Map<Backend, RowJob[]>();
  rows.forEach((candidate, row) => {
    const backend = backendFor(candidate);
    byBackend.set(backend, [...(byBackend.get(backend) ?? []), { row, candidate }]);
  });
  const isolation: IsolationUsed = trusted
    ? 'none'
    : [...byBackend]
        .filter(([, jobs]) => jobs.some((j) => j.candidate.kind !== 'function'))
        .map(([backend]) => backend.isolation?.(isolationMode) ?? 'process')
        .reduce(combineIsolation, 'none');
  const started = performance.now();
  const labels = uniqueLabels(rows.map((c) => c.label));
  const matrix = (): OutcomeMatrix => {
    const matrixRows: MatrixRow[] = rows.map((c, i) => ({
      label: labels[i] as string,
      id: c.id,
      tags: c.tags,
      stats: stats[i] as CandidateRunStats,
    }));
    return Object.freeze({
      task,
      inputs,
      get encodedInputs() {
        return encodedInputs();
      },
      candidates: matrixRows.slice(0, candidates.length),
      outcomes: outcomes.slice(0, candidates.length),
      reference: task.reference
        ? {
            row: matrixRows[candidates.length] as MatrixRow,
            outcomes: outcomes[candidates.length] as Outcome[],
          }
        : null,
      durationMs: performance.now() - started,
      limits,
      isolation,
    });
  };
  const abortError = (): RunAbortedError =>
    new RunAbortedError(
      `run: aborted after ${done} of ${total} calls; \`error.partial\` holds what finished.`,
      matrix(),
      { where, cause: options.signal?.reason },
    );
  if (options.signal?.aborted) throw abortError();
  await Promise.all([...byBackend].map(([backend, jobs]) => backend.run(jobs, ctx)));
  if (options.signal?.aborted) throw abortError();
  outcomes.forEach((cells, row) => {
    for (let j = 0; j < cells.length; j++) {
      if (cells[j] === undefined) {
        throw new CrosscheckError(
          'INTERNAL',
          `run: no outcome for ${rows[row]?.label} on input ${j}; this is a bug in crosscheck.`,
        );
      }
    }
  });
  return matrix();
};
