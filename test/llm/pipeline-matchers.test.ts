import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import {
  candidates,
  defineTask,
  detect,
  gen,
  type PipelineLlm,
  relationProperty,
  relations,
} from '../../src/index.ts';
import { useScriptedModel } from './helpers.ts';

/**
 * Pipeline samples under the checks that the other pipeline tests leave out: `detect`,
 * `toAgreeWithReference` against a reference function, a failing `toSatisfyRelation`, and
 * `relationProperty` under fc.check. The scripted model sums the items of an invoice, except
 * that sample 1 reads only the first two items: it is wrong on every invoice with a third item
 * that is not 0, and it breaks "the total ignores the order of the items".
 */

const sum = (items: number[]): number => items.reduce((a, b) => a + b, 0);

const totalReply = (lastUser: string, sample: number | null): string => {
  const items = (lastUser.match(/\d+/g) ?? []).map(Number);
  return `Total: ${sum(sample === 1 ? items.slice(0, 2) : items)}`;
};

/** The pipeline under test: prompt, call, parse. */
const extractTotal = async (items: number[], llm: PipelineLlm): Promise<number> => {
  const reply = await llm.complete(`Total of: ${items.join(', ')}`);
  const m = /Total: (\d+)/.exec(reply);
  if (!m) throw new SyntaxError(`no total in ${JSON.stringify(reply)}`);
  return Number(m[1]);
};

const task = defineTask({ name: 'invoiceTotal' });
const withReference = defineTask({ name: 'invoiceTotal', reference: sum });
const items = fc.tuple(fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 5 }));
const invoices = gen.fromArbitrary(items, { description: 'invoices of up to five items' });

describe('pipeline samples under detect and the matchers', () => {
  const model = useScriptedModel(totalReply);

  it('should detect the sample that disagrees, with a shrunk witness, and certify the others', async () => {
    // Arrange
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3 });
    // Act
    const found = await detect(task, samples, { inputs: invoices, epsilon: 0.1, seed: 1 });
    const others = [samples[0], samples[2]].filter((c) => c !== undefined);
    const kept = await detect(task, others, { inputs: invoices, epsilon: 0.1, seed: 1 });
    // Assert: sample 1 is split off on an invoice of three items, the least that shows its bug.
    expect(found.verdict).toBe('incoherent');
    if (found.verdict !== 'incoherent') return;
    expect(found.witness.outputs.map((o) => o.labels)).toEqual([
      ['extractTotal#0', 'extractTotal#2'],
      ['extractTotal#1'],
    ]);
    expect((found.witness.args as [number[]])[0]).toHaveLength(3);
    expect(kept.verdict).toBe('coherent');
    expect(kept.certificate).toMatch(/incoherence ≤ 0\.1/);
  });

  it('should pass toAgreeWithReference for a right sample and its negation for the wrong one', async () => {
    // Arrange
    const [right, wrong] = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 2 });
    // Act / Assert
    await expect(right).toAgreeWithReference(withReference, { inputs: invoices, n: 60, seed: 2 });
    await expect(wrong).not.toAgreeWithReference(withReference, { inputs: invoices, n: 60, seed: 2 });
    const error = await expect(wrong)
      .toAgreeWithReference(withReference, { inputs: invoices, n: 60, seed: 2 })
      .catch((e: Error) => e);
    expect((error as Error).message).toContain('extractTotal#1 against the reference on 60 inputs');
    expect((error as Error).message).toMatch(/differs on [1-9]\d* of 60 inputs/);
  });

  it('should fail toSatisfyRelation on the sample that breaks it, with the shrunk input and both calls', async () => {
    // Arrange
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3 });
    // Act
    const error = await expect(task)
      .toSatisfyRelation(relations.permutation(), samples, { inputs: items, numRuns: 50, seed: 3 })
      .catch((e: Error) => e);
    // Assert
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('violated by extractTotal#1');
    expect(message).toMatch(/extractTotal#0: +held/);
    expect(message).toMatch(/extractTotal#2: +held/);
    expect(message).toMatch(/extractTotal#1: +VIOLATED: the outputs differ/);
    // Shrunk: a reordering of three items, one of them not 0, is the least that shows the bug.
    const witness = /Witness: +(\[\[.*?\]\])/.exec(message)?.[1];
    expect(witness).toBeDefined();
    const [xs] = JSON.parse(witness as string) as [number[]];
    expect(xs).toHaveLength(3);
    // Both calls of the sample, each with its input and its output.
    const calls = message.match(/extractTotal#1 on \[\[[\d,]*\]\] → \d+/g) ?? [];
    expect(calls).toHaveLength(2);
    expect(new Set(calls).size).toBe(2);
  });

  it('should fail relationProperty under fc.check, shrunk, and record tokens per sample', async () => {
    // Arrange
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 3, label: 'total' });
    const property = relationProperty(task, relations.permutation(), samples, { inputs: items });
    // Act
    const result = await fc.check(property, { seed: 7, numRuns: 60 });
    // Assert
    expect(result.failed).toBe(true);
    const [[xs]] = result.counterexample as [[number[]], number];
    expect(xs).toHaveLength(3);
    expect((result.errorInstance as Error).message).toMatch(/total#1: the outputs differ/);
    const record = property.records.at(-1);
    expect(record?.witness?.reason).toBe('relation violated');
    expect(record?.llm?.candidates?.map((r) => r.label)).toEqual(['total#0', 'total#1', 'total#2']);
    for (const row of record?.llm?.candidates ?? []) {
      expect(row.calls).toBeGreaterThan(0);
      expect(row.prompt).toBeGreaterThan(0);
    }
  });

  it("should count a partner pipeline's model calls in the record, under the matcher and under fc.check", async ({
    task: test,
  }) => {
    // Arrange: the relation's partner is an independent pipeline (one sample of its own).
    const samples = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 2, label: 'total' });
    const [partner] = candidates.fromPipeline(extractTotal, { llm: model.llm, n: 1, label: 'partner' });
    const relation = relations.equivalent(partner!);
    // Act
    await expect(task)
      .toSatisfyRelation(relation, samples, { inputs: items, numRuns: 20, seed: 5 })
      .catch(() => undefined);
    const property = relationProperty(task, relation, samples, { inputs: items });
    await fc.check(property, { seed: 5, numRuns: 20 });
    // Assert
    const matcherRecord = (
      test.meta as { crosscheck?: Array<{ llm?: { candidates?: unknown } }> }
    ).crosscheck?.at(-1);
    for (const record of [matcherRecord, property.records.at(-1)]) {
      const rows = (record?.llm?.candidates ?? []) as Array<{ label: string; calls: number }>;
      expect(rows.map((r) => r.label)).toEqual(['total#0', 'total#1', 'partner#0']);
      expect(rows.find((r) => r.label === 'partner#0')?.calls).toBeGreaterThan(0);
    }
  });
});
