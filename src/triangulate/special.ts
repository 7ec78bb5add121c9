import type { Outcome } from '../exec/index.ts';
import { Tuple } from '../values/index.ts';

/**
 * The three special values of the triangulation semantics (paper Fig. 7; design §1.2): U, an
 * input the program declared invalid; A, angelic (an invalid input tolerated, or a value that may
 * lie in the unknown rest of a Subset answer); D, demonic (an error, a timeout, a crash).
 * @public
 */
export interface Special {
  readonly special: 'A' | 'D' | 'U';
}

/** @public */
export const U: Special = Object.freeze({ special: 'U' as const });
/** @public */
export const A: Special = Object.freeze({ special: 'A' as const });
/** @public */
export const D: Special = Object.freeze({ special: 'D' as const });

/** True for U, A and D. @public */
export const isSpecial = (x: unknown): x is Special => x === U || x === A || x === D;

const RANK = { U: 1, A: 2, D: 3 } as const;

/** The strongest special among the values (D > A > U), or null when none is special. @public */
export const strongest = (...xs: readonly unknown[]): Special | null => {
  let best: Special | null = null;
  for (const x of xs) {
    if (isSpecial(x) && (best === null || RANK[x.special] > RANK[best.special])) best = x;
  }
  return best;
};

/** U becomes A (also inside a list); everything else is itself. @public */
export const tolerate = (v: unknown): unknown => {
  if (v === U) return A;
  if (Array.isArray(v) && v.some((x) => x === U)) {
    const out = v.map((x) => (x === U ? A : x));
    return v instanceof Tuple ? Object.setPrototypeOf(out, Object.getPrototypeOf(v)) : out;
  }
  return v;
};

/**
 * A set-valued answer (the paper's V*): `exhaustive` (Full) lists every value; otherwise it is a
 * Subset of an unknown, possibly infinite set.
 * @public
 */
export interface Answers {
  readonly values: readonly unknown[];
  readonly exhaustive: boolean;
}

const ANSWERS = Symbol.for('crosscheck.triangulate.answers');

/** Builds an answer on the host (union composition). @internal */
export const makeAnswers = (values: readonly unknown[], exhaustive: boolean): Answers =>
  Object.freeze({ values, exhaustive, [ANSWERS]: true });

/** Whether a value is an {@link Answers} view. @internal */
export const isAnswers = (x: unknown): x is Answers =>
  typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[ANSWERS] === true;

/**
 * What a JavaScript set-valued witness returns for a Subset: `{ exhaustive: false, values }`
 * (Python witnesses return the pair `(False, values)`). A plain array is a Full answer.
 * @public
 */
export const subset = (values: readonly unknown[]): { exhaustive: false; values: unknown[] } => ({
  exhaustive: false,
  values: [...values],
});

/**
 * The answer view of a set-valued program's result: a list is Full, a pair `(is_exhaustive,
 * values)` (or `{ exhaustive, values }`) is Full or Subset, a special stays itself, anything else
 * is D (the artifact's `_full_or_partial`).
 * @public
 */
export const answers = (v: unknown): Answers | Special => {
  if (isSpecial(v)) return v;
  if (isAnswers(v)) return v;
  if (Array.isArray(v)) {
    if (v instanceof Tuple) {
      if (v.length === 2 && typeof v[0] === 'boolean' && Array.isArray(v[1]) && !(v[1] instanceof Tuple)) {
        return makeAnswers(v[1] as unknown[], v[0]);
      }
      return D;
    }
    return makeAnswers(v, true);
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as { exhaustive?: unknown; values?: unknown };
    if (typeof o.exhaustive === 'boolean' && Array.isArray(o.values) && Object.keys(o).length === 2) {
      return makeAnswers(o.values, o.exhaustive);
    }
  }
  return D;
};

/**
 * The value of one call's outcome: a returned value is itself; `invalid` is U (under
 * `invalidMessage`, only with exactly that message; any other invalid is D); an error, a timeout
 * or a crash is D.
 * @public
 */
export const fromOutcome = (o: Outcome, invalidMessage: string | null): unknown => {
  switch (o.kind) {
    case 'value':
      return o.value;
    case 'invalid':
      return invalidMessage === null || o.message === invalidMessage ? U : D;
    default:
      return D;
  }
};

/** A value for messages: specials by letter, answers as Full/Subset. @internal */
export const showSpecial = (v: unknown): string | null => {
  if (isSpecial(v)) return v.special;
  if (isAnswers(v)) return `${v.exhaustive ? 'Full' : 'Subset'}(${v.values.length} values)`;
  return null;
};
