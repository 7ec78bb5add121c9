import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { comparator, type EqualityMode, encode, pyFloat, type Tagged, tuple } from '../../src/index.ts';

const MODES: readonly EqualityMode[] = ['strict', 'python', 'mixed', 'difftrust'];

const strict = comparator('strict');
const python = comparator('python');
const difftrust = comparator('difftrust');
const mixed = comparator('mixed');

/** 2^64 and neighbours as Python big ints. */
const BIG = { $int: '18446744073709551616' };
const BIG_PLUS_ONE = { $int: '18446744073709551617' };

const pairs = (
  cmp: ReturnType<typeof comparator>,
  cases: ReadonlyArray<readonly [string, Tagged, Tagged]>,
): Record<string, boolean> => Object.fromEntries(cases.map(([name, a, b]) => [name, cmp.equalTagged(a, b)]));

/** Arbitrary tagged values; `floats: false` leaves out non-integral floats (no tolerance involved). */
const taggedArb = (floats: boolean): fc.Arbitrary<Tagged> =>
  fc.letrec<{ value: Tagged }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom<Tagged>(null, true, false, 0, 1, -1, '', '1', 'a'),
      fc.integer({ min: -3, max: 3 }),
      fc.integer(),
      fc.string({ maxLength: 3 }),
      fc.constantFrom<Tagged>(
        { $float: 'nan' },
        { $float: 'inf' },
        { $float: '-inf' },
        { $float: '-0' },
        { $float: 0 },
        { $float: 1 },
        { $undefined: true },
        { $complex: [1, 0] },
        { $complex: [1, 2] },
        BIG,
        BIG_PLUS_ONE,
        { $int: '1' },
        { $float: 1e21 },
        { $int: '1000000000000000000000' },
      ),
      ...(floats
        ? [
            fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
            fc.double({ min: 0.1, max: 2, noNaN: true }).map((x): Tagged => ({ $float: x })),
            fc.constantFrom<Tagged>(0.3, 0.1 + 0.2, { $float: 0.3 }, { $float: 0.1 + 0.2 }),
          ]
        : []),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.array(tie('value'), { maxLength: 3 }).map((xs): Tagged => ({ $tuple: xs })),
      fc.array(tie('value'), { maxLength: 3 }).map((xs): Tagged => ({ $set: xs })),
      fc.array(tie('value'), { maxLength: 3 }).map((xs): Tagged => ({ $frozenset: xs })),
      fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 2 }).map((ps): Tagged => ({ $dict: ps })),
      fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 2 }).map((ps): Tagged => ({ $map: ps })),
      fc
        .dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3, noNullPrototype: true })
        .map((o): Tagged => o),
    ),
  })).value;

/** Values from a tiny domain, so that pools of them hold many equal pairs under every mode. */
const smallArb: fc.Arbitrary<Tagged> = fc.letrec<{ value: Tagged }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Tagged>(
      null,
      true,
      false,
      0,
      1,
      'a',
      { $float: 0 },
      { $float: 1 },
      { $float: '-0' },
      { $float: 'nan' },
      { $int: '1' },
      { $complex: [1, 0] },
      BIG,
      { $float: 2 ** 64 },
    ),
    fc.array(tie('value'), { maxLength: 2 }),
    fc.array(tie('value'), { maxLength: 2 }).map((xs): Tagged => ({ $tuple: xs })),
    fc.array(tie('value'), { maxLength: 2 }).map((xs): Tagged => ({ $set: xs })),
    fc.array(tie('value'), { maxLength: 2 }).map((xs): Tagged => ({ $frozenset: xs })),
    fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 1 }).map((ps): Tagged => ({ $dict: ps })),
    fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 1 }).map((ps): Tagged => ({ $map: ps })),
    fc.dictionary(fc.constantFrom('a', 'b'), tie('value'), { maxKeys: 1, noNullPrototype: true }),
  ),
})).value;
const poolArb = fc.array(smallArb, { minLength: 3, maxLength: 10 });

describe('comparator: strict', () => {
  it('should tell apart values of different types', () => {
    // Act
    const results = pairs(strict, [
      ['1 vs "1"', 1, '1'],
      ['int 4 vs float 4.0', 4, { $float: 4 }],
      ['true vs 1', true, 1],
      ['null vs undefined', null, { $undefined: true }],
      ['tuple vs list', { $tuple: [1] }, [1]],
      ['set vs frozenset', { $set: [1] }, { $frozenset: [1] }],
      ['Map vs dict', { $map: [['a', 1]] }, { $dict: [['a', 1]] }],
      ['dict vs object', { $dict: [['a', 1]] }, { a: 1 }],
      ['list vs set', [1], { $set: [1] }],
      ['"a" vs bytes', 'a', { $bytes: '61' }],
    ]);

    // Assert
    expect(Object.entries(results).filter(([, eq]) => eq)).toEqual([]);
  });

  it('should equate NaN with NaN and -0.0 with 0.0', () => {
    // Act: {"$float": "-0"} is how JavaScript's -0 travels; Python's -0.0 has a numeric body.
    const results = pairs(strict, [
      ['NaN', { $float: 'nan' }, { $float: 'nan' }],
      ['JS -0 vs JS 0', { $float: '-0' }, 0],
      ['Python -0.0 vs 0.0', { $float: -0 }, { $float: 0 }],
      ['inf', { $float: 'inf' }, { $float: 'inf' }],
      ['JS -0 vs Python 0.0 (a JS number is not a Python float)', { $float: '-0' }, { $float: 0 }],
    ]);

    // Assert
    expect(results).toEqual({
      NaN: true,
      'JS -0 vs JS 0': true,
      'Python -0.0 vs 0.0': true,
      inf: true,
      'JS -0 vs Python 0.0 (a JS number is not a Python float)': false,
    });
  });

  // Known issue, left to the lead: the codec tags a JS -0 as a float ({"$float": "-0"}) while a
  // JS 0 stays a plain (int-like) number, and strict keeps ints and floats apart, so two JS
  // candidates returning -0 and 0 disagree although DESIGN.md says -0 equals +0 under strict.
  it('should equate a JavaScript -0 with a JavaScript 0', () => {
    // Act
    const result = strict.equalTagged(encode(-0), encode(0));

    // Assert
    expect(result).toBe(true);
  });

  it('should ignore the order of Map, Set and object keys but not of lists and tuples', () => {
    // Act
    const results = pairs(strict, [
      [
        'map',
        {
          $map: [
            [1, 'a'],
            [2, 'b'],
          ],
        },
        {
          $map: [
            [2, 'b'],
            [1, 'a'],
          ],
        },
      ],
      ['set', { $set: [1, 2, 3] }, { $set: [3, 1, 2] }],
      ['object', { a: 1, b: 2 }, { b: 2, a: 1 }],
      ['list', [1, 2], [2, 1]],
      ['tuple', { $tuple: [1, 2] }, { $tuple: [2, 1] }],
    ]);

    // Assert
    expect(results).toEqual({ map: true, set: true, object: true, list: false, tuple: false });
  });

  it('should equate floats within relative 1e-9 and no further', () => {
    // Act
    const results = pairs(strict, [
      ['0.1 + 0.2 vs 0.3', 0.1 + 0.2, 0.3],
      ['nested', [{ x: 0.1 + 0.2 }], [{ x: 0.3 }]],
      ['relative 1e-10', 1.5, 1.5 * (1 + 1e-10)],
      ['relative 1e-8', 1.5, 1.5 * (1 + 1e-8)],
      ['Python floats', { $float: 0.1 + 0.2 }, { $float: 0.3 }],
      ['integral Python float vs its neighbour', { $float: 3 }, { $float: 3.0000000000000004 }],
      ['integral float in a list', [{ $float: 1 }, 0.5], [{ $float: 1.0000000000000002 }, 0.5]],
      ['inf vs large', { $float: 'inf' }, 1.7976931348623157e308],
    ]);

    // Assert
    expect(results).toEqual({
      '0.1 + 0.2 vs 0.3': true,
      nested: true,
      'relative 1e-10': true,
      'relative 1e-8': false,
      'Python floats': true,
      'integral Python float vs its neighbour': true,
      'integral float in a list': true,
      'inf vs large': false,
    });
  });

  it('should compare integers exactly, even next to floats', () => {
    // Act
    const results = pairs(strict, [
      ['alone', 1_000_000_000_000, 1_000_000_000_001],
      ['next to a float', [0.5, 1_000_000_000_000], [0.5, 1_000_000_000_001]],
      ['big ints', BIG, BIG_PLUS_ONE],
      ['big ints next to a float', [0.5, BIG], [0.5, BIG_PLUS_ONE]],
      ['same big int', [0.5, BIG], [0.5000000000000001, { $int: '18446744073709551616' }]],
    ]);

    // Assert
    expect(results).toEqual({
      alone: false,
      'next to a float': false,
      'big ints': false,
      'big ints next to a float': false,
      'same big int': true,
    });
  });

  it('should match set elements within tolerance whatever their sort order', () => {
    // Arrange: 1e-7 and its neighbour below sort on either side of 5e-7 as text.
    const below = 1e-7 - 1e-22;

    // Act
    const results = pairs(strict, [
      ['list', [1e-7, 5e-7], [below, 5e-7]],
      ['set', { $set: [1e-7, 5e-7] }, { $set: [below, 5e-7] }],
    ]);

    // Assert
    expect(results).toEqual({ list: true, set: true });
  });
});

describe('comparator: python', () => {
  it('should follow Python == across int, float and bool', () => {
    // Act
    const results = pairs(python, [
      ['1 == 1.0', 1, { $float: 1 }],
      ['1 == True', 1, true],
      ['1.0 == True', { $float: 1 }, true],
      ['0 == False', 0, false],
      ['0 == -0.0', 0, { $float: '-0' }],
      ['2 != 2.5', 2, 2.5],
      ['"1" != 1', '1', 1],
      ['None != False', null, false],
      ['10**21 == 1e21', { $int: '1000000000000000000000' }, { $float: 1e21 }],
      ['2**64 != 2**64 + 1', BIG, BIG_PLUS_ONE],
      ['complex(3, 0) == 3', { $complex: [3, 0] }, 3],
      ['complex(3, 1) != 3', { $complex: [3, 1] }, 3],
    ]);

    // Assert
    expect(results).toEqual({
      '1 == 1.0': true,
      '1 == True': true,
      '1.0 == True': true,
      '0 == False': true,
      '0 == -0.0': true,
      '2 != 2.5': false,
      '"1" != 1': false,
      'None != False': false,
      '10**21 == 1e21': true,
      '2**64 != 2**64 + 1': false,
      'complex(3, 0) == 3': true,
      'complex(3, 1) != 3': false,
    });
  });

  it('should tell tuples from lists but not sets from frozensets, and ignore dict and set order', () => {
    // Act
    const results = pairs(python, [
      ['(1, 2) != [1, 2]', { $tuple: [1, 2] }, [1, 2]],
      ['(1,) == (1.0,)', { $tuple: [1] }, { $tuple: [{ $float: 1 }] }],
      ['{1} == frozenset({1})', { $set: [1] }, { $frozenset: [1] }],
      ['{1, 2} == {2, 1}', { $set: [1, 2] }, { $set: [2, 1] }],
      [
        'dict order',
        {
          $dict: [
            [1, 'a'],
            [2, 'b'],
          ],
        },
        {
          $dict: [
            [2, 'b'],
            [1, 'a'],
          ],
        },
      ],
      ['{1: "a"} == {True: "a"}', { $dict: [[1, 'a']] }, { $dict: [[true, 'a']] }],
      ['dict == JS object', { $dict: [['a', 1]] }, { a: 1 }],
      ['dict == JS Map', { $dict: [['a', 1]] }, { $map: [['a', 1]] }],
      ['[1, 2] != [1, 2, 3]', [1, 2], [1, 2, 3]],
    ]);

    // Assert
    expect(results).toEqual({
      '(1, 2) != [1, 2]': false,
      '(1,) == (1.0,)': true,
      '{1} == frozenset({1})': true,
      '{1, 2} == {2, 1}': true,
      'dict order': true,
      '{1: "a"} == {True: "a"}': true,
      'dict == JS object': true,
      'dict == JS Map': true,
      '[1, 2] != [1, 2, 3]': false,
    });
  });

  it('should compare floats as math.isclose(rel_tol=1e-9) with NaN equal to NaN', () => {
    // Act
    const results = pairs(python, [
      ['isclose', { $float: 0.1 + 0.2 }, { $float: 0.3 }],
      ['integral float vs neighbour', { $float: 3 }, { $float: 3.0000000000000004 }],
      ['relative 1e-8', { $float: 1 }, { $float: 1.00000001 }],
      ['nan', { $float: 'nan' }, { $float: 'nan' }],
      ['nan vs inf', { $float: 'nan' }, { $float: 'inf' }],
      ['-inf vs inf', { $float: '-inf' }, { $float: 'inf' }],
    ]);

    // Assert
    expect(results).toEqual({
      isclose: true,
      'integral float vs neighbour': true,
      'relative 1e-8': false,
      nan: true,
      'nan vs inf': false,
      '-inf vs inf': false,
    });
  });

  it('should compare ints exactly, big or small, even next to floats', () => {
    // Act
    const results = pairs(python, [
      [
        'small ints next to a float',
        [{ $float: 0.5 }, 1_000_000_000_000],
        [{ $float: 0.5 }, 1_000_000_000_001],
      ],
      ['big ints next to a float', [{ $float: 0.5 }, BIG], [{ $float: 0.5 }, BIG_PLUS_ONE]],
      ['big int vs nearest float', BIG_PLUS_ONE, { $float: 2 ** 64 }],
      ['big int vs equal float', BIG, { $float: 2 ** 64 }],
      ['int vs float off by rounding', 3, { $float: 3.0000000000000004 }],
    ]);

    // Assert: two ints compare exactly; an int and a float compare as math.isclose does
    // (DESIGN.md), which is what absorbs rounding between an exact and a computed answer.
    expect(results).toEqual({
      'small ints next to a float': false,
      'big ints next to a float': false,
      'big int vs nearest float': true,
      'big int vs equal float': true,
      'int vs float off by rounding': true,
    });
  });
});

describe('comparator: mixed', () => {
  it('should compare a JS number, a Python int and a Python float by value', () => {
    // Act
    const results = pairs(mixed, [
      ['JS 0 == Python 0.0', 0, { $float: 0 }],
      ['JS 1 == Python 1.0', 1, { $float: 1 }],
      ['JS 0 == Python -0.0', 0, { $float: '-0' }],
      ['JS 2**60 == Python 2**60', 2 ** 60, { $int: String(2n ** 60n) }],
      ['Python 10**21 == 1e21', { $int: '1000000000000000000000' }, { $float: 1e21 }],
      ['0.1 + 0.2 close to Python 0.3', 0.1 + 0.2, { $float: 0.3 }],
      ['2 != 2.5', 2, { $float: 2.5 }],
      ['2**64 != 2**64 + 1', BIG, BIG_PLUS_ONE],
    ]);

    // Assert
    expect(results).toEqual({
      'JS 0 == Python 0.0': true,
      'JS 1 == Python 1.0': true,
      'JS 0 == Python -0.0': true,
      'JS 2**60 == Python 2**60': true,
      'Python 10**21 == 1e21': true,
      '0.1 + 0.2 close to Python 0.3': true,
      '2 != 2.5': false,
      '2**64 != 2**64 + 1': false,
    });
  });

  it("should keep strict's other distinctions", () => {
    // Act
    const results = pairs(mixed, [
      ['1 != true', 1, true],
      ['1.0 != true', { $float: 1 }, true],
      ['"1" != 1', '1', 1],
      ['null != 0', null, 0],
      ['tuple != list', { $tuple: [1, 2] }, [1, 2]],
      ['Map != object', { $map: [['a', 1]] }, { a: 1 }],
      ['set != frozenset', { $set: [1] }, { $frozenset: [1] }],
      ['complex(3, 0) != 3', { $complex: [3, 0] }, 3],
    ]);

    // Assert
    expect(Object.values(results)).toEqual(Object.values(results).map(() => false));
  });
});

describe('comparator: difftrust', () => {
  it('should equate numbers and bools within relative 1e-3', () => {
    // Act
    const results = pairs(difftrust, [
      ['1000 == 1001', 1000, 1001],
      ['1000 != 1002', 1000, 1002],
      ['True == 1', true, 1],
      ['1 == 1.0005', 1, { $float: 1.0005 }],
      ['1 != 1.002', 1, { $float: 1.002 }],
      ['0 != 0.0001', 0, { $float: 0.0001 }],
      ['"1" != 1', '1', 1],
    ]);

    // Assert
    expect(results).toEqual({
      '1000 == 1001': true,
      '1000 != 1002': false,
      'True == 1': true,
      '1 == 1.0005': true,
      '1 != 1.002': false,
      '0 != 0.0001': false,
      '"1" != 1': false,
    });
  });

  it('should equate a list with a tuple element-wise and compare dicts in iteration order', () => {
    // Act
    const results = pairs(difftrust, [
      ['list == tuple', [1, 2], { $tuple: [1, 2] }],
      ['nested list == tuple', [[1000]], { $tuple: [{ $tuple: [1001] }] }],
      ['dict same order', { $dict: [[1, 'a']] }, { $dict: [[1, 'a']] }],
      [
        'dict other order',
        {
          $dict: [
            [1, 'a'],
            [2, 'b'],
          ],
        },
        {
          $dict: [
            [2, 'b'],
            [1, 'a'],
          ],
        },
      ],
      ['set order', { $set: [1, 2] }, { $set: [2, 1] }],
    ]);

    // Assert
    expect(results).toEqual({
      'list == tuple': true,
      'nested list == tuple': true,
      'dict same order': true,
      'dict other order': false,
      'set order': true,
    });
  });
});

describe('comparator: the codec normalization', () => {
  it.each(MODES)('should equate a tagged non-integral float with its plain re-encoding under %s', (mode) => {
    // Arrange: decode then encode turns {"$float": 2.5} into 2.5 (the same float for Python).
    const cmp = comparator(mode);

    // Act
    const results = [cmp.equalTagged({ $float: 2.5 }, 2.5), cmp.equalTagged([{ $float: -0.1 }], [-0.1])];

    // Assert
    expect(results).toEqual([true, true]);
  });
});

describe('comparator: custom and invalid modes', () => {
  it('should call a custom function on decoded values', () => {
    // Arrange
    const seen: unknown[][] = [];
    const cmp = comparator((a, b) => {
      seen.push([a, b]);
      return Math.abs(Number(a) - Number(b)) < 2;
    });

    // Act
    const near = cmp.equalTagged(1, { $float: 2 });
    const far = cmp.equalTagged(1, 5);
    const same = cmp.equalTagged([1], [1]);

    // Assert
    expect(cmp.mode).toBe('custom');
    expect([near, far, same]).toEqual([true, false, true]);
    expect(encode(seen[0])).toEqual([1, { $float: 2 }]);
    expect(seen).toHaveLength(2);
  });

  it('should treat only `true` from a custom function as equal', () => {
    // Arrange
    const cmp = comparator(() => 1 as unknown as boolean);

    // Act
    const result = cmp.equalTagged(1, 2);

    // Assert
    expect(result).toBe(false);
  });

  it.each([
    ['an unknown name', 'loose'],
    ['a number', 3],
    ['null', null],
    ['an object', { mode: 'strict' }],
  ])('should reject %s with INVALID_OPTION', (_what, bad) => {
    // Act
    let error: unknown;
    try {
      comparator(bad as never);
    } catch (e) {
      error = e;
    }

    // Assert
    expect(isCrosscheckError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('INVALID_OPTION');
    expect((error as Error).message).toMatch(
      /^Expected `equality` to be 'strict', 'python', 'mixed', 'difftrust' or a function \(a, b\) => boolean, got .+\.$/,
    );
  });

  it('should describe what arrived in the message', () => {
    // Act
    let message = '';
    try {
      comparator('loose' as never);
    } catch (e) {
      message = (e as Error).message;
    }

    // Assert
    expect(message).toMatchInlineSnapshot(
      `"Expected \`equality\` to be 'strict', 'python', 'mixed', 'difftrust' or a function (a, b) => boolean, got "loose" (string)."`,
    );
  });
});

describe('comparator: properties', () => {
  it.each(MODES)('should be reflexive under %s', (mode) => {
    const cmp = comparator(mode);
    fc.assert(
      fc.property(taggedArb(true), (x) => {
        // Act, Assert
        expect(cmp.equalTagged(x, x)).toBe(true);
        expect(cmp.equalTagged(x, JSON.parse(JSON.stringify(x)) as Tagged)).toBe(true);
      }),
    );
  });

  it.each(MODES)('should be symmetric under %s', (mode) => {
    const cmp = comparator(mode);
    fc.assert(
      fc.property(taggedArb(true), taggedArb(true), (a, b) => {
        // Act, Assert
        expect(cmp.equalTagged(a, b)).toBe(cmp.equalTagged(b, a));
      }),
    );
  });

  it.each(['strict', 'python'] as const)('should be transitive under %s without inexact floats', (mode) => {
    const cmp = comparator(mode);
    fc.assert(
      fc.property(poolArb, (pool) => {
        // Act, Assert: every chain a == b == c in the pool closes with a == c.
        for (const a of pool) {
          for (const b of pool) {
            if (!cmp.equalTagged(a, b)) continue;
            for (const c of pool) {
              if (cmp.equalTagged(b, c)) expect(cmp.equalTagged(a, c)).toBe(true);
            }
          }
        }
      }),
    );
  });

  it.each(['strict', 'python'] as const)(
    'should decide equality by keys alone without inexact floats under %s',
    (mode) => {
      const cmp = comparator(mode);
      fc.assert(
        fc.property(poolArb, (pool) => {
          // Arrange
          const prepared = pool.map((x) => cmp.prepare(x));

          // Act, Assert
          for (const pa of prepared) {
            for (const pb of prepared) expect(cmp.equal(pa, pb)).toBe(pa.key === pb.key);
          }
        }),
      );
    },
  );

  it.each(MODES)('should find values with equal keys equal under %s', (mode) => {
    const cmp = comparator(mode);
    fc.assert(
      fc.property(poolArb, (pool) => {
        // Arrange
        const prepared = pool.map((x) => cmp.prepare(x));

        // Act, Assert
        for (const pa of prepared) {
          for (const pb of prepared) if (pa.key === pb.key) expect(cmp.equal(pa, pb)).toBe(true);
        }
      }),
    );
  });

  it('should find values equal under strict also equal under python', () => {
    fc.assert(
      fc.property(taggedArb(true), taggedArb(true), (a, b) => {
        // Arrange
        fc.pre(strict.equalTagged(a, b));

        // Act, Assert
        expect(python.equalTagged(a, b)).toBe(true);
      }),
      { maxSkipsPerRun: 1000 },
    );
  });

  it('should find values equal under strict also equal under mixed, and those under mixed under python', () => {
    fc.assert(
      fc.property(taggedArb(true), taggedArb(true), (a, b) => {
        // Arrange
        fc.pre(mixed.equalTagged(a, b) || strict.equalTagged(a, b));

        // Act, Assert
        expect(mixed.equalTagged(a, b)).toBe(true);
        expect(python.equalTagged(a, b)).toBe(true);
      }),
      { maxSkipsPerRun: 1000 },
    );
  });

  it('should find equal values under strict after an encode of their decoded form', () => {
    // Arrange
    const values: unknown[] = [tuple(1, pyFloat(2)), new Map([[1, new Set([0.5])]]), { a: [Number.NaN, -0] }];

    // Act, Assert
    for (const v of values) {
      expect(strict.equalTagged(encode(v), encode(v))).toBe(true);
    }
  });
});
