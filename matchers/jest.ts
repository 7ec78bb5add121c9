/**
 * `crosscheck/jest`: registers the matchers with Jest's `expect`. Each record is appended as one
 * JSON line to a file in `$CROSSCHECK_RECORDS_DIR` (the reporter creates the directory and sets
 * the variable before workers start); without it, records stay in memory ({@link jestRecords}).
 * @packageDocumentation
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { type CrosscheckRecord, RECORDS_ENV, serializeRecord, setRecordSink } from '../src/report/index.ts';
import { withRecords } from './host.ts';
import type { CrosscheckMatchers } from './types.ts';

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends CrosscheckMatchers<R> {}
  interface AsymmetricMatchers extends Pick<CrosscheckMatchers<void>, 'toRankLike'> {}
}

declare global {
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: must match @types/jest's own declaration
    interface Matchers<R, T = {}> extends CrosscheckMatchers<R> {}
    interface Expect extends Pick<CrosscheckMatchers<void>, 'toRankLike'> {}
  }
}

const memory: CrosscheckRecord[] = [];

/** Records of this worker, kept when `CROSSCHECK_RECORDS_DIR` is not set. @public */
export const jestRecords = (): readonly CrosscheckRecord[] => memory;

const deliver = (record: CrosscheckRecord): void => {
  const dir = process.env[RECORDS_ENV];
  if (!dir) {
    memory.push(record);
    return;
  }
  mkdirSync(dir, { recursive: true });
  // One file per worker process: appends from one process never interleave within a line.
  appendFileSync(join(dir, `records-${process.pid}.jsonl`), `${serializeRecord(record)}\n`);
};

expect.extend(withRecords((_context, record) => deliver(record)) as never);

// Records written outside a matcher (fast-check bridge runs) take the same way.
setRecordSink({
  currentTest: () => {
    const state = expect.getState();
    return { file: state.testPath ?? null, name: state.currentTestName ?? null };
  },
  deliver,
});

export { configureSuite, type SuiteOptions } from './suite.ts';
export type { CrosscheckMatchers } from './types.ts';
