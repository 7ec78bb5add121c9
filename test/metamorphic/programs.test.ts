import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import {
  candidates,
  checkRelation,
  closePythonWorkers,
  closeSandboxPools,
  defineTask,
  relationProperty,
  relations,
} from '../../src/index.ts';

/**
 * The same relations over programs: one sandboxed Python and one sandboxed JS candidate run
 * through the runners the other matchers use (under the OS boundary where bubblewrap is there),
 * and the fast-check property form under fc.check.
 */

afterAll(async () => {
  await closePythonWorkers();
  await closeSandboxPools();
});

const task = defineTask({ name: 'total', entry: 'total', timeoutMs: 2000 });
const inputs = fc.tuple(fc.array(fc.integer({ min: -9, max: 9 }), { maxLength: 5 }));

describe('toSatisfyRelation over sandboxed programs', () => {
  it('should find the planted order dependence of a Python candidate, shrunk, and pass the JS one', async () => {
    // Arrange
    const [python] = candidates.fromSources(
      ['def total(xs):\n    return sum(x * (i + 1) for i, x in enumerate(xs))\n'],
      { language: 'python', entry: 'total', label: 'weighted.py' },
    );
    const [js] = candidates.fromSources(['function total(xs) { return xs.reduce((a, b) => a + b, 0); }'], {
      language: 'javascript',
      entry: 'total',
      label: 'sum.js',
    });
    // Act
    const check = await checkRelation(task, relations.permutation(), [python!, js!], {
      inputs,
      numRuns: 8,
      seed: 4,
    });
    // Assert
    expect(check.candidates.map((c) => [c.label, c.verdict])).toEqual([
      ['weighted.py#0', 'violated'],
      ['sum.js#0', 'held'],
    ]);
    expect((check.candidates[0]?.violation?.input as [number[]] | undefined)?.[0]).toHaveLength(2);
    // Both calls of the violation came back from the Python worker as values.
    expect(check.candidates[0]?.violation?.calls.map((c) => c.outcome.kind)).toEqual(['value', 'value']);
    expect(check.isolation).not.toBe('none');
    if (process.env.CI) expect(check.isolation).toBe('os');
  });

  it('should mark a sandboxed JS candidate that hangs on the follow-up as a timeout violation', async () => {
    const [loops] = candidates.fromSources(
      [
        'function total(xs) { if (xs.length > 1 && xs[0] > xs[1]) { for (;;) {} } return xs.reduce((a, b) => a + b, 0); }',
      ],
      { language: 'javascript', entry: 'total', label: 'loops.js' },
    );
    const check = await checkRelation(
      defineTask({ name: 'total', entry: 'total', timeoutMs: 300 }),
      relations.permutation(),
      [loops!],
      {
        inputs,
        numRuns: 10,
      },
    );
    expect(check.candidates[0]?.verdict).toBe('violated');
    expect(check.candidates[0]?.violation?.reason).toMatch(/call did not return \(timeout after \d+ ms/);
  });
});

describe('relationProperty', () => {
  it('should fail under fc.check with both calls of each violating candidate, and hold for the right ones', async () => {
    // Arrange
    const pool = candidates.fromFunctions({
      sum: (xs: number[]) => xs.reduce((a, b) => a + b, 0),
      first: (xs: number[]) => xs[0] ?? 0,
    });
    const property = relationProperty(task, relations.permutation(), pool, { inputs });
    // Act
    const result = await fc.check(property, { numRuns: 50, seed: 2 });
    // Assert
    expect(result.failed).toBe(true);
    const text = String(result.errorInstance);
    expect(text).toContain('Relation "invariant under reordering argument 0"');
    expect(text).toContain('first: the outputs differ');
    expect(text).not.toContain('sum: the outputs differ');
    expect(text.match(/first on \[\[/g)).toHaveLength(2);
    const [[xs]] = result.counterexample as [[number[]], number];
    expect(xs).toHaveLength(2);
    // The run wrote a property record whose witness is the relation's two calls.
    const record = property.records.at(-1);
    expect(record?.witness?.reason).toBe('relation violated');
    expect(record?.witness?.outputs).toHaveLength(2);
    // Held with only the right candidate.
    const right = relationProperty(task, relations.permutation(), [pool[0]!], { inputs });
    await fc.assert(right, { numRuns: 20, seed: 2 });
  });
});
