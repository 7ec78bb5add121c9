import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  checkKeys,
  type FieldAt,
  knownKeys,
  optionError,
  readFlag,
  readMs,
  readNames,
  readOneOf,
  readPositiveInt,
  readSeed,
} from '../errors/index.ts';
import type { Estimator } from '../measure/index.ts';
import { crosscheckVersion } from '../report/index.ts';
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
  /**
   * Start over: measure every pair again and replace the checkpoint, instead of resuming the
   * pairs it holds (for timing a run, or after changing crosscheck itself). @defaultValue false
   */
  readonly fresh?: boolean;
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
  readonly fresh: boolean;
}

/**
 * The defaults of {@link BenchOptions}: the one source for {@link resolveBenchOptions} and the
 * CLI's help text and error examples.
 * @public
 */
export const BENCH_DEFAULTS = Object.freeze({
  m: 10,
  n: 1000,
  seed: 1,
  estimator: 'all-pairs',
  profile: 'typed',
  timeoutMs: 250,
  budgetMs: 500,
  candidateTimeMs: 1000,
  maxOutputBytes: 65536,
  jobs: 2,
  out: 'crosscheck-bench.json',
} as const satisfies Partial<Record<keyof BenchOptions, unknown>>);

export const DEFAULT_BENCH_OUT = BENCH_DEFAULTS.out;
export const BENCH_LANGUAGES: readonly BenchLanguage[] = ['python', 'javascript', 'typescript'];
const EQUALITIES: readonly EqualityMode[] = ['python', 'difftrust', 'strict'];
const ESTIMATORS: readonly Estimator[] = ['all-pairs', 'paired'];
const PROFILES: readonly BenchProfile[] = ['typed', 'difftrust'];

/** The API its errors name; the CLI re-words them with its flags. @internal */
export const BENCH_WHERE = 'runBench(options)';

/** The keys of {@link BenchOptions}: the API's spelling of the CLI's flags. */
const BENCH_KEYS = knownKeys<BenchOptions>({
  data: true,
  models: true,
  tasks: true,
  limit: true,
  m: true,
  n: true,
  seed: true,
  equality: true,
  estimator: true,
  profile: true,
  language: true,
  timeoutMs: true,
  budgetMs: true,
  candidateTimeMs: true,
  maxOutputBytes: true,
  jobs: true,
  out: true,
  shard: true,
  fresh: true,
});

const at = (field: keyof BenchOptions): FieldAt => ({ where: BENCH_WHERE, field });

const optional = <T>(
  field: keyof BenchOptions,
  value: unknown,
  read: (at: FieldAt, v: unknown) => T,
): T | null => (value === undefined ? null : read(at(field), value));

/**
 * Checks the options and fills in defaults. Throws a `CrosscheckError` naming the option, the
 * rule, what arrived and the fix.
 * @public
 */
export const resolveBenchOptions = (options: BenchOptions): ResolvedBenchOptions => {
  if (typeof options === 'object' && options !== null) checkKeys({ where: BENCH_WHERE }, options, BENCH_KEYS);
  if (typeof options?.data !== 'string' || options.data === '') {
    throw optionError({
      ...at('data'),
      rule: 'must be a dataset directory',
      got: options?.data,
      example: './humaneval',
    });
  }
  const data = resolve(options.data);
  if (!existsSync(join(data, 'tasks.jsonl.gz')) && !existsSync(join(data, 'tasks.jsonl'))) {
    throw optionError({
      ...at('data'),
      rule: 'must be a directory holding tasks.jsonl.gz (or tasks.jsonl) and candidates/<model>.jsonl.gz',
      got: data,
      fix: 'Point it at a dataset directory; docs/benchmark-data.md says what one holds and how to lay it out.',
    });
  }
  if (options.out !== undefined && (typeof options.out !== 'string' || options.out === '')) {
    throw optionError({
      ...at('out'),
      rule: 'must be a file path',
      got: options.out,
      example: BENCH_DEFAULTS.out,
    });
  }
  const D = BENCH_DEFAULTS;
  const shard = options.shard === undefined ? null : parseShard(options.shard);
  return {
    data,
    models: optional('models', options.models, readNames),
    tasks: optional('tasks', options.tasks, readNames),
    limit: optional('limit', options.limit, (a, v) => readPositiveInt(a, v)),
    m: readPositiveInt(at('m'), options.m, D.m),
    n: readPositiveInt(at('n'), options.n, D.n),
    seed: readSeed(at('seed'), options.seed, D.seed),
    equality: optional('equality', options.equality, (a, v) => readOneOf(a, v, EQUALITIES)),
    estimator: optional('estimator', options.estimator, (a, v) => readOneOf(a, v, ESTIMATORS)) ?? D.estimator,
    profile: optional('profile', options.profile, (a, v) => readOneOf(a, v, PROFILES)) ?? D.profile,
    language: optional('language', options.language, (a, v) => readOneOf(a, v, BENCH_LANGUAGES)),
    timeoutMs: readMs(at('timeoutMs'), options.timeoutMs ?? undefined, D.timeoutMs),
    budgetMs: readMs(at('budgetMs'), options.budgetMs ?? undefined, D.budgetMs),
    candidateTimeMs: readMs(at('candidateTimeMs'), options.candidateTimeMs ?? undefined, D.candidateTimeMs),
    maxOutputBytes: readPositiveInt(at('maxOutputBytes'), options.maxOutputBytes, D.maxOutputBytes, 2),
    jobs: readPositiveInt(at('jobs'), options.jobs, D.jobs),
    out: resolve(
      options.out ?? (shard ? `crosscheck-bench.shard-${shard.index}-of-${shard.count}.json` : D.out),
    ),
    shard,
    fresh: readFlag(at('fresh'), options.fresh, false),
  };
};

/**
 * The options that decide a model-task result. A checkpoint is reused only under the same
 * fingerprint; models, tasks, jobs and out are left out on purpose, so a rerun can add models or
 * tasks and keep every finished pair.
 */
export const fingerprintOf = (o: ResolvedBenchOptions): Record<string, string | number | null> => ({
  crosscheck: crosscheckVersion(),
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
