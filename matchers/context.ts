import type { Candidate } from '../src/candidates/index.ts';
import {
  type CrosscheckRecord,
  llmRecord,
  type RecordContext,
  type TestIdentity,
} from '../src/report/index.ts';

/**
 * What the matchers read from `this`: the part of the matcher context Vitest and Jest share.
 * @public
 */
export interface MatcherContext {
  readonly isNot: boolean;
  readonly promise?: string;
  readonly currentTestName?: string;
  readonly testPath?: string;
  readonly utils: {
    matcherHint(
      matcherName: string,
      received?: string,
      expected?: string,
      options?: { isNot?: boolean; promise?: string; secondArgument?: string },
    ): string;
    EXPECTED_COLOR(text: string): string;
    RECEIVED_COLOR(text: string): string;
  };
}

/**
 * What every crosscheck matcher returns: the host's result (`actual`/`expected` where a diff of
 * the two helps) plus the record for the reporter. @public
 */
export interface CrosscheckMatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
  readonly record: CrosscheckRecord;
  /** What the host diffs against `expected` when the assertion fails. */
  readonly actual?: unknown;
  readonly expected?: unknown;
}

/** Which test is asserting, as far as the host says. */
export const testIdentity = (ctx: MatcherContext, matcher: string): TestIdentity => ({
  file: ctx.testPath ?? null,
  name: ctx.currentTestName ?? null,
  matcher,
  negated: negated(ctx),
});

/** Whether the assertion is `.not` (hosts may leave `isNot` undefined when it is not). */
export const negated = (ctx: MatcherContext): boolean => ctx.isNot === true;

/**
 * What a record says about the assertion that wrote it: the test, whether the assertion held
 * (with `.not`, a failing check is a passing assertion) and the tags the candidates share.
 */
export const recordContext = (
  ctx: MatcherContext,
  matcher: string,
  pass: boolean,
  candidates: readonly Candidate[] = [],
): RecordContext => ({
  test: testIdentity(ctx, matcher),
  pass: pass !== negated(ctx),
  tags: candidates.map((c) => c.tags),
  llm: llmRecord(candidates),
});
