import type { Candidate } from '../candidates/index.ts';
import type { Args, Gen } from '../contract/index.ts';
import { CrosscheckError, describeValue, isCrosscheckError, toErrorInfo } from '../errors/index.ts';
import {
  describeOutcome,
  type IsolationUsed,
  type Outcome,
  outcomeDigest,
  type RunOptions,
  run,
} from '../exec/index.ts';
import { mulberry32 } from '../stats/index.ts';
import type { Task } from '../task/index.ts';
import { type Comparator, decode, encode } from '../values/index.ts';
import type { RelateContext, Relation } from './relation.ts';

/** One call of a relation check: which program ran, on what, and what it did. @public */
export interface RelationCall {
  /** The candidate's label, or the partner's. */
  readonly program: string;
  /** Whether the partner made this call (a follow-up of `inverse` or `equivalent`), not the candidate. */
  readonly byPartner: boolean;
  readonly args: Args;
  readonly outcome: Outcome;
}

/**
 * What one source input showed for one candidate:
 * - `held`: every follow-up related (or the relation had nothing to decide);
 * - `violated`: a pair of calls broke the relation, or a call did not return (error, timeout,
 *   crash, or a follow-up rejected as invalid);
 * - `skipped`: nothing to relate (the input is outside the Gen's valid inputs, the candidate
 *   rejected it as invalid, or an output was too large to keep).
 * @public
 */
export type PairEvaluation =
  | { readonly status: 'held'; readonly calls: readonly RelationCall[] }
  | {
      readonly status: 'violated';
      readonly reason: string;
      /** The source call and the follow-up call that broke the relation (or the source call alone). */
      readonly calls: readonly RelationCall[];
    }
  | { readonly status: 'skipped'; readonly reason: string; readonly calls: readonly RelationCall[] };

/** What evaluating a relation needs besides the candidate and the input. @internal */
export interface RelationSetup<A extends Args = Args> {
  readonly task: Task<A>;
  readonly relation: Relation<A>;
  readonly gen: Gen<A> | null;
  readonly validOnly: boolean;
  readonly compare: Comparator;
  readonly run: Omit<RunOptions, 'signal' | 'onProgress'> | undefined;
  /** Each call's isolation, for the record. */
  readonly onIsolation?: (used: IsolationUsed) => void;
}

/** A relation bug (its transform or relate threw, or returned what it may not): the check stops and reports it. */
const fault = (relation: Relation, what: string, fix: string, cause?: unknown): CrosscheckError => {
  const info = cause === undefined ? null : toErrorInfo(cause);
  const error = new CrosscheckError(
    'INVALID_RELATION',
    `relation "${relation.name}": ${what}${info ? ` (${info.name}: ${info.message})` : ''}. ${fix}`,
    { where: 'toSatisfyRelation' },
  );
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
};

/** Each user function gets its own copy of an input: one that mutates it cannot change the witness. */
const copy = <T>(x: T): T => decode(encode(x)) as T;

/** Different follow-ups of one input draw from different streams of the same seed. */
const randomFor = (seed: number, index: number): (() => number) =>
  mulberry32((seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0);

const didNotReturn = (o: Outcome): boolean =>
  o.kind === 'error' || o.kind === 'timeout' || o.kind === 'crash';

const runOne = async (
  setup: RelationSetup,
  task: Task,
  program: Candidate,
  inputs: readonly Args[],
): Promise<Outcome[]> => {
  if (inputs.length === 0) return [];
  const matrix = await run(task, [program], inputs, setup.run);
  setup.onIsolation?.(matrix.isolation);
  return [...(matrix.outcomes[0] ?? [])];
};

const buildFollowUp = <A extends Args>(
  relation: Relation<A>,
  args: A,
  seed: number,
  index: number,
  output: unknown,
): Args => {
  let next: unknown;
  try {
    next = relation.transform(copy(args), { random: randomFor(seed, index), seed, index, output });
  } catch (error) {
    if (isCrosscheckError(error)) throw error;
    throw fault(
      relation,
      `transform threw on the input ${describeValue(args)}`,
      'A transform must accept every input the Gen draws; narrow the Gen or make the transform total.',
      error,
    );
  }
  if (!Array.isArray(next))
    throw fault(
      relation,
      `transform must return the follow-up argument tuple (an array), got ${describeValue(next)}`,
      'Wrap single arguments: ([s]) => [s.trim()].',
    );
  return next as Args;
};

const decide = async <A extends Args>(
  setup: RelationSetup<A>,
  source: RelationCall,
  followUp: RelationCall,
  index: number,
): Promise<PairEvaluation | null> => {
  const calls = [source, followUp];
  const f = followUp.outcome;
  if (f.kind === 'invalid')
    return {
      status: 'violated',
      calls,
      reason:
        'the follow-up input was rejected as invalid while the source input was accepted: the program is wrong on one of them, or the transformation leaves the input domain',
    };
  if (didNotReturn(f))
    return { status: 'violated', calls, reason: `the follow-up call did not return (${describeOutcome(f)})` };
  const s = source.outcome;
  if (s.kind !== 'value' || f.kind !== 'value') return null;
  if (outcomeDigest(s) !== null || outcomeDigest(f) !== null)
    return {
      status: 'skipped',
      calls,
      reason: 'an output was past the output memory budget, kept only as a digest',
    };
  const ctx: RelateContext = {
    index,
    equals: (a, b) => setup.compare.equalTagged(encode(a), encode(b)),
  };
  let verdict: unknown;
  try {
    verdict = await setup.relation.relate(s.value, f.value, copy(source.args) as A, copy(followUp.args), ctx);
  } catch (error) {
    throw fault(
      setup.relation,
      `relate threw on ${source.program}'s outputs ${describeOutcome(s)} and ${describeOutcome(f)}`,
      'A relate must decide every pair of values a candidate can return: return false or a reason for outputs it does not expect.',
      error,
    );
  }
  if (verdict === true) return null;
  if (verdict === false) return { status: 'violated', calls, reason: 'relate returned false' };
  if (typeof verdict === 'string' && verdict !== '') return { status: 'violated', calls, reason: verdict };
  throw fault(
    setup.relation,
    `relate must return true, false or a non-empty reason string, got ${describeValue(verdict)}`,
    'Return true when the outputs are consistent, else false or why not.',
  );
};

/**
 * Runs one candidate on one source input and its follow-ups, and decides the relation. Throws
 * only for a bug of the relation (`INVALID_RELATION`) or of the setup (a run that cannot start);
 * everything a candidate does is an outcome.
 * @internal
 */
export const evaluatePair = async <A extends Args>(
  setup: RelationSetup<A>,
  candidate: Candidate,
  args: A,
  seed: number,
): Promise<PairEvaluation> => {
  const { relation, task } = setup;
  if (setup.validOnly && setup.gen?.accepts && !(await setup.gen.accepts(args)))
    return { status: 'skipped', reason: "outside the Gen's valid inputs", calls: [] };
  const partner = relation.partner;
  const partnerTask = (relation.partnerTask ?? task) as Task;
  const indexes = Array.from({ length: relation.followUps }, (_, i) => i);
  let sourceOutcome: Outcome;
  let followUps: Args[];
  let followOutcomes: Outcome[];
  if (!relation.fromOutput) {
    followUps = indexes.map((i) => buildFollowUp(relation, args, seed, i, undefined));
    if (partner === null) {
      const all = await runOne(setup, task as Task, candidate, [args, ...followUps]);
      sourceOutcome = all[0] as Outcome;
      followOutcomes = all.slice(1);
    } else {
      const [own, theirs] = await Promise.all([
        runOne(setup, task as Task, candidate, [args]),
        runOne(setup, partnerTask, partner, followUps),
      ]);
      sourceOutcome = own[0] as Outcome;
      followOutcomes = theirs;
    }
  } else {
    sourceOutcome = (await runOne(setup, task as Task, candidate, [args]))[0] as Outcome;
    followUps = [];
    followOutcomes = [];
  }
  const source: RelationCall = { program: candidate.label, byPartner: false, args, outcome: sourceOutcome };
  if (sourceOutcome.kind === 'invalid')
    return { status: 'skipped', reason: 'the candidate rejected the input as invalid', calls: [source] };
  if (didNotReturn(sourceOutcome))
    return {
      status: 'violated',
      reason: `the source call did not return (${describeOutcome(sourceOutcome)})`,
      calls: [source],
    };
  if (relation.fromOutput) {
    if (outcomeDigest(sourceOutcome) !== null)
      return {
        status: 'skipped',
        reason: 'an output was past the output memory budget, kept only as a digest',
        calls: [source],
      };
    const output = sourceOutcome.kind === 'value' ? sourceOutcome.value : undefined;
    followUps = indexes.map((i) => buildFollowUp(relation, args, seed, i, output));
    followOutcomes = await runOne(
      setup,
      partner === null ? (task as Task) : partnerTask,
      partner ?? candidate,
      followUps,
    );
  }
  const follower = partner?.label ?? candidate.label;
  const calls: RelationCall[] = [source];
  let skipped: PairEvaluation | null = null;
  for (const i of indexes) {
    const followUp: RelationCall = {
      program: follower,
      byPartner: partner !== null,
      args: followUps[i] as Args,
      outcome: followOutcomes[i] as Outcome,
    };
    calls.push(followUp);
    const decided = await decide(setup, source, followUp, i);
    if (decided?.status === 'violated') return decided;
    if (decided?.status === 'skipped') skipped ??= decided;
  }
  return skipped ?? { status: 'held', calls };
};
