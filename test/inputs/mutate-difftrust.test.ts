import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutateDifftrust } from '../../src/inputs/mutate-difftrust.ts';
import { rngOf } from '../../src/inputs/rng.ts';
import { FrozenSet, PyDict, PyFloat, Tuple } from '../../src/values/index.ts';
import { mutateDifftrustReference } from './fixtures/difftrust-reference.ts';

/**
 * The value exactly, classes included (a Tuple is not a list, a PyFloat not an int, -0 not 0),
 * in iteration order: two values with the same picture are the same input for every runner.
 */
const picture = (v: unknown): string => {
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? 'n-0' : `n${v}`;
    case 'bigint':
      return `b${v}`;
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
    case 'undefined':
      return String(v);
  }
  if (v === null) return 'null';
  if (v instanceof PyFloat) return `f${Object.is(v.value, -0) ? '-0' : v.value}`;
  if (Array.isArray(v)) return `${v instanceof Tuple ? 't' : 'l'}[${v.map(picture).join(',')}]`;
  if (v instanceof Set) return `${v instanceof FrozenSet ? 'fs' : 's'}{${[...v].map(picture).join(',')}}`;
  if (v instanceof Map)
    return `${v instanceof PyDict ? 'd' : 'm'}{${[...v].map(([k, x]) => `${picture(k)}:${picture(x)}`).join(',')}}`;
  return `o{${Object.entries(v as object)
    .map(([k, x]) => `${k}:${picture(x)}`)
    .join(',')}}`;
};

const leaf = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.integer({ min: -5, max: 5 }).map((x) => new PyFloat(x)),
  fc.double({ noNaN: false }),
  fc.constantFrom(0, -0, false, true, null, undefined, '', 0.5),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);

/** Python-like values: lists, tuples, sets, dicts, frozensets, maps and objects, nested. */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('container')),
  container: fc.oneof(
    fc.array(tie('value'), { maxLength: 6 }),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => new Tuple(...items)),
    fc.array(fc.oneof(leaf, tie('value')), { maxLength: 4 }).map((items) => new Set(items)),
    fc.array(leaf, { maxLength: 3 }).map((items) => new FrozenSet(items)),
    fc.array(fc.tuple(leaf, tie('value')), { maxLength: 4 }).map((entries) => new PyDict(entries)),
    fc.array(fc.tuple(leaf, tie('value')), { maxLength: 3 }).map((entries) => new Map(entries)),
    fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 3 }),
  ),
}));

/** Both mutators on clones of one random state: results, and the state each leaves. */
class BothMutators extends fc.Arbitrary<[string, string, number, number]> {
  constructor(
    private readonly v: unknown,
    private readonly count: number,
  ) {
    super();
  }
  generate(mrng: fc.Random): fc.Value<[string, string, number, number]> {
    const a = mrng.clone();
    const b = mrng.clone();
    const fast = picture(mutateDifftrust(this.v, this.count, rngOf(a)));
    const reference = picture(mutateDifftrustReference(this.v, this.count, rngOf(b)));
    return new fc.Value([fast, reference, a.nextInt(0, 2 ** 30), b.nextInt(0, 2 ** 30)], undefined);
  }
  canShrinkWithoutContext(_: unknown): _ is [string, string, number, number] {
    return false;
  }
  shrink(): fc.Stream<fc.Value<[string, string, number, number]>> {
    return fc.Stream.nil();
  }
}

/** Values `draw` makes from fast-check's random state. */
class Draws extends fc.Arbitrary<unknown> {
  constructor(private readonly draw: (mrng: fc.Random) => unknown) {
    super();
  }
  generate(mrng: fc.Random): fc.Value<unknown> {
    return new fc.Value(this.draw(mrng), undefined);
  }
  canShrinkWithoutContext(_: unknown): _ is unknown {
    return false;
  }
  shrink(): fc.Stream<fc.Value<unknown>> {
    return fc.Stream.nil();
  }
}

describe('difftrust tree mutation', () => {
  it('should give the path-copying reference’s value and leave the random state where it does, on any value and count', () => {
    // Arrange: nested values of every kind the codec knows, 0 to 60 mutations (the paper's
    // largest count is 30); many mutations make nested dummies, duplicates and merges.
    const counts = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(10, 30, 60));
    // Act / Assert
    fc.assert(
      fc.property(value, counts, fc.integer(), (v, count, seed) => {
        const before = picture(v);
        for (const [fast, reference, stateA, stateB] of fc.sample(new BothMutators(v, count), {
          seed,
          numRuns: 10,
        })) {
          expect(fast).toBe(reference);
          expect(stateA).toBe(stateB);
        }
        // The seed is shared by every draw: it must never change.
        expect(picture(v)).toBe(before);
      }),
      { seed: 20261126, numRuns: 400 },
    );
  });

  it('should mutate a string argument as the reference does, many times over, on any string', () => {
    // Arrange: string roots take a path of their own (no node walk), mutated up to 60 times.
    const strings = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary-ascii', maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 10 }),
    );
    // Act / Assert
    fc.assert(
      fc.property(strings, fc.integer({ min: 0, max: 60 }), fc.integer(), (s, count, seed) => {
        for (const [fast, reference, stateA, stateB] of fc.sample(new BothMutators(s, count), {
          seed,
          numRuns: 10,
        })) {
          expect(fast).toBe(reference);
          expect(stateA).toBe(stateB);
        }
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it('should leave earlier draws unchanged when later draws mutate them or the same seed', () => {
    // Arrange: nested lists, where a change in place would show through shared parts.
    const nested = fc.array(fc.oneof(fc.integer(), fc.array(fc.array(fc.integer(), { maxLength: 3 }))), {
      maxLength: 5,
    });
    // Act / Assert
    fc.assert(
      fc.property(nested, fc.integer(), (seed, rngSeed) => {
        const draws = fc.sample(new Draws((mrng) => mutateDifftrust(seed, 30, rngOf(mrng))), {
          seed: rngSeed,
          numRuns: 20,
        });
        const pictures = draws.map(picture);
        fc.sample(
          new Draws((mrng) => {
            const rng = rngOf(mrng);
            return mutateDifftrust(rng.pick([seed, ...draws]), 30, rng);
          }),
          { seed: rngSeed + 1, numRuns: 40 },
        );
        expect(draws.map(picture)).toEqual(pictures);
      }),
      { seed: 20261126, numRuns: 100 },
    );
  });
});
