import type { Candidate } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys, type OptionKeys } from '../errors/index.ts';
import type { Task } from '../task/index.ts';
import { comparator, type Equality, encode, toWire } from '../values/index.ts';
import {
  defineRelation,
  type RelateContext,
  type RelateResult,
  type Relation,
  type TransformContext,
} from './relation.ts';

/**
 * How a builder compares two outputs: an equality mode, or a function (which may be async, as
 * an LLM-judged equivalence is). @public
 */
export type OutputEquality = Equality | ((a: unknown, b: unknown) => boolean | Promise<boolean>);

/**
 * What of an output is compared: `'set'` (the elements of a list, order and repeats ignored),
 * `'multiset'` (order ignored, repeats kept), or a function that projects the output (a key, a
 * normalised text). @public
 */
export type OutputView = 'set' | 'multiset' | ((output: unknown) => unknown);

/** Options every comparing builder shares. @public */
export interface CompareOptions {
  /** Name shown in messages and records. */
  name?: string;
  /** @defaultValue the task's equality */
  equality?: OutputEquality;
  /** @defaultValue the whole output */
  view?: OutputView;
}

/** Options of {@link relations}.invariant. @public */
export interface InvariantOptions<A extends Args = Args> extends CompareOptions {
  name: string;
  /** The transformation the output must not notice. */
  transform: (input: A, ctx: TransformContext) => Args;
  /** @defaultValue 1 */
  followUps?: number;
}

/** Options of {@link relations}.permutation. @public */
export interface PermutationOptions extends CompareOptions {
  /** Which argument (an array) is shuffled. @defaultValue 0 */
  argument?: number;
  /** How many shuffles each input gets. @defaultValue 1 */
  followUps?: number;
}

/** Options of {@link relations}.inverse. @public */
export interface InverseOptions extends Omit<CompareOptions, 'view'> {
  /** Which argument the inverse recovers; the others are passed to it after the output. @defaultValue 0 */
  argument?: number;
  /** The task the inverse runs under. @defaultValue the checked task */
  partnerTask?: Task;
}

/** Options of {@link relations}.equivalent. @public */
export interface EquivalentOptions extends CompareOptions {
  /** The task the other program runs under. @defaultValue the checked task */
  partnerTask?: Task;
}

const COMPARE = { name: true, equality: true, view: true } as const;
const INVARIANT_KEYS = knownKeys<InvariantOptions>({ ...COMPARE, transform: true, followUps: true });
const PERMUTATION_KEYS = knownKeys<PermutationOptions>({ ...COMPARE, argument: true, followUps: true });
const INVERSE_KEYS = knownKeys<InverseOptions>({
  name: true,
  equality: true,
  argument: true,
  partnerTask: true,
});
const EQUIVALENT_KEYS = knownKeys<EquivalentOptions>({ ...COMPARE, partnerTask: true });

const options = <T extends object>(where: string, o: T | undefined, keys: OptionKeys): T => {
  if (o === undefined) return {} as T;
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new CrosscheckError(
      'INVALID_RELATION',
      `${where}: options must be an object, got ${describeValue(o)}.`,
      {
        where,
      },
    );
  checkKeys({ where, code: 'INVALID_RELATION' }, o, keys);
  return o;
};

/** Why a view cannot apply to an output (a reason for the failure), or the viewed output. */
type Viewed = { ok: true; value: unknown } | { ok: false; reason: string };

const elementsOf = (output: unknown): unknown[] | null =>
  Array.isArray(output) ? [...output] : output instanceof Set ? [...output] : null;

/** Sorts by each element's tagged wire text: a total order over every value the codec carries. */
const canonicalSort = (xs: unknown[]): unknown[] =>
  xs
    .map((x) => ({ x, key: toWire(x) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.x);

const applyView = async (view: OutputView | undefined, output: unknown): Promise<Viewed> => {
  if (view === undefined) return { ok: true, value: output };
  if (typeof view === 'function') return { ok: true, value: await view(output) };
  const xs = elementsOf(output);
  if (xs === null)
    return {
      ok: false,
      reason: `the output is not a list, so it has no ${view} view: got ${describeValue(output)}`,
    };
  // As a set: repeats collapse by canonical text, order is the canonical one.
  if (view === 'set')
    return { ok: true, value: [...new Map(canonicalSort(xs).map((x) => [toWire(x), x])).values()] };
  return { ok: true, value: canonicalSort(xs) };
};

const equalUnder = async (
  equality: OutputEquality | undefined,
  ctx: RelateContext,
  a: unknown,
  b: unknown,
) => {
  if (equality === undefined) return ctx.equals(a, b);
  if (typeof equality === 'function') return (await equality(a, b)) === true;
  return comparator(equality).equalTagged(encode(a), encode(b));
};

/** `relate` for "the two outputs are equal under the view and equality". */
const sameOutput =
  (o: CompareOptions) =>
  async (a: unknown, b: unknown, _i: Args, _f: Args, ctx: RelateContext): Promise<RelateResult> => {
    const [va, vb] = await Promise.all([applyView(o.view, a), applyView(o.view, b)]);
    if (!va.ok) return `source call: ${va.reason}`;
    if (!vb.ok) return `follow-up call: ${vb.reason}`;
    if (await equalUnder(o.equality, ctx, va.value, vb.value)) return true;
    const seen =
      o.view === undefined
        ? 'the outputs differ'
        : `the outputs differ as ${typeof o.view === 'string' ? `${o.view}s` : 'viewed'}`;
    return o.equality === undefined ? seen : `${seen} under the relation's equality`;
  };

const shuffled = (xs: readonly unknown[], random: () => number): unknown[] => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};

const makeError = (where: string, field: string, rule: string, got: unknown): CrosscheckError =>
  new CrosscheckError('INVALID_RELATION', `${where}: \`${field}\` ${rule}, got ${describeValue(got)}.`, {
    where,
  });

const argumentIndex = (where: string, k: unknown): number => {
  if (k === undefined) return 0;
  if (typeof k === 'number' && Number.isSafeInteger(k) && k >= 0) return k;
  throw makeError(where, 'argument', 'must be a non-negative integer (a position in the argument list)', k);
};

/**
 * Builders of the common metamorphic relations. Each returns a {@link Relation} for
 * `toSatisfyRelation` and `relationProperty`; `define` builds any other.
 * @public
 */
export const relations = Object.freeze({
  /** Any relation: see {@link defineRelation}. */
  define: defineRelation,

  /**
   * Invariance: the output on `transform(x)` equals the output on x (under `view` and
   * `equality`): adding irrelevant text, renaming, reformatting.
   */
  invariant: <A extends Args = Args>(o: InvariantOptions<A>): Relation<A> => {
    const where = 'relations.invariant(options)';
    const given = options(where, o, INVARIANT_KEYS);
    return defineRelation<A>({
      name: given.name,
      formula: `f(x) = f(T(x))${given.view ? ` as ${typeof given.view === 'string' ? `${given.view}s` : 'viewed'}` : ''}`,
      transform: given.transform,
      relate: sameOutput(given),
      ...(given.followUps === undefined ? {} : { followUps: given.followUps }),
    });
  },

  /**
   * Permutation invariance: shuffling the list in argument `argument` leaves the output equal
   * (`view: 'set'` or `'multiset'` when the output is a collection whose order follows the input's).
   */
  permutation: (o: PermutationOptions = {}): Relation => {
    const where = 'relations.permutation(options)';
    const given = options(where, o, PERMUTATION_KEYS);
    const k = argumentIndex(where, given.argument);
    return defineRelation({
      name: given.name ?? `invariant under reordering argument ${k}`,
      formula: `f(x) = f(x with argument ${k} shuffled)${given.view ? ` as ${typeof given.view === 'string' ? `${given.view}s` : 'viewed'}` : ''}`,
      transform: (input: Args, ctx: TransformContext) => {
        const xs = input[k];
        if (!Array.isArray(xs))
          throw makeError(where, 'argument', `names argument ${k}, which must be an array to shuffle`, xs);
        return [...input.slice(0, k), shuffled(xs, ctx.random), ...input.slice(k + 1)];
      },
      relate: sameOutput(given),
      ...(given.followUps === undefined ? {} : { followUps: given.followUps }),
    });
  },

  /**
   * An inverse pair across two programs (the FWD-INV clause of semantic triangulation,
   * q(p(i), ī) = i_k): the inverse, given the candidate's output and the other arguments,
   * recovers argument `argument`. A violation proves the candidate or the inverse wrong.
   */
  inverse: (inverse: Candidate | ((...args: never[]) => unknown), o: InverseOptions = {}): Relation => {
    const where = 'relations.inverse(inverse, options)';
    const given = options(where, o, INVERSE_KEYS);
    const k = argumentIndex(where, given.argument);
    return defineRelation({
      name: given.name ?? `inverse recovers argument ${k}`,
      formula: `q(f(x), x without argument ${k}) = x[${k}]`,
      fromOutput: true,
      partner: inverse,
      ...(given.partnerTask ? { partnerTask: given.partnerTask } : {}),
      transform: (input: Args, ctx: TransformContext) => [
        ctx.output,
        ...input.slice(0, k),
        ...input.slice(k + 1),
      ],
      relate: async (_out, recovered, input, _f, ctx) =>
        (await equalUnder(given.equality, ctx, recovered, input[k]))
          ? true
          : `the inverse does not recover argument ${k}`,
    });
  },

  /**
   * Equivalence of two independent programs or pipelines: on the same input, their outputs are
   * equal (under `view` and `equality`). A violation proves one of the two wrong.
   */
  equivalent: (other: Candidate | ((...args: never[]) => unknown), o: EquivalentOptions = {}): Relation => {
    const where = 'relations.equivalent(other, options)';
    const given = options(where, o, EQUIVALENT_KEYS);
    return defineRelation({
      name: given.name ?? 'equivalent to an independent program',
      formula: 'f(x) = g(x)',
      partner: other,
      ...(given.partnerTask ? { partnerTask: given.partnerTask } : {}),
      transform: (input: Args) => [...input],
      relate: sameOutput(given),
    });
  },
});
