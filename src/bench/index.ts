/**
 * Benchmarks over datasets on disk (the format of docs/dataset.schema.json): per model and task,
 * incoherence and error on shared reference-filtered inputs; the incoherence paper's table 4,
 * false positives, the ranking agreement of its figure 1, a comparison with the paper's logs; a
 * resumable checkpoint and the reporters' JSON report.
 * @packageDocumentation
 */
export { Checkpoint, type PairResult } from './checkpoint.ts';
export {
  type DatasetCandidates,
  type DatasetReadOptions,
  type DatasetTask,
  DEFAULT_DATASET_MAX_BYTES,
  listModels,
  loadCandidates,
  loadPaperLog,
  loadTasks,
  type PaperLogEntry,
} from './dataset.ts';
export { type ModelFigures, modelFigures, rankingAgreement, type TaskFigure } from './figures.ts';
export {
  BENCH_DEFAULTS,
  BENCH_WHERE,
  type BenchLanguage,
  type BenchOptions,
  type BenchProfile,
  DEFAULT_BENCH_OUT,
  type ResolvedBenchOptions,
  resolveBenchOptions,
} from './options.ts';
/** Internal: the CLI holds the output's lock across the run and the report's write. @internal */
export { lockBenchOut } from './out-lock.ts';
export { comparePaper, type PaperComparison } from './paper.ts';
export { progressLine, progressReporter } from './progress.ts';
export { literalCallArgs } from './python-literal.ts';
export { type PerModelFigure, perModel, type ReadReport, readReport } from './read-report.ts';
export { type BenchHooks, type BenchProgress, type BenchResult, runBench } from './runner.ts';
export {
  BENCH_RANKING_CONFIDENCE,
  type BenchIdentity,
  type BenchMerge,
  type BenchPairEntry,
  type BenchSection,
  type BenchShard,
  benchFigures,
  benchRanking,
  benchReportRanking,
  mergeBenchReports,
  parseShard,
  shardPairs,
} from './shard.ts';
export { renderBenchTable, summaryLine } from './table.ts';
export { subSeed, type TaskInputs, taskInputs } from './task-inputs.ts';
