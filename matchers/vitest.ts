/**
 * `crosscheck/vitest`: registers the matchers with Vitest's `expect` and delivers each record
 * through `task.meta.crosscheck`, where reporters read it.
 * @packageDocumentation
 */
import * as vitest from 'vitest';
import { expect } from 'vitest';
import { type CrosscheckRecord, setRecordSink } from '../src/report/index.ts';
import { withRecords } from './host.ts';
import type { CrosscheckMatchers } from './types.ts';

// Vitest 4's augmentation point. Vitest 5 declares `Matchers<R, T>` instead, and interfaces only
// merge with identical type parameters, so its declarations ship apart as `crosscheck/vitest/v5`
// (generated from this block by the build, see tsdown.config.ts).
declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: must match Vitest 4's own declaration
  interface Matchers<T = any> extends CrosscheckMatchers<void> {}
  interface TaskMeta {
    /** Records of the crosscheck assertions in this test, in order. */
    crosscheck?: CrosscheckRecord[];
  }
}

expect.extend(
  withRecords((context, record) => {
    const task = (context as { task?: { meta: { crosscheck?: CrosscheckRecord[] } } }).task;
    if (!task) return;
    task.meta.crosscheck ??= [];
    task.meta.crosscheck.push(record);
  }),
);

// Records written outside a matcher (fast-check bridge runs) go to the running test's meta too.
setRecordSink({
  currentTest: () => {
    const state = expect.getState();
    return { file: state.testPath ?? null, name: state.currentTestName ?? null };
  },
  deliver: (record) => {
    // Read through the namespace: a Vitest without TestRunner must still load the matchers.
    const runner = (vitest as { TestRunner?: { getCurrentTest?: () => unknown } }).TestRunner;
    const test = runner?.getCurrentTest?.() as { meta: { crosscheck?: CrosscheckRecord[] } } | undefined;
    if (!test) return;
    test.meta.crosscheck ??= [];
    test.meta.crosscheck.push(record);
  },
});

export { configureSuite, type SuiteOptions } from './suite.ts';
export type { CrosscheckMatchers } from './types.ts';
