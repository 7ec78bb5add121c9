import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutateCodePoints, mutateString } from '../../src/inputs/mutate-difftrust.ts';
import { rngOf } from '../../src/inputs/rng.ts';

/** Both string mutators on clones of one random state: results, and the state each leaves. */
class BothMutators extends fc.Arbitrary<[string, string, number, number]> {
  constructor(private readonly s: string) {
    super();
  }
  generate(mrng: fc.Random): fc.Value<[string, string, number, number]> {
    const a = mrng.clone();
    const b = mrng.clone();
    const fast = mutateString(this.s, rngOf(a));
    const reference = mutateCodePoints(this.s, rngOf(b));
    return new fc.Value([fast, reference, a.nextInt(0, 2 ** 30), b.nextInt(0, 2 ** 30)], undefined);
  }
  canShrinkWithoutContext(_: unknown): _ is [string, string, number, number] {
    return false;
  }
  shrink(): fc.Stream<fc.Value<[string, string, number, number]>> {
    return fc.Stream.nil();
  }
}

describe('difftrust string mutation', () => {
  it('should give the code-point reference’s result and leave the random state where it does, on any string', () => {
    // Arrange: strings of ASCII, Latin-1 and the BMP (code units = code points), and any code
    // points (surrogate pairs, which take the reference path).
    const strings = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary-ascii', maxLength: 200 }),
      fc.string({
        unit: fc.integer({ min: 0, max: 0xd7ff }).map((c) => String.fromCharCode(c)),
        maxLength: 40,
      }),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    // Act / Assert
    fc.assert(
      fc.property(strings, fc.integer(), (s, seed) => {
        for (const [fast, reference, stateA, stateB] of fc.sample(new BothMutators(s), {
          seed,
          numRuns: 30,
        })) {
          expect(fast).toBe(reference);
          expect(stateA).toBe(stateB);
        }
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});
