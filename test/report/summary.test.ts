import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/report/index.ts';
import { coherence, detection, suiteRecords } from './records.ts';

describe('summarize', () => {
  it('should compute the suite figures of table 4 from the task points', () => {
    // Arrange
    const records = suiteRecords();
    // Act
    const { suite } = summarize(records);
    // Assert
    expect(suite).toMatchObject({ checks: 10, failedChecks: 2, tasks: 9, flaggedTasks: 2 });
    expect(suite.meanIncoherence, 'mean Î = (0.4 + 0.2) / 9').toBeCloseTo(0.6 / 9, 12);
    expect(suite.meanErrorLowerBound, 'mean of max(0, Î − ε)/2 over 9 estimates').toBeCloseTo(0.2 / 9, 12);
    const r = suite.references!;
    expect(r.tasks).toBe(9);
    expect(r.meanError, '(0.3 + 0.5 + 0.6) / 9').toBeCloseTo(1.4 / 9, 12);
    expect(r.detectionRate, '#(E>0 ∧ Dis>0) / #(E>0) = 2/3').toBeCloseTo(2 / 3, 12);
    expect(r.falsePositives).toBe(0);
    expect(r.undetectedMeanError, 'mean E over the 7 tasks without disagreement').toBeCloseTo(0.5 / 7, 12);
    // Average ranks: E (3.5 ×6, 7, 8, 9), Î (4 ×7, 8, 9) paired as computed by hand: 26 / √(42.5 · 32).
    expect(r.spearman, 'Spearman(E, Î)').toBeCloseTo(26 / Math.sqrt(42.5 * 32), 12);
  });

  it('should rank models by share of coherent and of correct tasks, rank 1 best, ties averaged', () => {
    // Arrange
    const records = suiteRecords();
    // Act
    const { ranking } = summarize(records);
    // Assert
    expect(
      ranking.models.map((m) => [
        m.model,
        m.coherentTasks,
        m.tasks,
        m.coherenceRank,
        m.correctTasks,
        m.correctnessRank,
      ]),
    ).toEqual([
      ['alpha', 3, 3, 1, 3, 1],
      ['beta', 2, 3, 2.5, 2, 2],
      ['gamma', 2, 3, 2.5, 1, 3],
    ]);
    // Shares (1, 2/3, 2/3) vs (1, 2/3, 1/3): ranks (3, 1.5, 1.5) vs (3, 2, 1), ρ = 1.5 / √3.
    expect(ranking.spearman).toBeCloseTo(1.5 / Math.sqrt(3), 12);
  });

  it('should join the checks of one task by one model into one point', () => {
    // Arrange: a coherence estimate and an incoherent PAC detection of the same task and model.
    const records = [
      coherence({ task: 'max', model: 'gamma', incoherence: 0, error: 0.2 }),
      detection({ task: 'max', model: 'gamma', verdict: 'incoherent' }),
    ];
    // Act
    const { points } = summarize(records);
    // Assert
    expect(points).toEqual([
      { task: 'max', model: 'gamma', incoherence: 0, error: 0.2, disagreement: true, checks: 2 },
    ]);
  });

  it('should not depend on the order records arrive in (workers, shards)', () => {
    // Arrange
    const records = suiteRecords();
    const shuffled = [...records.slice(5), ...records.slice(0, 5)].reverse();
    // Act
    const a = summarize(records);
    const b = summarize(shuffled);
    // Assert
    expect(b).toEqual(a);
  });

  it('should report undefined figures as null, not NaN', () => {
    // Arrange: one model, no references, every candidate agrees.
    const records = [coherence({ task: 'sum', model: 'alpha', incoherence: 0 })];
    // Act
    const summary = summarize(records);
    // Assert
    expect(summary.suite.references).toBeNull();
    expect(summary.ranking.spearman).toBeNull();
    expect(summary.ranking.models[0]).toMatchObject({
      correctShare: null,
      correctnessRank: null,
      meanError: null,
    });
  });

  it('should count a flagged task without error as a false positive', () => {
    // Arrange: candidates disagree on some inputs, yet the reference run found no error.
    const records = [
      coherence({ task: 'a', model: 'm', incoherence: 0.1, error: 0 }),
      coherence({ task: 'b', model: 'm', incoherence: 0, error: 0 }),
    ];
    // Act
    const r = summarize(records).suite.references!;
    // Assert
    expect(r).toMatchObject({ falsePositives: 1, detectionRate: null, undetectedMeanError: 0 });
  });
});
