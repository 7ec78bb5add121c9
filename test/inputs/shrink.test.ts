import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadTasks } from '../../src/bench/dataset.ts';
import { type Candidate, fromFunctions, fromSources } from '../../src/candidates/index.ts';
import type { Outcome } from '../../src/exec/outcome.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { run } from '../../src/exec/run.ts';
import { compareComplexity, complexity, gen, shrinkWitness } from '../../src/inputs/index.ts';
import { shrinkValue } from '../../src/inputs/structural-shrink.ts';
import { kindOf } from '../../src/inputs/value-kind.ts';
import { defineTask } from '../../src/task/index.ts';
import {
  comparator,
  decode,
  FrozenSet,
  PyDict,
  PyFloat,
  pyFloat,
  Tuple,
  toWire,
  tuple,
} from '../../src/values/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

afterAll(async () => {
  await closePythonWorkers();
});

/** Values of every kind the codec carries, nested. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.double({ noNaN: true }).filter((x) => !Number.isInteger(x)),
    fc.integer({ min: -1000, max: 1000 }).map(pyFloat),
    fc.bigInt(),
    fc.boolean(),
    fc.constant(null),
    fc.string(),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.array(tie('value'), { maxLength: 5 }).map((xs) => tuple(...xs)),
    fc.uniqueArray(fc.integer(), { maxLength: 5 }).map((xs) => new Set(xs)),
    fc.uniqueArray(fc.string(), { maxLength: 5 }).map((xs) => new FrozenSet(xs)),
    fc
      .uniqueArray(fc.tuple(fc.string(), tie('value')), { maxLength: 4, selector: (e) => e[0] })
      .map((entries) => new PyDict(entries)),
  ),
})).value;

describe('structural shrinking', () => {
  it('should yield strictly smaller values of the same kind', () => {
    fc.assert(
      fc.property(anyValue, (v) => {
        let count = 0;
        for (const smaller of shrinkValue(v)) {
          if (count++ > 50) break;
          expect(compareComplexity(complexity(smaller), complexity(v))).toBeLessThan(0);
          expect(kindOf(smaller)).toBe(kindOf(v));
          if (v instanceof Tuple) expect((smaller as unknown[]).length).toBe(v.length);
        }
      }),
      { numRuns: 1000, seed: 20261122 },
    );
  });

  it('should keep Python floats floats while shrinking them toward 0', () => {
    const shrinks = [...shrinkValue(pyFloat(8))];
    expect(shrinks.length).toBeGreaterThan(0);
    for (const s of shrinks) expect(s).toBeInstanceOf(PyFloat);
    for (const s of shrinkValue(7.25)) expect(Number.isInteger(s)).toBe(false);
  });
});

describe('shrinkWitness', () => {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  // Wrong for any element above 100: a bug the shrinker should isolate.
  const buggySum = (xs: number[]) => xs.reduce((a, b) => a + Math.min(b, 100), 0);
  const task = defineTask({ name: 'sum', equality: 'strict' });
  const [good, bad] = fromFunctions({ sum, buggySum });
  const compare = comparator('strict');
  const separates = async (candidates: Candidate[], args: unknown[]): Promise<boolean> => {
    const m = await run(task, candidates, [args]);
    const [a, b] = m.outcomes.map((row) => row[0] as Outcome);
    if (a?.kind !== 'value' || b?.kind !== 'value') return a?.kind !== b?.kind;
    return !compare.equalTagged(a.tagged, b.tagged);
  };

  it('should shrink a structural witness to a minimal one that still separates the candidates', async () => {
    const original = [[3, 250, 7, -2, 41]];
    const result = await shrinkWitness(null, original, (args) => separates([good!, bad!], args));
    expect(result.via).toBe('structural');
    expect(result.args).toEqual([[101]]);
    expect(await separates([good!, bad!], result.args)).toBe(true);
  });

  it('should shrink with fast-check when the witness came from an arbitrary', async () => {
    const g = gen.fromArbitrary(fc.tuple(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1 })));
    const inputs = await g.generate(500, { seed: 5 });
    const witness = (
      await Promise.all(inputs.map(async (args) => ((await separates([good!, bad!], args)) ? args : null)))
    ).find((x) => x !== null) as unknown[];
    expect(witness).toBeDefined();
    const result = await shrinkWitness(g, witness, (args) => separates([good!, bad!], args));
    expect(result.via).toBe('arbitrary');
    expect(result.args[0]).toContain(101);
    expect((result.args[0] as number[]).length).toBeLessThanOrEqual(2);
    expect(compareComplexity(complexity(result.args), complexity(witness))).toBeLessThanOrEqual(0);
    expect(await separates([good!, bad!], result.args)).toBe(true);
  });

  it('should keep the witness valid for the reference of the Gen', async () => {
    // The reference rejects lists longer than 3: the shrinker must not step outside that.
    const g = gen.fromSeeds([[[300, 5, 6]]]).withReference((xs: number[]) => {
      if (xs.length !== 3) throw new RangeError('needs three');
      return 0;
    });
    const result = await shrinkWitness(g, [[300, 5, 6]], (args) => separates([good!, bad!], args));
    expect(result.args).toEqual([[101, 0, 0]]);
  });

  it('should shrink a disagreement between two real gpt_4o candidates and keep it separating them', async () => {
    if (!requireData()) return;
    const dir = humanevalDir();
    const data = loadTasks(dir).find((t) => t.taskId === 'HumanEval/1');
    const codes = loadCandidates(dir, 'gpt_4o').get('HumanEval/1')?.codes.slice(0, 10) ?? [];
    expect(data).toBeDefined();
    const entry = data!.entryPoint;
    const candidates = fromSources(codes, { language: 'python', entry, tags: { model: 'gpt_4o' } });
    const reference = fromSources([data!.groundTruthCode!], { language: 'python', entry })[0]!;
    const pyTask = defineTask({ name: entry, equality: 'python' });
    const python = comparator('python');
    const g = gen
      .fromSeeds(
        data!.seedInputs.map((s) => decode(s) as unknown[]),
        { language: 'python' },
      )
      .withReference(reference);
    const inputs = await g.generate(300, { seed: 1 });
    const matrix = await run(pyTask, candidates, inputs);
    const differ = (a: Outcome, b: Outcome) =>
      a.kind === 'value' && b.kind === 'value' ? !python.equalTagged(a.tagged, b.tagged) : a.kind !== b.kind;
    let found: { i: number; k: number; j: number } | null = null;
    for (let j = 0; j < inputs.length && !found; j++) {
      for (let i = 0; i < candidates.length && !found; i++) {
        for (let k = i + 1; k < candidates.length && !found; k++) {
          if (differ(matrix.outcomes[i]![j]!, matrix.outcomes[k]![j]!)) found = { i, k, j };
        }
      }
    }
    expect(found).not.toBeNull();
    const pair = [candidates[found!.i]!, candidates[found!.k]!];
    const stillSeparates = async (args: unknown[]) => {
      const m = await run(pyTask, pair, [args]);
      return differ(m.outcomes[0]![0]!, m.outcomes[1]![0]!);
    };
    const original = inputs[found!.j]!;
    const result = await shrinkWitness(g, original, stillSeparates, { maxSteps: 300 });
    expect(compareComplexity(complexity(result.args), complexity(original))).toBeLessThanOrEqual(0);
    expect(await stillSeparates(result.args)).toBe(true);
    expect(await g.accepts(result.args)).toBe(true);
    expect(typeof result.args[0]).toBe('string');
    // Shrinking a real, seed-derived witness should actually make it smaller.
    expect(toWire(result.args).length).toBeLessThan(toWire(original).length);
  });
});
