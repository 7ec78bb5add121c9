import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../matchers/vitest.ts';
import {
  type CrosscheckError,
  candidates,
  checkRelation,
  defineRelation,
  defineTask,
  isCrosscheckError,
  relationProperty,
  relations,
} from '../../src/index.ts';

/**
 * Bad input through the public API: a broken relation is a typed CrosscheckError naming what to
 * fix; a candidate that throws, hangs, returns what cannot cross the codec or rejects every input
 * gets a typed outcome and its own verdict, and leaves the other candidates' verdicts alone.
 */

const task = defineTask({ name: 'sum', timeoutMs: 200 });
const inputs = fc.tuple(fc.array(fc.integer({ min: -9, max: 9 }), { maxLength: 5 }));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const thrown = async (p: Promise<unknown>): Promise<CrosscheckError> => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isCrosscheckError(error), String(error)).toBe(true);
  return error as CrosscheckError;
};

describe('a broken relation', () => {
  it('should refuse a transform that throws, naming the input', async () => {
    const relation = defineRelation({
      name: 'drops the head',
      transform: ([xs]: [number[]]) => {
        if (xs.length === 0) throw new TypeError('no head');
        return [xs.slice(1)];
      },
      relate: () => true,
    });
    const error = await thrown(
      expect(task).toSatisfyRelation(relation, candidates.fromFunctions({ sum }), { inputs, numRuns: 20 }),
    );
    expect(error.code).toBe('INVALID_RELATION');
    expect(error.message).toContain('relation "drops the head": transform threw on the input');
    expect(error.message).toContain('(TypeError: no head)');
    expect(error.message).toContain('make the transform total');
  });

  it('should refuse a transform that returns no argument tuple', async () => {
    const relation = defineRelation({
      name: 'bare',
      transform: ([xs]: [number[]]) => xs.length as never,
      relate: () => true,
    });
    const error = await thrown(
      checkRelation(task, relation, candidates.fromFunctions({ sum }), { inputs, numRuns: 5 }),
    );
    expect(error.message).toMatch(
      /transform must return the follow-up argument tuple \(an array\), got \d+ \(number\)/,
    );
  });

  it('should refuse a relate that throws, naming the candidate and its outputs', async () => {
    const relation = defineRelation({
      name: 'strict',
      transform: ([xs]: [number[]]) => [[...xs].reverse()],
      relate: (a) => {
        if (typeof a === 'number') throw new Error('cannot relate numbers');
        return true;
      },
    });
    const error = await thrown(
      checkRelation(task, relation, candidates.fromFunctions({ sum }), { inputs, numRuns: 5 }),
    );
    expect(error.code).toBe('INVALID_RELATION');
    expect(error.message).toMatch(
      /relate threw on sum's outputs (-?\d+) and \1 \(Error: cannot relate numbers\)/,
    );
    expect(error.message).toContain('return false or a reason');
  });

  it('should refuse a relate that returns anything but true, false or a reason', async () => {
    for (const garbage of [3, undefined, '', { ok: true }]) {
      const relation = defineRelation({
        name: 'garbage',
        transform: (i: [number[]]) => i,
        relate: () => garbage as never,
      });
      const error = await thrown(
        checkRelation(task, relation, candidates.fromFunctions({ sum }), { inputs, numRuns: 3 }),
      );
      expect(error.message).toContain('relate must return true, false or a non-empty reason string, got');
    }
  });

  it('should refuse a relation spec with a bad field or an unknown one', () => {
    expect(() => defineRelation({ name: '', transform: (i) => i, relate: () => true })).toThrow(
      /`name` must be a non-empty string/,
    );
    expect(() =>
      defineRelation({ name: 'x', transform: (i) => i, relate: () => true, followUps: 0 }),
    ).toThrow(/`followUps` must be an integer from 1 to 100, got 0 \(number\)/);
    expect(() =>
      defineRelation({ name: 'x', transform: (i: unknown[]) => i, relat: () => true } as never),
    ).toThrow(/unknown field `relat`; did you mean `relate`\?/);
    expect(() => relations.permutation({ argument: -1 })).toThrow(
      /`argument` must be a non-negative integer/,
    );
    expect(() => relations.inverse(42 as never)).toThrow(/`partner` must be a candidate or a function/);
  });

  it('should refuse what is not a relation, a task or a pool', async () => {
    const pool = candidates.fromFunctions({ sum });
    expect((await thrown(checkRelation(task, (() => true) as never, pool))).code).toBe('INVALID_RELATION');
    expect((await thrown(checkRelation({} as never, relations.permutation(), pool))).code).toBe(
      'INVALID_TASK',
    );
    expect((await thrown(checkRelation(task, relations.permutation(), [] as never))).code).toBe(
      'INVALID_CANDIDATES',
    );
    expect(() => relationProperty(task, relations.permutation(), [sum] as never)).toThrow(
      /`candidates` must be a non-empty array of candidates/,
    );
  });
});

describe('a misbehaving candidate', () => {
  it('should get a typed violation when it throws, hangs or returns what cannot cross the codec, leaving the others alone', async () => {
    // Arrange
    const pool = candidates.fromFunctions({
      sum,
      throws: (xs: number[]) => {
        if (xs.length > 1) throw new Error('boom');
        return sum(xs);
      },
      hangs: (xs: number[]) => (xs.length > 1 ? new Promise(() => {}) : sum(xs)),
      unserializable: (xs: number[]) => (xs.length > 1 ? () => 1 : sum(xs)),
    });
    // Act
    const check = await checkRelation(task, relations.permutation(), pool, { inputs, numRuns: 30 });
    // Assert
    const by = Object.fromEntries(check.candidates.map((c) => [c.label, c]));
    expect(by.sum?.verdict).toBe('held');
    expect(by.throws?.verdict).toBe('violated');
    expect(by.throws?.violation?.reason).toBe('the source call did not return (Error: boom)');
    expect(by.hangs?.verdict).toBe('violated');
    expect(by.hangs?.violation?.calls[0]?.outcome.kind).toBe('timeout');
    expect(by.unserializable?.verdict).toBe('violated');
    expect(by.unserializable?.violation?.calls[0]?.outcome.kind).toBe('error');
    // Shrunk to the least input that sets each off: two elements.
    for (const label of ['throws', 'hangs', 'unserializable'])
      expect((by[label]?.violation?.input as [number[]] | undefined)?.[0]).toHaveLength(2);
  });

  it('should be inconclusive, failing both ways, when it rejects every input as invalid', async () => {
    // Arrange
    const pool = candidates.fromFunctions({
      picky: () => {
        throw new RangeError('no input is valid');
      },
    });
    // Act
    const check = await checkRelation(task, relations.permutation(), pool, { inputs, numRuns: 10 });
    // Assert
    expect(check.verdict).toBe('inconclusive');
    expect(check.candidates[0]?.inconclusive).toBe(
      'no source input gave a pair of values to relate (10 drawn; 10 the candidate rejected the input as invalid)',
    );
    await expect(
      expect(task).toSatisfyRelation(relations.permutation(), pool, { inputs, numRuns: 5 }),
    ).rejects.toThrow(/inconclusive/);
    await expect(
      expect(task).not.toSatisfyRelation(relations.permutation(), pool, { inputs, numRuns: 5 }),
    ).rejects.toThrow(/inconclusive/);
  });

  it('should count a follow-up rejected as invalid as a violation, saying what it may mean', async () => {
    const pool = candidates.fromFunctions({
      sortedOnly: (xs: number[]) => {
        if (xs.some((x, i) => i > 0 && x < (xs[i - 1] as number))) throw new RangeError('unsorted');
        return sum(xs);
      },
    });
    const check = await checkRelation(task, relations.permutation(), pool, { inputs, numRuns: 40 });
    expect(check.candidates[0]?.violation?.reason).toContain('the follow-up input was rejected as invalid');
    expect(check.candidates[0]?.violation?.reason).toContain('or the transformation leaves the input domain');
  });
});

describe('unknown option keys', () => {
  it.each([
    [
      'toSatisfyRelation',
      () =>
        expect(task).toSatisfyRelation(relations.permutation(), candidates.fromFunctions({ sum }), {
          numruns: 3,
        } as never),
      'numRuns',
    ],
    [
      'checkRelation',
      () =>
        checkRelation(task, relations.permutation(), candidates.fromFunctions({ sum }), {
          run: { timeoutMS: 3 },
        } as never),
      'run.timeoutMs',
    ],
    [
      'relationProperty',
      () =>
        relationProperty(task, relations.permutation(), candidates.fromFunctions({ sum }), {
          validonly: true,
        } as never),
      'validOnly',
    ],
    ['relations.permutation', () => relations.permutation({ argumnet: 1 } as never), 'argument'],
    [
      'relations.invariant',
      () => relations.invariant({ name: 'x', transform: (i: unknown[]) => i, veiw: 'set' } as never),
      'view',
    ],
    ['relations.inverse', () => relations.inverse(sum, { partnertask: task } as never), 'partnerTask'],
    ['relations.equivalent', () => relations.equivalent(sum, { equallity: 'strict' } as never), 'equality'],
  ])('should refuse a misspelt key of %s', async (_name, call, nearest) => {
    let error: unknown;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    expect(isCrosscheckError(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(`did you mean \`${nearest}\`?`);
  });
});
