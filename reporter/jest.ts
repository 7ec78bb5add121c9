/**
 * `crosscheck/jest-reporter`: a Jest 30 reporter that gathers the records the matchers append to
 * `$CROSSCHECK_RECORDS_DIR` and writes the suite summary (terminal, JSON, Markdown, HTML). Use it
 * beside the default reporter:
 *
 * ```js
 * export default { reporters: ['default', ['crosscheck/jest-reporter', { html: 'crosscheck.html' }]] };
 * ```
 * @packageDocumentation
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../src/errors/index.ts';
import {
  type CrosscheckRecord,
  type CrosscheckReport,
  createReport,
  parseRecord,
  RECORDS_ENV as RECORDS_ENV_NAME,
  REPORTER_KEYS,
  type ReporterOptions,
  relativeToRoot,
  resolveReporterOptions,
  type UnrecordedFailure,
  writeOutputs,
} from '../src/report/index.ts';

const NAME = 'crosscheck/jest-reporter';

/** The environment variable the Jest matchers append records under. @public */
export const RECORDS_ENV: typeof RECORDS_ENV_NAME = RECORDS_ENV_NAME;

/** Options of the Jest reporter: the shared ones plus where records gather. @public */
export interface JestReporterOptions extends ReporterOptions {
  /**
   * Parent of the per-run records directory.
   * @defaultValue the OS temporary directory
   */
  readonly recordsDir?: string;
  /**
   * Keep the records directory after the run (to inspect the raw JSON lines).
   * @defaultValue false
   */
  readonly keepRecords?: boolean;
}

const JEST_KEYS = knownKeys<JestReporterOptions>({ ...REPORTER_KEYS, recordsDir: true, keepRecords: true });

/** The part of Jest's global config the reporter reads (structural, so no @jest/types import). @public */
export interface JestGlobalConfigLike {
  readonly rootDir: string;
  readonly shard?: { readonly shardIndex: number; readonly shardCount: number } | null;
}

/** The part of Jest's aggregated results the reporter reads (structural, no @jest/types import). @public */
export interface JestResultsLike {
  readonly testResults?: ReadonlyArray<{
    readonly testFilePath: string;
    /** Set when the file itself failed to run (a syntax error, a crash). */
    readonly testExecError?: unknown;
    readonly testResults: ReadonlyArray<{ readonly status: string; readonly fullName: string }>;
  }>;
}

/**
 * Tests Jest reports failed (an assertion, a timeout, a throw, a file that did not run) that left
 * no record: matched by file and full name, as the matchers write them.
 */
const unrecorded = (
  results: JestResultsLike | undefined,
  records: readonly CrosscheckRecord[],
  root: string,
): UnrecordedFailure[] => {
  const seen = new Set(records.map((r) => JSON.stringify([r.test.file, r.test.name])));
  const rel = (path: string): string => {
    const r = relative(root, path);
    return r.startsWith('..') ? path : r.split(sep).join('/');
  };
  return (results?.testResults ?? []).flatMap((file) => {
    const path = rel(file.testFilePath);
    const failed = file.testResults
      .filter((t) => t.status === 'failed' && !seen.has(JSON.stringify([path, t.fullName])))
      .map((t) => ({ file: path, name: t.fullName }));
    return failed.length === 0 && file.testExecError
      ? [{ file: path, name: '(the test file failed to run)' }]
      : failed;
  });
};

/** Reads every records file of the run; a torn last line (a killed worker) is an error, not a skip. */
const readRecords = (dir: string, root: string): CrosscheckRecord[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => relativeToRoot(parseRecord(line), root)),
    );

/** The crosscheck suite summary for Jest. @public */
export default class CrosscheckJestReporter {
  private readonly options;
  private readonly root: string;
  private readonly shard;
  private readonly keep: boolean;
  /** This run's records directory, exported as `$CROSSCHECK_RECORDS_DIR`. */
  readonly recordsDir: string;
  /** The report of the last run, for programmatic use. */
  report: CrosscheckReport | undefined;
  private error: Error | undefined;

  constructor(globalConfig: JestGlobalConfigLike, options: JestReporterOptions = {}) {
    if (typeof options === 'object' && options !== null) checkKeys({ where: NAME }, options, JEST_KEYS);
    const { recordsDir, keepRecords, ...shared } = (options ?? {}) as JestReporterOptions;
    if (recordsDir !== undefined && (typeof recordsDir !== 'string' || recordsDir === '')) {
      throw new CrosscheckError(
        'INVALID_OPTION',
        `${NAME}: option \`recordsDir\` must be a directory path, got ${describeValue(recordsDir)}.`,
        { where: `${NAME} { recordsDir }` },
      );
    }
    this.options = resolveReporterOptions(shared, NAME);
    this.keep = keepRecords === true;
    this.root = globalConfig.rootDir;
    this.shard = globalConfig.shard
      ? { count: globalConfig.shard.shardCount, indexes: [globalConfig.shard.shardIndex] }
      : null;
    // Jest builds reporters in the main process before it spawns workers, and workers inherit
    // process.env: setting it here is what routes every worker's records to this run.
    const parent = recordsDir ?? tmpdir();
    mkdirSync(parent, { recursive: true });
    this.recordsDir = mkdtempSync(join(parent, 'crosscheck-records-'));
    process.env[RECORDS_ENV] = this.recordsDir;
    // Removed at exit, not after a run: watch mode runs again into the same directory.
    if (!this.keep) process.once('exit', () => rmSync(this.recordsDir, { recursive: true, force: true }));
  }

  /** Empties the directory: in watch mode each run reports only its own records. */
  onRunStart(): void {
    if (this.keep) return;
    mkdirSync(this.recordsDir, { recursive: true });
    for (const file of readdirSync(this.recordsDir)) rmSync(join(this.recordsDir, file), { force: true });
  }

  onRunComplete(_contexts?: unknown, results?: JestResultsLike): void {
    try {
      const records = readRecords(this.recordsDir, this.root);
      this.report = createReport(records, {
        framework: 'jest',
        shard: this.shard,
        unrecordedFailures: unrecorded(results, records, this.root),
      });
      writeOutputs(this.report, this.options, this.root, (text) => process.stdout.write(`${text}\n`));
    } catch (error) {
      this.error = error as Error;
      process.stderr.write(`${NAME}: ${(error as Error).message}\n`);
    }
  }

  /** Makes Jest exit non-zero when the report could not be written. */
  getLastError(): Error | undefined {
    return this.error;
  }
}

export type { ReporterOptions } from '../src/report/index.ts';
