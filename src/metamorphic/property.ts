import fc from 'fast-check';
import type { Candidate } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import { CrosscheckError, checkKeys, describeValue, knownKeys } from '../errors/index.ts';
import {
  combineIsolation,
  describeOutcome,
  type IsolationUsed,
  RUN_LIMIT_KEYS,
  uniqueLabels,
} from '../exec/index.ts';
import { arbitraryOf, type BridgeInfo, noteEvaluation, noteStart } from '../fast-check/index.ts';
import type { CrosscheckRecord } from '../report/index.ts';
import type { Task } from '../task/index.ts';
import { toWire } from '../values/index.ts';
import { checkRelationArgs, type RelationCheckOptions, relationSetup, transformSeeds } from './check.ts';
import { evaluatePair, type PairEvaluation, type RelationCall } from './evaluate.ts';
import type { Relation } from './relation.ts';

/** Options of {@link relationProperty}: those of `toSatisfyRelation` that are not fast-check's own. @public */
export type RelationPropertyOptions<A extends Args = Args> = Pick<
  RelationCheckOptions<A>,
  'inputs' | 'validOnly' | 'equality' | 'run'
>;

const KEYS = knownKeys<RelationPropertyOptions>({
  inputs: true,
  validOnly: true,
  equality: true,
  run: RUN_LIMIT_KEYS,
});

/** One candidate's violation on one input: why, and the calls that show it. @public */
export interface CandidateViolation {
  readonly label: string;
  readonly reason: string;
  readonly calls: readonly RelationCall[];
}

/** The relation as a fast-check property over (input, transform seed). @public */
export interface RelationProperty<A extends Args = Args> extends fc.IAsyncPropertyWithHooks<[A, number]> {
  /** For `test.prop(property.arbitraries)(name, property.assertRelation)`. */
  readonly arbitraries: [fc.Arbitrary<A>, fc.Arbitrary<number>];
  /** The property body: throws listing each violating candidate with both calls; `fc.pre(false)` when no candidate had a pair to relate. */
  readonly assertRelation: (args: A, seed: number) => Promise<void>;
  /** Runs every candidate on one input: the violations, or an empty list (also when skipped). */
  readonly findViolations: (args: A, seed: number) => Promise<CandidateViolation[]>;
  /** The `property` records of this property's fast-check runs in this process, oldest first. */
  readonly records: readonly CrosscheckRecord[];
}

const WHERE = 'relationProperty(task, relation, candidates, options)';

const MAX_SHOWN = 300;
const shown = (x: unknown): string => {
  let text: string;
  try {
    text = toWire(x);
  } catch {
    text = fc.stringify(x);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 3)}...` : text;
};

/** `label(args) → outcome`: one call as a line of a message. @internal */
export const callLine = (call: RelationCall): string =>
  `${call.program} on ${shown(call.args)} → ${describeOutcome(call.outcome)}`;

/**
 * A fast-check async property: "every candidate keeps the relation on this input". It draws the
 * input and a seed for the relation's transform; a violation fails with both calls of each
 * violating candidate, and fast-check shrinks it and prints the seed and path to replay.
 * @public
 */
export const relationProperty = <A extends Args = Args>(
  task: Task<A>,
  relation: Relation<A>,
  candidates: readonly Candidate[],
  options: RelationPropertyOptions<A> = {},
): RelationProperty<A> => {
  checkRelationArgs(WHERE, task, relation, candidates);
  if (typeof options !== 'object' || options === null)
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: options must be an object, got ${describeValue(options)}. Pass e.g. { validOnly: true }.`,
      { where: WHERE },
    );
  checkKeys({ where: WHERE }, options, KEYS);
  const arbitrary = arbitraryOf(task, options.inputs, WHERE);
  let isolation: IsolationUsed | null = null;
  const setup = relationSetup(task, relation, candidates, options, (used) => {
    isolation = isolation === null ? used : combineIsolation(isolation, used);
  });
  const labels = uniqueLabels(candidates.map((c) => c.label));
  const source = options.inputs ?? task.inputs;
  const bridge: BridgeInfo = {
    property: 'relationProperty',
    task: task.name,
    candidates,
    gen: Array.isArray(source)
      ? 'a fixed list of inputs'
      : source && 'description' in source
        ? String(source.description)
        : 'a fast-check arbitrary',
    records: [],
    witnessReason: 'relation violated',
    ...(relation.partner ? { alsoCalled: [relation.partner] } : {}),
  };

  const evaluate = async (args: A, seed: number): Promise<CandidateViolation[] | 'skip'> => {
    noteStart(bridge);
    isolation = null;
    const evaluations: PairEvaluation[] = await Promise.all(
      candidates.map((c) => evaluatePair(setup, c, args, seed)),
    );
    const violations: CandidateViolation[] = [];
    evaluations.forEach((e, i) => {
      if (e.status === 'violated')
        violations.push({ label: labels[i] ?? `#${i}`, reason: e.reason, calls: e.calls });
    });
    // Each candidate's own calls count for it in the record's tally, in order.
    const calls = evaluations.flatMap((e, i) =>
      e.calls.filter((c) => !c.byPartner).map((c) => ({ label: labels[i] ?? `#${i}`, c })),
    );
    const first = violations[0];
    noteEvaluation(bridge, {
      args,
      labels: calls.map((x) => x.label),
      outcomes: calls.map((x) => x.c.outcome),
      reference: null,
      isolation: isolation ?? 'none',
      classes: first
        ? first.calls.map((c) => ({ labels: [`${c.program} on ${shown(c.args)}`], outcome: c.outcome }))
        : null,
    });
    if (violations.length > 0) return violations;
    return evaluations.every((e) => e.status === 'skipped') ? 'skip' : [];
  };

  const findViolations = async (args: A, seed: number): Promise<CandidateViolation[]> => {
    const found = await evaluate(args, seed);
    return found === 'skip' ? [] : found;
  };

  const assertRelation = async (args: A, seed: number): Promise<void> => {
    const found = await evaluate(args, seed);
    if (found === 'skip') {
      fc.pre(false);
      return;
    }
    if (found.length === 0) return;
    const lines = found.flatMap((v) => [
      `  ${v.label}: ${v.reason}`,
      ...v.calls.map((c) => `    ${callLine(c)}`),
    ]);
    throw new Error(
      `Relation "${relation.name}" (${relation.formula}) is violated on ${shown(args)} (transform seed ${seed}):\n${lines.join('\n')}\nEach violating candidate (or the partner) is wrong on at least one of its two calls.`,
    );
  };

  const property = fc.asyncProperty(arbitrary, transformSeeds(), assertRelation);
  return Object.assign(property, {
    arbitraries: [arbitrary, transformSeeds()] as [fc.Arbitrary<A>, fc.Arbitrary<number>],
    assertRelation,
    findViolations,
    records: bridge.records,
  });
};
