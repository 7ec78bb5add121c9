import { describe, expect, it } from 'vitest';
import { minSharedTasks, type RankingObservation, rankModels } from '../../src/index.ts';

/**
 * A separation is never stronger than its evidence: a pair is compared only on the tasks both
 * models were measured on, needs enough of them, and a figure that came out the same on every
 * task is "no spread observed", bounded accordingly, not a zero-width interval.
 */

const obs = (model: string, task: string, disagreement: number[]): RankingObservation => ({
  model,
  task,
  disagreement,
  error: null,
  n: 200,
});
/** Model `model` at `value` (three candidates) on each of the tasks `from` to `to` − 1. */
const constant = (model: string, value: number, from: number, to: number): RankingObservation[] =>
  Array.from({ length: to - from }, (_, i) =>
    obs(model, `t${String(from + i).padStart(2, '0')}`, [value, value, value]),
  );
const pairOf = (observations: RankingObservation[]) =>
  rankModels(observations).rankings.incoherence!.pairs[0]!;

describe('rankModels: separation needs shared evidence', () => {
  it('should not separate a model measured on one task of ten from the others', () => {
    // Arrange: a varies over 10 tasks, b is seen on task 0 only.
    const a = [0.1, 0.4, 0.2, 0.6, 0.3, 0.5, 0.2, 0.7, 0.1, 0.4].map((v, t) =>
      obs('a', `t${String(t).padStart(2, '0')}`, [v, v + 0.05, v - 0.05]),
    );
    // Act
    const pair = pairOf([...a, obs('b', 't00', [0.8, 0.85, 0.75])]);
    // Assert: compared on the one task they share, which supports no interval
    expect(pair).toMatchObject({
      better: 'a',
      worse: 'b',
      sharedTasks: 1,
      separated: false,
      low: -1,
      high: 1,
    });
    expect(pair.difference).toBeCloseTo(0.7, 12);
  });

  it('should never separate models with no task in common, however far apart', () => {
    // Act
    const pair = pairOf([...constant('a', 0, 0, 10), ...constant('b', 0.9, 10, 20)]);
    // Assert
    expect(pair).toMatchObject({ sharedTasks: 0, separated: false, low: -1, high: 1 });
  });

  it('should not separate on fewer shared tasks than a sign argument allows, even 0 against 1', () => {
    // Arrange: two tasks, a always 0, b always 1; five tasks with varying figures.
    const two = [...constant('a', 0, 0, 2), ...constant('b', 1, 0, 2)];
    const five = [0.5, 0.6, 0.7, 0.55, 0.65].flatMap((v, t) => [
      obs('a', `t${t}`, [0, 0.01, 0]),
      obs('b', `t${t}`, [v, v + 0.02, v - 0.02]),
    ]);
    // Act
    const pairs = [pairOf(two), pairOf(five)];
    // Assert: 2^(1−k) > 0.05 below six tasks
    expect(minSharedTasks(0.95)).toBe(6);
    expect(minSharedTasks(0.5)).toBe(2);
    for (const pair of pairs) expect(pair.separated).toBe(false);
    expect(pairs.map((p) => p.sharedTasks)).toEqual([2, 5]);
  });

  it('should read a constant figure as no spread observed: no zero-width interval, no separation on it alone', () => {
    // Arrange: 0.25 against 0.30 on each of ten tasks
    const observations = [...constant('a', 0.25, 0, 10), ...constant('b', 0.3, 0, 10)];
    // Act
    const ranking = rankModels(observations).rankings.incoherence!;
    // Assert: q = 1 − 0.025^(1/9) bounds the share of tasks off 0.25; the mean moves by q·0.25 down, q·0.75 up
    const q = 1 - 0.025 ** (1 / 9);
    const a = ranking.models.find((m) => m.model === 'a')!;
    expect(a.low).toBeCloseTo(0.25 - q * 0.25, 6);
    expect(a.high).toBeCloseTo(0.25 + q * 0.75, 6);
    expect(ranking.pairs[0]).toMatchObject({ sharedTasks: 10, separated: false });
    expect(ranking.pairs[0]!.low).toBeLessThan(0);
  });

  it('should still separate constant figures far enough apart on enough shared tasks', () => {
    // Arrange: 0 against 1 on 20 tasks; 0.25 against 0.30 on the same 20
    const far = [...constant('a', 0, 0, 20), ...constant('b', 1, 0, 20)];
    const near = [...constant('a', 0.25, 0, 20), ...constant('b', 0.3, 0, 20)];
    // Act
    const [farPair, nearPair] = [pairOf(far), pairOf(near)];
    // Assert: the no-spread bound on the difference, q = 1 − 0.025^(1/19) ≈ 0.176
    const q = 1 - 0.025 ** (1 / 19);
    expect(farPair).toMatchObject({ separated: true, difference: 1, high: 1 });
    expect(farPair.low).toBeCloseTo(1 - 2 * q, 6);
    expect(nearPair.separated).toBe(false);
  });

  it('should compare a pair on its shared tasks, and separate it there when the evidence is clear', () => {
    // Arrange: a on 30 tasks, b on the first 12 of them, clearly worse on each
    const a = Array.from({ length: 30 }, (_, t) =>
      obs('a', `t${String(t).padStart(2, '0')}`, [0.05 + (t % 3) * 0.02, 0.05, 0.06]),
    );
    const b = Array.from({ length: 12 }, (_, t) =>
      obs('b', `t${String(t).padStart(2, '0')}`, [0.6 + (t % 4) * 0.05, 0.62, 0.58]),
    );
    // Act
    const pair = pairOf([...a, ...b]);
    // Assert
    expect(pair).toMatchObject({ better: 'a', worse: 'b', sharedTasks: 12, separated: true });
    expect(pair.low).toBeGreaterThan(0);
  });
});

describe('rankModels: the agreement of the two rankings', () => {
  it('should give Spearman’s ρ all of [−1, 1] on fewer tasks than a claim at the confidence needs', () => {
    // Arrange: three models whose error and incoherence rank alike on two tasks, then on 20.
    const withError = (model: string, task: string, v: number): RankingObservation => ({
      ...obs(model, task, [v, v, v]),
      error: [v, v, v],
    });
    const on = (tasks: number) =>
      ['a', 'b', 'c'].flatMap((m, j) =>
        Array.from({ length: tasks }, (_, t) =>
          withError(m, `t${String(t).padStart(2, '0')}`, 0.1 * j + 0.01 * t),
        ),
      );

    // Act
    const two = rankModels(on(2)).agreement;
    const twenty = rankModels(on(20)).agreement;

    // Assert: the same point estimate; only 20 tasks support an interval narrower than [−1, 1].
    expect(two?.means).toEqual({ estimate: 1, low: -1, high: 1 });
    expect(two?.shares?.low).toBe(-1);
    expect(twenty?.means?.estimate).toBe(1);
    expect(twenty?.means?.low).toBeGreaterThan(-1);
  });
});
