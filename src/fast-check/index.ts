/**
 * `crosscheck/fast-check`: the bridge from crosscheck to property-based tests. A task and its
 * candidates become a fast-check async property, "every candidate agrees on this input", that runs
 * under `fc.assert`, `@fast-check/vitest`'s `test.prop` and `@fast-check/jest`, with fast-check's
 * shrinking and replay by seed and path.
 *
 * ```ts
 * const property = coherenceProperty(task, candidates);
 * await fc.assert(property, { numRuns: 200 });
 * // or: test.prop(property.arbitraries)('candidates agree', property.assertCoherent);
 * ```
 * @packageDocumentation
 */
import fc from 'fast-check';
import { type Candidate, isCandidate } from '../candidates/index.ts';
import { type Args, type Gen, isGen } from '../contract/index.ts';
import { CrosscheckError, describeValue, knownKeys, readFlag, readOptions } from '../errors/index.ts';
import { describeOutcome, type Outcome, RUN_LIMIT_KEYS, type RunOptions, run } from '../exec/index.ts';
import { type Cell, defaultEquality, relate, toCell } from '../measure/index.ts';
import type { CrosscheckRecord } from '../report/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { comparator, type Equality, toWire } from '../values/index.ts';
import { type BridgeInfo, installRecorder, noteEvaluation, noteStart } from './record.ts';

export { recordPropertyRuns } from './record.ts';

// Every fc.assert / fc.check / test.prop run of a bridge property writes a `property` record.
installRecorder();

/** Options of {@link coherenceProperty}. @public */
export interface CoherenceOptions<A extends Args = Args> {
  /**
   * Where inputs come from: a Gen with an arbitrary (every `gen.*` source), or any fast-check
   * arbitrary over the argument tuple. Default: the task's `inputs`.
   */
  inputs?: Gen<A> | fc.Arbitrary<A>;
  /** How outputs are compared. Default: the task's equality, else by the pool's languages: `'python'` for Python, `'mixed'` for several languages, else `'strict'`. */
  equality?: Equality;
  /**
   * Skip (as a fast-check precondition) inputs that the task's reference or the Gen's validity
   * filters reject, so witnesses are always valid inputs.
   * @defaultValue true
   */
  validOnly?: boolean;
  /**
   * Errors agree when their class names match; with this, their messages must match too (as in
   * `measure` and `detect`).
   * @defaultValue false
   */
  compareErrorMessages?: boolean;
  /** Execution limits for each run. */
  run?: Omit<RunOptions, 'signal' | 'onProgress'>;
}

/** One disagreement: the input and the classes of candidates that agree with each other. @public */
export interface Disagreement<A extends Args = Args> {
  readonly args: A;
  /** Candidate labels grouped by agreeing outcome, largest group first. */
  readonly classes: ReadonlyArray<{ readonly labels: readonly string[]; readonly outcome: string }>;
}

/** The property, plus what `test.prop` needs and a direct check. @public */
export interface CoherenceProperty<A extends Args = Args> extends fc.IAsyncPropertyWithHooks<[A]> {
  /** For `test.prop(property.arbitraries)(name, property.assertCoherent)`. */
  readonly arbitraries: [fc.Arbitrary<A>];
  /** The property body: throws an error describing the disagreement; `fc.pre(false)` for invalid inputs. */
  readonly assertCoherent: (args: A) => Promise<void>;
  /** Runs the candidates on one input: the disagreement, or null when they all agree (or it is skipped). */
  readonly findDisagreement: (args: A) => Promise<Disagreement<A> | null>;
  /**
   * The `property` records of this property's fast-check runs in this process, oldest first
   * (the reporters receive them through the host entry, `crosscheck/vitest` or `crosscheck/jest`).
   */
  readonly records: readonly CrosscheckRecord[];
}

const WHERE = 'coherenceProperty(task, candidates, options)';

const COHERENCE_KEYS = knownKeys<CoherenceOptions>({
  inputs: true,
  equality: true,
  validOnly: true,
  compareErrorMessages: true,
  run: RUN_LIMIT_KEYS,
});

/**
 * The arbitrary a bridge draws from: `inputs` (a Gen with an arbitrary, a fast-check arbitrary,
 * or a list of tuples), else the task's inputs. `where` names the API in errors. @internal
 */
export const arbitraryOf = <A extends Args>(
  task: Task<A>,
  inputs: Gen<A> | fc.Arbitrary<A> | readonly A[] | undefined,
  where: string = WHERE,
): fc.Arbitrary<A> => {
  const source = inputs ?? task.inputs;
  if (source instanceof fc.Arbitrary) return source;
  if (isGen(source)) {
    if (source.arbitrary) return source.arbitrary as fc.Arbitrary<A>;
    throw new CrosscheckError(
      'INVALID_OPTION',
      `${where}: the Gen "${source.description}" has no fast-check arbitrary, so fast-check cannot draw from it. Use a gen.* source, or pass { inputs: fc.tuple(...) }.`,
      { where },
    );
  }
  if (Array.isArray(source) && source.length > 0) return fc.constantFrom(...(source as A[]));
  throw new CrosscheckError(
    'INVALID_OPTION',
    `${where}: \`inputs\` must be a Gen from gen.*, a fast-check arbitrary over the argument tuple, or a non-empty list of tuples (here or in defineTask({ inputs })), got ${describeValue(source)}.`,
    { where },
  );
};

/**
 * A fast-check async property: "every candidate agrees on this input". Inputs come from the
 * task's Gen (or `options.inputs`); when they disagree, the property fails with the candidate
 * classes, and fast-check shrinks the input and prints the seed and path to replay it.
 * A run in which fewer than two candidates ever return a value is inconclusive (identical
 * failures are not agreement): crosscheck's fast-check plugin then fails `fc.assert`/`fc.check`
 * with an `InconclusivePropertyError` at the end of the run.
 * @public
 */
export const coherenceProperty = <A extends Args = Args>(
  task: Task<A>,
  candidates: readonly Candidate[],
  options: CoherenceOptions<A> = {},
): CoherenceProperty<A> => {
  if (!isTask(task)) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `${WHERE}: \`task\` must come from defineTask(), got ${describeValue(task)}.`,
      {
        where: WHERE,
      },
    );
  }
  if (!Array.isArray(candidates) || candidates.length < 2 || !candidates.every(isCandidate)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${WHERE}: \`candidates\` must be an array of at least two candidates (from fromFunctions or fromSources), got ${describeValue(candidates)}. Agreement needs two programs to compare.`,
      { where: WHERE },
    );
  }
  const opts = readOptions<CoherenceOptions<A>>(
    { where: WHERE },
    options,
    COHERENCE_KEYS,
    '{ validOnly: true }',
  );
  const arbitrary = arbitraryOf(task, opts.inputs);
  const rules = {
    compare: comparator(opts.equality ?? defaultEquality(task, candidates)),
    compareErrorMessages: readFlag(
      { where: WHERE, field: 'compareErrorMessages' },
      opts.compareErrorMessages,
      false,
    ),
  };
  const validOnly = opts.validOnly ?? true;
  const gen = isGen(opts.inputs) ? opts.inputs : isGen(task.inputs) ? task.inputs : null;
  const bridge: BridgeInfo = {
    property: 'coherenceProperty',
    task: task.name,
    candidates,
    gen:
      gen?.description ??
      (Array.isArray(opts.inputs ?? task.inputs) ? 'a fixed list of inputs' : 'a fast-check arbitrary'),
    records: [],
    needsTwoReturning: true,
  };

  const evaluate = async (args: A): Promise<Disagreement<A> | 'skip' | null> => {
    noteStart(bridge);
    if (validOnly && gen?.accepts && !(await gen.accepts(args))) return 'skip';
    const matrix = await run(task, candidates, [args], opts.run);
    if (validOnly && matrix.reference && matrix.reference.outcomes[0]?.kind !== 'value') return 'skip';
    const outcomes = matrix.outcomes.map((row) => row[0] as Outcome);
    const classes: Array<{ labels: string[]; outcome: Outcome; cell: Cell }> = [];
    outcomes.forEach((o, i) => {
      const label = matrix.candidates[i]?.label ?? `#${i}`;
      const cell = toCell(o, rules);
      // A pair the digests of kept-short outputs cannot decide is no disagreement.
      const home = classes.find((c) => relate(c.cell, cell, rules.compare) !== false);
      if (home) home.labels.push(label);
      else classes.push({ labels: [label], outcome: o, cell });
    });
    noteEvaluation(bridge, {
      args,
      labels: matrix.candidates.map((c, i) => c?.label ?? `#${i}`),
      outcomes,
      reference: matrix.reference?.outcomes[0] ?? null,
      isolation: matrix.isolation,
      classes: classes.length < 2 ? null : classes,
    });
    if (classes.length < 2) return null;
    classes.sort((a, b) => b.labels.length - a.labels.length);
    return { args, classes: classes.map((c) => ({ labels: c.labels, outcome: describeOutcome(c.outcome) })) };
  };

  const findDisagreement = async (args: A): Promise<Disagreement<A> | null> => {
    const found = await evaluate(args);
    return found === 'skip' ? null : found;
  };

  const assertCoherent = async (args: A): Promise<void> => {
    const found = await evaluate(args);
    if (found === 'skip') {
      fc.pre(false);
      return;
    }
    if (found === null) return;
    const lines = found.classes.map((c) => `  ${c.labels.join(', ')} → ${c.outcome}`);
    const input = toWire(args);
    const shown = input.length > 300 ? `${input.slice(0, 297)}...` : input;
    throw new Error(`The candidates disagree on ${shown}:\n${lines.join('\n')}`);
  };

  // Names chosen not to shadow the fields of fast-check's own property object.
  const property = fc.asyncProperty(arbitrary, assertCoherent);
  return Object.assign(property, {
    arbitraries: [arbitrary] as [fc.Arbitrary<A>],
    assertCoherent,
    findDisagreement,
    records: bridge.records,
  });
};

/** The recorder's hooks, for the other bridges (`relationProperty` in src/metamorphic). @internal */
export { type BridgeInfo, noteEvaluation, noteStart } from './record.ts';
