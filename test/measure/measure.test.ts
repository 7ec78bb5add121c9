import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../src/candidates/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { certificateText, detect, measure } from '../../src/measure/index.ts';
import { defineTask } from '../../src/task/index.ts';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
// Wrong for any element above 100.
const capped = (xs: number[]) => xs.reduce((a, b) => a + Math.min(b, 100), 0);
// Wrong on empty lists.
const emptyIsNull = (xs: number[]) => (xs.length === 0 ? null : sum(xs));
const inputs = gen.fromArbitrary(fc.tuple(fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 8 })));

describe('measure', () => {
  it('should report classes, plurality, majority, entropy and per-candidate error', async () => {
    // Arrange
    const task = defineTask({ name: 'sum', inputs, reference: sum });
    const candidates = fromFunctions({
      a: sum,
      b: sum,
      c: capped,
      d: (xs: number[]) => sum([...xs].reverse()),
    });
    // Act
    const m = await measure(task, candidates, { n: 300, seed: 1 });
    // Assert
    expect(m.classes.map((c) => c.labels)).toEqual([['a', 'b', 'd'], ['c']]);
    expect(m.plurality.labels).toEqual(['a', 'b', 'd']);
    expect(m.majority?.share).toBe(0.75);
    expect(m.semanticEntropy).toBeCloseTo(-(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25)), 12);
    expect(m.candidateErrors.map((c) => [c.label, c.error === 0])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
      ['d', true],
    ]);
    // With one wrong candidate out of 4, d_j = 3/6 wherever it is wrong and e_j = 1/4: I = 2E exactly.
    expect(m.incoherence!.estimate).toBeCloseTo(2 * m.error!.estimate, 12);
    expect(m.errorLowerBound).toBeCloseTo(
      Math.max(0, m.incoherence!.estimate - m.incoherence!.epsilon) / 2,
      12,
    );
    expect(m.seed).toBe(1);
    expect(m.n).toBe(300);
  });

  it('should shrink the witness and show each class output on it, and the reference', async () => {
    // Arrange
    const task = defineTask({ name: 'sum', inputs, reference: sum });
    // Act
    const m = await measure(task, fromFunctions({ sum, capped }), { n: 200, seed: 5 });
    // Assert
    expect(m.witness).toMatchObject({
      reason: 'candidates disagree',
      args: [[101]],
      text: '[[101]]',
      outputs: [
        { labels: ['sum'], kind: 'value', outcome: '101' },
        { labels: ['capped'], kind: 'value', outcome: '100' },
      ],
      reference: '101',
    });
    expect(m.witness!.shrink!.via).toBe('arbitrary');
  });

  it('should fall back to a witness against the reference when a single candidate is wrong', async () => {
    const task = defineTask({ name: 'sum', inputs, reference: sum });
    const m = await measure(task, fromFunctions({ emptyIsNull }), { n: 200, seed: 2 });
    expect(m.incoherence).toBeNull();
    expect(m.witness).toMatchObject({
      reason: 'differs from the reference',
      text: '[[]]',
      outputs: [{ labels: ['emptyIsNull'], outcome: 'null' }],
      reference: '0',
    });
  });

  it("should count timeouts apart and, under unknown: 'exclude', leave them out of disagreement", async () => {
    // Arrange: `slow` hangs on lists longer than 3 and is right otherwise.
    const slow = async (xs: number[]) => {
      if (xs.length > 3) await new Promise((r) => setTimeout(r, 1000));
      return sum(xs);
    };
    const task = defineTask({
      name: 'sum',
      inputs: [[[1]], [[1, 2, 3, 4]], [[5, 5, 5, 5, 5]]],
      timeoutMs: 50,
    });
    // Act
    const m = await measure(task, fromFunctions({ sum, slow }), { seed: 1, unknown: 'exclude' });
    // Assert
    expect(m.unknown).toEqual({
      cells: 2,
      timeouts: 2,
      crashes: 0,
      perCandidate: [0, 2],
      referenceCells: 0,
      inputs: 2,
    });
    expect(m.incoherence).toMatchObject({ estimate: 0, n: 1 });
    // A candidate with unknown outcomes is never classified with others (issue 14, defect 4).
    expect(m.classes.map((c) => c.labels)).toEqual([['sum'], ['slow']]);
    expect(m.witness).toBeNull();
  });

  it('should estimate with one random pair per input under the paired estimator', async () => {
    const task = defineTask({ name: 'sum', inputs });
    const candidates = fromFunctions({ sum, capped, emptyIsNull });
    const all = await measure(task, candidates, { n: 400, seed: 3, shrink: false });
    const paired = await measure(task, candidates, { n: 400, seed: 3, estimator: 'paired', shrink: false });
    expect(paired.estimator).toBe('paired');
    expect(paired.inputs).toEqual(all.inputs);
    expect(Math.abs(paired.incoherence!.estimate - all.incoherence!.estimate)).toBeLessThan(
      paired.incoherence!.epsilon,
    );
  });

  it('should throw typed errors naming the option for misuse', async () => {
    const task = defineTask({ name: 'sum', inputs });
    const candidates = fromFunctions({ sum, capped });
    await expect(measure(task, candidates, { delta: 2 })).rejects.toThrow(
      'measure(task, candidates, options): `delta` must be a number strictly between 0 and 1, got 2 (number). Pass e.g. { delta: 0.05 }.',
    );
    await expect(measure(task, candidates, { estimator: 'pairs' as never })).rejects.toThrow(
      "measure(task, candidates, options): `estimator` must be 'all-pairs' or 'paired', got \"pairs\". 'all-pairs' has the lower variance.",
    );
    await expect(measure(defineTask({ name: 'bare' }), candidates)).rejects.toThrow(
      'measure(task, candidates, options): `inputs` must be a Gen (from gen.*) or a non-empty array of argument tuples, here or in defineTask({ inputs }), got undefined. Pass e.g. { inputs: gen.fromSignature("(xs: number[]) => number") } or { inputs: [[[1, 2]], [[3]]] }.',
    );
  });
});

describe('detect', () => {
  it('should certify a coherent pool after exactly N inputs', async () => {
    const task = defineTask({ name: 'sum', inputs });
    const d = await detect(task, fromFunctions({ sum, reversed: (xs: number[]) => sum([...xs].reverse()) }), {
      epsilon: 0.01,
      delta: 0.05,
    });
    expect(d).toMatchObject({
      verdict: 'coherent',
      required: 299,
      inputsRun: 299,
      inputsCounted: 299,
      seed: 42,
    });
    expect(d.certificate).toBe(
      'incoherence ≤ 0.01 with confidence 0.95 (for these 2 candidates and this Gen)',
    );
    expect(certificateText(0.05, 0.05, 10)).toBe(
      'incoherence ≤ 0.05 with confidence 0.95 (for these 10 candidates and this Gen)',
    );
  });

  it('should stop at the first disagreement with a shrunk witness', async () => {
    const task = defineTask({ name: 'sum', inputs });
    const d = await detect(task, fromFunctions({ sum, capped }), { seed: 9 });
    expect(d.verdict).toBe('incoherent');
    // Draws counted: each distinct input checked so far, as often as it was drawn.
    expect(d.inputsRun).toBeGreaterThanOrEqual(d.witness!.original.index + 1);
    expect(d.witness!.text).toBe('[[101]]');
  });

  it('should be inconclusive when the inputs run out before N', async () => {
    const task = defineTask({ name: 'sum', inputs: [[[1]], [[2]]] });
    const d = await detect(task, fromFunctions({ sum, capped }));
    expect(d.verdict).toBe('inconclusive');
    expect(d.reason).toBe('the inputs (2 fixed inputs) gave only 2 of the 59 needed');
  });

  it('should need two candidates', async () => {
    const task = defineTask({ name: 'sum', inputs });
    await expect(detect(task, fromFunctions({ sum }))).rejects.toThrow(
      'detect(task, candidates, options): `candidates` must be an array of at least 2 candidates (from candidates.fromFunctions or fromSources), got an array of length 1. Agreement needs two programs to compare.',
    );
  });
});
