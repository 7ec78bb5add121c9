import { describe, expect, it } from 'vitest';
import { isCrosscheckError, rankModels } from '../../src/index.ts';
import { syntheticObservations } from '../helpers/ranking-data.ts';

/**
 * rankModels through the public API: per-model intervals, rank intervals, separation, groups,
 * seed stability, agreement, determinism, and bad input refused with a typed error.
 */

const FAR = { good: 0.05, middle: 0.4, bad: 0.9 };

describe('rankModels', () => {
  it('should separate models far apart, with rank intervals of one rank and one group each', () => {
    // Arrange
    const observations = syntheticObservations(FAR, { tasks: 80, m: 5 });
    // Act
    const analysis = rankModels(observations, { seed: 3 });
    // Assert
    const ranking = analysis.rankings.incoherence!;
    expect(ranking.models.map((m) => [m.model, m.rank, m.rankLow, m.rankHigh, m.group])).toEqual([
      ['good', 1, 1, 1, 1],
      ['middle', 2, 2, 2, 2],
      ['bad', 3, 3, 3, 3],
    ]);
    expect(ranking.groups).toEqual([['good'], ['middle'], ['bad']]);
    expect(ranking.pairs.every((p) => p.separated && p.low > 0 && p.probabilityBetter > 0.99)).toBe(true);
    for (const m of ranking.models) expect(m.low <= m.estimate && m.estimate <= m.high).toBe(true);
    expect(analysis.rankings.error!.models.map((m) => m.model)).toEqual(['good', 'middle', 'bad']);
    expect(analysis.agreement!.means).toMatchObject({ estimate: 1 });
  });

  it('should not separate models with the same rates: one group, every rank interval spanning all', () => {
    // Arrange
    const observations = syntheticObservations({ a: 0.3, b: 0.3, c: 0.3 }, { tasks: 60, m: 5, seed: 7 });
    // Act
    const ranking = rankModels(observations, { seed: 1 }).rankings.incoherence!;
    // Assert
    expect(ranking.groups).toHaveLength(1);
    expect(ranking.pairs.some((p) => p.separated)).toBe(false);
    for (const m of ranking.models) expect([m.rankLow, m.rankHigh]).toEqual([1, 3]);
  });

  it('should give the same result for the same seed, in any order of the observations, and another for another seed', () => {
    // Arrange
    const observations = syntheticObservations({ a: 0.2, b: 0.3, c: 0.35 }, { tasks: 30, m: 4 });
    // Act
    const first = rankModels(observations, { seed: 11 });
    const shuffled = rankModels([...observations].reverse(), { seed: 11 });
    const other = rankModels(observations, { seed: 12 });
    // Assert
    expect(shuffled).toEqual(first);
    expect(other.rankings.incoherence!.models.map((m) => m.low)).not.toEqual(
      first.rankings.incoherence!.models.map((m) => m.low),
    );
  });

  it('should report seed stability apart from uncertainty: stable order, yet not separated', () => {
    // Arrange: close models, many inputs per candidate (little input noise), few tasks.
    const observations = syntheticObservations({ a: 0.3, b: 0.36 }, { tasks: 12, m: 3, n: 100_000, seed: 5 });
    // Act
    const ranking = rankModels(observations, { seed: 2 }).rankings.incoherence!;
    // Assert
    expect(ranking.seedStability).toBeGreaterThan(0.9);
    expect(ranking.pairs[0]!.separated).toBe(false);
  });

  it('should bound a model with every task at 0 by the exact binomial bound, not a zero-width interval', () => {
    // Arrange
    const observations = syntheticObservations({ perfect: 0, other: 0.5 }, { tasks: 20, m: 3 });
    // Act
    const perfect = rankModels(observations).models.find((m) => m.model === 'perfect')!;
    // Assert: 1 − 0.025^(1/19) ≈ 0.176 (the value 0 is read off the data: 19 tasks test it)
    expect(perfect.error!.estimate).toBe(0);
    expect(perfect.error!.high).toBeCloseTo(1 - 0.025 ** (1 / 19), 3);
  });

  it('should give a finite interval to a model measured on only some of the tasks', () => {
    // Arrange: 'sparse' has 2 of 6 tasks, so some bootstrap resamples draw none of them (as in a
    // bench merge with a shard missing).
    const observations = syntheticObservations(
      { full: 0.3, sparse: 0.3 },
      { tasks: 6, m: 3, seed: 4 },
    ).filter((o) => o.model === 'full' || o.task <= 'task-001');
    // Act
    const { rankings } = rankModels(observations, { seed: 13 });
    // Assert
    for (const ranking of [rankings.incoherence!, rankings.error!]) {
      const sparse = ranking.models.find((m) => m.model === 'sparse')!;
      expect(sparse.tasks).toBe(2);
      expect(Number.isFinite(sparse.low) && Number.isFinite(sparse.high)).toBe(true);
      expect(sparse.low <= sparse.estimate && sparse.estimate <= sparse.high).toBe(true);
    }
  });

  it('should refuse bad input with a CrosscheckError that says what to fix', () => {
    const ok = syntheticObservations({ a: 0.1, b: 0.2 }, { tasks: 3, m: 2 });
    const cases: Array<[unknown, unknown, RegExp]> = [
      [[{ ...ok[0], disagreement: [1.5] }], undefined, /observations\[0\] must be/],
      [[ok[0], ok[0]], undefined, /given twice/],
      [[], undefined, /at least one observation/],
      ['x', undefined, /expected a list/],
      [ok, { confidence: 1 }, /confidence.*strictly between 0 and 1/],
      [ok, { resamples: 10 }, /resamples/],
      [ok, { confidance: 0.9 }, /unknown option `confidance`.*did you mean `confidence`/],
      [ok, { seed: 1.5 }, /seed/],
    ];
    for (const [observations, options, message] of cases) {
      let caught: unknown;
      try {
        rankModels(observations as never, options as never);
      } catch (error) {
        caught = error;
      }
      expect(isCrosscheckError(caught), String(message)).toBe(true);
      expect((caught as Error).message).toMatch(message);
    }
  });
});
