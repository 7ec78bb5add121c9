import { describe, expect, it } from 'vitest';
import { simulate } from '../../bench/pipeline-simulation.ts';

/**
 * The pipeline simulation of `npm run bench:pipeline`, smaller: a loopback model that forgets
 * the discount with a known probability p on the invoices that have one. Incoherence, measured
 * with no labels, must bound the true error from below (E ≥ max(0, Î − ε)/2), and see errors
 * exactly when there are some.
 */
describe('an LLM pipeline with a known error rate', () => {
  it('should measure no incoherence and no error when the model never errs', async () => {
    const r = await simulate({ p: 0, n: 40, m: 3 });
    expect(r.trueError).toBe(0);
    expect(r.incoherence).toBe(0);
    expect(r.bound).toBe(0);
  });

  it('should bound the true error from below, with an interval that holds the expected incoherence', async () => {
    const r = await simulate({ p: 0.5, n: 120, m: 4 });
    expect(r.trueError).toBeGreaterThan(0);
    expect(r.incoherence).toBeGreaterThan(0);
    // A positive bound at 95% confidence that stays at or below the error measured with labels.
    expect(r.bound).toBeGreaterThan(0);
    expect(r.bound).toBeLessThanOrEqual(r.trueError);
    expect(r.boundPoint).toBeLessThanOrEqual(r.trueError);
    expect(r.lower).toBeLessThanOrEqual(r.expectedIncoherence);
    expect(r.upper).toBeGreaterThanOrEqual(r.expectedIncoherence);
  });
});
