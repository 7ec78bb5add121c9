import type { Candidate } from '../candidates/index.ts';
import { type Outcome, run } from '../exec/index.ts';
import type { Args } from '../inputs/index.ts';
import { type Measurement, type MeasureOptions, measure } from '../measure/index.ts';
import type { Task } from '../task/index.ts';
import { tallyCalls } from './ledger.ts';
import type { ResolvedReviewOptions } from './options.ts';
import { bareTask, type ExtraScenario, reviewTraced, showOutcome, syntaxOf } from './review.ts';
import type { Review, ReviewLlmRecord } from './types.ts';

/** One equivalence class of a pool and its review. @public */
export interface ReviewedClass {
  /** Indexes into the pool, in pool order; the first is the representative. */
  readonly members: readonly number[];
  readonly labels: readonly string[];
  /** members / pool size. */
  readonly share: number;
  /** The representative's review. */
  readonly review: Review;
  /** Members that gave the representative's exact output on every judged input: they inherit its verdict. */
  readonly inherited: readonly string[];
  /**
   * Members whose verdict is not known: their output differed from the representative's on a
   * judged input, or nothing was judged to compare on.
   */
  readonly unverified: readonly string[];
}

/** The result of {@link reviewPool}. @public */
export interface PoolReview {
  readonly classes: readonly ReviewedClass[];
  /** Labels of the candidates accepted: representatives of accepted classes and the members inheriting. */
  readonly accepted: readonly string[];
  /** The incoherence measurement that formed the classes. */
  readonly measurement: Measurement;
  /** Every model call of every class review. */
  readonly llm: ReviewLlmRecord;
}

/** Measure options a pool review passes on to form the classes. @public */
export type PoolMeasureOptions = Pick<MeasureOptions, 'n' | 'seed' | 'inputs' | 'equality'>;

/**
 * Composition with incoherence: `measure()` groups the pool into equivalence classes on the
 * task's inputs; the first member of each class (pool order) gets a full grounded review; the
 * other members run on the inputs it was judged on and inherit its verdict only where every
 * output is identical (identical triples get identical judgments). A member that differs there is
 * reported as unverified, never silently accepted. Scenario and property requests are identical for
 * every representative, so a cache serves them once.
 * @internal — the public entry is `reviewPool` in index.ts.
 */
export const reviewPoolWith = async (
  task: Task,
  pool: readonly Candidate[],
  o: ResolvedReviewOptions,
  measureOptions: PoolMeasureOptions,
  where: string,
  disagreements = true,
): Promise<PoolReview> => {
  const measurement = await measure(task, pool, {
    ...measureOptions,
    run: o.run,
    signal: o.signal,
  } as MeasureOptions);
  const bare = bareTask(task);
  const extra = disagreements ? await disagreementScenario(bare, pool, measurement, o) : null;
  const classes: ReviewedClass[] = [];
  for (const cls of measurement.classes) {
    const rep = pool[cls.members[0] as number] as Candidate;
    const { review, judged } = await reviewTraced(task, rep, o, where, extra);
    const others = cls.members.slice(1).map((i) => pool[i] as Candidate);
    const inherited: string[] = [];
    const unverified: string[] = [];
    if (others.length > 0) {
      if (judged.length === 0) {
        // Nothing was judged (early stop, no scenarios): there is no triple to inherit.
        unverified.push(...others.map((c) => c.label));
      } else {
        const matrix = await run(
          bare,
          others,
          judged.map((j) => j.args),
          { ...o.run, signal: o.signal },
        );
        others.forEach((c, r) => {
          const same = judged.every(
            (j, k) => showOutcome(matrix.outcomes[r]?.[k] as Outcome, syntaxOf(rep)) === j.output,
          );
          (same ? inherited : unverified).push(c.label);
        });
      }
    }
    classes.push({
      members: cls.members,
      labels: cls.labels,
      share: cls.share,
      review,
      inherited,
      unverified,
    });
  }
  const calls = classes.flatMap((c) => c.review.llm.calls);
  const first = classes[0]?.review.llm;
  return {
    classes,
    accepted: classes.flatMap((c) => (c.review.verdict === 'accept' ? [rep(c), ...c.inherited] : [])),
    measurement,
    llm: tallyCalls(calls, first?.generatorModel ?? o.llm.model, first?.judgeModel ?? o.judge.model),
  };
};

const rep = (c: ReviewedClass): string => c.labels[0] as string;

/**
 * S*: the inputs on which the pool's classes differ, judged for every class, so the judge
 * arbitrates exactly the disagreements incoherence found: the shrunk witness first, then, for
 * each pair of classes, the first input (in draw order) where their representatives' outputs
 * differ; at most twice the inputs kept per scenario. Null when the pool agrees everywhere.
 */
const disagreementScenario = async (
  bare: Task,
  pool: readonly Candidate[],
  m: Measurement,
  o: ResolvedReviewOptions,
): Promise<ExtraScenario | null> => {
  if (m.classes.length < 2) return null;
  const reps = m.classes.map((c) => pool[c.members[0] as number] as Candidate);
  const matrix = await run(bare, reps, m.inputs, { ...o.run, signal: o.signal });
  const shown = reps.map((c, r) =>
    m.inputs.map((_, j) => showOutcome(matrix.outcomes[r]?.[j] as Outcome, syntaxOf(c))),
  );
  const picked: Args[] = m.witness ? [m.witness.args] : [];
  const taken = new Set<number>();
  for (let a = 0; a < reps.length; a++)
    for (let b = a + 1; b < reps.length; b++) {
      const j = m.inputs.findIndex((_, x) => shown[a]?.[x] !== shown[b]?.[x]);
      if (j >= 0 && !taken.has(j)) {
        taken.add(j);
        picked.push(m.inputs[j] as Args);
      }
    }
  const cap = 2 * o.inputsPerScenario;
  const seen = new Set<string>();
  const inputs = picked.filter((args) => {
    const key = JSON.stringify(args, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    scenario: {
      id: 'S*',
      title: 'inputs where the samples disagree',
      category: 'disagreement between samples',
      choice: `the ${m.classes.length} classes of the pool give different outputs`,
      preconditions: 'none stated: the judge decides from the specification alone',
      behavior: '',
    },
    inputs: inputs.slice(0, cap),
  };
};
