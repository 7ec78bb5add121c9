/**
 * Reports: the record schema matchers write, suite aggregation, renderers (terminal, JSON,
 * Markdown, HTML with SVG plots) and shard merge.
 * @packageDocumentation
 */

export { GLYPHS } from './figures.ts';
export { processIsolationWarning } from './format.ts';
export {
  checkLlmText,
  type LlmCallRecord,
  type LlmCandidateRow,
  type LlmModelRow,
  type LlmRecord,
  type LlmSummary,
  type LlmTotals,
  llmRecord,
  llmSummary,
  llmSummaryLines,
  llmTotals,
  MAX_RECORD_CALLS,
  usd,
} from './llm.ts';
export { mergeReports, missingShards } from './merge.ts';
export {
  defaultJsonPath,
  REPORT_FORMATS,
  REPORTER_KEYS,
  type ReporterOptions,
  type ReportFormat,
  type ResolvedReporterOptions,
  renderReport,
  resolveFormat,
  resolveReporterOptions,
  writeOutputs,
} from './output.ts';
export {
  type ClassRecord,
  type CoherenceData,
  type CrosscheckRecord,
  coherenceRecord,
  commonTags,
  type DetectionData,
  detectionRecord,
  type ErrorData,
  type EstimateRecord,
  errorRecord,
  type JsonValue,
  type OrderData,
  orderRecord,
  type PropertyCandidateRecord,
  type PropertyData,
  type PropertyOutcome,
  parseRecord,
  propertyRecord,
  type RankingData,
  RECORD_KINDS,
  RECORD_SCHEMA,
  RECORD_VERSION,
  type RecordBase,
  type RecordContext,
  type RecordData,
  type RecordKind,
  type ReviewData,
  type ReviewUsageRecord,
  rankingRecord,
  reviewRecord,
  serializeRecord,
  type TestIdentity,
  type UnknownRecord,
  unknownRecord,
  type WitnessRecord,
} from './record.ts';
export { renderHtml } from './render-html.ts';
export { REPORT_FILE, renderJson, writeReportJson } from './render-json.ts';
export { renderMarkdown } from './render-markdown.ts';
export {
  forestPlot,
  intervalText,
  isRankingAnalysis,
  rankingHtml,
  rankingLines,
  rankingMarkdown,
  reportRanking,
  SEED_STABILITY_NOTE,
} from './render-ranking.ts';
export { renderTerminal, renderWritten, type TerminalOptions } from './render-terminal.ts';
export {
  type CrosscheckReport,
  createReport,
  MAX_SHARDS,
  parseReport,
  REPORT_SCHEMA,
  REPORT_VERSION,
  type RunInfo,
  relativeToRoot,
  type ShardInfo,
  type UnrecordedFailure,
} from './report.ts';
export { type RecordSink, recordSink, setRecordSink } from './sink.ts';
export {
  type CheckRow,
  checkRow,
  type ModelRanking,
  type ModelRow,
  type PacVerdict,
  type ReferenceFigures,
  type ReviewRow,
  type ReviewSummary,
  rankTaskPoints,
  type SuiteFigures,
  type Summary,
  sortRecords,
  summarize,
  type TaskPoint,
  type TriangulationFigures,
  type TriangulationRow,
} from './summary.ts';
export { crosscheckVersion } from './version.ts';
export { appendStepSummary, RECORDS_ENV, writeFileAtomic } from './write.ts';
