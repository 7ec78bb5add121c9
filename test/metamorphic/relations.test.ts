import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import { candidates, defineTask, gen, relations } from '../../src/index.ts';
import { checkRelation } from '../../src/metamorphic/index.ts';

/**
 * toSatisfyRelation over in-process candidates (what pipelines are): each builder holds for a
 * right program, is violated by a planted wrong one with a shrunk witness and both calls shown,
 * and only the violating candidate is named.
 */

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
// Wrong on purpose: weighs each element by its position, so order matters.
const weightedSum = (xs: number[]) => xs.reduce((a, b, i) => a + b * (i + 1), 0);

const sumTask = defineTask({ name: 'sum' });
const lists = fc.tuple(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 8 }));

describe('toSatisfyRelation', () => {
  it('should pass when every candidate keeps the permutation invariance', async () => {
    // Arrange
    const pool = candidates.fromFunctions({ sum, sumReversed: (xs: number[]) => sum([...xs].reverse()) });
    // Act / Assert
    await expect(sumTask).toSatisfyRelation(relations.permutation(), pool, { inputs: lists, numRuns: 30 });
  });

  it('should fail naming only the violating candidate, with the shrunk input and both calls', async () => {
    // Arrange
    const pool = candidates.fromFunctions({ sum, weightedSum });
    // Act
    const error = await expect(sumTask)
      .toSatisfyRelation(relations.permutation(), pool, { inputs: lists, numRuns: 50, seed: 3 })
      .catch((e: Error) => e);
    // Assert
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('violated by weightedSum');
    expect(message).toMatch(/sum: +held \(\d+ of \d+ inputs related\)/);
    expect(message).toMatch(/weightedSum: +VIOLATED: the outputs differ/);
    // Shrunk: two distinct elements are the least a reordering can tell apart.
    const witness = /Witness: +(\[\[.*?\]\])/.exec(message)?.[1];
    expect(witness).toBeDefined();
    const [xs] = JSON.parse(witness as string) as [number[]];
    expect(xs).toHaveLength(2);
    // Both calls, each with its input and output.
    expect(message.match(/weightedSum on \[\[/g)).toHaveLength(2);
    expect(message).toMatch(
      /Replay: +await expect\(task\)\.toSatisfyRelation\(relation, \[candidate\], \{ seed: 3, path: "[\d:]+" \}\);/,
    );
    expect(message).toContain('proves that the candidate is wrong on at least one of the two calls');
  });

  it('should replay the same shrunk violation from the seed and path it prints', async () => {
    // Arrange
    const [wrong] = candidates.fromFunctions({ weightedSum });
    const first = await checkRelation(sumTask, relations.permutation(), [wrong!], {
      inputs: lists,
      numRuns: 50,
      seed: 11,
    });
    const v = first.candidates[0]?.violation;
    expect(v).not.toBeNull();
    // Act
    const again = await checkRelation(sumTask, relations.permutation(), [wrong!], {
      inputs: lists,
      seed: 11,
      path: v?.path,
    });
    // Assert
    expect(again.candidates[0]?.violation?.input).toEqual(v?.input);
    expect(again.candidates[0]?.violation?.transformSeed).toBe(v?.transformSeed);
  });

  it('should pass `.not` only on a witnessed violation', async () => {
    const wrong = candidates.fromFunctions({ weightedSum });
    await expect(sumTask).not.toSatisfyRelation(relations.permutation(), wrong, {
      inputs: lists,
      numRuns: 30,
    });
    const right = candidates.fromFunctions({ sum });
    await expect(
      expect(sumTask).not.toSatisfyRelation(relations.permutation(), right, { inputs: lists, numRuns: 10 }),
    ).rejects.toThrow(/a violation by at least one candidate/);
  });

  it('should compare set and multiset views of list outputs', async () => {
    // Arrange: unique values, in input order (right as a set, not as a list).
    const task = defineTask({ name: 'uniq' });
    const inputs = fc.tuple(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 6 }));
    const uniq = candidates.fromFunctions({ uniq: (xs: number[]) => [...new Set(xs)] });
    // Act / Assert
    await expect(task).toSatisfyRelation(relations.permutation({ view: 'set' }), uniq, {
      inputs,
      numRuns: 30,
    });
    await expect(task).not.toSatisfyRelation(relations.permutation(), uniq, { inputs, numRuns: 50 });
    const dropsRepeats = candidates.fromFunctions({ uniq: (xs: number[]) => [...new Set(xs)] });
    const identity = candidates.fromFunctions({ id: (xs: number[]) => xs });
    await expect(task).toSatisfyRelation(relations.permutation({ view: 'multiset' }), identity, {
      inputs,
      numRuns: 30,
    });
    await expect(task).not.toSatisfyRelation(
      relations.equivalent((xs: number[]) => xs, { view: 'multiset' }),
      dropsRepeats,
      { inputs, numRuns: 50 },
    );
  });

  it('should check an inverse pair across two programs and blame the pair', async () => {
    // Arrange: run-length encoding; the planted encoder drops runs longer than 2.
    const encode = (s: string) => (s.match(/(.)\1*/g) ?? []).map((run) => [run[0], run.length]);
    const badEncode = (s: string) =>
      (s.match(/(.)\1*/g) ?? []).map((run) => [run[0], Math.min(run.length, 2)]);
    const decode = (pairs: [string, number][]) => pairs.map(([c, k]) => c.repeat(k)).join('');
    const task = defineTask({ name: 'rle' });
    const inputs = fc.tuple(fc.stringMatching(/^[ab]{0,8}$/));
    const inverse = relations.inverse(decode);
    // Act / Assert
    await expect(task).toSatisfyRelation(inverse, candidates.fromFunctions({ encode }), {
      inputs,
      numRuns: 40,
    });
    const error = await expect(task)
      .toSatisfyRelation(inverse, candidates.fromFunctions({ badEncode }), { inputs, numRuns: 80 })
      .catch((e: Error) => e);
    const message = (error as Error).message;
    expect(message).toContain('the inverse does not recover argument 0');
    expect(message).toContain('or its partner decode is wrong');
    // Shrunk to the shortest string with a run of three.
    expect(message).toMatch(/Witness: +\["(aaa|bbb)"\]/);
    expect(message).toMatch(/decode on \[\[\["[ab]",2\]\]\] → "(aa|bb)"/);
  });

  it('should draw several follow-ups per input and run an async relate (an LLM-judged equality)', async () => {
    // Arrange: trimming is invariant under surrounding spaces; the judge is async.
    const task = defineTask({ name: 'trim' });
    const inputs = fc.tuple(fc.string({ maxLength: 6 }));
    const judged = relations.invariant({
      name: 'invariant under added spaces',
      followUps: 3,
      transform: ([s]: [string], ctx) => [`${' '.repeat(1 + Math.floor(ctx.random() * 3))}${s}`],
      equality: async (a, b) => {
        await new Promise((r) => setTimeout(r, 0));
        return a === b;
      },
    });
    const pool = candidates.fromFunctions({
      trim: async (s: string) => s.trim(),
      trimEnd: async (s: string) => s.trimEnd(),
    });
    // Act
    const check = await checkRelation(task, judged, pool, { inputs, numRuns: 20 });
    // Assert
    expect(check.candidates.map((c) => c.verdict)).toEqual(['held', 'violated']);
    expect(check.candidates[1]?.violation?.reason).toContain("under the relation's equality");
    // Source and follow-up calls are all tallied: 4 per input.
    expect(check.candidates[0]?.outcomes.value).toBe(4 * 20);
  });

  it('should write a property record with each candidate verdict and the witness calls', async () => {
    // Arrange
    const pool = candidates.fromFunctions({ sum, weightedSum });
    // Act
    const check = await checkRelation(sumTask, relations.permutation(), pool, {
      inputs: lists,
      numRuns: 30,
      seed: 5,
    });
    const { relationRecord } = await import('../../src/metamorphic/index.ts');
    const record = relationRecord(check, pool, {
      test: { file: null, name: null, matcher: 'toSatisfyRelation', negated: false },
      pass: false,
    });
    // Assert
    expect(record.kind).toBe('property');
    const data = record.data as { candidates: { label: string; verdict: string }[]; outcome: string };
    expect(data.outcome).toBe('falsified');
    expect(data.candidates.map((c) => [c.label, c.verdict])).toEqual([
      ['sum', 'held'],
      ['weightedSum', 'violated'],
    ]);
    expect(record.witness?.reason).toBe('relation violated');
    expect(record.witness?.outputs).toHaveLength(2);
    const { parseRecord, serializeRecord } = await import('../../src/report/index.ts');
    expect(parseRecord(serializeRecord(record))).toEqual(record);
  });

  it('should use the task Gen (gen.*) as the default source of inputs', async () => {
    const task = defineTask({ name: 'sum', inputs: gen.fromSignature('(xs: number[]) => number') });
    await expect(task).not.toSatisfyRelation(
      relations.permutation(),
      candidates.fromFunctions({ weightedSum }),
      { numRuns: 50 },
    );
  });
});
