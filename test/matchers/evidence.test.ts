import { describe, expect, it } from 'vitest';
import {
  configureSuite,
  toAgreeWithReference,
  toBeCoherentAcross,
  toRankLike,
} from '../../matchers/index.ts';
import '../../matchers/vitest.ts';
import { fromFunctions } from '../../src/candidates/index.ts';
import { CrosscheckError } from '../../src/errors/index.ts';
import { renderTerminal, summarize } from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { context } from './context.ts';

/**
 * A verdict is never stronger than its evidence: each matcher passes only when the data supports
 * its claim at the stated confidence, and says which rule decided.
 */

const fifty = Array.from({ length: 50 }, (_, i) => [i] as [number]);
const task = defineTask({ name: 'double', inputs: fifty, reference: (x: number) => 2 * x });
// Wrong on exactly one of the 50 inputs: Ê = 0.02.
const [once] = fromFunctions({ once: (x: number) => (x === 7 ? 0 : 2 * x) });

describe('toAgreeWithReference decides on the exact upper bound, not the point estimate', () => {
  it('should fail maxError 0.05 on 1 wrong of 50 (Ê = 0.02, exact 95% bound 0.0914) and say which rule', async () => {
    // Act
    const result = await toAgreeWithReference.call(context(), once!, task, { maxError: 0.05, shrink: false });
    // Assert
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(message).toContain('differs on 1 of 50 inputs');
    expect(message).toContain('exact binomial (Clopper–Pearson) one-sided bounds at 95%: error ≤ 0.0914');
    expect(message).toContain('error ≤ 5% at 95% confidence');
  });

  it('should pass maxError 0.1 on the same data, whose exact bound 0.0914 is below it', async () => {
    const result = await toAgreeWithReference.call(context(), once!, task, { maxError: 0.1, shrink: false });
    expect(result.pass).toBe(true);
  });

  it('should let .not pass only when the exact lower bound is above maxError', async () => {
    // 1 of 50: the lower bound (0.001) is not above 0.01, so the data does not show error > 1 %.
    const weak = await toAgreeWithReference.call(context(true), once!, task, {
      maxError: 0.01,
      shrink: false,
    });
    expect(weak.pass).toBe(true);
    // Without maxError, one differing input refutes "no input differs".
    const none = await toAgreeWithReference.call(context(true), once!, task, { shrink: false });
    expect(none.pass).toBe(false);
  });

  it('should state the bound that n clean inputs support when maxError is omitted', async () => {
    const [right] = fromFunctions({ right: (x: number) => x + x });
    const result = await toAgreeWithReference.call(context(true), right!, task);
    expect(result.pass).toBe(true);
    // 1 − 0.05^(1/50) = 0.0582
    expect(result.message()).toContain(
      'differs on 0 of 50 inputs (Ê = 0; exact binomial (Clopper–Pearson) one-sided bounds at 95%: error ≤ 0.0582)',
    );
  });

  it('should refuse maxError: 0 with a typed error pointing to the claim N clean inputs support', async () => {
    // Act
    const error = await toAgreeWithReference.call(context(), once!, task, { maxError: 0 }).catch((e) => e);
    // Assert
    expect(error).toBeInstanceOf(CrosscheckError);
    expect(error.message).toContain('no finite sample supports "error = 0"');
    expect(error.message).toContain('N = ⌈ln δ / ln(1 − ε)⌉ (299 inputs for ε = 0.01 at δ = 0.05)');
  });
});

describe('toRankLike decides on the permutation p-value as well as the threshold', () => {
  it('should not pass 3 items in the same order (ρ = 1, p = 1/6), and say how many items', () => {
    // Act
    const result = toRankLike.call(context(), [0.9, 0.5, 0.1], [0.8, 0.4, 0.2], { minSpearman: 0.8 });
    // Assert
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(
      'inconclusive: ρ = 1 over 3 items, but with 3 items unrelated orders reach ρ ≥ 1 with probability 0.167 (permutation p-value, exact), above α = 0.05; no ranking of fewer than 4 items can pass at this α',
    );
    expect(result.record).toMatchObject({ m: 3, data: { pValue: 1 / 6, alpha: 0.05 } });
    expect(result.record.inconclusive).toContain('unrelated orders');
    // Too few items is no evidence against the ranking either.
    expect(toRankLike.call(context(true), [0.9, 0.5, 0.1], [0.8, 0.4, 0.2], { minSpearman: 0.8 }).pass).toBe(
      true,
    );
  });

  it('should fail 4 items at ρ = 0.8 (p = 1/6) and pass 5 in the same order (p = 1/120)', () => {
    expect(toRankLike.call(context(), [4, 3, 2, 1], [4, 3, 1, 2], { minSpearman: 0.8 }).pass).toBe(false);
    const five = toRankLike.call(context(), [5, 4, 3, 2, 1], [50, 40, 30, 20, 10], { minSpearman: 0.8 });
    expect(five.pass).toBe(true);
    expect(five.message()).toContain('ρ = 1 over 5 items (permutation p-value 0.00833)');
  });

  it('should pass unrelated orders of 3 items at most 1 time in 20 at α = 0.05', () => {
    const orders = [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [2, 3, 1],
      [3, 1, 2],
      [3, 2, 1],
    ];
    const passes = orders.filter((o) => toRankLike.call(context(), [1, 2, 3], o, { minSpearman: 0.8 }).pass);
    expect(passes).toEqual([]);
  });

  it('should let a larger alpha accept the chance it names', () => {
    expect(toRankLike.call(context(), [1, 2, 3], [1, 2, 3], { minSpearman: 0.8, alpha: 0.2 }).pass).toBe(
      true,
    );
  });
});

describe('the suite-wide meaning of k certificates', () => {
  const many = defineTask({ name: 'many', inputs: Array.from({ length: 2000 }, (_, i) => [i] as [number]) });
  const pool = fromFunctions({ a: (x: number) => 2 * x, b: (x: number) => x + x });

  it('should state k claims at 1 − δ each and their union bound in the summary', async () => {
    // Act: three certificates at the default δ = 0.05.
    const records = [];
    for (let k = 0; k < 3; k++)
      records.push((await toBeCoherentAcross.call(context(), many, pool, { seed: k })).record);
    const summary = summarize(records);
    // Assert
    expect(summary.suite.claims).toEqual({
      count: 3,
      deltas: [0.05, 0.05, 0.05],
      sumDelta: 0.15000000000000002,
    });
    const text = renderTerminal(
      {
        schema: 'crosscheck/report',
        version: 1,
        run: { framework: 'vitest', shard: null },
        records,
        summary,
      },
      { color: false, width: 400 },
    );
    expect(text).toContain(
      '3 statistical claims at confidence 0.950 each; at least one may be false with probability up to 0.150 (union bound, Σδ)',
    );
  });

  it('should run every check at δ_suite / k once configureSuite sets a suite δ', async () => {
    configureSuite({ delta: 0.05, checks: 20 });
    try {
      // Act
      const result = await toBeCoherentAcross.call(context(), many, pool);
      const own = await toBeCoherentAcross.call(context(), many, pool, { delta: 0.1 });
      // Assert: δ = 0.05 / 20 = 0.0025 needs N = ⌈ln 0.0025 / ln 0.95⌉ = 117 inputs; an explicit δ wins.
      expect(result.record.data).toMatchObject({ delta: 0.0025, required: 117, verdict: 'coherent' });
      expect(own.record.data).toMatchObject({ delta: 0.1 });
      expect(summarize([result.record]).suite.claims?.sumDelta).toBe(0.0025);
    } finally {
      configureSuite(null);
    }
    expect(() => configureSuite({ delta: 0.05 } as never)).toThrow(CrosscheckError);
  });
});
