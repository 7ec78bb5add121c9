import type { CrosscheckReport } from './report.ts';
import { writeFileAtomic } from './write.ts';

/** Default file name of the JSON report. @public */
export const REPORT_FILE = 'crosscheck-report.json';

/** The report as JSON text (two-space indent, trailing newline). @public */
export const renderJson = (report: CrosscheckReport): string => `${JSON.stringify(report, null, 2)}\n`;

/** Writes the JSON report atomically (temporary file + rename). @public */
export const writeReportJson = (report: CrosscheckReport, path: string = REPORT_FILE): void =>
  writeFileAtomic(path, renderJson(report));
