import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/bench/dataset.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import {
  Complex,
  decode,
  encode,
  FrozenSet,
  fromWire,
  PyDict,
  PyFloat,
  pyFloat,
  type Tagged,
  Tuple,
  toWire,
  tuple,
} from '../../src/index.ts';
import { createCodec } from '../../src/values/codec-core.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

/** Runs `f` and returns the CrosscheckError it throws (failing the test otherwise). */
const thrown = (f: () => unknown): Error & { code: string } => {
  try {
    f();
  } catch (error) {
    if (isCrosscheckError(error)) return error as never;
    throw error;
  }
  throw new Error('expected a CrosscheckError, nothing was thrown');
};

/** Encodes, sends through JSON text, decodes. */
const roundTrip = (value: unknown): unknown => fromWire(toWire(value));

const byJson = (x: Tagged): string => JSON.stringify(x);

/** Arbitrary tagged values as Python and the TypeScript side produce them (already canonical). */
const taggedArb: fc.Arbitrary<Tagged> = fc.letrec<{ value: Tagged }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Tagged>(null, true, false),
    fc.integer(),
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
    fc.constantFrom<Tagged>(
      { $float: 'nan' },
      { $float: 'inf' },
      { $float: '-inf' },
      { $float: '-0' },
      { $undefined: true },
    ),
    fc.integer().map((x): Tagged => ({ $float: x })),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((x): Tagged => ({ $int: String(x) })),
    fc.uint8Array({ maxLength: 8 }).map((b): Tagged => ({ $bytes: Buffer.from(b).toString('hex') })),
    fc.tuple(fc.integer(), fc.integer()).map(([re, im]): Tagged => ({ $complex: [re, im] })),
    fc.date({ noInvalidDate: true }).map((d): Tagged => ({ $date: d.toISOString() })),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(tie('value'), { maxLength: 4 }).map((xs): Tagged => ({ $tuple: xs })),
    // Sets and dict keys are unique, as in Python.
    fc.uniqueArray(tie('value'), { maxLength: 3, selector: byJson }).map((xs): Tagged => ({ $set: xs })),
    fc
      .uniqueArray(tie('value'), { maxLength: 3, selector: byJson })
      .map((xs): Tagged => ({ $frozenset: xs })),
    fc
      .uniqueArray(fc.tuple(tie('value'), tie('value')), { maxLength: 3, selector: ([k]) => byJson(k) })
      .map((ps): Tagged => ({ $dict: ps })),
    fc
      .uniqueArray(fc.tuple(tie('value'), tie('value')), { maxLength: 3, selector: ([k]) => byJson(k) })
      .map((ps): Tagged => ({ $map: ps })),
    fc
      .dictionary(
        fc.string().filter((k) => !k.startsWith('$')),
        tie('value'),
        { maxKeys: 3 },
      )
      .map((o): Tagged => o),
    fc
      .constantFrom('$tuple', '$set', '$float', '$int', '$dict', '$object', '$undefined')
      .chain((k) => tie('value').map((v): Tagged => ({ $object: [[k, v]] }))),
  ),
})).value;

describe('encode and decode: each tag', () => {
  it('should encode null, booleans, strings and finite numbers as themselves', () => {
    // Arrange
    const value = [null, true, false, 'x', '', 0, 42, -7, 2.5, 1e300];

    // Act
    const tagged = encode(value);

    // Assert
    expect(tagged).toEqual([null, true, false, 'x', '', 0, 42, -7, 2.5, 1e300]);
  });

  it('should tag NaN, both infinities and negative zero, and decode them back', () => {
    // Arrange
    const value = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0];

    // Act
    const tagged = encode(value);
    const back = decode(tagged) as number[];

    // Assert
    expect(tagged).toEqual([{ $float: 'nan' }, { $float: 'inf' }, { $float: '-inf' }, { $float: '-0' }]);
    expect(back).toHaveLength(4);
    expect(Number.isNaN(back[0])).toBe(true);
    expect(back[1]).toBe(Number.POSITIVE_INFINITY);
    expect(back[2]).toBe(Number.NEGATIVE_INFINITY);
    expect(Object.is(back[3], -0)).toBe(true);
  });

  it('should encode every other tag and decode it to the same kind of value', () => {
    // Arrange
    const value = {
      big: 2n ** 70n,
      negBig: -(2n ** 70n),
      smallBig: 5n,
      map: new Map<unknown, unknown>([
        [1, 'one'],
        [[1, 2], 'pair'],
      ]),
      set: new Set([3, 1, 2]),
      frozen: new FrozenSet(['a']),
      dict: new PyDict<unknown, unknown>([
        [tuple(1, 2), 'x'],
        [null, 'y'],
      ]),
      tuple: tuple<unknown>(1, 'a'),
      date: new Date('2024-02-29T12:34:56.789Z'),
      invalidDate: new Date(Number.NaN),
      undef: undefined,
      bytes: new Uint8Array([0, 15, 255]),
      complex: new Complex(1.5, Number.NEGATIVE_INFINITY),
      float: pyFloat(4),
    };

    // Act
    const tagged = encode(value);
    const back = decode(tagged) as typeof value;

    // Assert
    expect(tagged).toEqual({
      big: { $int: '1180591620717411303424' },
      negBig: { $int: '-1180591620717411303424' },
      smallBig: { $int: '5' },
      map: {
        $map: [
          [1, 'one'],
          [[1, 2], 'pair'],
        ],
      },
      set: { $set: [3, 1, 2] },
      frozen: { $frozenset: ['a'] },
      dict: {
        $dict: [
          [{ $tuple: [1, 2] }, 'x'],
          [null, 'y'],
        ],
      },
      tuple: { $tuple: [1, 'a'] },
      date: { $date: '2024-02-29T12:34:56.789Z' },
      invalidDate: { $date: null },
      undef: { $undefined: true },
      bytes: { $bytes: '000fff' },
      complex: { $complex: [1.5, '-inf'] },
      float: { $float: 4 },
    });
    expect(back.big).toBe(2n ** 70n);
    expect(back.smallBig).toBe(5n);
    expect(back.map).toBeInstanceOf(Map);
    expect([...back.map]).toEqual([
      [1, 'one'],
      [[1, 2], 'pair'],
    ]);
    expect(back.set).toBeInstanceOf(Set);
    expect([...back.set]).toEqual([3, 1, 2]);
    expect(back.frozen).toBeInstanceOf(FrozenSet);
    expect(back.dict).toBeInstanceOf(PyDict);
    expect([...back.dict.keys()][0]).toBeInstanceOf(Tuple);
    expect(back.tuple).toBeInstanceOf(Tuple);
    expect(Array.isArray(back.tuple)).toBe(true);
    expect(back.date.toISOString()).toBe('2024-02-29T12:34:56.789Z');
    expect(Number.isNaN(back.invalidDate.getTime())).toBe(true);
    expect('undef' in back).toBe(true);
    expect(back.undef).toBeUndefined();
    expect(back.bytes).toEqual(new Uint8Array([0, 15, 255]));
    expect(back.complex).toBeInstanceOf(Complex);
    expect([back.complex.re, back.complex.im]).toEqual([1.5, Number.NEGATIVE_INFINITY]);
    expect(back.float).toBeInstanceOf(PyFloat);
  });

  it('should keep an integral Python float a float through decode and encode', () => {
    // Arrange
    const tagged: Tagged = [{ $float: 4 }, { $float: 0 }, { $float: -3 }, { $float: 1e20 }];

    // Act
    const back = decode(tagged) as PyFloat[];
    const again = encode(back);

    // Assert
    expect(back.every((x) => x instanceof PyFloat)).toBe(true);
    expect(back.map(Number)).toEqual([4, 0, -3, 1e20]);
    expect(again).toEqual(tagged);
    expect(String(back[0])).toBe('4.0');
    expect((back[0] as unknown as number) + 1).toBe(5);
  });

  it('should decode a non-integral Python float to a plain number that re-encodes untagged', () => {
    // Arrange
    const tagged: Tagged = { $float: 2.5 };

    // Act
    const back = decode(tagged);

    // Assert: the documented normalization; the value reaching Python is the same float.
    expect(back).toBe(2.5);
    expect(encode(back)).toBe(2.5);
  });

  it('should keep a Python -0.0 in a set or as a dict key a negative float', () => {
    // Arrange: JS Set and Map turn -0 into +0, which would go back to Python as the int 0.
    const tagged: Tagged = [
      { $frozenset: [{ $float: '-0' }] },
      { $set: [{ $float: '-0' }, 1] },
      { $dict: [[{ $float: '-0' }, 'neg']] },
      { $map: [[{ $float: '-0' }, { $float: '-0' }]] },
    ];

    // Act
    const again = encode(decode(tagged));

    // Assert
    expect(again).toEqual(tagged);
  });

  it('should build floats with pyFloat: boxed when integral, plain otherwise', () => {
    // Arrange, Act
    const integral = pyFloat(3);
    const fraction = pyFloat(0.5);
    const negZero = pyFloat(-0);

    // Assert
    expect(integral).toBeInstanceOf(PyFloat);
    expect(encode(integral)).toEqual({ $float: 3 });
    expect(fraction).toBe(0.5);
    expect(encode(negZero)).toEqual({ $float: '-0' });
  });

  it('should re-encode a decoded Python tuple as a tuple, nested in lists and dict keys', () => {
    // Arrange
    const tagged: Tagged = {
      $dict: [
        [{ $tuple: [1, { $tuple: [] }] }, [{ $tuple: ['a'] }]],
        ['k', { $tuple: [{ $set: [{ $tuple: [2, 3] }] }] }],
      ],
    };

    // Act
    const again = encode(decode(tagged));

    // Assert
    expect(again).toEqual(tagged);
  });

  it('should construct tuples like arrays, also through array methods', () => {
    // Act
    const items = new Tuple(1, 2, 3);
    const sized = new Tuple(2);
    const mapped = tuple(1, 2).map((x) => x * 10);
    const sliced = tuple(1, 2, 3).slice(1);

    // Assert
    expect(encode([items, sized, mapped, sliced])).toEqual([
      { $tuple: [1, 2, 3] },
      { $tuple: [{ $undefined: true }, { $undefined: true }] },
      { $tuple: [10, 20] },
      { $tuple: [2, 3] },
    ]);
    expect(sized).toHaveLength(2);
    expect(() => new Tuple(-1)).toThrowError(new RangeError('Invalid array length'));
    expect(new FrozenSet([1, 1, 2]).size).toBe(2);
    expect([...new PyDict([['a', 1]])]).toEqual([['a', 1]]);
  });

  it('should keep non-string dict and map keys', () => {
    // Arrange
    const dict = new PyDict<unknown, unknown>([
      [1, 'int'],
      ['1', 'str'],
      [true, 'bool'],
      [pyFloat(1), 'float'],
      [tuple(1, 2), 'tuple'],
      [null, 'none'],
    ]);

    // Act
    const back = roundTrip(dict) as Map<unknown, unknown>;

    // Assert
    expect(back).toBeInstanceOf(PyDict);
    expect([...back.keys()].map((k) => encode(k))).toEqual([
      1,
      '1',
      true,
      { $float: 1 },
      { $tuple: [1, 2] },
      null,
    ]);
    expect([...back.values()]).toEqual(['int', 'str', 'bool', 'float', 'tuple', 'none']);
  });

  it('should escape a plain object whose single key looks like a tag', () => {
    // Arrange
    const values = [
      { $tuple: 3 },
      { $float: 'nan' },
      { $object: [['a', 1]] },
      { $undefined: true },
      { $dict: [] },
      { $int: '5' },
    ];

    // Act
    const tagged = encode(values);
    const back = roundTrip(values);

    // Assert
    expect((tagged as Tagged[])[0]).toEqual({ $object: [['$tuple', 3]] });
    expect(back).toEqual(values);
    expect(Object.getPrototypeOf((back as object[])[0])).toBe(Object.prototype);
  });

  it('should leave plain objects with other dollar keys or several keys untagged', () => {
    // Arrange
    const values = [{ $foo: 1 }, { $tuple: 1, other: 2 }, {}];

    // Act
    const tagged = encode(values);

    // Assert
    expect(tagged).toEqual(values);
    expect(roundTrip(values)).toEqual(values);
  });

  it('should round-trip own keys named __proto__ without touching the prototype', () => {
    // Arrange
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;

    // Act
    const back = roundTrip(value) as Record<string, unknown>;

    // Assert
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should encode shared, non-cyclic references twice', () => {
    // Arrange
    const shared = [1, 2];
    const value = { a: shared, b: shared, c: [shared, shared], m: new Map([[shared, shared]]) };

    // Act
    const tagged = encode(value);

    // Assert
    expect(tagged).toEqual({
      a: [1, 2],
      b: [1, 2],
      c: [
        [1, 2],
        [1, 2],
      ],
      m: {
        $map: [
          [
            [1, 2],
            [1, 2],
          ],
        ],
      },
    });
  });

  it('should encode a Buffer and other Uint8Array subclasses as bytes', () => {
    // Arrange
    const value = Buffer.from('hi');

    // Act
    const tagged = encode(value);

    // Assert
    expect(tagged).toEqual({ $bytes: '6869' });
  });

  it('should encode objects without a prototype as plain objects', () => {
    // Arrange
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });

    // Act
    const tagged = encode(value);

    // Assert
    expect(tagged).toEqual({ a: 1 });
  });
});

describe('encode and decode: properties', () => {
  it('should give back every canonical tagged value after decode and encode', () => {
    fc.assert(
      fc.property(taggedArb, (tagged) => {
        // Act
        const again = encode(decode(tagged));

        // Assert
        expect(again).toEqual(tagged);
      }),
    );
  });

  it('should survive the JSON wire form unchanged', () => {
    fc.assert(
      fc.property(taggedArb, (tagged) => {
        // Act
        const again = encode(fromWire(JSON.stringify(tagged)));

        // Assert
        expect(JSON.parse(toWire(decode(again)))).toEqual(tagged);
      }),
    );
  });

  it('should round-trip JavaScript values losslessly', () => {
    // Arrange
    const jsArb = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, undefined, true, false, Number.NaN, -0, Number.POSITIVE_INFINITY),
        fc.double(),
        fc.string(),
        fc.bigInt(),
        fc.date(),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.array(tie('v'), { maxLength: 3 }).map((xs) => tuple(...xs)),
        fc.array(tie('v'), { maxLength: 3 }).map((xs) => new Set(xs)),
        fc.array(fc.tuple(tie('v'), tie('v')), { maxLength: 3 }).map((ps) => new Map(ps)),
        fc.dictionary(fc.string(), tie('v'), { maxKeys: 3, noNullPrototype: true }),
      ),
    })).v;
    fc.assert(
      fc.property(jsArb, (value) => {
        // Act
        const back = roundTrip(value);

        // Assert
        expect(back).toStrictEqual(value);
        expect(encode(back)).toEqual(encode(value));
      }),
    );
  });
});

describe('encode: values without a data form', () => {
  it('should reject a function with its kind in the message', () => {
    // Act
    const error = thrown(() => encode({ f: () => 1 }));

    // Assert
    expect(error.code).toBe('UNSERIALIZABLE');
    expect(error.message).toMatchInlineSnapshot(
      `"Cannot encode value: the value contains a function, which has no data form."`,
    );
  });

  it('should reject a symbol', () => {
    // Act
    const error = thrown(() => encode([Symbol('s')]));

    // Assert
    expect(error.code).toBe('UNSERIALIZABLE');
    expect(error.message).toMatchInlineSnapshot(
      `"Cannot encode value: the value contains a symbol, which has no data form."`,
    );
  });

  it('should reject a cycle through an array, an object, a map and a set', () => {
    // Arrange
    const array: unknown[] = [];
    array.push(array);
    const object: Record<string, unknown> = {};
    object.self = { inner: object };
    const map = new Map<unknown, unknown>();
    map.set('m', map);
    const set = new Set<unknown>();
    set.add([set]);

    // Act
    const errors = [array, object, map, set].map((v) => thrown(() => encode(v)));

    // Assert
    for (const error of errors) {
      expect(error.code).toBe('UNSERIALIZABLE');
      expect(error.message).toBe(
        'Cannot encode value: the value contains a cycle (an object that contains itself).',
      );
    }
  });

  it('should reject a class instance and name its class', () => {
    // Arrange
    class Point {
      x = 1;
    }

    // Act
    const error = thrown(() => encode({ p: new Point() }));

    // Assert
    expect(error.code).toBe('UNSERIALIZABLE');
    expect(error.message).toMatchInlineSnapshot(
      `"Cannot encode value: the value contains an instance of Point; return plain data (numbers, strings, arrays, plain objects, Map, Set)."`,
    );
  });

  it('should reject a value past the size limit and point to maxOutputBytes', () => {
    // Act
    const error = thrown(() => encode('x'.repeat(2000), { maxBytes: 1000 }));

    // Assert
    expect(error.code).toBe('UNSERIALIZABLE');
    expect(error.message).toMatchInlineSnapshot(
      `"Cannot encode value: the value is larger than the 1000-byte output limit (raise maxOutputBytes to allow it)."`,
    );
    expect(error.message).toContain('maxOutputBytes');
  });

  it('should reject a value nested deeper than the depth limit', () => {
    // Arrange
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = [deep];

    // Act
    const error = thrown(() => encode(deep, { maxDepth: 10 }));

    // Assert
    expect(error.code).toBe('UNSERIALIZABLE');
    expect(error.message).toBe('Cannot encode value: the value is nested deeper than 10 levels.');
  });

  it('should keep the cause of an encode failure', () => {
    // Act
    const error = thrown(() => encode(Symbol('s')));

    // Assert
    expect((error.cause as Error).name).toBe('Unserializable');
  });
});

describe('createCodec: a created codec resists patched built-ins', () => {
  // Built with the codec's own classes: each codec has its own Tuple, PyDict and PyFloat.
  const sample = (codec: ReturnType<typeof createCodec>): unknown => {
    const t = new codec.Tuple();
    t[0] = 2;
    t[1] = 3;
    return {
      list: [1, 'a', t],
      map: new Map([[1, new Set([2])]]),
      dict: new codec.PyDict([['k', new codec.PyFloat(1)]]),
      big: 10n ** 20n,
    };
  };
  const expected: Tagged = {
    list: [1, 'a', { $tuple: [2, 3] }],
    map: { $map: [[1, { $set: [2] }]] },
    dict: { $dict: [['k', { $float: 1 }]] },
    big: { $int: '100000000000000000000' },
  };

  // Captured before any patch, so that restoring never goes through a patched built-in.
  const { defineProperty, deleteProperty, getOwnPropertyDescriptor } = Reflect;

  /** Replaces `target[key]` by `value` while `f` runs. */
  const patched = <T extends object>(target: T, key: PropertyKey, value: unknown, f: () => void): void => {
    const descriptor = getOwnPropertyDescriptor(target, key);
    defineProperty(target, key, { value, writable: true, configurable: true });
    try {
      f();
    } finally {
      if (descriptor) defineProperty(target, key, descriptor);
      else deleteProperty(target, key);
    }
  };
  const hostile = (): never => {
    throw new Error('patched built-in called');
  };

  it.each([
    ['Array.prototype.push', Array.prototype, 'push'],
    ['Array.prototype.map', Array.prototype, 'map'],
    ['Array.prototype[Symbol.iterator]', Array.prototype, Symbol.iterator],
    ['JSON.stringify', JSON, 'stringify'],
    ['JSON.parse', JSON, 'parse'],
    ['Object.keys', Object, 'keys'],
    ['Object.defineProperty', Object, 'defineProperty'],
    ['Object.getPrototypeOf', Object, 'getPrototypeOf'],
    ['Array.isArray', Array, 'isArray'],
    ['Map.prototype.forEach', Map.prototype, 'forEach'],
    ['Map.prototype.set', Map.prototype, 'set'],
    ['Set.prototype.forEach', Set.prototype, 'forEach'],
    ['Set.prototype.add', Set.prototype, 'add'],
    ['Function.prototype.apply', Function.prototype, 'apply'],
    ['Function.prototype.call', Function.prototype, 'call'],
    ['String', globalThis, 'String'],
  ] as const)('should encode, decode and stringify with %s patched', (_name, target, key) => {
    // Arrange
    const codec = createCodec();
    const value = sample(codec);
    let tagged: Tagged = null;
    let text = '';
    let back: unknown;

    // Act
    patched(target, key, hostile, () => {
      tagged = codec.encode(value);
      text = codec.stringify(value);
      back = codec.decode(expected);
    });

    // Assert
    expect(tagged).toEqual(expected);
    expect(JSON.parse(text)).toEqual(expected);
    expect(codec.encode(back)).toEqual(expected);
  });

  it('should ignore toJSON on Object.prototype and Array.prototype in safeJson and stringify', () => {
    // Arrange
    const codec = createCodec();
    let fromSafe = '';
    let fromStringify = '';

    const t = new codec.Tuple();
    t[0] = 1;

    // Act
    patched(
      Object.prototype,
      'toJSON',
      () => 'hijacked',
      () => {
        patched(
          Array.prototype,
          'toJSON',
          () => 'hijacked',
          () => {
            fromSafe = codec.safeJson({ a: [1, { b: 'c' }], n: null });
            fromStringify = codec.stringify({ t });
          },
        );
      },
    );

    // Assert
    expect(fromSafe).toBe('{"a":[1,{"b":"c"}],"n":null}');
    expect(fromStringify).toBe('{"t":{"$tuple":[1]}}');
  });

  it('should walk own keys without Function.prototype.call once toJSON is reachable', () => {
    // Arrange
    const codec = createCodec();
    let text = '';

    // Act
    patched(
      Object.prototype,
      'toJSON',
      () => 'hijacked',
      () => {
        patched(Function.prototype, 'call', hostile, () => {
          text = codec.safeJson({ a: [1, 'x'] });
        });
      },
    );

    // Assert
    expect(text).toBe('{"a":[1,"x"]}');
  });

  it('should match JSON.stringify when no toJSON is reachable', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (data) => {
        // Arrange
        const codec = createCodec();

        // Act
        const text = codec.safeJson(data);

        // Assert
        expect(text).toBe(JSON.stringify(data));
      }),
    );
  });
});

describe.skipIf(!requireData())('the HumanEval seed inputs', () => {
  it('should decode every seed input and encode it back to the same tagged form', () => {
    // Arrange
    const tasks = loadTasks(humanevalDir());
    const seeds = tasks.flatMap((t) => t.seedInputs.map((seed, i) => ({ where: `${t.taskId}#${i}`, seed })));

    // Act
    const mismatches = seeds.filter(({ seed }) => {
      const again = encode(decode(seed));
      return JSON.stringify(again) !== JSON.stringify(normalizeFloats(seed));
    });

    // Assert
    expect(tasks.length).toBe(150);
    expect(seeds.length).toBeGreaterThan(1000);
    expect(mismatches.map((m) => m.where)).toEqual([]);
  });
});

/**
 * The documented normalization: a non-integral finite Python float (`{"$float": 2.5}`) decodes to
 * the JS number 2.5 and re-encodes untagged; the value Python receives is the same float.
 */
const normalizeFloats = (t: Tagged): Tagged => {
  if (Array.isArray(t)) return t.map(normalizeFloats);
  if (t === null || typeof t !== 'object') return t;
  const keys = Object.keys(t);
  if (keys.length === 1 && keys[0] === '$float') {
    const x = t.$float;
    return typeof x === 'number' && !Number.isInteger(x) ? x : t;
  }
  const out: Record<string, Tagged> = {};
  for (const k of keys) out[k] = normalizeFloats(t[k] as Tagged);
  return out;
};
