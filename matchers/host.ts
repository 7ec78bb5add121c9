import type { CrosscheckRecord } from '../src/report/index.ts';
import type { CrosscheckMatcherResult, MatcherContext } from './context.ts';
import { matchers } from './index.ts';

/** Where a host puts a record: Vitest's `task.meta`, Jest's record directory. */
export type RecordSink = (context: MatcherContext, record: CrosscheckRecord) => void;

/** The host's matcher result (Vitest's `ExpectationResult`, Jest's `CustomMatcherResult`). */
type HostResult = { pass: boolean; message: () => string; actual?: unknown; expected?: unknown };
type HostMatcher = (
  this: MatcherContext,
  received: unknown,
  ...args: unknown[]
) => HostResult | Promise<HostResult>;

/**
 * The matchers for `expect.extend`, each delivering its record to `sink` and returning the
 * `{ pass, message, actual?, expected? }` the host expects. A synchronous matcher stays
 * synchronous.
 */
export const withRecords = (sink: RecordSink): Record<keyof typeof matchers, HostMatcher> => {
  const wrap = (
    fn: (...args: never[]) => CrosscheckMatcherResult | Promise<CrosscheckMatcherResult>,
  ): HostMatcher =>
    function (this: MatcherContext, ...args: unknown[]) {
      const deliver = (r: CrosscheckMatcherResult): HostResult => {
        sink(this, r.record);
        const result: HostResult = { pass: r.pass, message: r.message };
        // Only where a diff helps: a host diffs whatever `actual`/`expected` it finds.
        if ('actual' in r) Object.assign(result, { actual: r.actual, expected: r.expected });
        return result;
      };
      const result = (
        fn as (...a: unknown[]) => CrosscheckMatcherResult | Promise<CrosscheckMatcherResult>
      ).apply(this, args);
      return result instanceof Promise ? result.then(deliver) : deliver(result);
    };
  return {
    toBeCoherentAcross: wrap(matchers.toBeCoherentAcross),
    toHaveIncoherenceBelow: wrap(matchers.toHaveIncoherenceBelow),
    toAgreeWithReference: wrap(matchers.toAgreeWithReference),
    toRankLike: wrap(matchers.toRankLike),
    toRankModels: wrap(matchers.toRankModels),
    toBeTriangulatedBy: wrap(matchers.toBeTriangulatedBy),
    toHavePlausibilityWitness: wrap(matchers.toHavePlausibilityWitness),
    toPassGroundedReview: wrap(matchers.toPassGroundedReview),
    toSatisfyRelation: wrap(matchers.toSatisfyRelation),
  };
};
