import { escapeJsonControls } from '../values/index.ts';
import type { CrosscheckReport } from './report.ts';
import { writeFileAtomic } from './write.ts';

/** Default file name of the JSON report. @public */
export const REPORT_FILE = 'crosscheck-report.json';

/**
 * The report as JSON text (two-space indent, trailing newline). Control and bidirectional
 * characters in its strings are written as `\uXXXX` escapes: the same data, but `cat` of the
 * file shows them instead of acting on them.
 * @public
 */
export const renderJson = (report: CrosscheckReport): string =>
  `${escapeJsonControls(JSON.stringify(report, null, 2))}\n`;

/** Writes the JSON report atomically (temporary file + rename). @public */
export const writeReportJson = (report: CrosscheckReport, path: string = REPORT_FILE): void =>
  writeFileAtomic(path, renderJson(report));
