import { describe, expect, it } from 'vitest';
import { toBeCoherentAcross } from '../../matchers/index.ts';
import { candidates, defineTask, detect, measure } from '../../src/index.ts';
import { context } from '../matchers/context.ts';

// Floats compare within a relative 1e-9: `low` and `high` are each within it of the reference
// (1 + 0.9e-9) but not of each other, so they disagree while neither is wrong.
const inputs = Array.from({ length: 300 }, (_, i) => [i] as [number]);
const truth = 1 + 0.9e-9;
const task = defineTask({ name: 'tol', inputs, reference: () => truth });
const close = candidates.fromFunctions({ low: () => 1, high: () => 1 + 1.8e-9 });

describe('agreement within a float tolerance, which is not transitive', () => {
  it('should not bound the error above what the reference measures', async () => {
    // Act
    const m = await measure(task, close);
    // Assert
    expect(m.incoherence?.estimate).toBe(1);
    expect(m.candidateErrors.map((c) => c.error)).toEqual([0, 0]);
    expect(m.provenIncoherence?.estimate).toBe(0);
    expect(m.errorLowerBound).toBe(0);
    expect(m.errorLowerBound!).toBeLessThanOrEqual(m.error!.upper);
  });

  it('should keep the bound for outputs apart beyond the tolerance', async () => {
    // Arrange: 1 and 1.5 cannot both be within 1e-9 of any value.
    const far = candidates.fromFunctions({ low: () => 1, high: () => 1.5 });
    const untold = defineTask({ name: 'far', inputs });
    // Act
    const m = await measure(untold, far);
    // Assert
    expect(m.provenIncoherence?.estimate).toBe(1);
    expect(m.errorLowerBound).toBeGreaterThan(0.45);
  });

  it('should not call a disagreement within the tolerance a proof that a candidate is wrong', async () => {
    // Act
    const d = await detect(task, close);
    const r = await toBeCoherentAcross.call(context(true), task, close);
    // Assert
    expect(d.verdict).toBe('incoherent');
    expect(d.verdict === 'incoherent' && d.proven).toBe(false);
    expect(r.message()).not.toContain('proves that at least one candidate is wrong');
    expect(r.message()).toContain('does not prove a candidate wrong');
  });

  it('should call a disagreement beyond the tolerance a proof', async () => {
    // Arrange
    const far = candidates.fromFunctions({ low: () => 1, high: () => 1.5 });
    // Act
    const d = await detect(task, far);
    // Assert
    expect(d.verdict === 'incoherent' && d.proven).toBe(true);
  });
});
