import type { Tagged } from './codec-core.ts';
import { complexPart } from './complex-part.ts';

/**
 * A mode-specific normal form of a tagged value. Equality modes differ only in how they map
 * tagged values to this form (which types merge, which collections are unordered), so one key
 * function and one tolerant comparison serve every built-in mode.
 */
export type Normal =
  | { t: 'null' }
  | { t: 'undef' }
  | { t: 'bool'; v: boolean }
  /** `inexact` marks finite floats (integral or not): the only values a tolerance applies to. */
  | { t: 'num'; k: 'int' | 'float' | 'num'; v: number; big: string | null; inexact: boolean }
  | { t: 'complex'; re: number; im: number }
  | { t: 'str'; v: string }
  | { t: 'bytes'; v: string }
  | { t: 'date'; v: string | null }
  | { t: 'seq'; k: string; items: Normal[]; key: string | null }
  | { t: 'set'; k: string; items: Normal[]; key: string | null }
  | { t: 'map'; k: string; entries: Array<[Normal, Normal]>; key: string | null };

/** How a mode maps types. */
export interface NormalRules {
  /** Python: bool is an int (True == 1); difftrust as well. */
  boolIsNumber: boolean;
  /** Python, mixed and difftrust: int and float compare by value; strict keeps them apart. */
  mergeIntFloat: boolean;
  /** Python and difftrust: a complex with no imaginary part is a number (complex(3, 0) == 3). */
  complexIsNumber: boolean;
  /** difftrust: a tuple equals a list element-wise. */
  mergeTupleList: boolean;
  /** strict: JS Map and Python dict stay apart; python merges $map, $dict and plain objects. */
  mergeMaps: boolean;
  /** difftrust compares dicts in iteration order; strict and python do not care about order. */
  orderedMaps: boolean;
  /** python: set == frozenset. */
  mergeSets: boolean;
}

const SAFE = 2 ** 53;

/** `isFloat`: the value is a float (a `$float`, or a non-integral JSON number), not an int or bool. */
const numberNode = (v: number, k: 'int' | 'float' | 'num', rules: NormalRules, isFloat: boolean): Normal => {
  const integral = Number.isInteger(v);
  const kind = rules.mergeIntFloat ? 'num' : k;
  // Python: 10**21 == 1e21. Integral values past 2^53 compare by their exact digits.
  const big = integral && Math.abs(v) >= SAFE ? BigInt(v).toString() : null;
  return { t: 'num', k: kind, v: v === 0 ? 0 : v, big, inexact: isFloat && Number.isFinite(v) };
};

const specialNumber = (x: Tagged): number => {
  if (typeof x === 'number') return x;
  if (x === 'nan') return Number.NaN;
  if (x === 'inf') return Number.POSITIVE_INFINITY;
  if (x === '-inf') return Number.NEGATIVE_INFINITY;
  if (x === '-0') return -0;
  return Number(x);
};

/**
 * `items` sorted by the key of `normalOf(item)`, each key made once (a comparator would make a
 * leaf's key at every comparison). Stable, as Array.prototype.sort is.
 */
const sortedByKey = <T>(items: readonly T[], normalOf: (item: T) => Normal): T[] => {
  const keys = items.map((item) => normalKey(normalOf(item)));
  const order = items.map((_, i) => i);
  order.sort((a, b) => {
    const ka = keys[a] as string;
    const kb = keys[b] as string;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return order.map((i) => items[i] as T);
};

/** Maps a tagged value into the normal form of the given rules. */
export const toNormal = (t: Tagged, rules: NormalRules): Normal => {
  if (t === null) return { t: 'null' };
  switch (typeof t) {
    case 'boolean':
      return rules.boolIsNumber ? numberNode(t ? 1 : 0, 'int', rules, false) : { t: 'bool', v: t };
    case 'number':
      // A plain JSON number is a JS number (one type, int or not) or a Python int: one kind.
      return numberNode(t, 'num', rules, !Number.isInteger(t));
    case 'string':
      return { t: 'str', v: t };
  }
  if (Array.isArray(t)) return { t: 'seq', k: 'list', items: t.map((x) => toNormal(x, rules)), key: null };
  const keys = Object.keys(t);
  const tag = keys.length === 1 ? keys[0] : undefined;
  const body = tag === undefined ? undefined : (t[tag] as Tagged);
  switch (tag) {
    case '$tuple':
      return {
        t: 'seq',
        k: rules.mergeTupleList ? 'list' : 'tuple',
        items: (body as Tagged[]).map((x) => toNormal(x, rules)),
        key: null,
      };
    case '$set':
    case '$frozenset': {
      const items = sortedByKey(
        (body as Tagged[]).map((x) => toNormal(x, rules)),
        (x) => x,
      );
      return { t: 'set', k: rules.mergeSets ? 'set' : tag, items, key: null };
    }
    case '$dict':
    case '$map':
      return mapNode(
        (body as Tagged[][]).map((p) => [toNormal(p[0] as Tagged, rules), toNormal(p[1] as Tagged, rules)]),
        rules.mergeMaps ? 'map' : tag,
        rules,
      );
    case '$object':
      return mapNode(
        (body as Tagged[][]).map((p) => [toNormal(p[0] as Tagged, rules), toNormal(p[1] as Tagged, rules)]),
        rules.mergeMaps ? 'map' : 'object',
        rules,
      );
    case '$float': {
      const v = specialNumber(body as Tagged);
      // Only an integral Python float (4.0, a PyFloat once decoded) is told apart from a plain
      // number: a non-integral float or a special value (-0, NaN, ±Infinity, as JS encodes
      // them) decodes to a JS number, so it must compare as one or a round trip would change it.
      if (typeof body === 'string') return numberNode(v, 'num', rules, false);
      return numberNode(v, Number.isInteger(v) ? 'float' : 'num', rules, true);
    }
    case '$int': {
      const digits = body as string;
      const v = Number(digits);
      const node = numberNode(v, 'int', rules, false) as Extract<Normal, { t: 'num' }>;
      return { ...node, big: Math.abs(v) >= SAFE ? BigInt(digits).toString() : null };
    }
    case '$complex': {
      const [re, im] = (body as Tagged[]).map((x) => specialNumber(complexPart(x)));
      // Python: complex(3, 0) == 3.
      if (rules.complexIsNumber && im === 0) return numberNode(re as number, 'float', rules, true);
      return { t: 'complex', re: re as number, im: im as number };
    }
    case '$bytes':
      return { t: 'bytes', v: body as string };
    case '$undefined':
      return { t: 'undef' };
    case '$date':
      return { t: 'date', v: body as string | null };
  }
  return mapNode(
    keys.map((k) => [{ t: 'str', v: k }, toNormal(t[k] as Tagged, rules)]),
    rules.mergeMaps ? 'map' : 'object',
    rules,
  );
};

const mapNode = (entries: Array<[Normal, Normal]>, k: string, rules: NormalRules): Normal => {
  return { t: 'map', k, entries: rules.orderedMaps ? entries : sortedByKey(entries, (e) => e[0]), key: null };
};

const numKey = (n: Extract<Normal, { t: 'num' }>): string => {
  if (n.big !== null) return `${n.k}:${n.big}`;
  if (Number.isNaN(n.v)) return `${n.k}:nan`;
  return `${n.k}:${n.v}`;
};

/**
 * An exact canonical string: equal keys mean equal values in the rules the form was made with.
 * A container keeps its key once made (sorting a set asks for its items' keys again and again);
 * a leaf's key is cheaper to make than to look up.
 */
export const normalKey = (n: Normal): string => {
  switch (n.t) {
    case 'null':
      return 'N';
    case 'undef':
      return 'U';
    case 'bool':
      return n.v ? 'T' : 'F';
    case 'num':
      return numKey(n);
    case 'complex':
      return `c:${n.re},${n.im}`;
    case 'str':
      return JSON.stringify(n.v);
    case 'bytes':
      return `b:${n.v}`;
    case 'date':
      return `d:${n.v}`;
    case 'seq':
    case 'set': {
      if (n.key !== null) return n.key;
      let body = '';
      for (let i = 0; i < n.items.length; i++) body += (i === 0 ? '' : ',') + normalKey(n.items[i] as Normal);
      n.key = `${n.k}[${body}]`;
      return n.key;
    }
    case 'map': {
      if (n.key !== null) return n.key;
      let body = '';
      for (let i = 0; i < n.entries.length; i++) {
        const [k, v] = n.entries[i] as [Normal, Normal];
        body += `${i === 0 ? '' : ','}${normalKey(k)}:${normalKey(v)}`;
      }
      n.key = `${n.k}{${body}}`;
      return n.key;
    }
  }
};

/** True when the form holds a finite float anywhere (only then can a tolerance matter). */
export const hasInexact = (n: Normal): boolean => {
  switch (n.t) {
    case 'num':
      return n.inexact;
    case 'complex':
      return Number.isFinite(n.re) || Number.isFinite(n.im);
    case 'seq':
    case 'set':
      return n.items.some(hasInexact);
    case 'map':
      return n.entries.some(([k, v]) => hasInexact(k) || hasInexact(v));
    default:
      return false;
  }
};

/** `math.isclose(a, b, rel_tol)` with NaN equal to NaN (agreement must be reflexive). */
export const isClose = (a: number, b: number, relTol: number): boolean => {
  if (a === b) return true;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= relTol * Math.max(Math.abs(a), Math.abs(b));
};

/** How {@link tolerantEqual} applies its tolerance. */
export interface Tolerance {
  readonly relTol: number;
  /** difftrust: ints and bools are within tolerance too; otherwise only two floats are. */
  readonly ints: boolean;
  /** difftrust: maps compare in iteration order; otherwise entries may match in any order. */
  readonly orderedMaps: boolean;
}

/**
 * Pairs each item of `a` with a distinct item of `b` it equals. Position by position first (the
 * common case: both sorted alike); then greedily, since close floats can sort on either side of
 * a third item by their keys.
 */
const matchAll = <T>(
  a: readonly T[],
  b: readonly T[],
  eq: (x: T, y: T) => boolean,
  ordered: boolean,
): boolean => {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && eq(a[i] as T, b[i] as T)) i++;
  if (i === a.length) return true;
  if (ordered) return false;
  const used = new Array<boolean>(b.length).fill(false);
  // Items of b before `lo` are all used: scans start there, so nearly aligned lists stay fast.
  let lo = i;
  for (; i < a.length; i++) {
    let found = false;
    for (let j = lo; j < b.length && !found; j++) {
      if (!used[j] && eq(a[i] as T, b[j] as T)) {
        used[j] = true;
        found = true;
      }
    }
    if (!found) return false;
    while (lo < b.length && used[lo]) lo++;
  }
  return true;
};

/** Structural comparison of two normal forms with a relative tolerance on floats. */
export const tolerantEqual = (a: Normal, b: Normal, tol: Tolerance): boolean => {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'num': {
      const y = b as typeof a;
      // An integral Python float and a non-integral number are both floats (see toNormal).
      const floatLike = (n: typeof a) => n.k === 'float' || (n.k === 'num' && !Number.isInteger(n.v));
      if (a.k !== y.k && !(floatLike(a) && floatLike(y))) return false;
      // Ints stay exact; a tolerance applies when either side is a float (math.isclose).
      if (tol.ints || a.inexact || y.inexact)
        return (a.big !== null && a.big === y.big) || isClose(a.v, y.v, tol.relTol);
      return numKey(a) === numKey(y);
    }
    case 'complex': {
      const y = b as typeof a;
      return isClose(a.re, y.re, tol.relTol) && isClose(a.im, y.im, tol.relTol);
    }
    case 'seq': {
      const y = b as typeof a;
      return a.k === y.k && matchAll(a.items, y.items, (p, q) => tolerantEqual(p, q, tol), true);
    }
    case 'set': {
      const y = b as typeof a;
      return a.k === y.k && matchAll(a.items, y.items, (p, q) => tolerantEqual(p, q, tol), false);
    }
    case 'map': {
      const y = b as typeof a;
      return (
        a.k === y.k &&
        matchAll(
          a.entries,
          y.entries,
          ([ka, va], [kb, vb]) => tolerantEqual(ka, kb, tol) && tolerantEqual(va, vb, tol),
          tol.orderedMaps,
        )
      );
    }
    // Leaves without a tolerance: equal keys. Made here without the key for the common ones.
    case 'str':
    case 'bytes':
    case 'bool':
      return a.v === (b as typeof a).v;
    case 'null':
    case 'undef':
      return true;
    default:
      return normalKey(a) === normalKey(b);
  }
};

/**
 * Whether no value can be within the tolerance of both `a` and `b`: `tolerantEqual(a, r, tol)`
 * and `tolerantEqual(b, r, tol)` hold for no `r`. A tolerance is not transitive (a ≈ r ≈ b
 * without a ≈ b), so two values that merely fail {@link tolerantEqual} may both equal the truth;
 * only values this far apart prove that one of them is wrong. Conservative: false when unsure.
 * Numbers: from |a − r| ≤ t·max(|a|, |r|) follows |r| ≤ |a| / (1 − t), so two values close to
 * one r are within 2t / (1 − t) of each other; this widens that by a millionth for rounding.
 * Ints are treated as if a tolerance applied (the truth may be a float close to both).
 */
export const apart = (a: Normal, b: Normal, relTol: number): boolean => {
  const wide = ((2 * relTol) / (1 - relTol)) * (1 + 1e-6);
  const far = (x: Normal, y: Normal): boolean => {
    // tolerantEqual needs equal tags, so no r matches two values of different tags.
    if (x.t !== y.t) return true;
    switch (x.t) {
      case 'num':
        return !isClose(x.v, (y as typeof x).v, wide);
      case 'complex': {
        const z = y as typeof x;
        return !isClose(x.re, z.re, wide) || !isClose(x.im, z.im, wide);
      }
      case 'seq': {
        const z = y as typeof x;
        if (x.k !== z.k || x.items.length !== z.items.length) return true;
        return x.items.some((item, i) => far(item, z.items[i] as Normal));
      }
      case 'set': {
        // r's items match a's one to one and b's one to one, so each item of a is near some item
        // of b; an item of a far from every item of b rules r out (whatever the order rule).
        const z = y as typeof x;
        if (x.k !== z.k || x.items.length !== z.items.length) return true;
        return x.items.some((item) => z.items.every((other) => far(item, other)));
      }
      case 'map': {
        const z = y as typeof x;
        if (x.k !== z.k || x.entries.length !== z.entries.length) return true;
        return x.entries.some(([ka, va]) => z.entries.every(([kb, vb]) => far(ka, kb) || far(va, vb)));
      }
      default:
        // Leaves without a tolerance compare exactly, and exact equality is transitive.
        return !tolerantEqual(x, y, { relTol, ints: false, orderedMaps: false });
    }
  };
  return far(a, b);
};
