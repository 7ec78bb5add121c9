import { type Candidate, fromSources, isCandidate } from '../candidates/index.ts';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import { type Outcome, type RunOptions, run } from '../exec/index.ts';
import type { Args } from '../inputs/index.ts';
import { defineTask, isTask, type Task } from '../task/index.ts';
import { comparator, type Equality, type PreparedValue } from '../values/index.ts';
import { ransac, type Selection } from './select.ts';
import { type TriangulateOptions, triangulate } from './triangulate.ts';

/** What a baseline decided, and on what. @public */
export interface BaselineResult {
  readonly method: 'plurality' | 'majority' | 'codet' | 'postcondition';
  readonly selection: Selection;
  /** Forward candidates by class of equal output vectors (plurality, majority); every sample, in order of first member. */
  readonly classes: readonly (readonly number[])[];
  /** Samples with at least one successful output. */
  readonly valid: number;
  /** Why it could not decide (no valid sample), or null. */
  readonly failure: string | null;
}

interface PluralityOptions {
  inputs: readonly Args[];
  equality?: Equality;
  run?: Omit<RunOptions, 'signal' | 'onProgress'>;
}

const check = (task: unknown, forward: unknown, where: string): void => {
  if (!isTask(task))
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: expected a task from defineTask(), got ${describeValue(task)}.`,
      { where },
    );
  if (!Array.isArray(forward) || forward.length === 0 || !forward.every(isCandidate)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${where}: \`forward\` must be a non-empty array of candidates, got ${describeValue(forward)}.`,
      { where },
    );
  }
};

/**
 * Output-vector classes as the authors' plurality builds them (design §1.7): every non-success
 * is one "uncertain" value equal to itself; samples with no success are dropped.
 * @internal
 */
export const outputClasses = (
  outcomes: readonly (readonly Outcome[])[],
  equality: Equality,
): { classes: number[][]; valid: number } => {
  const cmp = comparator(equality);
  const prepared = outcomes.map((row) =>
    row.map((o): PreparedValue | null => (o.kind === 'value' ? cmp.prepare(o.tagged) : null)),
  );
  const validIdx = prepared.map((row, i) => (row.some((x) => x !== null) ? i : -1)).filter((i) => i >= 0);
  const same = (a: number, b: number): boolean =>
    (prepared[a] as (PreparedValue | null)[]).every((x, j) => {
      const y = (prepared[b] as (PreparedValue | null)[])[j] ?? null;
      return x === null || y === null ? x === y : cmp.equal(x, y);
    });
  const classes: number[][] = [];
  for (const i of validIdx) {
    const c = classes.find((cl) => same(cl[0] as number, i));
    if (c) c.push(i);
    else classes.push([i]);
  }
  return { classes, valid: validIdx.length };
};

const runForward = async (task: Task, forward: readonly Candidate[], o: PluralityOptions) => {
  const bare = defineTask({
    name: task.name,
    timeoutMs: task.timeoutMs,
    ...(task.invalidInput ? { invalidInput: task.invalidInput } : {}),
  });
  const m = await run(bare, forward, o.inputs, o.run ?? {});
  return outputClasses(m.outcomes, o.equality ?? task.equality ?? 'python');
};

const largest = (classes: readonly number[][], accept: (size: number) => boolean): Selection => {
  let best: number[] | null = null;
  for (const c of classes)
    if (c.length >= 2 && accept(c.length) && (best === null || c.length > best.length)) best = c;
  return best
    ? { kind: 'selected', index: best[0] as number, score: best.length - 1 }
    : { kind: 'abstained' };
};

/**
 * Plurality (design §1.7): select the first member of the largest class of ≥ 2 equal output
 * vectors; abstain when every class is a singleton or no sample is valid.
 * @public
 */
export const plurality = async (
  task: Task,
  forward: readonly Candidate[],
  o: PluralityOptions,
): Promise<BaselineResult> => {
  check(task, forward, 'plurality(task, forward, options)');
  const { classes, valid } = await runForward(task, forward, o);
  return {
    method: 'plurality',
    selection: valid === 0 ? { kind: 'abstained' } : largest(classes, () => true),
    classes,
    valid,
    failure: valid === 0 ? 'no sample returned on any input' : null,
  };
};

/**
 * Majority: as plurality, keeping only a class holding more than `threshold` of the valid samples
 * (`strict`, the authors' code) or at least that share (the paper's wording).
 * @public
 */
export const majority = async (
  task: Task,
  forward: readonly Candidate[],
  o: PluralityOptions & { threshold?: number; strict?: boolean },
): Promise<BaselineResult> => {
  check(task, forward, 'majority(task, forward, options)');
  const threshold = o.threshold ?? 0.5;
  const strict = o.strict ?? true;
  const { classes, valid } = await runForward(task, forward, o);
  return {
    method: 'majority',
    selection:
      valid === 0
        ? { kind: 'abstained' }
        : largest(classes, (n) => (strict ? n / valid > threshold : n / valid >= threshold)),
    classes,
    valid,
    failure: valid === 0 ? 'no sample returned on any input' : null,
  };
};

/**
 * Postcondition baseline: RANSAC over (program, postconditions it satisfies), `post(i, p(i))`.
 * @public
 */
export const postcondition = async (
  task: Task,
  forward: readonly Candidate[],
  posts: readonly Candidate[],
  o: Omit<TriangulateOptions, 'transformation' | 'witnesses'>,
): Promise<BaselineResult> => {
  check(task, forward, 'postcondition(task, forward, posts)');
  const r = await triangulate(task, forward, {
    ...o,
    transformation: { kind: 'postcondition' },
    witnesses: posts,
  });
  return {
    method: 'postcondition',
    selection: r.selected
      ? { kind: 'selected', index: r.selected.index, score: r.selected.score }
      : { kind: 'abstained' },
    classes: [],
    valid: forward.length,
    failure: null,
  };
};

/**
 * CodeT (assert form): each test is a source program defining a zero-argument test function that
 * calls the forward function by its entry name; p passes t when the test returns without error.
 * Both are untrusted and run together in the sandbox. RANSAC over (program, tests passed).
 * @public
 */
export const codeT = async (
  task: Task,
  forward: readonly Candidate[],
  tests: readonly Candidate[],
  o: { run?: Omit<RunOptions, 'signal' | 'onProgress'> } = {},
): Promise<BaselineResult> => {
  const where = 'codeT(task, forward, tests)';
  check(task, forward, where);
  const src = [...forward, ...tests];
  if (!src.every((c) => c.kind === 'source')) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${where}: CodeT combines program and test sources; every forward candidate and test must come from fromSources.`,
      { where },
    );
  }
  const bare = defineTask({ name: task.name, timeoutMs: task.timeoutMs });
  const passed = await Promise.all(
    forward.map(async (p) => {
      if (p.kind !== 'source') return [];
      const combined = tests.map((t) =>
        t.kind === 'source'
          ? (fromSources([`${p.code}\n\n${t.code}\n`], {
              language: p.language,
              entry: t.entry,
            })[0] as Candidate)
          : t,
      );
      const m = await run(bare, combined, [[]], o.run ?? {});
      return m.outcomes.flatMap((row, j) => (row[0]?.kind === 'value' ? [(tests[j] as Candidate).id] : []));
    }),
  );
  return {
    method: 'codet',
    selection: ransac(passed.map((w) => ({ witnesses: w }))),
    classes: [],
    valid: forward.length,
    failure: null,
  };
};
