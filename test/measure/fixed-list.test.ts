import { describe, expect, it } from 'vitest';
import { toAgreeWithReference, toBeCoherentAcross, toHaveIncoherenceBelow } from '../../matchers/index.ts';
import { candidates, defineTask, detect, measure } from '../../src/index.ts';
import { context } from '../matchers/context.ts';

// 1000 fixed inputs sorted by size; `late` is wrong on every row from 100 on (90 % of the list),
// so the list's first rows say nothing about it.
const inputs = Array.from({ length: 1000 }, (_, i) => [i] as [number]);
const task = defineTask({ name: 'id', inputs, reference: (x: number) => x });
const pool = candidates.fromFunctions({ right: (x: number) => x, late: (x: number) => (x < 100 ? x : -x) });

describe('a fixed input list longer than the draws needed', () => {
  it('should draw detect’s N rows from the whole list, not take its first N', async () => {
    // Act
    const d = await detect(task, pool);
    // Assert
    expect(d.verdict).toBe('incoherent');
    expect(d.witness?.original.args[0]).toBeGreaterThanOrEqual(100);
  });

  it('should name the list, not a Gen, in the certificate', async () => {
    // Arrange
    const agreeing = candidates.fromFunctions({ a: (x: number) => x, b: (x: number) => x + 0 });
    // Act
    const d = await detect(task, agreeing);
    // Assert
    expect(d.verdict).toBe('coherent');
    expect(d.certificate).toBe(
      'incoherence ≤ 0.05 with confidence 0.95 (for these 2 candidates and the uniform distribution over these 1000 fixed inputs (draws with replacement))',
    );
    expect(d.gen).toBe('the uniform distribution over these 1000 fixed inputs (draws with replacement)');
  });

  it('should replay the same draws for the same seed and others for another', async () => {
    // Act
    const a = await measure(task, pool, { n: 50, seed: 7 });
    const b = await measure(task, pool, { n: 50, seed: 7 });
    const c = await measure(task, pool, { n: 50, seed: 8 });
    // Assert
    expect(a.inputs).toEqual(b.inputs);
    expect(a.inputs).not.toEqual(c.inputs);
    expect(a.n).toBe(50);
  });

  it('should draw measure’s n rows uniformly, so the estimate is near the list’s own figure', async () => {
    // Act
    const m = await measure(task, pool, { n: 300 });
    // Assert: the list's incoherence is 0.9; a prefix of 300 rows would give 0.67.
    expect(m.incoherence?.lower).toBeLessThanOrEqual(0.9);
    expect(m.incoherence?.upper).toBeGreaterThanOrEqual(0.9);
    expect(m.gen).toBe('the uniform distribution over these 1000 fixed inputs (draws with replacement)');
  });

  it('should run the whole list, each row once, when n is not given', async () => {
    // Act
    const m = await measure(task, pool);
    // Assert
    expect(m.incoherence?.estimate).toBe(0.9);
    expect(m.gen).toBe('these 1000 fixed inputs');
  });

  it('should fail the matchers that a prefix of the list would pass', async () => {
    // Act
    const coherent = await toBeCoherentAcross.call(context(), task, pool);
    const below = await toHaveIncoherenceBelow.call(context(), task, 0.2, pool, { n: 100 });
    const agrees = await toAgreeWithReference.call(context(), pool[1]!, task, { maxError: 0.05, n: 99 });
    // Assert
    expect([coherent.pass, below.pass, agrees.pass]).toEqual([false, false, false]);
  });
});
