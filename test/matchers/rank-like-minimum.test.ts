import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { isCrosscheckError } from '../../src/index.ts';

/**
 * `toRankLike` has no default `minSpearman`: how alike two rankings must be is the test's claim,
 * and ρ moves in steps set by the number of items. Leaving it out is misuse: a typed error that
 * says what to pass, with the ρ one swap of neighbours gives for the items at hand.
 */

/** The CrosscheckError a call throws (fails the test if it throws anything else or nothing). */
const thrown = (call: () => unknown): Error => {
  try {
    call();
  } catch (error) {
    expect(isCrosscheckError(error), String(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected a CrosscheckError, nothing was thrown');
};

describe('toRankLike without minSpearman', () => {
  it('throws a CrosscheckError that says what to pass and why there is no default', () => {
    const error = thrown(() =>
      (
        expect({ a: 0.9, b: 0.5, c: 0.1, d: 0.3, e: 0.2 }) as never as { toRankLike: (e: unknown) => void }
      ).toRankLike({
        a: 0.8,
        b: 0.4,
        c: 0.1,
        d: 0.3,
        e: 0.2,
      }),
    );
    expect(error.message).toContain('toRankLike: `minSpearman` is required');
    expect(error.message).toContain('there is no default');
    // Five items: one swap of neighbours is ρ = 1 − 12/(5³ − 5) = 0.9.
    expect(error.message).toContain('With these 5 items, one swap of two neighbours gives ρ = 0.9');
    expect(error.message).toContain('{ minSpearman: 0.9 }');
  });

  it('throws the same with an options object that lacks it, and under .not', () => {
    const call = (not: boolean) => () => {
      const e = expect([3, 2, 1]) as never as { toRankLike: (e: unknown, o: unknown) => void; not: unknown };
      (not ? (e.not as typeof e) : e).toRankLike([3, 1, 2], { alpha: 0.2 });
    };
    for (const not of [false, true]) {
      const error = thrown(call(not));
      expect(error.message).toContain('`minSpearman` is required');
      expect(error.message).toContain('With these 3 items, one swap of two neighbours gives ρ = 0.5');
    }
  });

  it('still refuses a minSpearman out of [-1, 1] with its own message', () => {
    const error = thrown(() => expect([1, 2, 3, 4]).toRankLike([1, 2, 3, 4], { minSpearman: 2 }));
    expect(error.message).toContain('`minSpearman` must be a number in [-1, 1], got 2');
  });
});
