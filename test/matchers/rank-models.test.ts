import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { rankModels } from '../../src/index.ts';
import { createReport, parseRecord, renderJson } from '../../src/report/index.ts';
import { syntheticObservations } from '../helpers/ranking-data.ts';
import { coherence } from '../report/records.ts';

/**
 * `expect(x).toRankModels(order, { confidence })` in Vitest: passes only when every stated pair is
 * separated, fails listing the unsupported pairs, reads rankModels analyses and reporters'
 * reports, and refuses bad input with a typed error.
 */

const far = rankModels(syntheticObservations({ good: 0.05, middle: 0.4, bad: 0.9 }, { tasks: 80, m: 5 }));
const close = rankModels(syntheticObservations({ a: 0.3, b: 0.32, c: 0.9 }, { tasks: 40, m: 4, seed: 9 }));

const failure = (run: () => void): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the assertion to fail');
};

describe('toRankModels', () => {
  it('should pass when every stated pair is separated at the confidence', () => {
    expect(far).toRankModels(['good', 'middle', 'bad'], { confidence: 0.95 });
    expect(far).toRankModels(['good', 'bad']);
    expect(far).toRankModels(['good', 'middle', 'bad'], { metric: 'error' });
  });

  it('should fail listing each unsupported pair: not separated, and reversed', () => {
    // Act
    const message = failure(() => expect(close).toRankModels(['a', 'b', 'c']));
    const reversed = failure(() => expect(far).toRankModels(['bad', 'good']));
    // Assert
    expect(message).toMatch(
      /Unsupported: +a above b: not separated, and b has the better estimate: difference/,
    );
    expect(message).not.toContain('above c');
    expect(message).toContain('1 of 3 stated pairs not supported');
    expect(message).toMatch(/a: rank 2 \[1–2\]/);
    expect(message).toContain('groups that cannot be told apart: {b, a} > {c}');
    expect(reversed).toMatch(/bad above good: reversed: good is separated above bad/);
  });

  it('should pass with .not when some stated pair is unsupported, and fail with .not when all are', () => {
    expect(close).not.toRankModels(['a', 'b']);
    expect(failure(() => expect(far).not.toRankModels(['good', 'bad']))).toContain(
      'all 1 stated pairs separated',
    );
  });

  it("should read a test reporter's report, ranked from its task points at the asked confidence", () => {
    // Arrange: two models over 30 tasks, one clearly more coherent than the other.
    const records = Array.from({ length: 30 }, (_, t) => [
      coherence({ task: `t${t}`, model: 'steady', incoherence: (t % 3) * 0.01 }),
      coherence({ task: `t${t}`, model: 'shaky', incoherence: 0.3 + (t % 5) * 0.02 }),
    ]).flat();
    const report = JSON.parse(
      renderJson(
        createReport(
          records.map((r) => parseRecord(r)),
          { framework: 'vitest', shard: null },
        ),
      ),
    );
    // Act & Assert
    expect(report).toRankModels(['steady', 'shaky'], { confidence: 0.99 });
    const row = report.summary.ranking.models.find((m: { model: string }) => m.model === 'steady');
    expect(row.intervals.incoherence).toMatchObject({ rank: 1, rankLow: 1, rankHigh: 1 });
  });

  it('should fail, saying why, for models with no task in common or too few shared tasks', () => {
    // Arrange: a on tasks 0–9 at 0, b on tasks 10–19 at 0.9, c on tasks 0–1 at 1
    const at = (model: string, value: number, tasks: number[]) =>
      tasks.map((t) => ({ model, task: `t${t}`, disagreement: [value, value], error: null, n: 100 }));
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    const apart = rankModels([
      ...at('a', 0, range(0, 10)),
      ...at('b', 0.9, range(10, 20)),
      ...at('c', 1, [0, 1]),
    ]);
    // Act
    const message = failure(() => expect(apart).toRankModels(['a', 'b', 'c']));
    // Assert
    expect(message).toMatch(/a above b: not comparable: a and b have no task in common/);
    expect(message).toMatch(
      /a above c: not comparable: a and c share 2 tasks; separating at 95% takes at least 6/,
    );
    expect(apart).not.toRankModels(['a', 'b']);
  });

  it('should refuse bad input with a CrosscheckError that says what to fix', () => {
    expect(() => expect(far).toRankModels(['good'])).toThrow(
      /`order` must list at least two distinct model names/,
    );
    expect(() => expect(far).toRankModels(['good', 'nobody'])).toThrow(
      /names models the ranking does not have: nobody/,
    );
    expect(() => expect(far).toRankModels(['good', 'bad'], { confidence: 0.9 })).toThrow(
      /computed at confidence 0.95, not 0.9/,
    );
    expect(() => expect(far).toRankModels(['good', 'bad'], { confidance: 0.9 } as never)).toThrow(
      /unknown option `confidance`.*did you mean `confidence`/,
    );
    expect(() => expect({ some: 'thing' }).toRankModels(['good', 'bad'])).toThrow(
      /must be a crosscheck report/,
    );
    expect(() => expect(far).toRankModels(['good', 'bad'], { metric: 'speed' as never })).toThrow(/metric/);
  });
});
