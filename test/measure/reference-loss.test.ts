import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHaveIncoherenceBelow } from '../../matchers/index.ts';
import { fromFunctions } from '../../src/candidates/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { detect, measure } from '../../src/measure/index.ts';
import { summarize } from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { context } from '../matchers/context.ts';

/**
 * Inputs the reference does not answer (timeout, crash, budget) are never dropped silently: by
 * default they make the verdict inconclusive; with `unknown: 'exclude'` every figure and
 * certificate says how many were left out and why.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The reference hangs on every tenth value; the candidate `wrongThere` is wrong exactly there.
const slowReference = async (x: number) => {
  if (x % 10 === 0) await sleep(2000);
  return x;
};
const pool = fromFunctions({ id: (x: number) => x, wrongThere: (x: number) => (x % 10 === 0 ? -1 : x) });
const task = defineTask({ name: 'id', inputs: [[1], [2]] });
const filtered = () =>
  gen
    .fromArbitrary(fc.tuple(fc.integer({ min: 0, max: 99 })))
    .withReference(slowReference, { timeoutMs: 40 });

describe('a Gen whose reference filter times out', () => {
  it('should make measure and detect inconclusive by default, naming the inputs lost', async () => {
    // Act
    const m = await measure(task, pool, { inputs: filtered(), n: 60, shrink: false });
    const d = await detect(task, pool, { inputs: filtered(), shrink: false });
    // Assert: the values the reference never answered (of the ten that hang) were left out, and said.
    const lost = m.referenceLoss?.inputs ?? 0;
    expect(lost).toBeGreaterThan(0);
    expect(lost).toBeLessThanOrEqual(10);
    expect(m.referenceLoss).toMatchObject({ inGen: lost, inRun: 0, excluded: false });
    expect(m.inconclusive).toContain(`the reference did not answer on ${lost} inputs (timeout`);
    expect(m.inconclusive).toContain("unknown: 'exclude'");
    expect(d.verdict).toBe('inconclusive');
    expect(d.certificate).toBeNull();
    expect(d.reason).toMatch(/^the reference did not answer on \d+ inputs/);
  });

  it("should certify under unknown: 'exclude' only with a certificate that says what was left out", async () => {
    const d = await detect(task, pool, { inputs: filtered(), shrink: false, unknown: 'exclude' });
    expect(d.verdict).toBe('coherent');
    expect(d.certificate).toMatch(
      /^incoherence ≤ 0\.05 with confidence 0\.95 \(for these 2 candidates and this Gen; (\d+) inputs the reference did not answer \(timeout \(call\) \1\) were excluded \(unknown: 'exclude'\): the figures are about the inputs it answered\)$/,
    );
    const m = await measure(task, pool, { inputs: filtered(), n: 60, shrink: false, unknown: 'exclude' });
    expect(m.inconclusive).toBeNull();
    expect(m.excluded).toMatch(/^\d+ inputs the reference did not answer/);
  });
});

describe('a task reference that never returns', () => {
  const never = defineTask({
    name: 'never',
    inputs: Array.from({ length: 8 }, (_, i) => [i] as [number]),
    reference: async (x: number) => {
      await sleep(2000);
      return x;
    },
    timeoutMs: 40,
  });

  it('should give no error figure, never an invented estimate, and be inconclusive', async () => {
    const m = await measure(never, pool, { shrink: false });
    expect(m.error).toBeNull();
    expect(m.referenceLoss).toMatchObject({ inputs: 8, inRun: 8 });
    expect(m.inconclusive).toContain('the reference did not answer on 8 inputs');
  });

  it('should keep the check out of the suite means and the detection rate', async () => {
    // Act: a real record of the check, then the suite summary over it.
    const result = await toHaveIncoherenceBelow.call(context(), never, 0.5, pool, { shrink: false });
    const summary = summarize([result.record]);
    // Assert
    expect(result.pass).toBe(false);
    expect(summary.suite.references).toBeNull();
    expect(summary.suite.meanIncoherence).toBeNull();
    expect(summary.suite.meanIncoherenceOver).toBe(0);
    expect(summary.suite.inconclusiveChecks).toBe(1);
    expect(summary.rows[0]?.referenceLost).toBe(8);
  });
});

describe("unknown: 'exclude' with a candidate that hangs on 30 % of inputs", () => {
  const sixty = Array.from({ length: 60 }, (_, i) => [i] as [number]);
  const plain = defineTask({ name: 'plain', inputs: sixty, timeoutMs: 40 });
  const id = (x: number) => x;
  const hangs = async (x: number) => {
    if (x % 10 < 3) await sleep(2000);
    return x;
  };

  it('should not give the pool the certificate of a pool that always returned', async () => {
    // Act
    const always = await detect(plain, fromFunctions({ a: id, b: id, c: id }), { unknown: 'exclude' });
    const hanging = await detect(plain, fromFunctions({ a: id, b: id, hangs }), { unknown: 'exclude' });
    // Assert
    expect([always.verdict, hanging.verdict]).toEqual(['coherent', 'coherent']);
    expect(always.certificate).toBe(
      'incoherence ≤ 0.05 with confidence 0.95 (for these 3 candidates and the uniform distribution over these 60 fixed inputs (draws with replacement))',
    );
    expect(hanging.certificate).not.toBe(always.certificate);
    // 59 of the 60 rows drawn with replacement: the count depends on the draws, not on the list's order.
    expect(hanging.certificate).toMatch(
      /; (\d+) candidate cells that timed out or crashed were excluded \(unknown: 'exclude'; hangs \1\)/,
    );
    const m = await measure(plain, fromFunctions({ a: id, b: id, hangs }), {
      unknown: 'exclude',
      shrink: false,
    });
    expect(m.excluded).toContain('18 candidate cells');
  });
});
