import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSpaceUnit, wordSpans } from '../../src/inputs/mutate-typed.ts';

/** What the word operators used before the scan: the `\S+` matches of a regular expression. */
const regexSpans = (s: string): Array<[number, number]> =>
  [...s.matchAll(/\S+/g)].map((m) => [m.index, m.index + m[0].length]);

describe('typed word spans', () => {
  it('should call white space exactly what \\s matches, for every UTF-16 code unit', () => {
    // Arrange / Act / Assert: all 65,536 code units.
    for (let c = 0; c <= 0xffff; c++) {
      const unit = String.fromCharCode(c);
      if (isSpaceUnit(c) !== /\s/.test(unit))
        expect(`${c}: ${isSpaceUnit(c)}`).toBe(`${c}: ${/\s/.test(unit)}`);
    }
  });

  it('should find the words the \\S+ regular expression finds, on any string', () => {
    // Arrange: words, every kind of white space, and any code units.
    const space = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u180e');
    const strings = fc.oneof(
      fc
        .array(fc.oneof(fc.string({ maxLength: 5 }), space), { maxLength: 12 })
        .map((parts) => parts.join('')),
      fc.string({ unit: 'binary', maxLength: 30 }),
    );
    // Act / Assert
    fc.assert(
      fc.property(strings, (s) => {
        expect(wordSpans(s)).toEqual(regexSpans(s));
      }),
      { seed: 20261126, numRuns: 2000 },
    );
  });
});
