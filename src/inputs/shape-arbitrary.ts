import fc from 'fast-check';
import { FrozenSet, PyDict, PyFloat, pyFloat, Tuple, tuple } from '../values/index.ts';
import { argsKey } from './canonical-key.ts';
import type { NumberHint, Shape, StringHint } from './shape.ts';

/** Size controls shared by the generating sources (`fromSignature`, `fromJsonSchema`, `fromExamples`). @public */
export interface SizeOptions {
  /** fast-check's size of collections and strings. @defaultValue fast-check's global default (`'small'`) */
  size?: fc.SizeForArbitrary;
  /** Upper bound on the length of every list, string, set and dict. @defaultValue 100 */
  maxLength?: number;
  /** Range of generated integers. @defaultValue `{ min: -10_000, max: 10_000 }` */
  int?: { min: number; max: number };
  /** Range of generated floats. @defaultValue `{ min: -1e6, max: 1e6 }` */
  float?: { min: number; max: number };
  /** Also generate NaN and ±Infinity for floats. @defaultValue false */
  specialFloats?: boolean;
}

const DEFAULT_INT = { min: -10_000, max: 10_000 };
const DEFAULT_FLOAT = { min: -1e6, max: 1e6 };

const unboxFloat = (v: unknown): number => {
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'number' && !Number.isInteger(v)) return v;
  if (typeof v === 'number' && Object.is(v, -0)) return v;
  throw new Error('not a Python float');
};

const toTuple = (items: unknown[]): unknown[] => tuple(...items);
const fromTuple = (v: unknown): unknown[] => {
  if (v instanceof Tuple) return [...(v as unknown[])];
  throw new Error('not a tuple');
};

const setKey = (x: unknown): string => argsKey([x]);

/**
 * Doubles: fast-check's `double` (edge cases, tiny and huge exponents) mixed with everyday
 * decimals such as 3.25, which is what most code under test expects.
 */
const doubles = (range: { min: number; max: number }, special: boolean): fc.Arbitrary<number> => {
  const cents = fc.integer({ min: Math.ceil(range.min * 100), max: Math.floor(range.max * 100) }).map(
    (k) => k / 100,
    (v) => {
      const k = typeof v === 'number' ? Math.round(v * 100) : Number.NaN;
      if (k / 100 !== v) throw new Error('not a decimal');
      return k;
    },
  );
  const edge = fc.double({ ...range, noNaN: !special, noDefaultInfinity: !special });
  return fc.oneof({ arbitrary: cents, weight: 3 }, { arbitrary: edge, weight: 1 });
};

/** Integers around what the examples show, plus the values they show. */
const hintedInt = (hint: NumberHint, range: { min: number; max: number }): fc.Arbitrary<number> => {
  const span = Math.max(10, hint.max - hint.min);
  const min = Math.max(range.min, Math.floor(hint.min - span));
  const max = Math.min(range.max, Math.ceil(hint.max + span));
  const near = fc.integer({ min: Math.min(min, max), max: Math.max(min, max) });
  return hint.pool.length > 0
    ? fc.oneof({ arbitrary: near, weight: 4 }, { arbitrary: fc.constantFrom(...hint.pool), weight: 1 })
    : near;
};

const hintedString = (hint: StringHint, options: SizeOptions): fc.Arbitrary<string> => {
  const maxLength = Math.min(options.maxLength ?? 100, Math.max(8, hint.maxLength * 2));
  const parts: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.string({ size: options.size, maxLength }), weight: 1 },
  ];
  if (hint.alphabet.length > 0) {
    parts.push({
      arbitrary: fc.string({ unit: fc.constantFrom(...hint.alphabet), size: options.size, maxLength }),
      weight: 3,
    });
  }
  if (hint.words.length > 0) {
    parts.push({
      arbitrary: fc
        .array(fc.constantFrom(...hint.words), { maxLength: Math.max(1, Math.floor(maxLength / 2)) })
        .map((ws) => ws.join(' ')),
      weight: 2,
    });
  }
  if (hint.pool.length > 0) parts.push({ arbitrary: fc.constantFrom(...hint.pool), weight: 1 });
  return fc.oneof(...parts);
};

/** Internal: whether float shapes produce Python floats (boxed when integral) or plain numbers. */
export interface ShapeArbitraryOptions extends SizeOptions {
  python?: boolean;
}

/**
 * A fast-check arbitrary for one shape. Python floats come out through `pyFloat` (so 4.0 stays a
 * float), tuples as `Tuple`, dicts as `PyDict`; TypeScript shapes give plain JS values.
 * Unknown element types (from empty containers) fall back to integers.
 */
export const shapeArbitrary = (
  shape: Shape | null,
  options: ShapeArbitraryOptions = {},
): fc.Arbitrary<unknown> => {
  const intRange = options.int ?? DEFAULT_INT;
  const floatRange = options.float ?? DEFAULT_FLOAT;
  const collection = { size: options.size, maxLength: options.maxLength ?? 100 };
  const rec = (s: Shape | null): fc.Arbitrary<unknown> => {
    if (s === null) return fc.integer(intRange);
    switch (s.t) {
      case 'int':
        return s.hint ? hintedInt(s.hint, intRange) : fc.integer(intRange);
      case 'float': {
        const base = doubles(floatRange, options.specialFloats === true);
        const withPool = s.hint?.pool.length
          ? fc.oneof(
              { arbitrary: base, weight: 4 },
              { arbitrary: fc.constantFrom(...s.hint.pool), weight: 1 },
            )
          : base;
        return options.python === false ? withPool : withPool.map(pyFloat, unboxFloat);
      }
      case 'number':
        return fc.oneof(
          fc.integer(intRange),
          fc.double({
            ...floatRange,
            noNaN: !options.specialFloats,
            noDefaultInfinity: !options.specialFloats,
          }),
        );
      case 'bigint':
        return fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n });
      case 'bool':
        return fc.boolean();
      case 'none':
        return fc.constant(null);
      case 'undefined':
        return fc.constant(undefined);
      case 'str':
        return s.hint
          ? hintedString(s.hint, options)
          : fc.string({ size: options.size, maxLength: options.maxLength ?? 100 });
      case 'literal':
        return fc.constant(s.value);
      case 'list':
        return fc.array(rec(s.item), collection);
      case 'tuple': {
        const items = fc.tuple(...s.items.map(rec));
        return s.py ? items.map(toTuple, fromTuple) : items;
      }
      case 'vartuple':
        return fc.array(rec(s.item), collection).map(toTuple, fromTuple);
      case 'set':
        return fc.uniqueArray(rec(s.item), { ...collection, selector: setKey }).map(
          (items) => (s.frozen ? new FrozenSet(items) : new Set(items)),
          (v) => {
            if (v instanceof Set && v instanceof FrozenSet === s.frozen) return [...v];
            throw new Error('not a set');
          },
        );
      case 'dict': {
        if (s.kind === 'record') return fc.dictionary(fc.string({ maxLength: 10 }), rec(s.value), collection);
        const Ctor = s.kind === 'pydict' ? PyDict : Map;
        return fc
          .uniqueArray(fc.tuple(rec(s.key), rec(s.value)), { ...collection, selector: (e) => setKey(e[0]) })
          .map(
            (entries) => new Ctor(entries),
            (v) => {
              if (v instanceof Map && v instanceof PyDict === (s.kind === 'pydict')) return [...v.entries()];
              throw new Error('not a dict');
            },
          );
      }
      case 'object': {
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const p of s.props) model[p.name] = rec(p.shape);
        return fc.record(model, { requiredKeys: s.props.filter((p) => !p.optional).map((p) => p.name) });
      }
      case 'union':
        return fc.oneof(...s.options.map(rec));
      case 'opaque':
        return s.pool.length > 0 ? fc.constantFrom(...s.pool) : fc.constant(null);
    }
  };
  return rec(shape);
};

/** The arbitrary of an argument tuple: one shape per position. */
export const argsArbitrary = (
  shapes: readonly Shape[],
  options: ShapeArbitraryOptions = {},
): fc.Arbitrary<unknown[]> => fc.tuple(...shapes.map((s) => shapeArbitrary(s, options)));
