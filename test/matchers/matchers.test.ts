import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  toAgreeWithReference,
  toBeCoherentAcross,
  toHaveIncoherenceBelow,
  toRankLike,
} from '../../matchers/index.ts';
import { fromFunctions } from '../../src/candidates/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { parseRecord } from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { context } from './context.ts';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const capped = (xs: number[]) => xs.reduce((a, b) => a + Math.min(b, 100), 0);
const reversed = (xs: number[]) => sum([...xs].reverse());
const inputs = gen.fromArbitrary(fc.tuple(fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 8 })), {
  description: 'lists of 0..200',
});
const task = defineTask({ name: 'sum', inputs, reference: sum });

describe('toBeCoherentAcross', () => {
  it('should pass with the certificate on a coherent pool', async () => {
    const result = await toBeCoherentAcross.call(context(), task, fromFunctions({ sum, reversed }));
    expect(result.pass).toBe(true);
    expect(result.record).toMatchObject({
      kind: 'detection',
      verdict: 'pass',
      test: {
        file: '/project/sum.test.ts',
        name: 'suite > test',
        matcher: 'toBeCoherentAcross',
        negated: false,
      },
      data: {
        verdict: 'coherent',
        required: 59,
        certificate: 'incoherence ≤ 0.05 with confidence 0.95 (for these 2 candidates and this Gen)',
      },
    });
  });

  it('should fail with the shrunk witness, each class output, the seed and hints', async () => {
    const result = await toBeCoherentAcross.call(context(), task, fromFunctions({ sum, reversed, capped }), {
      seed: 9,
    });
    expect(result.pass).toBe(false);
    expect(result.message()).toMatchInlineSnapshot(`
      "expect(task).toBeCoherentAcross(candidates)

      Task "sum", 3 candidates, PAC detection with ε = 0.05, δ = 0.05: N = 59 inputs from lists of 0..200.

      Expected: no disagreement in N = 59 inputs (certifies incoherence ≤ 0.05 with confidence 0.95)
      Received: a disagreement on input 3 of 59

      Witness:  [[101]] (shrunk from [[160,189,115,152,146]] in 15 steps)
        sum, reversed → 101
        capped → 100
        reference → 101

      Replay:   await expect(task).toBeCoherentAcross(candidates, { seed: 9, epsilon: 0.05, delta: 0.05 });
                await expect(task).toBeCoherentAcross(candidates, { inputs: [[[101]]] });  // the witness alone

      Hint 1: A disagreement proves that at least one candidate is wrong on the witness, no reference needed (I ≤ 2E).
      Hint 2: To tolerate rare disagreement, assert a rate instead: toHaveIncoherenceBelow(bound, candidates)."
    `);
    expect(parseRecord(JSON.parse(JSON.stringify(result.record)))).toEqual(result.record);
  });

  it('should fail under .not when the pool is coherent, and say what was certified', async () => {
    const result = await toBeCoherentAcross.call(context(true), task, fromFunctions({ sum, reversed }));
    expect(result.pass).toBe(true);
    expect(result.record.verdict).toBe('fail');
    expect(result.message()).toMatchInlineSnapshot(`
      "expect(task).not.toBeCoherentAcross(candidates)

      Task "sum", 2 candidates, PAC detection with ε = 0.05, δ = 0.05: N = 59 inputs from lists of 0..200.

      Expected: a disagreement within N = 59 inputs
      Received: no disagreement in 59 inputs: incoherence ≤ 0.05 with confidence 0.95 (for these 2 candidates and this Gen)

      Replay:   await expect(task).not.toBeCoherentAcross(candidates, { seed: 42, epsilon: 0.05, delta: 0.05 });

      Hint 1: The candidates may still disagree on inputs this Gen rarely draws: a smaller epsilon runs more inputs."
    `);
  });

  it('should fail both ways when inconclusive', async () => {
    const short = defineTask({ name: 'sum', inputs: [[[1]], [[2]]] });
    const plain = await toBeCoherentAcross.call(context(), short, fromFunctions({ sum, reversed }));
    const negated = await toBeCoherentAcross.call(context(true), short, fromFunctions({ sum, reversed }));
    expect(plain.pass).toBe(false);
    expect(negated.pass).toBe(true);
    expect(plain.message()).toContain(
      'Received: inconclusive: the inputs (2 fixed inputs) gave only 2 of the 59 needed',
    );
  });

  it('should throw a typed error when the received value is not a task', async () => {
    await expect(
      toBeCoherentAcross.call(context(), 42 as never, fromFunctions({ sum, reversed })),
    ).rejects.toThrow(
      'toBeCoherentAcross: the received value must be a task from defineTask(), got 42 (number). Write expect(task).toBeCoherentAcross(candidates).',
    );
  });
});

describe('toHaveIncoherenceBelow', () => {
  it('should pass when the upper end of the interval is below the bound', async () => {
    const result = await toHaveIncoherenceBelow.call(context(), task, 0.1, fromFunctions({ sum, reversed }), {
      n: 500,
    });
    expect(result.pass).toBe(true);
    expect(result.record).toMatchObject({
      kind: 'coherence',
      verdict: 'pass',
      m: 2,
      n: 500,
      data: { bound: 0.1 },
    });
  });

  it('should fail with the estimate, interval, error bound and classes', async () => {
    const result = await toHaveIncoherenceBelow.call(
      context(),
      task,
      0.1,
      fromFunctions({ sum, reversed, capped }),
      {
        n: 500,
        seed: 3,
      },
    );
    expect(result.pass).toBe(false);
    expect(result.message()).toMatchInlineSnapshot(`
      "expect(task).toHaveIncoherenceBelow(bound, candidates)

      Task "sum": incoherence of 3 candidates on 500 inputs from lists of 0..200 (all-pairs estimator, Hoeffding ∩ empirical Bernstein interval).

      Expected:    incoherence < 0.1 with confidence 0.95 (upper end of the interval)
      Received:    Î = 0.527, 95% interval [0.464, 0.589] (ε = 0.0625, n = 500, m = 3)
      Error bound: ≥ 0.232 with the same confidence (max(0, Î − ε) / 2, Theorem 4.1)
      Error:       Ê = 0.263 [0.214, 0.312] against the reference
      Classes:     {sum, reversed} 66.7%, {capped} 33.3%; semantic entropy 0.637

      Witness:     [[101]] (shrunk from [[106]] in 13 steps)
        sum, reversed → 101
        capped → 100
        reference → 101

      Replay:      await expect(task).toHaveIncoherenceBelow(0.1, candidates, { seed: 3, n: 500 });
                   await expect(task).toHaveIncoherenceBelow(0.1, candidates, { inputs: [[[101]]] });  // the witness alone"
    `);
  });

  it('should pass under .not only when the lower end reaches the bound', async () => {
    const pool = fromFunctions({ sum, reversed, capped });
    const far = await toHaveIncoherenceBelow.call(context(true), task, 0.1, pool, { n: 500, seed: 3 });
    const straddling = await toHaveIncoherenceBelow.call(context(true), task, 0.6, pool, { n: 50, seed: 3 });
    expect(far.pass).toBe(false);
    expect(straddling.pass).toBe(true);
  });

  it('should throw a typed error for a bound outside (0, 1]', async () => {
    await expect(
      toHaveIncoherenceBelow.call(context(), task, 5, fromFunctions({ sum, reversed })),
    ).rejects.toThrow(
      'toHaveIncoherenceBelow: `bound` must be a number in (0, 1], got 5 (number). Pass the largest tolerated incoherence, e.g. 0.1.',
    );
  });

  it('should throw a typed error when the received value is not a task, or the pool has fewer than two', async () => {
    await expect(
      toHaveIncoherenceBelow.call(context(), 'sum' as never, 0.1, fromFunctions({ sum, reversed })),
    ).rejects.toMatchObject({
      code: 'INVALID_TASK',
      message:
        'toHaveIncoherenceBelow: the received value must be a task from defineTask(), got "sum" (string). Write expect(task).toHaveIncoherenceBelow(0.1, candidates).',
    });
    await expect(
      toHaveIncoherenceBelow.call(context(), task, 0.1, fromFunctions({ sum })),
    ).rejects.toMatchObject({
      code: 'INVALID_CANDIDATES',
      message:
        'toHaveIncoherenceBelow: `candidates` must be an array of at least two candidates, got an array of length 1. Agreement needs two programs to compare.',
    });
  });

  it('should start the stack of a misuse at the caller, not inside crosscheck', async () => {
    const error = await toHaveIncoherenceBelow.call(context(), task, 0.1, 'nope' as never).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    const firstFrame = error?.stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
    expect(firstFrame).toContain('matchers.test.ts');
  });
});

describe('toAgreeWithReference', () => {
  it('should pass for a correct candidate and a correct function', async () => {
    const [candidate] = fromFunctions({ reversed });
    expect((await toAgreeWithReference.call(context(), candidate!, task)).pass).toBe(true);
    expect((await toAgreeWithReference.call(context(), reversed, task)).pass).toBe(true);
  });

  it('should fail with the witness against the reference', async () => {
    const result = await toAgreeWithReference.call(context(), capped, task, { n: 200, seed: 4 });
    expect(result.pass).toBe(false);
    expect(result.record).toMatchObject({ kind: 'error', verdict: 'fail', data: { maxError: 0 } });
    expect(result.message()).toMatchInlineSnapshot(`
      "expect(candidate).toAgreeWithReference(task)

      Task "sum": capped against the reference on 200 inputs from lists of 0..200.

      Expected: no input where it differs from the reference
      Received: differs on 141 of 200 inputs (Ê = 0.705; exact binomial (Clopper–Pearson) one-sided bounds at 95%: error ≤ 0.758, error ≥ 0.647)

      Witness:  [[101]] (shrunk from [[103]] in 12 steps)
        capped → 100
        reference → 101

      Replay:   await expect(candidate).toAgreeWithReference(task, { seed: 4, n: 200 });
                await expect(candidate).toAgreeWithReference(task, { inputs: [[[101]]] });  // the witness alone"
    `);
  });

  it('should throw a typed error when the task has no reference', async () => {
    const bare = defineTask({ name: 'bare', inputs });
    await expect(toAgreeWithReference.call(context(), sum, bare)).rejects.toThrow(
      'toAgreeWithReference: the task "bare" must have a reference, got undefined. Give defineTask({ reference }), or compare candidates with toBeCoherentAcross.',
    );
  });

  it('should throw a typed error when the received value is not a candidate, or the task is not a task', async () => {
    await expect(toAgreeWithReference.call(context(), 42 as never, task)).rejects.toMatchObject({
      code: 'INVALID_CANDIDATES',
      message:
        'toAgreeWithReference: the received value must be a candidate or a function, got 42 (number). Write expect(candidate).toAgreeWithReference(task).',
    });
    await expect(toAgreeWithReference.call(context(), sum, {} as never)).rejects.toMatchObject({
      code: 'INVALID_TASK',
      message:
        'toAgreeWithReference: `task` must come from defineTask(), got an object with keys []. Write expect(candidate).toAgreeWithReference(task).',
    });
  });
});

describe('toRankLike', () => {
  it('should compare records by name and arrays by position', () => {
    expect(
      toRankLike.call(
        context(),
        { a: 0.9, b: 0.5, c: 0.1, d: 0.05 },
        { d: 0, c: 1, b: 5, a: 9 },
        { minSpearman: 1 },
      ).pass,
    ).toBe(true);
    expect(toRankLike.call(context(), [1, 2, 3], [3, 2, 1], { minSpearman: 0 }).pass).toBe(false);
  });

  it('should fail with both rankings', () => {
    const result = toRankLike.call(
      context(),
      { gpt: 0.9, llama: 0.7, qwen: 0.8 },
      { gpt: 0.1, llama: 0.3, qwen: 0.2 },
      { minSpearman: 0.5 },
    );
    expect(result.pass).toBe(false);
    expect(result.record).toMatchObject({
      kind: 'ranking',
      verdict: 'fail',
      data: { spearman: -1, minSpearman: 0.5 },
    });
    expect(result.message()).toMatchInlineSnapshot(`
      "expect(scores).toRankLike(expected)

      Rankings of 3 items compared by Spearman's ρ (ties averaged).
        gpt: rank 3 vs 1
        llama: rank 1 vs 3
        qwen: rank 2 vs 2

      Expected: ρ ≥ 0.5, with permutation p-value ≤ α = 0.05
      Received: ρ = -1 over 3 items (permutation p-value 1)"
    `);
  });

  it('should throw a typed error when the items differ', () => {
    expect(() => toRankLike.call(context(), { a: 1, b: 2 }, { a: 1, c: 2 }, { minSpearman: 0.5 })).toThrow(
      'toRankLike: the records must name the same items; only on one side: b, c, got an object with keys [a, b]. Give scores of the same items on both sides.',
    );
  });
});
