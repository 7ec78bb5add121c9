import {
  type Comparator,
  comparator,
  type Equality,
  encode,
  PyFloat,
  type Tagged,
  Tuple,
} from '../values/index.ts';
import type { TriangulationSemantics } from './options.ts';
import { A, type Answers, answers, D, isSpecial, type Special, strongest, U } from './special.ts';

/** A truth value of the five-valued logic: a boolean or a special. @public */
export type Truth = boolean | Special;

/**
 * Equality, membership and the connectives under one semantics (design §1.3). Pure; the
 * quantifier lives in the hyperproperty context, which runs programs.
 * @public
 */
export interface Logic {
  equals(a: unknown, b: unknown): Truth;
  member(x: unknown, s: unknown): Truth;
  and(...ts: readonly Truth[]): Truth;
  or(...ts: readonly Truth[]): Truth;
  not(t: Truth): Truth;
  implies(a: Truth, b: Truth): Truth;
}

const tagCache = new WeakMap<object, Tagged | null>();

/** The tagged form of a value, or null when it has none (then it equals only itself). */
const tagged = (v: unknown): Tagged | null => {
  if (typeof v !== 'object' || v === null) {
    try {
      return encode(v);
    } catch {
      return null;
    }
  }
  let t = tagCache.get(v);
  if (t === undefined) {
    try {
      t = encode(v);
    } catch {
      t = null;
    }
    tagCache.set(v, t);
  }
  return t;
};

const hasSpecialElement = (v: unknown): v is readonly unknown[] => Array.isArray(v) && v.some(isSpecial);

/** The connective rule: on booleans the usual result, else the strongest special among the operands. */
const connective =
  (op: (xs: readonly boolean[]) => boolean) =>
  (...ts: readonly Truth[]): Truth =>
    strongest(...ts) ?? op(ts as readonly boolean[]);

/** A Python float as decoded: a non-integral number, −0, or an integral float's box (JS numbers count likewise). */
const isFloat = (v: unknown): v is number | PyFloat =>
  v instanceof PyFloat || (typeof v === 'number' && (!Number.isInteger(v) || Object.is(v, -0)));

/** `math.isclose(a, b)` with its defaults (relative 1e-9, absolute 0). */
const isClose = (a: number, b: number): boolean =>
  a === b ||
  (Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)));

const isList = (v: unknown): v is readonly unknown[] => Array.isArray(v) && !(v instanceof Tuple);

/** Builds the logic of a semantics and an equality. @public */
export const createLogic = (semantics: TriangulationSemantics, equality: Equality = 'python'): Logic => {
  const cmp: Comparator = comparator(equality);
  const builtin = typeof equality !== 'function';
  const exactInts = builtin && equality !== 'difftrust';
  // Decides plain data without the codec: true, false, or null when only the comparator can tell.
  const fast = (a: unknown, b: unknown, depth: number): boolean | null => {
    if (a === b) return true;
    const ta = typeof a;
    if (ta !== typeof b || !builtin) return null;
    if (ta === 'number') return exactInts && Number.isInteger(a) && Number.isInteger(b) ? false : null;
    if (ta === 'string') return false;
    if (
      depth < 8 &&
      Array.isArray(a) &&
      Array.isArray(b) &&
      Object.getPrototypeOf(a) === Array.prototype &&
      Object.getPrototypeOf(b) === Array.prototype
    ) {
      if (a.length !== b.length) return false;
      let unsure = false;
      for (let i = 0; i < a.length; i++) {
        const r = fast(a[i], b[i], depth + 1);
        if (r === false) return false;
        if (r === null) unsure = true;
      }
      return unsure ? null : true;
    }
    return null;
  };
  const toleranceEqual = (a: unknown, b: unknown): boolean => {
    const quick = fast(a, b, 0);
    if (quick !== null) return quick;
    const ta = tagged(a);
    const tb = tagged(b);
    if (ta === null || tb === null) return false;
    return cmp.equalTagged(ta, tb);
  };
  // The authors' checker: floats are close only between two floats (at the top level, or as
  // elements of two lists of one length); everything else is Python's exact `==`.
  const artifactCloseness = semantics.closeness === 'artifact' && equality === 'python';
  const exactEqual = (a: unknown, b: unknown): boolean => {
    const quick = fast(a, b, 0);
    if (quick !== null) return quick;
    const ta = tagged(a);
    const tb = tagged(b);
    if (ta === null || tb === null) return false;
    return cmp.prepare(ta).key === cmp.prepare(tb).key;
  };
  const flatEqual = (a: unknown, b: unknown): boolean =>
    isFloat(a) && isFloat(b) ? isClose(Number(a), Number(b)) : exactEqual(a, b);
  const artifactEqual = (a: unknown, b: unknown): boolean => {
    if (isList(a) && isList(b) && a.length === b.length) return a.every((x, i) => flatEqual(x, b[i]));
    return flatEqual(a, b);
  };
  const plainEqual = artifactCloseness ? artifactEqual : toleranceEqual;
  const elementEqual = artifactCloseness ? flatEqual : toleranceEqual;
  const equals = (a: unknown, b: unknown): Truth => {
    if (a === D || b === D) return D;
    if (a === A || b === A) return A;
    if (a === U && b === U) return true;
    if (a === U || b === U) return U;
    if (hasSpecialElement(a) || hasSpecialElement(b)) {
      const la = a as readonly unknown[];
      const lb = b as readonly unknown[];
      if (
        semantics.listEquality === 'artifact' &&
        Array.isArray(a) &&
        Array.isArray(b) &&
        la.length === lb.length
      ) {
        // The authors' checker compares equal-length lists element-wise, a special element equal to anything.
        return la.every((x, i) => isSpecial(x) || isSpecial(lb[i]) || elementEqual(x, lb[i]));
      }
      return strongest(...(Array.isArray(a) ? la : []), ...(Array.isArray(b) ? lb : [])) ?? false;
    }
    return plainEqual(a, b);
  };
  const member = (x: unknown, s: unknown): Truth => {
    if (x === U && s === U) return true;
    const set: Answers | Special = isSpecial(s) ? s : answers(s);
    if (isSpecial(set)) return strongest(x, set) as Special;
    if (x === U || x === D) return D;
    if (x === A) return semantics.angelicMember === 'true' ? true : A;
    for (const v of set.values) if (!isSpecial(v) && elementEqual(x, v)) return true;
    return set.exhaustive ? false : A;
  };
  return {
    equals,
    member,
    and: connective((xs) => xs.every(Boolean)),
    or: connective((xs) => xs.some(Boolean)),
    not: (t) => (isSpecial(t) ? t : !t),
    implies: connective(([a, b]) => !a || Boolean(b)),
  };
};

/** Whether an angelic share fails a ∀ under the semantics' threshold rule. @internal */
export const angelicFails = (angelic: number, domain: number, s: TriangulationSemantics): boolean => {
  if (domain === 0 || angelic === 0) return false;
  const share = angelic / domain;
  return s.thresholdRule === 'geq' ? share >= s.angelicThreshold : !(share < s.angelicThreshold);
};
