import { createHash } from 'node:crypto';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import {
  type CrosscheckReport,
  createReport,
  type JsonValue,
  MAX_SHARDS,
  parseReport,
  type ShardInfo,
} from '../report/index.ts';
import { type RankingAnalysis, rankModels } from '../stats/index.ts';
import type { CandidateFigures, PairResult } from './checkpoint.ts';
import type { DatasetCandidates, DatasetTask } from './dataset.ts';
import { type ModelFigures, modelFigures, rankingAgreement } from './figures.ts';

/**
 * Sharding a benchmark across machines (`crosscheck bench --shard i/k`) and joining the shards
 * (`crosscheck report merge`) into the report of the unsharded run. Every bench report carries a
 * `bench` section: the run's identity (options that decide results, a digest of the data used,
 * the selected models and tasks), one entry per (model, task) pair it measured, those not run
 * included, and the per-model figures computed from those pairs. A merge checks the identities,
 * joins the pairs and records, and computes the figures again from the joined pairs.
 * @packageDocumentation
 */

/** Which part of the work a process does: 1-based, as in `--shard 2/3`. @public */
export interface BenchShard {
  readonly index: number;
  readonly count: number;
}

const SHARD_FIX =
  'Write --shard i/k with 1 ≤ i ≤ k, one i per machine: --shard 1/3, --shard 2/3, --shard 3/3.';

/**
 * Parses `i/k` (`--shard`). Throws a `CrosscheckError` that says what to write for anything else
 * (`0/3`, `4/3`, `x`, `1/0`).
 * @public
 */
export const parseShard = (raw: unknown): BenchShard => {
  const where = 'crosscheck bench --shard';
  if (typeof raw === 'object' && raw !== null) {
    const s = raw as Partial<BenchShard>;
    return parseShard(`${s.index}/${s.count}`);
  }
  const match = typeof raw === 'string' ? /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw) : null;
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  let rule: string | null = null;
  if (!match) rule = 'must be i/k, two whole numbers';
  else if (count < 1 || count > MAX_SHARDS) rule = `must have 1 ≤ k ≤ ${MAX_SHARDS} shards`;
  else if (index < 1 || index > count)
    rule = `must have 1 ≤ i ≤ k (shard ${index} of ${count} does not exist)`;
  if (rule !== null) {
    throw new CrosscheckError('INVALID_OPTION', `${where} ${rule}, got ${describeValue(raw)}. ${SHARD_FIX}`, {
      where,
    });
  }
  return { index, count };
};

/** Code-point order: the same on every machine and locale. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The (model, task) pairs of one shard. All pairs are ordered by task id, then model (so the order
 * of files, lines and `--models` changes nothing) and cut into k contiguous runs of equal size
 * (±1): every pair lands in exactly one shard, and a task's models mostly share a shard, so its
 * inputs and reference filter run on one machine.
 * @public
 */
export const shardPairs = (
  models: readonly string[],
  taskIds: readonly string[],
  shard: BenchShard | null,
): Array<{ readonly model: string; readonly task: string }> => {
  const all = [...new Set(taskIds)]
    .sort(byText)
    .flatMap((task) => [...new Set(models)].sort(byText).map((model) => ({ model, task })));
  if (shard === null) return all;
  const from = Math.floor((all.length * (shard.index - 1)) / shard.count);
  const to = Math.floor((all.length * shard.index) / shard.count);
  return all.slice(from, to);
};

/** One measured pair, as the report keeps it (timings left out: they differ run to run). @public */
export interface BenchPairEntry {
  readonly model: string;
  readonly task: string;
  readonly status: 'ok' | 'failed';
  readonly reason: string | null;
  readonly m: number;
  readonly n: number;
  readonly incoherence: number | null;
  readonly error: number | null;
  /** Per-candidate figures the ranking's bootstrap resamples (absent in reports that predate them). */
  readonly candidates?: CandidateFigures;
}

/** What makes two bench reports parts of one run. @public */
export interface BenchIdentity {
  /** The options that decide results (as the checkpoint's fingerprint, without the data path). */
  readonly options: Readonly<Record<string, string | number | null>>;
  /** sha256 of what the run reads: the selected tasks and the first m candidates of each model on them. */
  readonly dataset: string;
  /** The selection, sorted: the order of files and of `--models` changes nothing. */
  readonly models: readonly string[];
  readonly tasks: readonly string[];
}

/** A run's identity; the selection is sorted, so machines that list files differently agree. @internal */
export const benchIdentity = (
  options: Readonly<Record<string, string | number | null>>,
  dataset: string,
  models: readonly string[],
  tasks: readonly string[],
): BenchIdentity => ({
  options,
  dataset,
  models: [...new Set(models)].sort(byText),
  tasks: [...new Set(tasks)].sort(byText),
});

/** The `bench` section of a bench report. @public */
export interface BenchSection {
  readonly identity: BenchIdentity;
  /** This report's pairs, by task, then model (both sorted). */
  readonly pairs: readonly BenchPairEntry[];
  /** Per-model figures from `pairs` (table 4 of the incoherence paper). */
  readonly figures: { readonly models: readonly ModelFigures[]; readonly rankingAgreement: number | null };
  /**
   * The models ranked with their uncertainty, from the pairs' per-candidate figures (seeded by the
   * run's seed, so merged shards give the unsharded run's intervals); null with fewer than two
   * models or pairs without per-candidate figures.
   */
  readonly ranking: RankingAnalysis | null;
  /** Whether every pair of the report's shards (of the run, when unsharded) is here. */
  readonly complete: boolean;
}

/**
 * The digest of the data one pair is measured on: the task's row and the model's first m
 * candidates of it. A checkpoint keeps it per pair, so a resumed run never reuses a pair whose
 * data changed. @internal
 */
export const pairDigest = (task: DatasetTask, codes: readonly string[] | undefined, m: number): string =>
  createHash('sha256')
    .update(`task\u0000${task.taskId}\u0000${JSON.stringify(task.raw)}\n`)
    .update(`codes\u0000${JSON.stringify(codes?.slice(0, m) ?? null)}\n`)
    .digest('hex');

/**
 * The digest of the data a run reads: each selected task's row and, per selected model, the
 * first m candidates of each selected task. Sorted, so reordered files give the same digest.
 * @internal
 */
export const datasetDigest = (
  tasks: readonly DatasetTask[],
  candidates: ReadonlyMap<string, ReadonlyMap<string, DatasetCandidates>>,
  m: number,
): string => {
  const hash = createHash('sha256');
  const sorted = [...tasks].sort((a, b) => byText(a.taskId, b.taskId));
  for (const t of sorted) hash.update(`task\u0000${t.taskId}\u0000${JSON.stringify(t.raw)}\n`);
  for (const model of [...candidates.keys()].sort(byText)) {
    const byTask = candidates.get(model) as ReadonlyMap<string, DatasetCandidates>;
    for (const t of sorted) {
      const codes = byTask.get(t.taskId)?.codes.slice(0, m) ?? null;
      hash.update(`model\u0000${model}\u0000${t.taskId}\u0000${JSON.stringify(codes)}\n`);
    }
  }
  return hash.digest('hex');
};

const entryOf = (p: PairResult): BenchPairEntry => ({
  model: p.model,
  task: p.task,
  status: p.status,
  reason: p.reason,
  m: p.m,
  n: p.n,
  incoherence: p.incoherence,
  error: p.error,
  ...(p.candidates ? { candidates: p.candidates } : {}),
});

/**
 * Per-model figures from per-task pairs: never from other figures, so the figures of merged
 * shards are those of the whole run. Pairs not run count in `failedTasks`, in no figure.
 * @public
 */
export const benchFigures = (
  models: readonly string[],
  pairs: readonly Pick<PairResult, 'model' | 'task' | 'status' | 'incoherence' | 'error'>[],
): { models: ModelFigures[]; rankingAgreement: number | null } => {
  const figures = models.map((model) => {
    const mine = pairs.filter((p) => p.model === model);
    const ok = mine.filter(
      (p): p is typeof p & { incoherence: number; error: number } =>
        p.status === 'ok' && p.incoherence !== null && p.error !== null,
    );
    return modelFigures(
      model,
      ok.map((p) => ({ task: p.task, incoherence: p.incoherence, error: p.error })),
      mine.length - ok.length,
    );
  });
  return { models: figures, rankingAgreement: rankingAgreement(figures) };
};

/** Pairs by task, then model, in the identity's (sorted) order. */
const inRunOrder = <P extends { model: string; task: string }>(
  identity: BenchIdentity,
  pairs: readonly P[],
): P[] => {
  const task = new Map(identity.tasks.map((t, i) => [t, i]));
  const model = new Map(identity.models.map((m, i) => [m, i]));
  return [...pairs].sort(
    (a, b) =>
      (task.get(a.task) ?? 0) - (task.get(b.task) ?? 0) ||
      (model.get(a.model) ?? 0) - (model.get(b.model) ?? 0),
  );
};

/**
 * The ranking of a run from its pairs: every finished pair with per-candidate figures is one
 * observation. Seeded by the run's seed; null with fewer than two models.
 * @public
 */
export const benchRanking = (
  pairs: readonly Pick<BenchPairEntry, 'model' | 'task' | 'status' | 'n' | 'candidates'>[],
  seed: number,
  confidence = BENCH_RANKING_CONFIDENCE,
): RankingAnalysis | null => {
  const observations = pairs.flatMap((p) =>
    p.status === 'ok' && p.candidates && p.n >= 1
      ? [
          {
            model: p.model,
            task: p.task,
            n: p.n,
            disagreement: p.candidates.disagreement,
            error: p.candidates.error,
          },
        ]
      : [],
  );
  if (new Set(observations.map((o) => o.model)).size < 2) return null;
  return rankModels(observations, { seed, confidence });
};

/** The confidence of the bench's intervals, rank intervals and separations. @public */
export const BENCH_RANKING_CONFIDENCE = 0.95;

const seedOf = (identity: BenchIdentity): number => {
  const seed = identity.options.seed;
  return typeof seed === 'number' && Number.isSafeInteger(seed) ? seed : 0;
};

/** The bench section of a run (or shard) from its pairs. @internal */
export const benchSection = (
  identity: BenchIdentity,
  shard: BenchShard | null,
  pairs: readonly PairResult[],
): BenchSection => {
  const entries = inRunOrder(identity, pairs.map(entryOf));
  const expected = shardPairs(identity.models, identity.tasks, shard).length;
  return {
    identity,
    pairs: entries,
    // Models with no pair here (another shard's) have no figures here.
    figures: benchFigures(
      identity.models.filter((m) => entries.some((p) => p.model === m)),
      entries,
    ),
    ranking: benchRanking(entries, seedOf(identity)),
    complete: entries.length === expected,
  };
};

const MERGE = 'crosscheck report merge';

const bad = (message: string): CrosscheckError =>
  new CrosscheckError('INVALID_INPUT', `${MERGE}: ${message}`, { where: MERGE });

// The bench section is input like any other: checked field by field before it is trusted.
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v !== '' && v.length <= 1000;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isShare = (v: unknown): v is number | null => v === null || (typeof v === 'number' && v >= 0 && v <= 1);
const MAX_PAIRS = 10_000_000;
const isCandidateFigures = (v: unknown, m: unknown): boolean => {
  if (!isObject(v) || typeof m !== 'number') return false;
  const list = (x: unknown) => Array.isArray(x) && x.length === m && x.every(isShare);
  return list(v.disagreement) && (v.error === null || list(v.error));
};

/**
 * The ranking of a bench report at `confidence`, from its pairs (checked as `report merge`
 * checks them) and its run's seed; null when the report is no bench report or ranks fewer than
 * two models.
 * @public
 */
export const benchReportRanking = (
  report: CrosscheckReport,
  confidence: number,
  source = 'report',
): RankingAnalysis | null => {
  const section = readBenchSection(parseReport(report, source), source);
  return section === null ? null : benchRanking(section.pairs, seedOf(section.identity), confidence);
};

/** The bench section of a parsed report, checked; null when the report has none. @internal */
export const readBenchSection = (report: CrosscheckReport, source: string): BenchSection | null => {
  const raw = report.bench;
  if (raw === undefined) return null;
  const fail = (what: string) =>
    bad(
      `${source}: bench.${what}. The report is damaged or was not written by crosscheck bench; run that shard again.`,
    );
  const identity = raw.identity;
  if (!isObject(identity)) throw fail('identity must be an object');
  if (
    !isObject(identity.options) ||
    !Object.values(identity.options).every((v) => v === null || ['string', 'number'].includes(typeof v))
  )
    throw fail('identity.options must be an object of strings and numbers');
  if (typeof identity.dataset !== 'string' || !/^[0-9a-f]{64}$/.test(identity.dataset))
    throw fail('identity.dataset must be a sha256 digest');
  for (const key of ['models', 'tasks'] as const) {
    const list = identity[key];
    if (
      !Array.isArray(list) ||
      list.length > MAX_PAIRS ||
      !list.every(isName) ||
      new Set(list).size !== list.length
    )
      throw fail(`identity.${key} must be a list of distinct names`);
  }
  const pairs = raw.pairs;
  if (!Array.isArray(pairs) || pairs.length > MAX_PAIRS) throw fail('pairs must be a list');
  const entries = pairs.map((p: JsonValue, i): BenchPairEntry => {
    const ok =
      isObject(p) &&
      isName(p.model) &&
      isName(p.task) &&
      (p.status === 'ok' || p.status === 'failed') &&
      (p.reason === null || typeof p.reason === 'string') &&
      isCount(p.m) &&
      isCount(p.n) &&
      isShare(p.incoherence) &&
      isShare(p.error) &&
      (p.candidates === undefined || isCandidateFigures(p.candidates, p.m)) &&
      (p.status === 'failed' || (p.incoherence !== null && p.error !== null));
    if (!ok)
      throw fail(
        `pairs[${i}] must be { model, task, status, reason, m, n, incoherence, error, candidates? } (candidates: { error, disagreement }, m shares each)`,
      );
    return p as unknown as BenchPairEntry;
  });
  const id = identity as unknown as BenchIdentity;
  const shard = report.run.shard;
  if (shard && shard.indexes.length !== 1)
    throw bad(
      `${source} covers shards ${shard.indexes.join(', ')} of ${shard.count}; merge the shard reports themselves, not merged ones.`,
    );
  const mine = new Set(
    shardPairs(
      id.models,
      id.tasks,
      shard ? { index: shard.indexes[0] as number, count: shard.count } : null,
    ).map((p) => `${p.model}\u0000${p.task}`),
  );
  const stray = entries.find((p) => !mine.has(`${p.model}\u0000${p.task}`));
  if (stray)
    throw fail(`pairs holds ${stray.model} on ${stray.task}, which is not in this shard's part of the run`);
  return benchSection(
    id,
    shard ? { index: shard.indexes[0] as number, count: shard.count } : null,
    entries.map((e) => ({ ...e, calls: 0, durationMs: 0, record: null })),
  );
};

/** Why two identities differ, key by key; empty when they are the same run. */
const differences = (a: BenchIdentity, b: BenchIdentity): string[] => {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a.options), ...Object.keys(b.options)])) {
    // Named as the command-line option: timeoutMs is --timeout-ms.
    const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (a.options[key] !== b.options[key])
      out.push(`--${flag}: ${JSON.stringify(a.options[key])} vs ${JSON.stringify(b.options[key])}`);
  }
  if (a.dataset !== b.dataset) out.push('the data (tasks or candidates) differ');
  if (JSON.stringify(a.models) !== JSON.stringify(b.models)) out.push('the selected models differ');
  if (JSON.stringify(a.tasks) !== JSON.stringify(b.tasks)) out.push('the selected tasks differ');
  return out;
};

/** What a bench merge joined, for the CLI's message. @public */
export interface BenchMerge {
  readonly report: CrosscheckReport;
  /** Shards of the run not given (1-based), e.g. `[2]`. */
  readonly missingShards: readonly number[];
  /** Pairs of the given shards that did not finish (interrupted shards). */
  readonly missingPairs: number;
  readonly pairs: number;
}

/**
 * Joins the reports of `crosscheck bench --shard i/k` (i = 1..k) into the report of the unsharded
 * run: records and pairs joined, the summary and per-model figures computed again from them.
 * With every shard present and complete, the result equals the unsharded run's report (timings
 * aside: they are measured). Refuses shards of different runs (options, seed, data, selection)
 * or splits, the same shard twice, and a pair in two reports, with a `CrosscheckError` that says
 * which. Missing shards are reported in the result (and `run.shard` lists the shards present).
 * @param sources - names of the reports (file paths) for error messages.
 * @public
 */
export const mergeBenchReports = (
  inputs: readonly (CrosscheckReport | unknown)[],
  sources: readonly string[] = inputs.map((_, i) => `reports[${i}]`),
): BenchMerge => {
  if (inputs.length === 0) throw bad('expected at least one bench report, got none. Pass the shard reports.');
  const reports = inputs.map((r, i) => parseReport(r, sources[i]));
  const sections = reports.map((r, i) => {
    const section = readBenchSection(r, sources[i] as string);
    if (section === null)
      throw bad(
        `${sources[i]} is not a crosscheck bench report (no bench section); merge bench shards with bench shards, test-reporter shards with test-reporter shards.`,
      );
    return section;
  });
  const first = sections[0] as BenchSection;
  sections.forEach((s, i) => {
    const why = differences(first.identity, s.identity);
    if (why.length > 0)
      throw bad(
        `${sources[i]} and ${sources[0]} are shards of different runs (${why.join('; ')}). Merge the shards of one run, all run with the same options, seed and data.`,
      );
  });
  const sharded = reports.filter((r) => r.run.shard !== null);
  if (sharded.length !== 0 && sharded.length !== reports.length)
    throw bad(
      `${sources[reports.findIndex((r) => r.run.shard === null)]} is an unsharded run but others are shards. Merge the shards of one run (--shard i/k for every i).`,
    );
  const count = reports[0]?.run.shard?.count ?? null;
  const seen = new Map<number, string>();
  reports.forEach((r, i) => {
    const shard = r.run.shard;
    if (shard === null) return;
    if (shard.count !== count)
      throw bad(
        `${sources[i]} is a shard of ${shard.count} but ${sources[0]} is a shard of ${count}. Merge the shards of one split.`,
      );
    const index = shard.indexes[0] as number;
    const other = seen.get(index);
    if (other !== undefined)
      throw bad(
        `shard ${index}/${count} is in both ${other} and ${sources[i]}; merging it twice would count its pairs twice. Pass each shard once.`,
      );
    seen.set(index, sources[i] as string);
  });
  if (count === null && reports.length > 1)
    throw bad(
      `${sources[1]} and ${sources[0]} are both unsharded runs; there is nothing to merge. Pass the shard reports of one run.`,
    );
  const owner = new Map<string, string>();
  sections.forEach((s, i) => {
    for (const p of s.pairs) {
      const key = `${p.model}\u0000${p.task}`;
      const other = owner.get(key);
      if (other !== undefined)
        throw bad(`${p.model} on ${p.task} is in both ${other} and ${sources[i]}. Pass each shard once.`);
      owner.set(key, sources[i] as string);
    }
  });
  const present = [...seen.keys()].sort((a, b) => a - b);
  const missingShards =
    count === null ? [] : Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  const all = shardPairs(first.identity.models, first.identity.tasks, null).length;
  const pairs = sections.flatMap((s) => s.pairs);
  const expectedHere =
    count === null
      ? all
      : present.reduce(
          (sum, index) =>
            sum + shardPairs(first.identity.models, first.identity.tasks, { index, count }).length,
          0,
        );
  // Every shard present: the run is whole, and its report is the unsharded run's.
  const whole = count === null || missingShards.length === 0;
  const shard: ShardInfo | null = whole ? null : { count: count as number, indexes: present };
  const section = benchSection(
    first.identity,
    null,
    pairs.map((e) => ({ ...e, calls: 0, durationMs: 0, record: null })),
  );
  const report = createReport(
    reports.flatMap((r) => r.records),
    { framework: 'crosscheck bench', shard },
    section as unknown as { [key: string]: JsonValue },
  );
  return { report, missingShards, missingPairs: expectedHere - pairs.length, pairs: pairs.length };
};
