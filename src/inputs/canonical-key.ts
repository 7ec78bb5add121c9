import { comparator, encode, PyFloat, Tuple } from '../values/index.ts';

const strict = comparator('strict');

/**
 * Key of the common values (numbers, strings, lists, tuples) without encoding them first: the
 * dedup of every drawn input runs on the hot path. Null when the value holds anything else.
 */
const fastKey = (v: unknown): string | null => {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && !Object.is(v, -0) ? `i${v}` : `f${v}`;
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'T' : 'F';
    case 'bigint':
      return `i${v}`;
    case 'undefined':
      return 'U';
  }
  if (v === null) return 'N';
  if (v instanceof PyFloat) return `f${v.value}`;
  if (!Array.isArray(v)) return null;
  let out = v instanceof Tuple ? 't[' : 'l[';
  for (let i = 0; i < v.length; i++) {
    const k = fastKey(v[i]);
    if (k === null) return null;
    out += i === 0 ? k : `,${k}`;
  }
  return `${out}]`;
};

/**
 * The canonical key of an argument tuple, for deduplication: equal keys mean the same call.
 * Strict equality: 1, 1.0, True and "1" stay apart; sets and dicts are keyed regardless of order.
 */
export const argsKey = (args: readonly unknown[]): string =>
  fastKey(args) ?? strict.prepare(encode(args)).key;
