import { FrozenSet, PyDict, PyFloat, Tuple } from '../values/index.ts';

/**
 * The Python-level kind of a decoded value. Numbers follow the codec: an integral JS number is an
 * int, a non-integral or non-finite one (and a `PyFloat` box) is a float.
 */
export type ValueKind =
  | 'none'
  | 'undefined'
  | 'bool'
  | 'int'
  | 'float'
  | 'str'
  | 'list'
  | 'tuple'
  | 'set'
  | 'frozenset'
  | 'dict'
  | 'map'
  | 'object'
  | 'other';

export const isIntNumber = (x: number): boolean => Number.isInteger(x) && !Object.is(x, -0);

export const kindOf = (v: unknown): ValueKind => {
  switch (typeof v) {
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return 'bool';
    case 'number':
      return isIntNumber(v) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'string':
      return 'str';
  }
  if (v === null) return 'none';
  if (Array.isArray(v)) return v instanceof Tuple ? 'tuple' : 'list';
  if (v instanceof PyFloat) return 'float';
  if (v instanceof FrozenSet) return 'frozenset';
  if (v instanceof Set) return 'set';
  if (v instanceof PyDict) return 'dict';
  if (v instanceof Map) return 'map';
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return 'object';
  return 'other';
};

/** The numeric value of an int or float, whatever its representation. */
export const numberOf = (v: unknown): number =>
  v instanceof PyFloat ? v.value : typeof v === 'bigint' ? Number(v) : (v as number);

/** Copies a value deeply, keeping the codec's classes (Tuple, PyDict, FrozenSet, PyFloat). */
export const cloneValue = <T>(v: T): T => {
  if (typeof v !== 'object' || v === null || v instanceof PyFloat) return v;
  if (Array.isArray(v)) {
    const out = v instanceof Tuple ? new Tuple() : [];
    for (let i = 0; i < v.length; i++) out[i] = cloneValue(v[i]);
    return out as T;
  }
  if (v instanceof Set) {
    const out = v instanceof FrozenSet ? new FrozenSet() : new Set();
    for (const x of v) out.add(cloneValue(x));
    return out as T;
  }
  if (v instanceof Map) {
    const out = v instanceof PyDict ? new PyDict() : new Map();
    for (const [k, x] of v) out.set(cloneValue(k), cloneValue(x));
    return out as T;
  }
  if (Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = cloneValue((v as Record<string, unknown>)[k]);
    return out as T;
  }
  return v;
};

/** A sequence of the same class as `like` (Tuple or plain array). */
export const sameSequence = (like: readonly unknown[], items: unknown[]): unknown[] => {
  if (!(like instanceof Tuple)) return items;
  const t = new Tuple();
  for (let i = 0; i < items.length; i++) t[i] = items[i];
  return t;
};

export const sameSet = (like: Set<unknown>, items: Iterable<unknown>): Set<unknown> =>
  like instanceof FrozenSet ? new FrozenSet(items) : new Set(items);

export const sameMap = (like: Map<unknown, unknown>, entries: Iterable<[unknown, unknown]>) =>
  like instanceof PyDict ? new PyDict(entries) : new Map(entries);
