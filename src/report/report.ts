import { isAbsolute, relative, sep } from 'node:path';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import { type CrosscheckRecord, type JsonValue, parseRecord } from './record.ts';
import { type Summary, sortRecords, summarize } from './summary.ts';

/**
 * The saved report (`crosscheck-report.json`): the run's records plus their summary. Keeping the
 * records makes a report re-renderable and mergeable without the test run.
 * @packageDocumentation
 */

/** Schema tag and version of {@link CrosscheckReport}. Bump the version on breaking changes. @public */
export const REPORT_SCHEMA = 'crosscheck/report';
/** @public */
export const REPORT_VERSION = 1;

/** Which shards a report covers: `indexes` are 1-based, as in `--shard=1/2`. @public */
export interface ShardInfo {
  readonly count: number;
  readonly indexes: readonly number[];
}

/** A test the host reported failed (or timed out) that left no crosscheck record. @public */
export interface UnrecordedFailure {
  readonly file: string | null;
  readonly name: string;
}

/** Most unrecorded failures a report lists: far past a real run, short of exhausting memory. */
const MAX_UNRECORDED = 100_000;

/** Where the records came from. @public */
export interface RunInfo {
  /** `vitest`, `jest`, `cli`, or several joined by `+` after a merge. */
  readonly framework: string;
  /** Null for an unsharded run. */
  readonly shard: ShardInfo | null;
  /**
   * Tests the host reported failed or timed out without writing a record (a check that threw or
   * hung before it could): the summary counts them, so a failure never hides behind "0 failed".
   * Absent when the host did not say (the CLI, older reports).
   */
  readonly unrecordedFailures?: readonly UnrecordedFailure[];
}

/** The JSON report. @public */
export interface CrosscheckReport {
  readonly schema: typeof REPORT_SCHEMA;
  readonly version: typeof REPORT_VERSION;
  readonly run: RunInfo;
  /** In canonical order (test file, then test name). */
  readonly records: readonly CrosscheckRecord[];
  readonly summary: Summary;
  /**
   * Reports of `crosscheck bench` only: the run's identity, its (model, task) pairs (those not run
   * included) and per-model figures. Owned and checked by the benchmark (`mergeBenchReports`);
   * kept here as it came.
   */
  readonly bench?: { readonly [key: string]: JsonValue };
}

/** Builds a report from the records of a run. @public */
export const createReport = (
  records: readonly CrosscheckRecord[],
  run: RunInfo,
  bench?: { readonly [key: string]: JsonValue },
): CrosscheckReport => {
  const sorted = sortRecords(records);
  return {
    schema: REPORT_SCHEMA,
    version: REPORT_VERSION,
    run: {
      framework: run.framework,
      shard: run.shard,
      // Only runs with such failures carry the field, so other reports keep their exact shape.
      ...(run.unrecordedFailures?.length ? { unrecordedFailures: [...run.unrecordedFailures] } : {}),
    },
    records: sorted,
    summary: summarize(sorted),
    ...(bench === undefined ? {} : { bench }),
  };
};

const invalid = (where: string, message: string, cause?: unknown): CrosscheckError =>
  new CrosscheckError('INVALID_INPUT', `${where}: ${message}`, { where, cause });

/** Most shards a run may be split into: far past any CI matrix, small enough to list them all. @public */
export const MAX_SHARDS = 10_000;

const shardOf = (value: unknown, where: string): ShardInfo | null => {
  if (value === null) return null;
  const s = value as Partial<ShardInfo>;
  const ok =
    typeof s === 'object' &&
    Number.isInteger(s.count) &&
    (s.count as number) >= 1 &&
    (s.count as number) <= MAX_SHARDS &&
    (s.indexes?.length ?? 0) <= MAX_SHARDS &&
    Array.isArray(s.indexes) &&
    s.indexes.every((i) => Number.isInteger(i) && i >= 1 && i <= (s.count as number));
  if (!ok)
    throw invalid(
      where,
      `run.shard must be null or { count, indexes } with 1 ≤ index ≤ count ≤ ${MAX_SHARDS}, got ${describeValue(value)}.`,
    );
  return { count: s.count as number, indexes: [...(s.indexes as number[])] };
};

const unrecordedOf = (value: unknown, where: string): Pick<RunInfo, 'unrecordedFailures'> => {
  if (value === undefined) return {};
  const ok =
    Array.isArray(value) &&
    value.length <= MAX_UNRECORDED &&
    value.every(
      (t) =>
        typeof t === 'object' &&
        t !== null &&
        typeof (t as UnrecordedFailure).name === 'string' &&
        ((t as UnrecordedFailure).file === null || typeof (t as UnrecordedFailure).file === 'string'),
    );
  if (!ok)
    throw invalid(
      where,
      `run.unrecordedFailures must be an array of { file, name } (at most ${MAX_UNRECORDED}), got ${describeValue(value)}.`,
    );
  return {
    unrecordedFailures: (value as UnrecordedFailure[]).map((t) => ({ file: t.file, name: t.name })),
  };
};

/**
 * Parses a saved report (JSON text or a parsed value) and re-derives its summary from its records,
 * so a hand-edited or older summary never disagrees with the records.
 * @param source - names the file in error messages.
 * @public
 */
export const parseReport = (input: string | unknown, source = 'report'): CrosscheckReport => {
  const where = `crosscheck report (${source})`;
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw invalid(
        where,
        `not JSON (${(error as Error).message}). Pass a crosscheck-report.json written by a crosscheck reporter.`,
        error,
      );
    }
  }
  const r = value as Partial<CrosscheckReport> | null;
  if (typeof r !== 'object' || r === null || r.schema !== REPORT_SCHEMA) {
    throw invalid(
      where,
      `expected a ${REPORT_SCHEMA} object, got ${describeValue(value)}. Pass a crosscheck-report.json written by a crosscheck reporter.`,
    );
  }
  if (r.version !== REPORT_VERSION) {
    throw invalid(
      where,
      `report version ${describeValue(r.version)} is not supported (this crosscheck reads version ${REPORT_VERSION}). Render it with the crosscheck version that wrote it.`,
    );
  }
  if (!Array.isArray(r.records))
    throw invalid(where, `"records" must be an array, got ${describeValue(r.records)}.`);
  if (typeof r.run !== 'object' || r.run === null)
    throw invalid(where, `"run" must be an object { framework, shard }, got ${describeValue(r.run)}.`);
  const run = r.run as Partial<RunInfo>;
  if (typeof run.framework !== 'string')
    throw invalid(where, `run.framework must be a string, got ${describeValue(run.framework)}.`);
  const records = r.records.map((x, i) => {
    try {
      return parseRecord(x);
    } catch (error) {
      throw invalid(where, `records[${i}] is not a record: ${(error as Error).message}`, error);
    }
  });
  const bench = (r as { bench?: unknown }).bench;
  if (bench !== undefined && (typeof bench !== 'object' || bench === null || Array.isArray(bench)))
    throw invalid(where, `"bench" must be an object when present, got ${describeValue(bench)}.`);
  return createReport(
    records,
    {
      framework: run.framework,
      shard: shardOf(Object.hasOwn(run, 'shard') ? (run.shard ?? null) : null, where),
      ...unrecordedOf(run.unrecordedFailures, where),
    },
    bench as CrosscheckReport['bench'],
  );
};

/**
 * The record with its test file relative to `root` (POSIX separators), so reports of shards run
 * in different checkouts (CI machines) sort and merge alike.
 * @public
 */
export const relativeToRoot = (record: CrosscheckRecord, root: string): CrosscheckRecord => {
  const file = record.test.file;
  if (file === null || !isAbsolute(file)) return record;
  const rel = relative(root, file);
  if (rel.startsWith('..') || isAbsolute(rel)) return record;
  return { ...record, test: { ...record.test, file: rel.split(sep).join('/') } } as CrosscheckRecord;
};
