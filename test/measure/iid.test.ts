import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../src/candidates/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { detect, measure } from '../../src/measure/index.ts';
import { defineTask } from '../../src/task/index.ts';

/**
 * Issue 14, defect 3: estimates must average over i.i.d. draws of the Gen, not over its distinct
 * values. Here a fifth of the mass sits on one value (0), where the candidates disagree: the true
 * incoherence is exactly 0.2 and the error of `bumped` exactly 0.2.
 */
const source = gen.fromArbitrary(
  fc.tuple(
    fc.oneof(
      { arbitrary: fc.constant(0), weight: 1 },
      { arbitrary: fc.integer({ min: 1, max: 1e6 }), weight: 4 },
    ),
  ),
);
const id = (x: number) => x;
const bumped = (x: number) => (x === 0 ? 1 : x);
const task = defineTask({ name: 'id', inputs: source, reference: id });
const TRUE_I = 0.2;

describe('estimates over i.i.d. draws (duplicates count)', () => {
  it('draws duplicates as often as the Gen gives them', async () => {
    const draws = await source.generate(20_000, { seed: 3 });
    expect(draws.length).toBe(20_000);
    const zeros = draws.filter(([x]) => x === 0).length / draws.length;
    expect(Math.abs(zeros - TRUE_I)).toBeLessThan(0.015);
    const report = await source.generateWithReport(500, { seed: 3 });
    expect(report.counts.reduce((a, b) => a + b, 0)).toBe(500);
    expect(report.sampled).toBe(500);
    expect(report.inputs.length).toBeLessThan(500);
  });

  it('gives Hoeffding intervals that cover the true incoherence and error', async () => {
    const candidates = fromFunctions({ id, bumped });
    let incCovered = 0;
    let errCovered = 0;
    const runs = 40;
    for (let seed = 0; seed < runs; seed++) {
      const m = await measure(task, candidates, { n: 300, seed, shrink: false });
      expect(m.n).toBe(300);
      expect(m.weights.reduce((a, b) => a + b, 0)).toBe(300);
      expect(m.inputs.length).toBeLessThan(300); // 0 ran once, however often it was drawn
      const i = m.incoherence!;
      const e = m.error!;
      expect(i.n).toBe(300);
      if (i.lower <= TRUE_I && TRUE_I <= i.upper) incCovered++;
      // Error of the pool: one of two candidates wrong on 0.
      if (e.lower <= TRUE_I / 2 && TRUE_I / 2 <= e.upper) errCovered++;
    }
    expect(incCovered / runs).toBeGreaterThanOrEqual(0.9);
    expect(errCovered / runs).toBeGreaterThanOrEqual(0.9);
  });

  it('counts draws toward PAC detection, running each distinct value once', async () => {
    const same = fromFunctions({ a: id, b: (x: number) => x + 0 });
    const d = await detect(task, same, { epsilon: 0.05, delta: 0.05, seed: 1 });
    expect(d.verdict).toBe('coherent');
    expect(d.inputsCounted).toBe(d.required);
    const differ = await detect(task, fromFunctions({ id, bumped }), { epsilon: 0.05, delta: 0.05, seed: 1 });
    expect(differ.verdict).toBe('incoherent');
  });
});

describe('the all-pairs interval adapts to the variance', () => {
  it('states a much narrower interval for a coherent pool than Hoeffding, as Hoeffding ∩ empirical Bernstein', async () => {
    const { hoeffdingHalfWidth } = await import('../../src/stats/index.ts');
    const same = fromFunctions({ a: id, b: (x: number) => x * 1, c: (x: number) => x + 0 });
    const m = await measure(task, same, { n: 300, seed: 5, shrink: false });
    expect(m.interval).toBe('Hoeffding ∩ empirical Bernstein');
    expect(m.incoherence?.estimate).toBe(0);
    expect(m.incoherence!.epsilon).toBeLessThan(0.6 * hoeffdingHalfWidth(300, 0.05));
    const paired = await measure(task, same, { n: 300, seed: 5, shrink: false, estimator: 'paired' });
    expect(paired.interval).toBe('Hoeffding');
    expect(paired.incoherence!.epsilon).toBeCloseTo(hoeffdingHalfWidth(300, 0.05), 12);
  });
});
