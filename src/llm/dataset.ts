import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type DatasetTask, loadTasks } from '../bench/index.ts';
import type { SourceLanguage } from '../candidates/index.ts';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import { defineTask } from '../task/index.ts';
import { createLlm } from './client.ts';
import { sampleSettled } from './sample-candidates.ts';
import type { Llm, LlmOptions, PromptTemplate, UsageTotals } from './types.ts';
import { usageTotals } from './usage.ts';

/** Options of {@link sampleDataset}. @public */
export interface SampleDatasetOptions {
  /** The dataset whose tasks are sampled (`tasks.jsonl.gz`). */
  data: string;
  /** The directory written: `tasks.jsonl.gz` and `candidates/<model>.jsonl.gz`. */
  out: string;
  /** Models to sample, as the endpoint names them (one file each). */
  models: readonly string[];
  /** Samples per task and model. */
  n: number;
  /** @defaultValue 'crosscheck' */
  prompt?: PromptTemplate;
  /** @defaultValue each task's language (Python for HumanEval) */
  language?: SourceLanguage;
  /** Task ids to sample; @defaultValue all */
  tasks?: readonly string[];
  /** Only the first k tasks. */
  limit?: number;
  /** Client options shared by every model (baseURL, cache, sampling, retries, ...). */
  llm?: Omit<LlmOptions, 'model'>;
  /** (task, model) pairs sampled at once; HTTP concurrency is the client's `maxConcurrency`. @defaultValue 16 */
  jobs?: number;
  onProgress?: (p: SampleProgress) => void;
  signal?: AbortSignal;
}

/**
 * A sample that gave no candidate: its reply could not be used (`bad-reply`: too large, not
 * JSON, no choices), the server answered its request with an HTTP error that outlived the retries
 * (`request-failed`: a prompt over the context length, a persistent 500), or the reply held no
 * code (`no-code`). The run goes on without it; the candidates file lists it under the task's
 * `failed`. An endpoint that cannot be reached at all ends the run instead (every other sample
 * would fail the same way).
 * @public
 */
export interface SampleFailure {
  readonly model: string;
  /** As the dataset spells it (a number stays a number). */
  readonly taskId: string | number;
  readonly sample: number;
  readonly reason: 'bad-reply' | 'request-failed' | 'no-code';
  readonly message: string;
}

/** Progress of {@link sampleDataset}. @public */
export interface SampleProgress {
  readonly done: number;
  readonly total: number;
  readonly live: number;
  readonly replayed: number;
  /** Samples that gave no candidate so far (see {@link SampleFailure}). */
  readonly failed: number;
  readonly retries: number;
  readonly elapsedMs: number;
}

/** What {@link sampleDataset} did. @public */
export interface SampleDatasetResult {
  readonly out: string;
  readonly tasks: number;
  readonly models: readonly string[];
  readonly samples: number;
  /** HTTP requests sent, retries included. */
  readonly requests: number;
  readonly retries: number;
  readonly retriesByReason: Readonly<Record<string, number>>;
  /** Samples whose request left the process and whose reply was used. */
  readonly live: UsageTotals;
  /** Samples replayed from the cache, with no request. */
  readonly replayed: UsageTotals;
  /**
   * Draws whose requests left the process but gave no usable reply (tokens counted when the
   * server reported them): with `live`, everything this run spent.
   */
  readonly failed: UsageTotals;
  readonly unpriced: readonly string[];
  /** Every sample that gave no candidate, in model, task and sample order. */
  readonly failures: readonly SampleFailure[];
  readonly perModel: ReadonlyArray<{
    readonly model: string;
    readonly live: UsageTotals;
    readonly replayed: UsageTotals;
    readonly failed: UsageTotals;
  }>;
}

const writeAtomic = (path: string, data: Buffer): void => {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new CrosscheckError('IO_ERROR', `Cannot write ${path} (${(error as Error).message}).`, {
      cause: error,
    });
  }
};

const fail = (option: string, rule: string, got: unknown): never => {
  throw new CrosscheckError(
    'INVALID_OPTION',
    `sampleDataset({ ${option} }): must be ${rule}, got ${describeValue(got)}.`,
    {
      where: `sampleDataset({ ${option} })`,
    },
  );
};

/** A task's id as the dataset spells it: MBPP's numeric ids stay numbers in the files written. */
const idOf = (t: DatasetTask): string | number => {
  const raw = t.raw.task_id;
  return typeof raw === 'number' && String(raw) === t.taskId ? raw : t.taskId;
};

/** A dataset task as a crosscheck task for the prompt (name, entry, signature, description). */
const taskOf = (t: DatasetTask) =>
  defineTask({ name: t.entryPoint, entry: t.entryPoint, signature: t.signature, description: t.description });

/**
 * Draws n samples per task from each model into a directory in the bench format, which
 * `crosscheck bench` then measures. Every reply goes through the cache, so an interrupted run
 * resumes where it stopped, and a replay-only rerun makes no request at all. Codes are written
 * as extracted from the replies, in sample order; the files are gzip with no timestamp, so equal
 * samples give byte-identical files. A sample whose reply cannot be used (too large, not JSON,
 * an HTTP error after the retries, no code) is left out of `codes`, listed under the task's
 * `failed` and in the result's `failures`, and every other sample is still drawn; a task id keeps
 * the dataset's type (MBPP's numbers stay numbers).
 * @public
 */
export const sampleDataset = async (options: SampleDatasetOptions): Promise<SampleDatasetResult> => {
  if (typeof options !== 'object' || options === null) fail('options', 'an object', options);
  const { data, out, models, n } = options;
  if (typeof data !== 'string' || data === '') fail('data', 'a dataset directory', data);
  if (typeof out !== 'string' || out === '') fail('out', 'an output directory', out);
  if (resolve(out) === resolve(data)) fail('out', 'a directory other than the dataset', out);
  if (
    !Array.isArray(models) ||
    models.length === 0 ||
    !models.every((m) => typeof m === 'string' && m !== '')
  )
    fail('models', 'a non-empty array of model names', models);
  if (!Number.isSafeInteger(n) || n < 1) fail('n', 'a positive integer', n);
  const jobs = options.jobs ?? 16;
  if (!Number.isSafeInteger(jobs) || jobs < 1) fail('jobs', 'a positive integer', jobs);

  let tasks = loadTasks(data);
  if (options.tasks) {
    const wanted = new Set(options.tasks);
    const missing = [...wanted].filter((id) => !tasks.some((t) => t.taskId === id));
    if (missing.length)
      fail('tasks', `task ids of the dataset (unknown: ${missing.slice(0, 5).join(', ')})`, options.tasks);
    tasks = tasks.filter((t) => wanted.has(t.taskId));
  }
  if (options.limit !== undefined) {
    if (!Number.isSafeInteger(options.limit) || options.limit < 1)
      fail('limit', 'a positive integer', options.limit);
    tasks = tasks.slice(0, options.limit);
  }

  const llms = new Map<string, Llm>(models.map((m) => [m, createLlm({ ...(options.llm ?? {}), model: m })]));
  const codes = new Map<string, string[][]>(models.map((m) => [m, tasks.map(() => [])]));
  const failedOf = new Map<string, SampleFailure[][]>(models.map((m) => [m, tasks.map(() => [])]));
  const pairs = models.flatMap((model) => tasks.map((task, i) => ({ model, task, i })));
  const started = Date.now();
  let done = 0;
  let failed = 0;
  let next = 0;
  const progress = () => {
    let live = 0;
    let replayed = 0;
    let retries = 0;
    for (const llm of llms.values()) {
      for (const c of llm.ledger.calls) {
        if (c.failed) continue;
        if (c.live) live++;
        else replayed++;
      }
      retries += llm.stats.retries;
    }
    options.onProgress?.({
      done,
      total: pairs.length * n,
      live,
      replayed,
      failed,
      retries,
      elapsedMs: Date.now() - started,
    });
  };
  const worker = async () => {
    while (next < pairs.length) {
      const { model, task, i } = pairs[next++] as (typeof pairs)[number];
      if (options.signal?.aborted)
        throw new CrosscheckError('ABORTED', 'sampleDataset: aborted.', { cause: options.signal.reason });
      const language = options.language ?? (task.language as SourceLanguage);
      // Each sample settles on its own: one reply that cannot be used costs that sample, not the run.
      const samples = await sampleSettled(llms.get(model) as Llm, taskOf(task), {
        n,
        language,
        prompt: options.prompt ?? 'crosscheck',
        signal: options.signal,
      });
      const taskId = idOf(task);
      const ok: string[] = [];
      const bad: SampleFailure[] = [];
      for (const s of samples) {
        if ('candidate' in s) ok.push(s.candidate.code);
        else bad.push({ model, taskId, sample: s.sample, reason: s.reason, message: s.message });
      }
      (codes.get(model) as string[][])[i] = ok;
      (failedOf.get(model) as SampleFailure[][])[i] = bad;
      failed += bad.length;
      done += n;
      progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, pairs.length) }, worker));

  // tasks.jsonl.gz: the dataset's own task file, so `crosscheck bench` reads the same tasks.
  const gz = join(data, 'tasks.jsonl.gz');
  const tasksFile = existsSync(gz) ? readFileSync(gz) : gzipSync(readFileSync(join(data, 'tasks.jsonl')));
  writeAtomic(join(out, 'tasks.jsonl.gz'), tasksFile);
  for (const model of models) {
    const lines = tasks.map((t, i) => {
      const c = (codes.get(model) as string[][])[i] as string[];
      const bad = (failedOf.get(model) as SampleFailure[][])[i] as SampleFailure[];
      return JSON.stringify({
        task_id: idOf(t),
        n: c.length,
        codes: c,
        ...(bad.length > 0
          ? { failed: bad.map((f) => ({ sample: f.sample, reason: f.reason, message: f.message })) }
          : {}),
      });
    });
    writeAtomic(join(out, 'candidates', `${model}.jsonl.gz`), gzipSync(`${lines.join('\n')}\n`));
  }

  const all = [...llms.values()];
  const totals = usageTotals(all.flatMap((l) => l.ledger.calls));
  const retriesByReason: Record<string, number> = {};
  for (const l of all) {
    for (const [k, v] of Object.entries(l.stats.retriesByReason))
      retriesByReason[k] = (retriesByReason[k] ?? 0) + v;
  }
  return {
    out: resolve(out),
    tasks: tasks.length,
    models: [...models],
    samples: pairs.length * n,
    requests: all.reduce((s, l) => s + l.stats.requests, 0),
    retries: all.reduce((s, l) => s + l.stats.retries, 0),
    retriesByReason,
    live: totals.live,
    replayed: totals.replayed,
    failed: totals.failed,
    unpriced: totals.unpriced,
    failures: models.flatMap((m) => (failedOf.get(m) as SampleFailure[][]).flat()),
    perModel: models.map((m) => {
      const t = usageTotals((llms.get(m) as Llm).ledger.calls);
      return { model: m, live: t.live, replayed: t.replayed, failed: t.failed };
    }),
  };
};
