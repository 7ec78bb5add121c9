import { describe, expect, it } from 'vitest';
import { confusion, correctStability, mcc, p4 } from '../../src/stats/index.ts';

describe('confusion, mcc, p4', () => {
  it('should count a hand-made matrix and compute MCC and P4 from its formula', () => {
    // Arrange: 3 TP, 1 FP, 4 TN, 2 FN
    const pairs = [
      ...Array.from({ length: 3 }, () => ({ truth: true, label: true })),
      { truth: false, label: true },
      ...Array.from({ length: 4 }, () => ({ truth: false, label: false })),
      ...Array.from({ length: 2 }, () => ({ truth: true, label: false })),
    ];
    // Act
    const c = confusion(pairs);
    // Assert
    expect(c).toEqual({ tp: 3, fp: 1, tn: 4, fn: 2 });
    // (3·4 − 1·2) / √(4·5·5·6) = 10 / √600
    expect(mcc(c)).toBeCloseTo(10 / Math.sqrt(600), 12);
    // precision 3/4, recall 3/5, specificity 4/5, NPV 4/6
    expect(p4(c)).toBeCloseTo(4 / (4 / 3 + 5 / 3 + 5 / 4 + 6 / 4), 12);
  });

  it('should give −1 and 0 for a swapped classifier and 1 and 1 for a perfect one', () => {
    expect(mcc({ tp: 0, fp: 5, tn: 0, fn: 7 })).toBe(-1);
    expect(p4({ tp: 0, fp: 5, tn: 0, fn: 7 })).toBe(0);
    expect(mcc({ tp: 7, fp: 0, tn: 5, fn: 0 })).toBe(1);
    expect(p4({ tp: 7, fp: 0, tn: 5, fn: 0 })).toBe(1);
  });

  it('should give 0 for MCC and P4 of a degenerate matrix (a zero row or column), as scikit-learn does', () => {
    // always "correct": specificity 0/5, NPV undefined
    expect(mcc({ tp: 7, fp: 5, tn: 0, fn: 0 })).toBe(0);
    expect(p4({ tp: 7, fp: 5, tn: 0, fn: 0 })).toBe(0);
    // only correct programs, all found: specificity and NPV undefined, no rate 0
    expect(mcc({ tp: 4, fp: 0, tn: 0, fn: 0 })).toBe(0);
    expect(p4({ tp: 4, fp: 0, tn: 0, fn: 0 })).toBe(0);
    expect(mcc({ tp: 0, fp: 0, tn: 0, fn: 0 })).toBe(0);
  });

  it('should reject counts that are not non-negative integers, naming the field', () => {
    expect(() => mcc({ tp: -1, fp: 0, tn: 0, fn: 0 })).toThrow(
      /`tp` must be a non-negative integer count, got -1/,
    );
    expect(() => confusion([{ truth: 1 as unknown as boolean, label: true }])).toThrow(TypeError);
  });
});

describe('correctStability', () => {
  it('should divide the stably right programs by those some rerun gave the label', () => {
    const s = correctStability([
      { truth: true, verdicts: [true, true, true] }, // stable correct
      { truth: true, verdicts: [true, false, true] }, // reaches both labels, stable in neither
      { truth: false, verdicts: [false, false, false] }, // stable incorrect
      { truth: false, verdicts: [true, true, true] }, // reaches correct only
      { truth: false, verdicts: [] }, // ignored
    ]);
    expect(s.correct).toEqual({ stable: 1, reachable: 3, ratio: 1 / 3 });
    expect(s.incorrect).toEqual({ stable: 1, reachable: 2, ratio: 1 / 2 });
  });

  it('should give an always-correct reviewer full credit only for the correct share', () => {
    const items = [true, true, false, false, false].map((truth) => ({ truth, verdicts: [true, true, true] }));
    const s = correctStability(items);
    expect(s.correct.ratio).toBe(2 / 5);
    expect(s.incorrect).toEqual({ stable: 0, reachable: 0, ratio: null });
  });
});
