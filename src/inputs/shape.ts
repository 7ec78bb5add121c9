import { kindOf, numberOf } from './value-kind.ts';

/**
 * A type description of one argument, shared by the signature parser, example inference and
 * typed seed mutation. Python types map to the codec's classes (tuple → `Tuple`, dict → `PyDict`,
 * float → `pyFloat`), TypeScript types to plain JS values.
 */
export type Shape =
  | { readonly t: 'int'; readonly hint?: NumberHint }
  | { readonly t: 'float'; readonly hint?: NumberHint }
  /** A JavaScript number: no int/float distinction. */
  | { readonly t: 'number'; readonly hint?: NumberHint }
  | { readonly t: 'bigint' }
  | { readonly t: 'bool' }
  | { readonly t: 'none' }
  | { readonly t: 'undefined' }
  | { readonly t: 'str'; readonly hint?: StringHint }
  | { readonly t: 'literal'; readonly value: string | number | boolean }
  | { readonly t: 'list'; readonly item: Shape | null }
  /** A Python tuple (`Tuple`) or a TypeScript tuple (plain array) of fixed arity. */
  | { readonly t: 'tuple'; readonly items: readonly Shape[]; readonly py: boolean }
  /** `Tuple[int, ...]`: a Python tuple of any length. */
  | { readonly t: 'vartuple'; readonly item: Shape | null }
  | { readonly t: 'set'; readonly item: Shape | null; readonly frozen: boolean }
  /** `pydict`: Python dict; `map`: JS Map; `record`: a plain object with string keys. */
  | {
      readonly t: 'dict';
      readonly key: Shape | null;
      readonly value: Shape | null;
      readonly kind: 'pydict' | 'map' | 'record';
    }
  | { readonly t: 'object'; readonly props: readonly ObjectProp[] }
  | { readonly t: 'union'; readonly options: readonly Shape[] }
  /** A value crosscheck does not look into (bytes, complex, dates): only ever copied. */
  | { readonly t: 'opaque'; readonly pool: readonly unknown[] };

export interface ObjectProp {
  readonly name: string;
  readonly shape: Shape;
  readonly optional: boolean;
}

/** What the seeds or examples say about numbers at one position. */
export interface NumberHint {
  readonly min: number;
  readonly max: number;
  readonly pool: readonly number[];
}

/** What the seeds or examples say about strings at one position. */
export interface StringHint {
  readonly alphabet: string;
  readonly words: readonly string[];
  readonly pool: readonly string[];
  readonly maxLength: number;
}

const POOL_LIMIT = 64;

const union = (options: Shape[]): Shape => {
  const flat = options.flatMap((o) => (o.t === 'union' ? o.options : [o]));
  const merged: Shape[] = [];
  for (const o of flat) {
    const i = merged.findIndex((m) => sameKind(m, o));
    if (i < 0) merged.push(o);
    else merged[i] = mergeShapes(merged[i] as Shape, o);
  }
  return merged.length === 1 ? (merged[0] as Shape) : { t: 'union', options: merged };
};

const sameKind = (a: Shape, b: Shape): boolean => {
  if (a.t !== b.t) return false;
  if (a.t === 'tuple' && b.t === 'tuple') return a.py === b.py;
  if (a.t === 'set' && b.t === 'set') return a.frozen === b.frozen;
  if (a.t === 'dict' && b.t === 'dict') return a.kind === b.kind;
  if (a.t === 'literal' && b.t === 'literal') return a.value === b.value;
  return true;
};

const mergeItem = (a: Shape | null, b: Shape | null): Shape | null =>
  a === null ? b : b === null ? a : mergeShapes(a, b);

const mergeNumberHints = (a?: NumberHint, b?: NumberHint): NumberHint | undefined =>
  a && b
    ? {
        min: Math.min(a.min, b.min),
        max: Math.max(a.max, b.max),
        pool: [...new Set([...a.pool, ...b.pool])].slice(0, POOL_LIMIT),
      }
    : (a ?? b);

const mergeStringHints = (a?: StringHint, b?: StringHint): StringHint | undefined =>
  a && b
    ? {
        alphabet: [...new Set([...a.alphabet, ...b.alphabet])].join(''),
        words: [...new Set([...a.words, ...b.words])].slice(0, POOL_LIMIT * 4),
        pool: [...new Set([...a.pool, ...b.pool])].slice(0, POOL_LIMIT),
        maxLength: Math.max(a.maxLength, b.maxLength),
      }
    : (a ?? b);

/** The least shape that covers both (a union when the kinds differ). */
export const mergeShapes = (a: Shape, b: Shape): Shape => {
  if (a.t === 'union' || b.t === 'union' || !sameKind(a, b)) return union([a, b]);
  switch (a.t) {
    case 'int':
    case 'float':
    case 'number': {
      const hint = mergeNumberHints(a.hint, (b as typeof a).hint);
      return hint ? { t: a.t, hint } : { t: a.t };
    }
    case 'str': {
      const hint = mergeStringHints(a.hint, (b as typeof a).hint);
      return hint ? { t: 'str', hint } : { t: 'str' };
    }
    case 'list':
      return { t: 'list', item: mergeItem(a.item, (b as typeof a).item) };
    case 'vartuple':
      return { t: 'vartuple', item: mergeItem(a.item, (b as typeof a).item) };
    case 'set':
      return { t: 'set', item: mergeItem(a.item, (b as typeof a).item), frozen: a.frozen };
    case 'tuple': {
      const other = b as typeof a;
      if (a.items.length === other.items.length) {
        return {
          t: 'tuple',
          py: a.py,
          items: a.items.map((s, i) => mergeShapes(s, other.items[i] as Shape)),
        };
      }
      // Tuples of several lengths: a homogeneous tuple of any length.
      const item = [...a.items, ...other.items].reduce<Shape | null>((acc, s) => mergeItem(acc, s), null);
      return { t: 'vartuple', item };
    }
    case 'dict': {
      const other = b as typeof a;
      return {
        t: 'dict',
        kind: a.kind,
        key: mergeItem(a.key, other.key),
        value: mergeItem(a.value, other.value),
      };
    }
    case 'object': {
      const other = b as typeof a;
      const names = [...new Set([...a.props.map((p) => p.name), ...other.props.map((p) => p.name)])];
      return {
        t: 'object',
        props: names.map((name) => {
          const pa = a.props.find((p) => p.name === name);
          const pb = other.props.find((p) => p.name === name);
          const shape = pa && pb ? mergeShapes(pa.shape, pb.shape) : ((pa ?? pb) as ObjectProp).shape;
          return { name, shape, optional: !pa || !pb || pa.optional || pb.optional };
        }),
      };
    }
    case 'opaque':
      return { t: 'opaque', pool: [...a.pool, ...(b as typeof a).pool].slice(0, POOL_LIMIT) };
    default:
      return a;
  }
};

const WORD = /\S+/g;

const stringHint = (s: string): StringHint => ({
  alphabet: [...new Set(s)].join(''),
  words: [...new Set(s.match(WORD) ?? [])],
  pool: [s],
  maxLength: s.length,
});

const numberHint = (x: number): NumberHint | undefined =>
  Number.isFinite(x) ? { min: x, max: x, pool: [x] } : undefined;

const withHint = <T extends 'int' | 'float'>(t: T, x: number): Shape => {
  const hint = numberHint(x);
  return hint ? { t, hint } : { t };
};

const itemsShape = (items: Iterable<unknown>): Shape | null => {
  let acc: Shape | null = null;
  for (const x of items) acc = mergeItem(acc, shapeOf(x));
  return acc;
};

/** The shape of one decoded value, with hints taken from the value itself. */
export const shapeOf = (v: unknown): Shape => {
  switch (kindOf(v)) {
    case 'none':
      return { t: 'none' };
    case 'undefined':
      return { t: 'undefined' };
    case 'bool':
      return { t: 'bool' };
    case 'int':
      return typeof v === 'bigint' ? { t: 'bigint' } : withHint('int', v as number);
    case 'float':
      return withHint('float', numberOf(v));
    case 'str':
      return { t: 'str', hint: stringHint(v as string) };
    case 'list':
      return { t: 'list', item: itemsShape(v as unknown[]) };
    case 'tuple':
      return { t: 'tuple', py: true, items: (v as unknown[]).map(shapeOf) };
    case 'set':
    case 'frozenset':
      return { t: 'set', item: itemsShape(v as Set<unknown>), frozen: kindOf(v) === 'frozenset' };
    case 'dict':
    case 'map': {
      const m = v as Map<unknown, unknown>;
      return {
        t: 'dict',
        kind: kindOf(v) === 'dict' ? 'pydict' : 'map',
        key: itemsShape(m.keys()),
        value: itemsShape(m.values()),
      };
    }
    case 'object': {
      const record = v as Record<string, unknown>;
      return {
        t: 'object',
        props: Object.keys(record).map((name) => ({ name, shape: shapeOf(record[name]), optional: false })),
      };
    }
    default:
      return { t: 'opaque', pool: [v] };
  }
};

/** The shape of each argument position over many argument tuples (all of the same arity). */
export const inferArgShapes = (tuples: readonly (readonly unknown[])[]): Shape[] => {
  const arity = tuples[0]?.length ?? 0;
  const shapes: Shape[] = [];
  for (let i = 0; i < arity; i++) {
    shapes.push(tuples.map((t) => shapeOf(t[i])).reduce((a, b) => mergeShapes(a, b)));
  }
  return shapes;
};

/** Short type text of a shape, for descriptions and messages (`list[int]`, `dict[str, int]`). */
export const describeShape = (s: Shape | null): string => {
  if (s === null) return '?';
  switch (s.t) {
    case 'literal':
      return JSON.stringify(s.value);
    case 'list':
      return `list[${describeShape(s.item)}]`;
    case 'vartuple':
      return `tuple[${describeShape(s.item)}, ...]`;
    case 'tuple':
      return s.py
        ? `tuple[${s.items.map(describeShape).join(', ')}]`
        : `[${s.items.map(describeShape).join(', ')}]`;
    case 'set':
      return `${s.frozen ? 'frozenset' : 'set'}[${describeShape(s.item)}]`;
    case 'dict':
      return `${s.kind === 'pydict' ? 'dict' : s.kind === 'map' ? 'Map' : 'Record'}[${describeShape(s.key)}, ${describeShape(s.value)}]`;
    case 'object':
      return `{ ${s.props.map((p) => `${p.name}${p.optional ? '?' : ''}: ${describeShape(p.shape)}`).join('; ')} }`;
    case 'union':
      return s.options.map(describeShape).join(' | ');
    default:
      return s.t;
  }
};
