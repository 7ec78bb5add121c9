import { CrosscheckError } from '../errors/index.ts';
import {
  type CrosscheckRecord,
  type CrosscheckReport,
  createReport,
  type JsonValue,
} from '../report/index.ts';
import type { RankingAnalysis } from '../stats/index.ts';
import { Checkpoint, type PairResult } from './checkpoint.ts';
import { type DatasetTask, listModels, loadCandidates, loadTasks } from './dataset.ts';
import { evaluateTask } from './evaluate.ts';
import type { ModelFigures } from './figures.ts';
import {
  type BenchOptions,
  fingerprintOf,
  type ResolvedBenchOptions,
  resolveBenchOptions,
} from './options.ts';
import { lockBenchOut } from './out-lock.ts';
import { comparePaper, type PaperComparison } from './paper.ts';
import { benchFigures, benchIdentity, benchSection, datasetDigest, pairDigest, shardPairs } from './shard.ts';
import { taskInputs } from './task-inputs.ts';

/** Where a run stands, for progress displays. @public */
export interface BenchProgress {
  readonly pairsDone: number;
  readonly pairsTotal: number;
  /** Pairs found finished in the checkpoint at start. */
  readonly pairsResumed: number;
  readonly tasksDone: number;
  readonly tasksTotal: number;
  /** Calls made by this process so far (finished tasks plus the running ones). */
  readonly calls: number;
  readonly elapsedMs: number;
  /** Set when a task just finished. */
  readonly lastTask: string | null;
}

/** Hooks of {@link runBench}. @public */
export interface BenchHooks {
  /** Stops starting tasks and aborts the running ones; finished pairs stay in the checkpoint. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BenchProgress) => void;
  /** One human line (a pair not run, a short input set). */
  readonly log?: (line: string) => void;
  /** The exact inputs a task's candidates run on, once generated (`npm run bench:floor` exports them). */
  readonly onInputs?: (task: DatasetTask, inputs: readonly (readonly unknown[])[]) => void;
}

/** Everything a benchmark run found. @public */
export interface BenchResult {
  readonly options: ResolvedBenchOptions;
  readonly models: readonly ModelFigures[];
  readonly rankingAgreement: number | null;
  /** The models ranked with their uncertainty (see {@link BenchSection.ranking}). */
  readonly ranking: RankingAnalysis | null;
  /** Null when the dataset has no `paper_logs/`. */
  readonly paper: PaperComparison | null;
  /** Every pair of the selection, from this run or the checkpoint. */
  readonly pairs: readonly PairResult[];
  /** False when interrupted: figures cover the finished pairs only. */
  readonly complete: boolean;
  readonly report: CrosscheckReport;
  readonly wallSeconds: number;
  /** Calls made by this process (resumed pairs cost none); null when it made none. */
  readonly callsPerSec: number | null;
  readonly calls: number;
  readonly checkpointPath: string;
  /** Pairs taken from the checkpoint instead of measured by this process. */
  readonly pairsResumed: number;
}

const selectTasks = (all: readonly DatasetTask[], o: ResolvedBenchOptions): DatasetTask[] => {
  let tasks = [...all];
  if (o.tasks) {
    const known = new Set(all.map((t) => t.taskId));
    const unknown = o.tasks.filter((t) => !known.has(t));
    if (unknown.length > 0) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `crosscheck bench: --tasks names tasks that are not in ${o.data}: ${unknown.join(', ')}. Use task_id values of tasks.jsonl, e.g. ${all
          .slice(0, 2)
          .map((t) => t.taskId)
          .join(',')}.`,
        { where: 'crosscheck bench --tasks' },
      );
    }
    const wanted = new Set(o.tasks);
    tasks = tasks.filter((t) => wanted.has(t.taskId));
  }
  return o.limit === null ? tasks : tasks.slice(0, o.limit);
};

const selectModels = (o: ResolvedBenchOptions): string[] => {
  const available = listModels(o.data);
  if (available.length === 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `crosscheck bench: --data ${o.data} has no candidates/<model>.jsonl.gz files. Point --data at a dataset directory.`,
      { where: 'crosscheck bench --data' },
    );
  }
  if (!o.models) return available;
  const unknown = o.models.filter((m) => !available.includes(m));
  if (unknown.length > 0) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `crosscheck bench: --models names models without candidates in ${o.data}: ${unknown.join(', ')}. Available: ${available.join(', ')}.`,
      { where: 'crosscheck bench --models' },
    );
  }
  return [...o.models];
};

/** Pulls items with at most `jobs` running at once; stops pulling once `stop()` says so. */
const pool = async <T>(
  items: readonly T[],
  jobs: number,
  stop: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !stop()) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, lane));
};

/**
 * Runs a benchmark: for every selected task, inputs once, then all unfinished models of the task
 * in one run; each finished pair is appended to the checkpoint at once. A failing task is
 * recorded with its reason; an abort (hooks.signal) ends the run early with what finished.
 * Throws a `CrosscheckError` only for misuse (bad directory, unknown model, bad numbers).
 * @public
 */
export const runBench = async (options: BenchOptions, hooks: BenchHooks = {}): Promise<BenchResult> => {
  const started = performance.now();
  const o = resolveBenchOptions(options);
  const models = selectModels(o);
  const tasks = selectTasks(loadTasks(o.data), o);
  // One writer per output: a second run on the same --out would measure every pair again and
  // append each to the same checkpoint.
  const unlock = lockBenchOut(o.out);
  try {
    return await runLocked(o, models, tasks, hooks, started);
  } finally {
    unlock();
  }
};

const runLocked = async (
  o: ResolvedBenchOptions,
  models: string[],
  tasks: DatasetTask[],
  hooks: BenchHooks,
  started: number,
): Promise<BenchResult> => {
  const checkpoint = Checkpoint.open(`${o.out}.checkpoint`, fingerprintOf(o), o.fresh);
  const candidates = new Map(models.map((m) => [m, loadCandidates(o.data, m)]));
  const signal = hooks.signal;
  const log = hooks.log ?? (() => {});
  // This process's pairs: all of them, or its shard's.
  const key = (model: string, task: string): string => `${model}\u0000${task}`;
  const mine = new Set(
    shardPairs(
      models,
      tasks.map((t) => t.taskId),
      o.shard,
    ).map((p) => key(p.model, p.task)),
  );
  const modelsOf = (task: string): string[] => models.filter((m) => mine.has(key(m, task)));
  const ownTasks = tasks.filter((t) => modelsOf(t.taskId).length > 0);
  // A checkpointed pair counts only if it was measured on the data as it is now.
  const digests = new Map<string, string>();
  const digestOf = (model: string, task: DatasetTask): string => {
    const k = key(model, task.taskId);
    let d = digests.get(k);
    if (d === undefined) {
      d = pairDigest(task, candidates.get(model)?.get(task.taskId)?.codes, o.m);
      digests.set(k, d);
    }
    return d;
  };
  const finished = (model: string, task: DatasetTask): PairResult | undefined => {
    const pair = checkpoint.get(model, task.taskId);
    return pair !== undefined && pair.data === digestOf(model, task) ? pair : undefined;
  };
  const stale = ownTasks.reduce(
    (s, t) => s + modelsOf(t.taskId).filter((m) => checkpoint.has(m, t.taskId) && !finished(m, t)).length,
    0,
  );
  if (stale > 0)
    log(
      `${stale} pairs of ${checkpoint.path} were measured on other data (changed tasks or candidates); measuring them again`,
    );

  const pairsTotal = mine.size;
  const todo = ownTasks.filter((t) => modelsOf(t.taskId).some((m) => !finished(m, t)));
  const pairsResumed =
    pairsTotal - todo.reduce((s, t) => s + modelsOf(t.taskId).filter((m) => !finished(m, t)).length, 0);
  let pairsDone = pairsResumed;
  let tasksDone = ownTasks.length - todo.length;
  let calls = 0;
  const running = new Map<string, number>();
  const progress = (lastTask: string | null): void =>
    hooks.onProgress?.({
      pairsDone,
      pairsTotal,
      pairsResumed,
      tasksDone,
      tasksTotal: ownTasks.length,
      calls: calls + [...running.values()].reduce((a, b) => a + b, 0),
      elapsedMs: performance.now() - started,
      lastTask,
    });
  progress(null);

  const record = (task: DatasetTask, pair: PairResult): void => {
    checkpoint.add({ ...pair, data: digestOf(pair.model, task) });
    pairsDone++;
    if (pair.status === 'failed') log(`${pair.model} ${pair.task}: not run: ${pair.reason}`);
  };

  await pool(
    todo,
    o.jobs,
    () => signal?.aborted === true,
    async (task) => {
      const missing = modelsOf(task.taskId).filter((m) => !finished(m, task));
      try {
        const prepared = await taskInputs(task, o, signal);
        if (!prepared.ok) {
          for (const m of missing)
            record(task, {
              model: m,
              task: task.taskId,
              status: 'failed',
              reason: prepared.reason,
              m: 0,
              n: 0,
              incoherence: null,
              error: null,
              calls: 0,
              durationMs: 0,
              record: null,
            });
        } else {
          hooks.onInputs?.(task, prepared.inputs);
          if (prepared.shortfall !== null) {
            log(`${task.taskId}: ${prepared.inputs.length} of ${o.n} inputs (${prepared.shortfall})`);
          }
          const codes = new Map(missing.map((m) => [m, candidates.get(m)?.get(task.taskId)?.codes]));
          const outcome = await evaluateTask(task, prepared, codes, o, signal, (done) => {
            running.set(task.taskId, done);
          });
          running.delete(task.taskId);
          calls += outcome.calls;
          for (const pair of outcome.pairs) record(task, pair);
        }
        tasksDone++;
        progress(task.taskId);
      } catch (error) {
        running.delete(task.taskId);
        // An abort leaves the task unfinished (it reruns on resume); anything else is a bug.
        if (!signal?.aborted) throw error;
      }
    },
  );

  // The data digest is the checkpoint's bookkeeping, not a result.
  const pairs = tasks.flatMap((t) =>
    modelsOf(t.taskId).flatMap((m) => {
      const pair = finished(m, t);
      if (pair === undefined) return [];
      const { data: _digest, ...result } = pair;
      return [result];
    }),
  );
  const { models: figures, rankingAgreement } = benchFigures(models, pairs);
  const records = pairs.flatMap((p) => (p.record ? [p.record as CrosscheckRecord] : []));
  const { data: _path, crosscheck: _version, ...decisive } = fingerprintOf(o);
  const identity = benchIdentity(
    decisive,
    datasetDigest(tasks, candidates, o.m),
    models,
    tasks.map((t) => t.taskId),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const section = benchSection(identity, o.shard, pairs);
  return {
    options: o,
    models: figures,
    rankingAgreement,
    ranking: section.ranking,
    paper: comparePaper(
      o.data,
      figures,
      tasks.map((t) => t.taskId),
    ),
    pairs,
    complete: pairs.length === pairsTotal,
    report: createReport(
      records,
      {
        framework: 'crosscheck bench',
        shard: o.shard ? { count: o.shard.count, indexes: [o.shard.index] } : null,
      },
      section as unknown as { [key: string]: JsonValue },
    ),
    wallSeconds,
    callsPerSec: calls === 0 ? null : calls / wallSeconds,
    calls,
    checkpointPath: checkpoint.path,
    pairsResumed,
  };
};
