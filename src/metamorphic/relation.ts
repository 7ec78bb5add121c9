import { type Candidate, fromFunctions, isCandidate } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import { isTask, type Task } from '../task/index.ts';

/** What a relation's `transform` may use besides the input. @public */
export interface TransformContext {
  /**
   * A uniform number in [0, 1), from a seed fast-check draws with the input: it shrinks and
   * replays with it, so a random transformation (a shuffle) is reproduced exactly.
   */
  readonly random: () => number;
  /** That seed. */
  readonly seed: number;
  /** Which follow-up is being built, 0 to `followUps − 1`. */
  readonly index: number;
  /**
   * The program's output on the source input, for relations whose follow-up is built from it
   * (`fromOutput: true`, as in an inverse: decode(encode(x))); undefined otherwise.
   */
  readonly output: unknown;
}

/** What a relation's `relate` may use besides the two outputs and inputs. @public */
export interface RelateContext {
  /** Which follow-up this is, 0 to `followUps − 1`. */
  readonly index: number;
  /** The task's equality (its `equality`, else the default for the candidates' language). */
  readonly equals: (a: unknown, b: unknown) => boolean;
}

/**
 * `true`: the relation holds on this pair of calls. `false` or a string (the reason, shown in the
 * failure): it is violated. Anything else is a bug of the relation and is reported as one.
 * @public
 */
export type RelateResult = boolean | string;

/** What {@link defineRelation} accepts. @public */
export interface RelationSpec<A extends Args = Args> {
  /** Short name, shown in messages and records (`invariant under reordering`). */
  name: string;
  /** The relation as a formula, shown in messages. @defaultValue `name` */
  formula?: string;
  /**
   * Builds the follow-up input from the source input. It receives its own copy of the input, so
   * it may mutate it. Must be deterministic given its context (use `ctx.random`, never
   * `Math.random`), or shrinking and replay find another input.
   */
  transform: (input: A, ctx: TransformContext) => Args;
  /**
   * Decides the relation on one pair of calls that both returned a value. Calls that did not
   * return are decided before it runs (see the reference), so it only ever sees values; it may
   * be async (an LLM-judged equivalence).
   */
  relate: (
    output: unknown,
    followUpOutput: unknown,
    input: A,
    followUpInput: Args,
    ctx: RelateContext,
  ) => RelateResult | Promise<RelateResult>;
  /**
   * How many follow-up inputs each source input gets (each related to the source on its own).
   * @defaultValue 1
   */
  followUps?: number;
  /**
   * The follow-up input is built from the source call's output (`ctx.output`): the source call
   * runs first, and an input on which it does not return a value has no follow-up.
   * @defaultValue false
   */
  fromOutput?: boolean;
  /**
   * Who runs the follow-up input: absent, the candidate itself; else this program (a decoder, an
   * independent pipeline), a candidate or a trusted function. A violation then proves that the
   * candidate or the partner is wrong on one of the two calls.
   */
  partner?: Candidate | ((...args: never[]) => unknown);
  /** The task the partner runs under (its entry point, equality, invalid-input classes). @defaultValue the checked task */
  partnerTask?: Task;
}

/** A validated relation, from {@link defineRelation} or a `relations.*` builder. @public */
export interface Relation<A extends Args = Args> {
  readonly kind: 'relation';
  readonly name: string;
  readonly formula: string;
  readonly followUps: number;
  readonly fromOutput: boolean;
  readonly partner: Candidate | null;
  readonly partnerTask: Task | null;
  // Methods, not function fields: a relation over a narrower tuple type is still a Relation<Args>.
  transform(input: A, ctx: TransformContext): Args;
  relate(
    output: unknown,
    followUpOutput: unknown,
    input: A,
    followUpInput: Args,
    ctx: RelateContext,
  ): RelateResult | Promise<RelateResult>;
}

const BRAND = Symbol.for('crosscheck.relation');
const WHERE = 'defineRelation(spec)';

const SPEC_KEYS = knownKeys<RelationSpec>({
  name: true,
  formula: true,
  transform: true,
  relate: true,
  followUps: true,
  fromOutput: true,
  partner: true,
  partnerTask: true,
});

const bad = (field: string, rule: string, got: unknown, fix: string): never => {
  throw new CrosscheckError(
    'INVALID_RELATION',
    `${WHERE}: \`${field}\` ${rule}, got ${describeValue(got)}. ${fix}`,
    { where: WHERE },
  );
};

const partnerOf = (partner: unknown): Candidate | null => {
  if (partner === undefined) return null;
  if (isCandidate(partner)) return partner;
  if (typeof partner === 'function') {
    const [only] = fromFunctions({ [partner.name || 'partner']: partner as (...args: never[]) => unknown });
    return only ?? null;
  }
  return bad(
    'partner',
    'must be a candidate or a function',
    partner,
    'Pass one program, e.g. candidates.fromFunctions([decode])[0], or the function itself.',
  );
};

/**
 * A metamorphic relation: the follow-up input `transform` builds from each source input, and
 * `relate`, which decides whether the two outputs are consistent. Throws a `CrosscheckError`
 * (`INVALID_RELATION`) naming the bad field.
 * @public
 */
export const defineRelation = <A extends Args = Args>(spec: RelationSpec<A>): Relation<A> => {
  if (typeof spec !== 'object' || spec === null) {
    throw new CrosscheckError(
      'INVALID_RELATION',
      `${WHERE}: expected { name, transform, relate }, got ${describeValue(spec)}.`,
      { where: WHERE },
    );
  }
  checkKeys({ where: WHERE, noun: 'field', code: 'INVALID_RELATION' }, spec, SPEC_KEYS);
  if (typeof spec.name !== 'string' || spec.name.trim() === '')
    bad(
      'name',
      'must be a non-empty string',
      spec.name,
      'Name what the relation says, e.g. "sum is invariant under reordering".',
    );
  if (spec.formula !== undefined && typeof spec.formula !== 'string')
    bad(
      'formula',
      'must be a string (shown in messages)',
      spec.formula,
      'Pass e.g. "f(x) = f(reverse(x))", or leave it out.',
    );
  if (typeof spec.transform !== 'function')
    bad(
      'transform',
      'must be a function (input, ctx) => follow-up input',
      spec.transform,
      'Return the follow-up argument tuple, e.g. ([xs]) => [[...xs].reverse()].',
    );
  if (typeof spec.relate !== 'function')
    bad(
      'relate',
      'must be a function (output, followUpOutput, input, followUpInput, ctx) => boolean | reason',
      spec.relate,
      'Return true when the outputs are consistent, else false or a reason.',
    );
  const followUps = spec.followUps ?? 1;
  if (!Number.isSafeInteger(followUps) || followUps < 1 || followUps > 100)
    bad('followUps', 'must be an integer from 1 to 100', spec.followUps, 'Pass e.g. { followUps: 3 }.');
  if (spec.fromOutput !== undefined && typeof spec.fromOutput !== 'boolean')
    bad(
      'fromOutput',
      'must be true or false',
      spec.fromOutput,
      'Say true only when transform reads ctx.output.',
    );
  if (spec.partnerTask !== undefined && !isTask(spec.partnerTask))
    bad(
      'partnerTask',
      'must come from defineTask()',
      spec.partnerTask,
      "Define the partner's task with defineTask({ name, entry }).",
    );
  const relation: Relation<A> = {
    kind: 'relation',
    name: spec.name,
    formula: spec.formula ?? spec.name,
    followUps,
    fromOutput: spec.fromOutput === true,
    partner: partnerOf(spec.partner),
    partnerTask: spec.partnerTask ?? null,
    transform: spec.transform,
    relate: spec.relate,
  };
  Object.defineProperty(relation, BRAND, { value: true });
  return Object.freeze(relation);
};

/** True for a value from {@link defineRelation} or a `relations.*` builder. @public */
export const isRelation = (x: unknown): x is Relation =>
  typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
