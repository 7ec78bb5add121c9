import { test as fcTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadTasks } from '../../src/bench/dataset.ts';
import { fromFunctions, fromSources } from '../../src/candidates/index.ts';
import { GEN_BRAND } from '../../src/contract/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { coherenceProperty } from '../../src/fast-check/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { measure } from '../../src/measure/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { decode } from '../../src/values/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

afterAll(async () => {
  await closePythonWorkers();
});

const sortAsc = (xs: number[]) => [...xs].sort((a, b) => a - b);
const insertionSort = (xs: number[]) => {
  const out: number[] = [];
  for (const x of xs) {
    let i = out.length;
    while (i > 0 && (out[i - 1] as number) > x) i--;
    out.splice(i, 0, x);
  }
  return out;
};
// Sorts as strings: wrong as soon as two numbers differ in digit count.
const lexicalSort = (xs: number[]) => [...xs].sort();

const task = defineTask({ name: 'sortAsc', inputs: gen.fromSignature('(xs: number[]) => number[]') });

describe('coherenceProperty', () => {
  it('should hold under fc.assert when the candidates agree', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, insertionSort }));
    await fc.assert(property, { numRuns: 100, seed: 1 });
  });

  it('should fail with a shrunk counterexample naming the candidate classes when they disagree', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, lexicalSort }));
    const result = await fc.check(property, { numRuns: 200, seed: 7 });
    expect(result.failed).toBe(true);
    const [[xs]] = result.counterexample as [[number[]]];
    // Minimal: two numbers whose string order differs from their numeric order.
    expect(xs.length).toBe(2);
    expect(String(result.errorInstance)).toContain('The candidates disagree on');
    expect(String(result.errorInstance)).toContain('sortAsc');
    expect(String(result.errorInstance)).toContain('lexicalSort');
  });

  it('should replay the same counterexample from the seed and path fast-check reports', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, lexicalSort }));
    const first = await fc.check(property, { numRuns: 200, seed: 99 });
    const again = await fc.check(property, { numRuns: 200, seed: 99 });
    expect(again.counterexample).toEqual(first.counterexample);
    const replay = await fc.check(property, { seed: first.seed, path: first.counterexamplePath ?? '' });
    expect(replay.failed).toBe(true);
    expect(replay.counterexample).toEqual(first.counterexample);
  });

  it('should skip inputs the reference rejects, so only valid inputs can be witnesses', async () => {
    // The candidates differ only on the empty list, which the reference rejects.
    const first = (xs: number[]) => (xs.length === 0 ? -1 : xs[0]);
    const head = (xs: number[]) => (xs.length === 0 ? null : xs[0]);
    const guarded = defineTask({
      name: 'head',
      inputs: gen.fromSignature('(xs: number[]) => number', { maxLength: 3 }),
      reference: (xs: number[]) => {
        if (xs.length === 0) throw new RangeError('empty list');
        return xs[0];
      },
    });
    const property = coherenceProperty(guarded, fromFunctions({ first, head }));
    await fc.assert(property, { numRuns: 100, seed: 3 });
    const unguarded = coherenceProperty(guarded, fromFunctions({ first, head }), { validOnly: false });
    expect((await fc.check(unguarded, { numRuns: 100, seed: 3 })).failed).toBe(true);
  });

  it('should report the disagreement of one input through findDisagreement()', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, lexicalSort }));
    expect(await property.findDisagreement([[1, 2]])).toBeNull();
    const found = await property.findDisagreement([[10, 9]]);
    expect(found?.classes.map((c) => c.labels)).toEqual([['sortAsc'], ['lexicalSort']]);
  });

  it('should accept a fast-check arbitrary as inputs', async () => {
    const property = coherenceProperty(task, fromFunctions({ sortAsc, lexicalSort }), {
      inputs: fc.tuple(fc.array(fc.integer({ min: 0, max: 9 }))),
    });
    await fc.assert(property, { numRuns: 100, seed: 1 });
  });

  it('should find a disagreement between real gpt_4o candidates and shrink it', async () => {
    if (!requireData()) return;
    const dir = humanevalDir();
    const data = loadTasks(dir).find((t) => t.taskId === 'HumanEval/1')!;
    const codes = loadCandidates(dir, 'gpt_4o').get(data.taskId)?.codes.slice(0, 10) ?? [];
    const entry = data.entryPoint;
    const reference = fromSources([data.groundTruthCode!], { language: 'python', entry })[0]!;
    const inputs = gen
      .fromSeeds(
        data.seedInputs.map((s) => decode(s) as unknown[]),
        { language: 'python' },
      )
      .withReference(reference);
    const pyTask = defineTask({ name: entry, inputs, reference });
    const property = coherenceProperty(
      pyTask,
      fromSources(codes, { language: 'python', entry, tags: { model: 'gpt_4o' } }),
    );
    const result = await fc.check(property, { numRuns: 100, seed: 1 });
    expect(result.failed).toBe(true);
    const [witness] = result.counterexample as [unknown[]];
    expect(await property.findDisagreement(witness)).not.toBeNull();
  });
});

describe('coherenceProperty misuse', () => {
  it('should ask for two candidates, and for inputs fast-check can draw from', () => {
    const catchError = (f: () => unknown): unknown => {
      try {
        f();
      } catch (error) {
        return error;
      }
      return null;
    };
    const one = catchError(() => coherenceProperty(task, fromFunctions({ sortAsc })));
    expect(isCrosscheckError(one) && one.message).toContain('at least two candidates');
    const opaque = { [GEN_BRAND]: true, description: 'opaque', generate: async () => [] };
    const noArb = catchError(() =>
      coherenceProperty(
        defineTask({ name: 'x', inputs: opaque as never }),
        fromFunctions({ sortAsc, insertionSort }),
      ),
    );
    expect(isCrosscheckError(noArb) && noArb.message).toContain('has no fast-check arbitrary');
    const none = catchError(() =>
      coherenceProperty(defineTask({ name: 'x' }), fromFunctions({ sortAsc, insertionSort })),
    );
    expect(isCrosscheckError(none) && none.message).toContain('`inputs` must be a Gen from gen.*');
  });
});

describe('coherenceProperty with @fast-check/vitest', () => {
  const property = coherenceProperty(task, fromFunctions({ sortAsc, insertionSort }));
  fcTest.prop(property.arbitraries, { numRuns: 50, seed: 5 })(
    'should agree through test.prop',
    property.assertCoherent,
  );
});

describe('coherenceProperty: the agreement rule of measure', () => {
  // Two candidates that throw the same class with different messages.
  const failing = fromFunctions({
    tooBig: (x: number) => {
      throw new Error(`${x} is too big`);
    },
    outOfRange: (x: number) => {
      throw new Error(`${x} is out of range`);
    },
  });
  const ints = defineTask({ name: 'check', inputs: gen.fromSignature('(x: int) -> int') });

  it('should tell errors apart by message with compareErrorMessages, as measure does', async () => {
    // Act
    const byMessage = await coherenceProperty(ints, failing, { compareErrorMessages: true }).findDisagreement(
      [3],
    );
    const byClass = await coherenceProperty(ints, failing).findDisagreement([3]);
    const measured = await measure(ints, failing, { inputs: [[3]], compareErrorMessages: true });

    // Assert
    expect(byMessage?.classes.map((c) => c.outcome)).toEqual([
      'Error: 3 is too big',
      'Error: 3 is out of range',
    ]);
    expect(byClass).toBeNull();
    expect(measured.incoherence?.estimate).toBe(1);
  });
});

describe('coherenceProperty: a pool in which fewer than two candidates return', () => {
  const ints = defineTask({ name: 'sum', inputs: gen.fromArbitrary(fc.tuple(fc.array(fc.integer()))) });
  const throwsType = (xs: number[]) => (xs as unknown as { reduce: () => number }).reduce();
  const throwsNull = (_xs: number[]): number => (null as unknown as { x: number }).x;

  it('should fail fc.check as inconclusive when every candidate throws on every input', async () => {
    // Arrange: both throw TypeError, so every input "agrees", yet no value was ever compared.
    const property = coherenceProperty(ints, fromFunctions({ throwsType, throwsNull }));

    // Act
    const checked = fc.check(property, { numRuns: 20, seed: 1 });

    // Assert
    await expect(checked).rejects.toThrow(
      /coherenceProperty on task "sum": inconclusive: of 2 candidates, none returned a value on the 20 inputs run/,
    );
    expect(property.records.at(-1)).toMatchObject({
      verdict: 'fail',
      inconclusive: expect.stringContaining('identical failures are not agreement'),
      data: { outcome: 'held', runs: 20 },
    });
  });

  it('should fail fc.assert as inconclusive when every candidate rejects every input as invalid', async () => {
    // Arrange
    const rejects = (_xs: number[]): number => {
      throw new RangeError('never valid');
    };
    const alsoRejects = (_xs: number[]): number => {
      throw new RangeError('not valid either');
    };
    const property = coherenceProperty(ints, fromFunctions({ rejects, alsoRejects }));

    // Act
    const asserted = fc.assert(property, { numRuns: 10, seed: 3 });

    // Assert
    await expect(asserted).rejects.toThrow(/inconclusive: of 2 candidates, none returned a value/);
  });
});
