/**
 * `crosscheck/vitest`: registers the matchers with Vitest's `expect` and delivers each record
 * through `task.meta.crosscheck`, where reporters read it.
 * @packageDocumentation
 */
import { expect } from 'vitest';
import type { CrosscheckRecord } from '../src/report/index.ts';
import { withRecords } from './host.ts';
import type { CrosscheckMatchers } from './types.ts';

declare module 'vitest' {
  // @ts-expect-error Vitest 4 declares Assertion<T>, Vitest 5 Assertion<R, T>: R is the matcher's result in both.
  // biome-ignore lint/suspicious/noExplicitAny: must match Vitest's own declaration
  interface Assertion<R = any, T = any> extends CrosscheckMatchers<R> {}
  interface AsymmetricMatchersContaining extends Pick<CrosscheckMatchers, 'toRankLike'> {}
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

export type { CrosscheckMatchers } from './types.ts';
