import fc from 'fast-check';
import { type Candidate, isCandidate } from '../candidates/index.ts';
import { type Args, type Gen, isGen } from '../contract/index.ts';
import {
  CrosscheckError,
  describeValue,
  isCrosscheckError,
  knownKeys,
  readFlag,
  readOptions,
  readPositiveInt,
  readSeed,
  toErrorInfo,
} from '../errors/index.ts';
import {
  combineIsolation,
  type IsolationUsed,
  type OutcomeKind,
  RUN_LIMIT_KEYS,
  type RunOptions,
  uniqueLabels,
} from '../exec/index.ts';
import { arbitraryOf } from '../fast-check/index.ts';
import { DEFAULT_SEED, defaultEquality } from '../measure/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { comparator, type Equality } from '../values/index.ts';
import { evaluatePair, type PairEvaluation, type RelationCall, type RelationSetup } from './evaluate.ts';
import { isRelation, type Relation } from './relation.ts';

/** Options of `toSatisfyRelation` and {@link checkRelation}. @public */
export interface RelationCheckOptions<A extends Args = Args> {
  /**
   * Where source inputs come from: a Gen with an arbitrary (every `gen.*` source), a fast-check
   * arbitrary over the argument tuple, or a list of tuples. Default: the task's `inputs`.
   */
  inputs?: Gen<A> | fc.Arbitrary<A> | readonly A[];
  /**
   * Source inputs fast-check draws per candidate (its `numRuns`), each run with its follow-ups.
   * @defaultValue 100
   */
  numRuns?: number;
  /** fast-check's seed: the same seed draws the same inputs for every candidate. @defaultValue 42 */
  seed?: number;
  /**
   * fast-check's path to a counterexample, printed with a violation: with `seed`, it replays that
   * candidate's shrunk violation (pass that candidate alone).
   */
  path?: string;
  /**
   * Skip source inputs the Gen's validity filters reject.
   * @defaultValue true
   */
  validOnly?: boolean;
  /** The equality `relate` receives as `ctx.equals`. @defaultValue the task's, else the language default */
  equality?: Equality;
  /** Execution limits for each run. */
  run?: Omit<RunOptions, 'signal' | 'onProgress'>;
}

/** @internal */
export const RELATION_CHECK_KEYS = knownKeys<RelationCheckOptions>({
  inputs: true,
  numRuns: true,
  seed: true,
  path: true,
  validOnly: true,
  equality: true,
  run: RUN_LIMIT_KEYS,
});

/** A violation, shrunk by fast-check, with both calls. @public */
export interface RelationViolation {
  /** Why the pair breaks the relation (relate's reason, or the call that did not return). */
  readonly reason: string;
  /** The shrunk source input. */
  readonly input: Args;
  /** The source input as first found. */
  readonly original: Args;
  /** The source call, then the follow-up call that broke the relation (absent when the source call did not return). */
  readonly calls: readonly RelationCall[];
  /** The seed `transform` drew from on the shrunk input. */
  readonly transformSeed: number;
  /** fast-check's path: `{ seed, path }` replays this violation. */
  readonly path: string;
  readonly shrinks: number;
}

/** One candidate's part of a relation check. @public */
export interface CandidateRelationResult {
  readonly label: string;
  /** `violated` proves this candidate (or the partner) wrong on one of the two calls shown. */
  readonly verdict: 'held' | 'violated' | 'inconclusive';
  /** Source inputs drawn before the first violation (or all of them). */
  readonly runs: number;
  /** Of those, the inputs whose calls were related (the evidence of a `held`). */
  readonly checked: number;
  /** Inputs with nothing to relate, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
  /** Outcomes of this candidate's calls (follow-ups included, shrinking excluded). */
  readonly outcomes: Readonly<Record<OutcomeKind, number>>;
  readonly violation: RelationViolation | null;
  /** Why a verdict is inconclusive, else null. */
  readonly inconclusive: string | null;
}

/** The result of {@link checkRelation}. @public */
export interface RelationCheck {
  readonly task: string;
  readonly relation: { readonly name: string; readonly formula: string; readonly partner: string | null };
  readonly gen: string;
  readonly seed: number;
  readonly numRuns: number;
  readonly candidates: readonly CandidateRelationResult[];
  /** `violated` when any candidate violated; `held` when every one held; else `inconclusive`. */
  readonly verdict: 'held' | 'violated' | 'inconclusive';
  readonly isolation: IsolationUsed | null;
  readonly durationMs: number;
}

const WHERE = 'toSatisfyRelation(relation, candidates, options)';

const genName = <A extends Args>(task: Task<A>, inputs: RelationCheckOptions<A>['inputs']): string => {
  const source = inputs ?? task.inputs;
  if (isGen(source)) return source.description;
  return Array.isArray(source) ? 'a fixed list of inputs' : 'a fast-check arbitrary';
};

/** Checks what every relation API checks; throws a typed error naming what to fix. @internal */
export const checkRelationArgs = (
  where: string,
  task: unknown,
  relation: unknown,
  candidates: unknown,
): void => {
  if (!isTask(task))
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: the task must come from defineTask(), got ${describeValue(task)}.`,
      {
        where,
      },
    );
  if (!isRelation(relation))
    throw new CrosscheckError(
      'INVALID_RELATION',
      `${where}: \`relation\` must come from relations.* or defineRelation(), got ${describeValue(relation)}. Build one with relations.permutation() or relations.define({ name, transform, relate }).`,
      { where },
    );
  if (!Array.isArray(candidates) || candidates.length < 1 || !candidates.every(isCandidate))
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${where}: \`candidates\` must be a non-empty array of candidates (from candidates.fromFunctions, fromSources or fromModel), got ${describeValue(candidates)}. A relation checks each program on its own, so one is enough.`,
      { where },
    );
};

/** The setup every candidate of a check shares. @internal */
export const relationSetup = <A extends Args>(
  task: Task<A>,
  relation: Relation<A>,
  candidates: readonly Candidate[],
  options: Pick<RelationCheckOptions<A>, 'inputs' | 'validOnly' | 'equality' | 'run'>,
  onIsolation: (used: IsolationUsed) => void,
): RelationSetup<A> => {
  const gen = isGen(options.inputs)
    ? options.inputs
    : options.inputs === undefined && isGen(task.inputs)
      ? task.inputs
      : null;
  return {
    task,
    relation,
    gen,
    validOnly: options.validOnly ?? true,
    compare: comparator(options.equality ?? defaultEquality(task as Task, candidates)),
    run: options.run,
    onIsolation,
  };
};

/** Seeds for `transform`: any 31-bit integer, shrinking towards 0. */
export const transformSeeds = (): fc.Arbitrary<number> => fc.integer({ min: 0, max: 0x7fffffff });

interface Tally {
  runs: number;
  checked: number;
  skipped: Record<string, number>;
  outcomes: Record<OutcomeKind, number>;
  first: { args: Args } | null;
  last: { args: Args; seed: number; evaluation: Extract<PairEvaluation, { status: 'violated' }> } | null;
  fault: unknown;
}

const checkOne = async <A extends Args>(
  setup: RelationSetup<A>,
  candidate: Candidate,
  label: string,
  arbitrary: fc.Arbitrary<A>,
  params: { seed: number; numRuns: number; path: string | undefined },
): Promise<CandidateRelationResult> => {
  const t: Tally = {
    runs: 0,
    checked: 0,
    skipped: {},
    outcomes: { value: 0, invalid: 0, error: 0, timeout: 0, crash: 0 },
    first: null,
    last: null,
    fault: null,
  };
  const property = fc.asyncProperty(arbitrary, transformSeeds(), async (args, seed) => {
    // After a relation bug, fail fast and let fast-check's shrinking end: the run is void.
    if (t.fault !== null) return true;
    let evaluation: PairEvaluation;
    try {
      evaluation = await evaluatePair(setup, candidate, args, seed);
    } catch (error) {
      t.fault = error;
      return false;
    }
    const shrinking = t.first !== null;
    if (!shrinking) {
      t.runs++;
      for (const call of evaluation.calls) if (!call.byPartner) t.outcomes[call.outcome.kind]++;
      if (evaluation.status === 'held') t.checked++;
      if (evaluation.status === 'skipped')
        t.skipped[evaluation.reason] = (t.skipped[evaluation.reason] ?? 0) + 1;
    }
    if (evaluation.status !== 'violated') return true;
    t.first ??= { args };
    // fast-check shrinks by descending into failing values, so the last failure is the one it reports.
    t.last = { args, seed, evaluation };
    return false;
  });
  const details = await fc.check(property, {
    seed: params.seed,
    numRuns: params.numRuns,
    ...(params.path === undefined ? {} : { path: params.path, endOnFailure: true }),
  });
  if (t.fault !== null) throw t.fault;
  if (details.failed && t.last === null) {
    // fast-check itself failed (the arbitrary threw, say): not a verdict on the candidate.
    const info = toErrorInfo(details.errorInstance);
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${WHERE}: fast-check could not draw inputs for ${label} (${info.name}: ${info.message}). Check the Gen or arbitrary in \`inputs\`.`,
      { where: WHERE },
    );
  }
  const violation: RelationViolation | null =
    t.last === null
      ? null
      : {
          reason: t.last.evaluation.reason,
          input: t.last.args,
          original: t.first?.args ?? t.last.args,
          calls: t.last.evaluation.calls.map((c) => (c.byPartner ? c : { ...c, program: label })),
          transformSeed: t.last.seed,
          path: details.counterexamplePath ?? '',
          shrinks: details.numShrinks,
        };
  const inconclusive =
    violation === null && t.checked === 0
      ? `no source input gave a pair of values to relate (${t.runs} drawn${
          Object.keys(t.skipped).length > 0
            ? `; ${Object.entries(t.skipped)
                .map(([why, k]) => `${k} ${why}`)
                .join('; ')}`
            : ''
        })`
      : null;
  return {
    label,
    verdict: violation ? 'violated' : inconclusive ? 'inconclusive' : 'held',
    runs: t.runs,
    checked: t.checked,
    skipped: t.skipped,
    outcomes: t.outcomes,
    violation,
    inconclusive,
  };
};

/**
 * Checks a metamorphic relation on each candidate on its own: fast-check draws source inputs
 * (the same ones for every candidate, from one seed), runs the candidate on each and on its
 * follow-ups, and shrinks the first violation. A violation proves the candidate (or the partner)
 * wrong on at least one of the two calls; a relation that held proves only that these draws
 * showed no violation.
 * @public
 */
export const checkRelation = async <A extends Args = Args>(
  task: Task<A>,
  relation: Relation<A>,
  candidates: readonly Candidate[],
  rawOptions: RelationCheckOptions<A> = {},
): Promise<RelationCheck> => {
  const started = performance.now();
  checkRelationArgs(WHERE, task, relation, candidates);
  const options = readOptions<RelationCheckOptions<A>>(
    { where: WHERE },
    rawOptions,
    RELATION_CHECK_KEYS,
    '{ numRuns: 50 }',
  );
  const numRuns = readPositiveInt({ where: WHERE, field: 'numRuns' }, options.numRuns, 100);
  const seed = readSeed({ where: WHERE, field: 'seed' }, options.seed, DEFAULT_SEED);
  const validOnly = readFlag({ where: WHERE, field: 'validOnly' }, options.validOnly, true);
  if (options.path !== undefined && (typeof options.path !== 'string' || !/^\d+(:\d+)*$/.test(options.path)))
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${WHERE}: \`path\` must be fast-check's path as printed with a violation (digits and colons, "3:0:1"), got ${describeValue(options.path)}.`,
      { where: WHERE },
    );
  const arbitrary = arbitraryOf(task, options.inputs, WHERE);
  let isolation: IsolationUsed | null = null;
  const setup = relationSetup(task, relation, candidates, { ...options, validOnly }, (used) => {
    isolation = isolation === null ? used : combineIsolation(isolation, used);
  });
  const labels = uniqueLabels(candidates.map((c) => c.label));
  const params = { seed, numRuns, path: options.path };
  const settled = await Promise.allSettled(
    candidates.map((c, i) => checkOne(setup, c, labels[i] ?? c.label, arbitrary, params)),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const results = settled.map((s) => (s as PromiseFulfilledResult<CandidateRelationResult>).value);
  const verdict = results.some((r) => r.verdict === 'violated')
    ? 'violated'
    : results.every((r) => r.verdict === 'held')
      ? 'held'
      : 'inconclusive';
  return {
    task: task.name,
    relation: { name: relation.name, formula: relation.formula, partner: relation.partner?.label ?? null },
    gen: genName(task, options.inputs),
    seed,
    numRuns,
    candidates: results,
    verdict,
    isolation,
    durationMs: performance.now() - started,
  };
};

/** Whether an error is a relation's own bug, not the candidate's. @internal */
export const isRelationFault = (error: unknown): boolean =>
  isCrosscheckError(error) && (error as CrosscheckError).code === 'INVALID_RELATION';
