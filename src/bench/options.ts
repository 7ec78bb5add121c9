import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import type { Estimator } from '../measure/index.ts';
import type { EqualityMode } from '../values/index.ts';
import { type BenchShard, parseShard } from './shard.ts';

/** Input distribution of `gen.fromSeeds`. @public */
export type BenchProfile = 'typed' | 'difftrust';

/** Languages candidates and references can be written in. @public */
export type BenchLanguage = 'python' | 'javascript' | 'typescript';

/** What a benchmark run measures. Everything but `data` has a default. @public */
export interface BenchOptions {
  /** Dataset directory (`tasks.jsonl.gz`, `candidates/<model>.jsonl.gz`, optional `paper_logs/`). */
  readonly data: string;
  /** Models to measure; default every model with a candidates file. */
  readonly models?: readonly string[];
  /** Task ids to measure; default every task. */
  readonly tasks?: readonly string[];
  /** Only the first `limit` tasks (after `tasks`). */
  readonly limit?: number;
  /** Candidates per task: the first m of each model's samples. @defaultValue 10 */
  readonly m?: number;
  /** Reference-filtered inputs per task. @defaultValue 1000 */
  readonly n?: number;
  /** Seed of every random choice (inputs, the pairs of `paired`). @defaultValue 1 */
  readonly seed?: number;
  /** @defaultValue 'python' for Python tasks, else 'strict' */
  readonly equality?: EqualityMode;
  /** @defaultValue 'all-pairs' */
  readonly estimator?: Estimator;
  /** @defaultValue 'typed' */
  readonly profile?: BenchProfile;
  /** Overrides every task's `language`. */
  readonly language?: BenchLanguage;
  /**
   * Per-call limit in ms. Reference calls on these inputs take microseconds, so a call this slow
   * is a hang or an exponential blow-up, not a slow correct answer. @defaultValue 250
   */
  readonly timeoutMs?: number;
  /**
   * Time a candidate may lose to timeouts before its remaining calls are skipped (unknown), in ms.
   * Hung candidates dominate a benchmark's wall time otherwise: two timeouts and the candidate
   * sits out the task. @defaultValue 500
   */
  readonly budgetMs?: number;
  /**
   * Wall time one candidate's calls may take on one task (n inputs), slow ones that finish
   * included; the rest of its calls are skipped (unknown). Typical candidates need a few tens
   * of ms for 1,000 inputs; without this bound, candidates that take just under the per-call
   * limit on every input cost minutes each. The reference is never limited. @defaultValue 1000
   */
  readonly candidateTimeMs?: number;
  /**
   * Largest output of a call, in bytes of its encoding. Inputs on which the reference's output
   * is larger are dropped; a candidate's larger output is an error (`OutputTooLarge`). Outputs
   * of megabytes (a product of factorials of a large n) cost the host more to compare than the
   * calls cost to make. @defaultValue 65536
   */
  readonly maxOutputBytes?: number;
  /** Tasks measured at once (all models of a task run together). @defaultValue 2 */
  readonly jobs?: number;
  /**
   * The report JSON; the checkpoint is `<out>.checkpoint`.
   * @defaultValue 'crosscheck-bench.json'; `crosscheck-bench.shard-<i>-of-<k>.json` for a shard
   */
  readonly out?: string;
  /**
   * This process's part of the (model, task) pairs: `'i/k'` or `{ index, count }` (1-based).
   * `crosscheck report merge` joins the k reports into the unsharded run's. @defaultValue all pairs
   */
  readonly shard?: string | BenchShard;
}

/** {@link BenchOptions} with defaults applied and every field checked. @public */
export interface ResolvedBenchOptions {
  readonly data: string;
  readonly models: readonly string[] | null;
  readonly tasks: readonly string[] | null;
  readonly limit: number | null;
  readonly m: number;
  readonly n: number;
  readonly seed: number;
  readonly equality: EqualityMode | null;
  readonly estimator: Estimator;
  readonly profile: BenchProfile;
  readonly language: BenchLanguage | null;
  readonly timeoutMs: number;
  readonly budgetMs: number;
  readonly candidateTimeMs: number;
  readonly maxOutputBytes: number;
  readonly jobs: number;
  readonly out: string;
  readonly shard: BenchShard | null;
}

export const DEFAULT_BENCH_OUT = 'crosscheck-bench.json';
export const BENCH_LANGUAGES: readonly BenchLanguage[] = ['python', 'javascript', 'typescript'];
const EQUALITIES: readonly EqualityMode[] = ['python', 'difftrust', 'strict'];
const ESTIMATORS: readonly Estimator[] = ['all-pairs', 'paired'];
const PROFILES: readonly BenchProfile[] = ['typed', 'difftrust'];

const WHERE = 'crosscheck bench';

const invalid = (option: string, rule: string, got: unknown, fix: string): never => {
  throw new CrosscheckError(
    'INVALID_OPTION',
    `${WHERE}: --${option} ${rule}, got ${describeValue(got)}. ${fix}`,
    {
      where: `${WHERE} --${option}`,
    },
  );
};

const integer = (option: string, value: unknown, fallback: number, min: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    invalid(
      option,
      min > 0 ? 'must be a positive integer' : 'must be an integer',
      value,
      `Pass e.g. --${option} ${fallback}.`,
    );
  }
  return value as number;
};

const milliseconds = (option: string, value: unknown, fallback: number): number => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    invalid(option, 'must be a positive number of milliseconds', value, `Pass e.g. --${option} ${fallback}.`);
  }
  return value as number;
};

const oneOf = <T extends string>(option: string, value: unknown, allowed: readonly T[]): T | undefined => {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    invalid(option, `must be one of ${allowed.join(', ')}`, value, `Pass e.g. --${option} ${allowed[0]}.`);
  }
  return value as T;
};

const names = (option: string, value: unknown): readonly string[] | null => {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((x) => typeof x === 'string' && x !== '')) {
    invalid(option, 'must be a non-empty comma-separated list', value, `Pass e.g. --${option} a,b.`);
  }
  return [...new Set(value as string[])];
};

/**
 * Checks the options and fills in defaults. Throws a `CrosscheckError` naming the option, the
 * rule, what arrived and the fix.
 * @public
 */
export const resolveBenchOptions = (options: BenchOptions): ResolvedBenchOptions => {
  if (typeof options?.data !== 'string' || options.data === '') {
    invalid(
      'data',
      'must be a dataset directory',
      options?.data,
      'Pass e.g. --data ../shared/data/humaneval.',
    );
  }
  const data = resolve(options.data);
  if (!existsSync(join(data, 'tasks.jsonl.gz')) && !existsSync(join(data, 'tasks.jsonl'))) {
    invalid(
      'data',
      'must be a directory holding tasks.jsonl.gz (or tasks.jsonl) and candidates/<model>.jsonl.gz',
      data,
      'Point it at a dataset directory such as ../shared/data/humaneval.',
    );
  }
  if (options.out !== undefined && (typeof options.out !== 'string' || options.out === '')) {
    invalid('out', 'must be a file path', options.out, `Pass e.g. --out ${DEFAULT_BENCH_OUT}.`);
  }
  const limit = options.limit === undefined ? null : integer('limit', options.limit, 10, 1);
  const timeoutMs = milliseconds('timeout-ms', options.timeoutMs, 250);
  const budgetMs = milliseconds('budget-ms', options.budgetMs, 500);
  const candidateTimeMs = milliseconds('candidate-time-ms', options.candidateTimeMs, 1000);
  const maxOutputBytes = integer('max-output-bytes', options.maxOutputBytes, 65536, 2);
  const shard = options.shard === undefined ? null : parseShard(options.shard);
  return {
    data,
    models: names('models', options.models),
    tasks: names('tasks', options.tasks),
    limit,
    m: integer('m', options.m, 10, 1),
    n: integer('n', options.n, 1000, 1),
    seed: integer('seed', options.seed, 1, Number.MIN_SAFE_INTEGER),
    equality: oneOf('equality', options.equality, EQUALITIES) ?? null,
    estimator: oneOf('estimator', options.estimator, ESTIMATORS) ?? 'all-pairs',
    profile: oneOf('profile', options.profile, PROFILES) ?? 'typed',
    language: oneOf('language', options.language, BENCH_LANGUAGES) ?? null,
    timeoutMs,
    budgetMs,
    candidateTimeMs,
    maxOutputBytes,
    jobs: integer('jobs', options.jobs, 2, 1),
    out: resolve(
      options.out ??
        (shard ? `crosscheck-bench.shard-${shard.index}-of-${shard.count}.json` : DEFAULT_BENCH_OUT),
    ),
    shard,
  };
};

/**
 * The options that decide a model-task result. A checkpoint is reused only under the same
 * fingerprint; models, tasks, jobs and out are left out on purpose, so a rerun can add models or
 * tasks and keep every finished pair.
 */
export const fingerprintOf = (o: ResolvedBenchOptions): Record<string, string | number | null> => ({
  data: o.data,
  m: o.m,
  n: o.n,
  seed: o.seed,
  equality: o.equality,
  estimator: o.estimator,
  profile: o.profile,
  language: o.language,
  timeoutMs: o.timeoutMs,
  budgetMs: o.budgetMs,
  candidateTimeMs: o.candidateTimeMs,
  maxOutputBytes: o.maxOutputBytes,
});
