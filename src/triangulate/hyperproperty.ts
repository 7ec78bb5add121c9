import { CrosscheckError, checkKeys, describeValue } from '../errors/index.ts';
import type { Args } from '../inputs/index.ts';
import { encode, formatTagged, Tuple } from '../values/index.ts';
import type { Callable } from './calls.ts';
import { angelicFails, type Logic, type Truth } from './logic.ts';
import type { TriangulationSemantics } from './options.ts';
import { PythonRandom } from './python-random.ts';
import {
  A,
  type Answers,
  answers,
  D,
  isAnswers,
  isSpecial,
  type Special,
  showSpecial,
  tolerate,
  U,
} from './special.ts';

/**
 * Whether a value is too large for a computed domain under `smallValues`: an int outside
 * [−int, int], a str or list longer than `length`, at any depth of lists, tuples and dict values
 * (sets and floats are never too large), as the authors' checker's filter reads Python values.
 */
const tooLarge = (v: unknown, bound: { readonly int: number; readonly length: number }): boolean => {
  if (typeof v === 'bigint') return v < -BigInt(bound.int) || v > BigInt(bound.int);
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) && Math.abs(v) > bound.int;
  if (typeof v === 'string') return [...v].length > bound.length;
  if (v instanceof Tuple) return v.some((x) => tooLarge(x, bound));
  if (Array.isArray(v)) return v.length > bound.length || v.some((x) => tooLarge(x, bound));
  if (v instanceof Map) return [...v.values()].some((x) => tooLarge(x, bound));
  if (v instanceof Set) return false;
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
    return Object.values(v).some((x) => tooLarge(x, bound));
  return false;
};

/** One program call on the path to a failure. @public */
export interface TracedCall {
  readonly program: 'p' | 'q';
  readonly label: string;
  readonly call: string;
  readonly outcome: string;
}

/**
 * Why a pair fails: the clause, the element of its domain that broke it, every call made while
 * evaluating that element, and the result (`false`, `U`, `D`, or an angelic share at or above
 * the threshold).
 * @public
 */
export interface Counterexample {
  readonly clause: string;
  readonly input: string;
  readonly calls: readonly TracedCall[];
  readonly result: 'false' | 'U' | 'D' | 'angelic-share';
  readonly angelicShare: number | null;
}

/**
 * What a hyperproperty's `check` sees: the two input sides, the two programs (a special argument
 * means no call and the strongest special, EXEC_S) and the logic (design §3.5).
 * @public
 */
export interface HyperpropertyContext {
  readonly left: readonly Args[];
  readonly right: readonly Args[];
  readonly semantics: TriangulationSemantics;
  p(...args: unknown[]): Promise<unknown>;
  q(...args: unknown[]): Promise<unknown>;
  /**
   * ∀ x ∈ domain. body(x): empty is true; an A domain is true, D or U false; any false, D or U
   * element is false; then false when the angelic share reaches the threshold. `clause` names the
   * clause in counterexamples.
   */
  forAll<T = unknown>(
    domain: unknown,
    body: (x: T) => Promise<Truth> | Truth,
    options?: { maxDomain?: number; clause?: string },
  ): Promise<boolean>;
  equals(a: unknown, b: unknown): Truth;
  member(x: unknown, s: unknown): Truth;
  answers(v: unknown): Answers | Special;
  tolerate(v: unknown): unknown;
  and(...ts: Truth[]): Truth;
  or(...ts: Truth[]): Truth;
  not(t: Truth): Truth;
  implies(a: Truth, b: Truth): Truth;
}

/** A relation between a program and a witness (design §3.5). @public */
export interface Hyperproperty {
  readonly kind: 'hyperproperty';
  readonly name: string;
  readonly formula: string;
  /** Bijective relations let programs inherit witnesses (the artifact's pairing). */
  readonly bijective: boolean;
  /** `'enum'`: the ENUM-SINV stage limits (`enumMaxDomain`, `enumTimeoutFactor`). */
  readonly stage?: 'enum';
  check(h: HyperpropertyContext): Promise<Truth>;
}

const BRAND = Symbol.for('crosscheck.hyperproperty');

/**
 * A user relation between programs, checked by the same machinery as the built-ins.
 * @public
 */
export const defineHyperproperty = (spec: {
  name: string;
  formula: string;
  bijective: boolean;
  stage?: 'enum';
  check: (h: HyperpropertyContext) => Promise<Truth>;
}): Hyperproperty => {
  const where = 'defineHyperproperty(spec)';
  if (typeof spec !== 'object' || spec === null) {
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: expected { name, formula, bijective, check }, got ${describeValue(spec)}.`,
      { where },
    );
  }
  checkKeys({ where, noun: 'field' }, spec, {
    name: true,
    formula: true,
    bijective: true,
    stage: true,
    check: true,
  } satisfies Record<keyof typeof spec, true>);
  if (typeof spec.name !== 'string' || spec.name === '')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`name\` must be a non-empty string, got ${describeValue(spec.name)}.`,
      { where },
    );
  if (typeof spec.formula !== 'string')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`formula\` must be a string (shown in messages), got ${describeValue(spec.formula)}.`,
      { where },
    );
  if (typeof spec.bijective !== 'boolean')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`bijective\` must be true or false, got ${describeValue(spec.bijective)}. Say true only when φ induces a bijection between solution classes (Definition 2.1).`,
      { where },
    );
  if (typeof spec.check !== 'function')
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: \`check\` must be an async function (h) => Truth, got ${describeValue(spec.check)}.`,
      { where },
    );
  const h: Hyperproperty = {
    kind: 'hyperproperty',
    name: spec.name,
    formula: spec.formula,
    bijective: spec.bijective,
    ...(spec.stage ? { stage: spec.stage } : {}),
    check: spec.check,
  };
  Object.defineProperty(h, BRAND, { value: true });
  return Object.freeze(h);
};

/** True for a value from {@link defineHyperproperty}. @public */
export const isHyperproperty = (x: unknown): x is Hyperproperty =>
  typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;

/** A value as text for counterexamples. @internal */
export const show = (v: unknown): string => {
  const s = showSpecial(v);
  if (s !== null) return s === 'U' ? 'invalid (U)' : s === 'D' ? 'error (D)' : s;
  try {
    return formatTagged(encode(v));
  } catch {
    return String(v);
  }
};

/** An argument tuple as text: `("xyz", 3)`. @internal */
export const showArgs = (args: readonly unknown[]): string => `(${args.map(show).join(', ')})`;

class BudgetExceeded extends Error {}

const sampled = new Map<string, readonly number[]>();

/** Which indexes of a domain of n elements `random.sample` keeps (memoised: it depends on n, k, seed only). */
const sampleIndexes = (n: number, k: number, seed: number): readonly number[] => {
  const key = `${n},${k},${seed}`;
  let pick = sampled.get(key);
  if (!pick) {
    pick = new PythonRandom(seed).sample(
      Array.from({ length: n }, (_, i) => i),
      k,
    );
    if (sampled.size > 10_000) sampled.clear();
    sampled.set(key, pick);
  }
  return pick;
};

/** What checking one pair found. @public */
export type PairVerdict =
  | { readonly kind: 'holds'; readonly angelic: number; readonly domain: number }
  | { readonly kind: 'fails'; readonly counterexample: Counterexample | null }
  | { readonly kind: 'inherited'; readonly from: number }
  | { readonly kind: 'not-checked' }
  | { readonly kind: 'budget'; readonly calls: number };

/**
 * Checks φ(p, q) once. Never throws for a bad program; throws for a hyperproperty that throws
 * (the user's bug) and for aborts.
 * @internal
 */
export const checkHyperproperty = async (
  prop: Hyperproperty,
  p: Callable,
  q: Callable,
  sides: { left: readonly Args[]; right: readonly Args[] },
  logic: Logic,
  semantics: TriangulationSemantics,
  seed: number,
): Promise<PairVerdict> => {
  const enumStage = prop.stage === 'enum';
  const factor = enumStage ? semantics.enumTimeoutFactor : 1;
  const defaultMax = enumStage ? semantics.enumMaxDomain : semantics.maxDomain;
  const budget = semantics.callBudgetPerInput * Math.max(sides.left.length, sides.right.length, 1);
  let calls = 0;
  let clauses = 0;
  // Replaying the failing element to trace its calls must not count against the budget. The trace
  // is this pair's own: the replay starts after `check` settled, so only its calls arrive here. (An
  // AsyncLocalStorage would do the same, but once used it turns on promise hooks for the whole
  // process, which costs every later promise of every pair.)
  let replaying = false;
  const trace: TracedCall[] = [];
  const failures: Array<{
    order: number;
    clause: string;
    element: unknown;
    body: (x: never) => Promise<Truth> | Truth;
    result: Counterexample['result'];
    share: number | null;
  }> = [];
  let angelic = 0;
  let domainTotal = 0;
  const caller = (role: 'p' | 'q', c: Callable) => {
    const traced = async (args: unknown[]): Promise<unknown> => {
      const out = await c.call(args, factor);
      trace.push({ program: role, label: c.label, call: `${c.name}${showArgs(args)}`, outcome: show(out) });
      return out;
    };
    // The hot path returns the cached promise itself: no frame, no extra promise per call.
    return (...args: unknown[]): Promise<unknown> => {
      if (replaying) return traced(args);
      if (++calls > budget) return Promise.reject(new BudgetExceeded());
      return c.call(args, factor);
    };
  };
  const forAll: HyperpropertyContext['forAll'] = async (domain, body, options = {}) => {
    const order = options.clause === undefined ? -1 : clauses++;
    if (domain === A) return true;
    if (domain === D || domain === U) return false;
    // An answer contributes its values; anything that is not a list is one demonic element.
    const view = answers(domain);
    let elements: readonly unknown[] = isSpecial(view) ? [D] : view.values;
    // A domain a program computed (not one of the input sides, not their pairs) loses its large
    // values first under `smallValues`, as the authors' checker does.
    const small = semantics.smallValues;
    if (small && isAnswers(domain)) elements = elements.filter((x) => isSpecial(x) || !tooLarge(x, small));
    const max = options.maxDomain ?? defaultMax;
    if (elements.length > max) {
      const pick = sampleIndexes(elements.length, max, semantics.domainSampler === 'python' ? 42 : seed);
      const all = elements;
      elements = pick.map((i) => all[i]);
    }
    if (elements.length === 0) return true;
    // Untraced: the common case (a pair that holds) pays nothing for counterexamples.
    // body(x) directly, not through an async wrapper: one promise less per element.
    const results = await Promise.all(elements.map((x) => body(x as never)));
    let bad = -1;
    let nA = 0;
    results.forEach((r, i) => {
      if (r === A) nA++;
      else if (r !== true && bad < 0) bad = i;
    });
    if (options.clause !== undefined && !replaying) {
      angelic += nA;
      domainTotal += elements.length;
    }
    const fails = bad >= 0 || angelicFails(nA, elements.length, semantics);
    if (fails && options.clause !== undefined && !replaying) {
      const at = bad >= 0 ? bad : results.indexOf(A);
      const r = results[at];
      failures.push({
        order,
        clause: options.clause,
        element: elements[at],
        body,
        result: bad < 0 ? 'angelic-share' : r === U ? 'U' : r === D ? 'D' : 'false',
        share: bad < 0 ? nA / elements.length : null,
      });
    }
    return !fails;
  };
  const h: HyperpropertyContext = {
    left: sides.left,
    right: sides.right,
    semantics,
    p: caller('p', p),
    q: caller('q', q),
    forAll,
    equals: logic.equals,
    member: logic.member,
    answers,
    tolerate,
    and: logic.and,
    or: logic.or,
    not: logic.not,
    implies: logic.implies,
  };
  try {
    const r = await prop.check(h);
    if (r === true) return { kind: 'holds', angelic, domain: domainTotal };
    failures.sort((a, b) => a.order - b.order);
    const f = failures[0];
    if (!f) return { kind: 'fails', counterexample: null };
    // Replays the failing element with tracing on; its calls are cached, so this runs nothing new.
    replaying = true;
    await f.body(f.element as never);
    return {
      kind: 'fails',
      counterexample: {
        clause: f.clause,
        input: Array.isArray(f.element) ? showArgs(f.element as unknown[]) : show(f.element),
        calls: trace,
        result: f.result,
        angelicShare: f.share,
      },
    };
  } catch (error) {
    if (error instanceof BudgetExceeded) return { kind: 'budget', calls: budget };
    throw error;
  }
};
