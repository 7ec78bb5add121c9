import { describe, expect, it } from 'vitest';
import { CrosscheckError } from '../../src/errors/index.ts';
import {
  averageRanks,
  entropy,
  hoeffdingHalfWidth,
  hoeffdingInterval,
  hoeffdingSamples,
  pacDetectionSamples,
  spearman,
  wilsonInterval,
} from '../../src/stats/index.ts';

describe('hoeffding', () => {
  it('should give ε = √(ln(2/δ)/(2n))', () => {
    // ln(40) / 2000 = 0.0018444397…; √ = 0.0429469…
    expect(hoeffdingHalfWidth(1000, 0.05)).toBeCloseTo(0.04294694083, 10);
    expect(hoeffdingHalfWidth(1, 0.5)).toBeCloseTo(Math.sqrt(Math.log(4) / 2), 12);
  });

  it('should need ⌈ln(2/δ)/(2ε²)⌉ samples, the inverse of the half-width', () => {
    expect(hoeffdingSamples(0.05, 0.05)).toBe(738);
    expect(hoeffdingHalfWidth(738, 0.05)).toBeLessThanOrEqual(0.05);
    expect(hoeffdingHalfWidth(737, 0.05)).toBeGreaterThan(0.05);
  });

  it('should clamp the interval to [0, 1]', () => {
    const i = hoeffdingInterval(0.01, 100, 0.05);
    expect(i.lower).toBe(0);
    expect(i.upper).toBeCloseTo(0.01 + 0.1358102, 6);
  });

  it('should throw a typed error naming the option for δ outside (0, 1)', () => {
    expect(() => hoeffdingHalfWidth(10, 1)).toThrow(CrosscheckError);
    expect(() => hoeffdingHalfWidth(10, 1)).toThrow(
      'hoeffdingHalfWidth(n, delta): `delta` must be a number strictly between 0 and 1, got 1 (number). Pass e.g. { delta: 0.05 }.',
    );
    expect(() => hoeffdingHalfWidth(0, 0.05)).toThrow(
      'hoeffdingHalfWidth(n, delta): `n` must be a positive integer, got 0 (number). Pass e.g. { n: 1000 }.',
    );
  });
});

describe('pacDetectionSamples', () => {
  it('should give N = ⌈ln δ / ln(1 − ε)⌉ with (1 − ε)^N ≤ δ < (1 − ε)^(N − 1)', () => {
    for (const [epsilon, delta, n] of [
      [0.05, 0.05, 59],
      [0.01, 0.05, 299],
      [0.05, 0.1, 45],
      [0.001, 0.01, 4603],
      [0.5, 0.25, 2],
    ] as const) {
      const got = pacDetectionSamples(epsilon, delta);
      expect(got, `ε=${epsilon} δ=${delta}`).toBe(n);
      expect((1 - epsilon) ** got).toBeLessThanOrEqual(delta);
      expect((1 - epsilon) ** (got - 1)).toBeGreaterThan(delta);
    }
  });
});

describe('wilsonInterval', () => {
  it('should match the reference Wilson interval (statsmodels proportion_confint method="wilson")', () => {
    // proportion_confint(8, 20, 0.05, 'wilson') = (0.21878, 0.61339)
    const i = wilsonInterval(8, 20, 0.05);
    expect(i.lower).toBeCloseTo(0.21878, 4);
    expect(i.upper).toBeCloseTo(0.61339, 4);
    // proportion_confint(0, 10, 0.05, 'wilson') = (0, 0.27753)
    expect(wilsonInterval(0, 10, 0.05).upper).toBeCloseTo(0.27753, 4);
  });
});

describe('spearman', () => {
  it('should average tied ranks', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it('should match scipy.stats.spearmanr, ties included', () => {
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(spearman([1, 1, 2, 2], [1, 2, 3, 4])).toBeCloseTo(0.8944271909999159, 12);
  });

  it('should be NaN when one side is constant', () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it('should throw a typed error for arrays of different lengths', () => {
    expect(() => spearman([1, 2], [1])).toThrow(
      'spearman(xs, ys): expected two arrays of finite numbers of the same length (at least 2), got an array of length 2 and an array of length 1.',
    );
  });
});

describe('entropy', () => {
  it('should be 0 for one class and ln m for m singletons', () => {
    expect(entropy([5])).toBe(0);
    expect(entropy([1, 1, 1, 1])).toBeCloseTo(Math.log(4), 12);
    expect(entropy([2, 1])).toBeCloseTo(-(2 / 3) * Math.log(2 / 3) - (1 / 3) * Math.log(1 / 3), 12);
  });
});
