import { loadCandidates, loadTasks } from '../bench/index.ts';
import { type Candidate, fromSources } from '../candidates/index.ts';
import { CrosscheckError } from '../errors/index.ts';
import { gen } from '../inputs/index.ts';
import { measure } from '../measure/index.ts';
import {
  type ClassificationInterval,
  type Confusion,
  classificationInterval,
  confusion,
  correctStability,
  type LabelStability,
  mcc,
  p4,
} from '../stats/index.ts';
import { defineTask, type Task } from '../task/index.ts';
import { decode, type Equality, type Tagged } from '../values/index.ts';
import type { ResolvedReviewOptions } from './options.ts';
import { reviewWith } from './review.ts';
import type { Review } from './types.ts';

/** One reviewed program of the benchmark and its verdicts over the reruns. @public */
export interface ReviewBenchItem {
  readonly task: string;
  readonly model: string;
  readonly sample: number;
  /** Error against the reference is 0 on the truth inputs. */
  readonly truth: boolean;
  /** Error against the reference on the truth inputs (null when nothing could be compared). */
  readonly error: number | null;
  readonly runs: ReadonlyArray<{
    readonly seed: number;
    readonly verdict: Review['verdict'];
    readonly reason: Review['reason'];
    readonly score: number | null;
    readonly tokens: number;
    readonly costUsd: number | null;
  }>;
}

/** Classification figures of one rerun, or of all reruns pooled. @public */
export interface ReviewBenchFigures {
  readonly confusion: Confusion;
  /** 0 on a degenerate matrix (see `stats.mcc`). */
  readonly mcc: number;
  /** 0 on a degenerate matrix (see `stats.p4`). */
  readonly p4: number;
  /** Verdicts that were `inconclusive` (labelled "incorrect": not accepted). */
  readonly inconclusive: number;
}

/** What {@link runReviewBench} returns. @public */
export interface ReviewBenchResult {
  readonly items: readonly ReviewBenchItem[];
  readonly perRun: readonly ReviewBenchFigures[];
  /**
   * Means of MCC and P4 over all `perRun.length` reruns (the paper's reporting); a degenerate
   * rerun counts with MCC and P4 0. Null without reruns.
   */
  readonly meanMcc: number | null;
  readonly meanP4: number | null;
  readonly stability: { readonly correct: LabelStability; readonly incorrect: LabelStability };
  /**
   * MCC and P4 over every rerun pooled, with a 95 % percentile-bootstrap interval over programs;
   * refused (with the reason) below 20 programs or 5 of either truth, where a figure says little.
   */
  readonly intervals: { readonly mcc: ClassificationInterval; readonly p4: ClassificationInterval };
  /** Tokens (prompt + completion, live and replayed) per task per rerun. */
  readonly tokensPerTask: number;
  readonly calls: number;
  readonly liveCalls: number;
  readonly costUsd: number | null;
  /** Tasks left out, with why. */
  readonly skipped: ReadonlyArray<{ readonly task: string; readonly reason: string }>;
}

/** Options of {@link runReviewBench}. @public */
export interface ReviewBenchOptions {
  /** Dataset directory (`tasks.jsonl.gz`, `candidates/<model>.jsonl.gz`), with references. */
  readonly data: string;
  /** Models whose candidates are reviewed. */
  readonly models: readonly string[];
  /** Task ids to use; all when absent. */
  readonly tasks?: readonly string[];
  /** At most this many tasks (after `tasks`). */
  readonly limit?: number;
  /** Samples per task and model considered. @defaultValue 10 */
  readonly samples?: number;
  /**
   * `pair`: per task and model, the first correct and the first incorrect sample (the paper's
   * setup: "a correct and/or an incorrect sample per task"); `all`: every sample considered.
   * @defaultValue 'pair'
   */
  readonly pick?: 'pair' | 'all';
  /** Reruns; rerun r reviews with sample index `seed + r`. @defaultValue 3 */
  readonly runs?: number;
  /** Inputs for the truth (error against the reference). @defaultValue 200 */
  readonly truthInputs?: number;
  readonly equality?: Equality;
  readonly seed?: number;
  readonly onProgress?: (line: string) => void;
}

const asTask = (
  t: ReturnType<typeof loadTasks>[number],
  reference: Candidate,
  equality: Equality | undefined,
): Task => {
  const seeds = t.seedInputs.map((s) => decode(s as Tagged) as unknown[]);
  return defineTask({
    name: t.taskId,
    entry: t.entryPoint,
    signature: t.signature,
    description: t.description ?? t.prompt,
    reference,
    equality,
    inputs: gen.fromSeeds(seeds, { profile: 'difftrust', language: 'python' }).withReference(reference),
  });
};

const figures = (items: readonly ReviewBenchItem[], run: number): ReviewBenchFigures => {
  const pairs = items.map((i) => ({ truth: i.truth, label: i.runs[run]?.verdict === 'accept' }));
  const c = confusion(pairs);
  return {
    confusion: c,
    mcc: mcc(c),
    p4: p4(c),
    inconclusive: items.filter((i) => i.runs[run]?.verdict === 'inconclusive').length,
  };
};

const meanOf = (xs: readonly (number | null)[]): number | null => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
};

/**
 * `crosscheck bench review`: labels candidates by their reference (error 0 on the task's inputs
 * means correct), reviews each with TRAILS over `runs` reruns (distinct sample indices), and
 * reports MCC, P4, the confusion matrices, correct stability and tokens per task. Needs a model,
 * live or recorded (or a scripted server).
 * @internal — options carry resolved review options.
 */
export const runReviewBench = async (
  options: ReviewBenchOptions,
  review: ResolvedReviewOptions,
): Promise<ReviewBenchResult> => {
  const runs = options.runs ?? 3;
  const samples = options.samples ?? 10;
  const wanted = options.tasks ? new Set(options.tasks) : null;
  let tasks = loadTasks(options.data).filter((t) => !wanted || wanted.has(t.taskId));
  if (options.limit !== undefined) tasks = tasks.slice(0, options.limit);
  if (tasks.length === 0)
    throw new CrosscheckError(
      'INVALID_INPUT',
      `bench review: no task of ${options.data} matches the selection.`,
    );
  const byModel = new Map(options.models.map((m) => [m, loadCandidates(options.data, m)]));
  const items: ReviewBenchItem[] = [];
  const skipped: Array<{ task: string; reason: string }> = [];
  let tokens = 0;
  let calls = 0;
  let liveCalls = 0;
  let cost: number | null = null;
  for (const t of tasks) {
    if (t.problem || !t.groundTruthCode || t.seedInputs.length === 0 || t.language !== 'python') {
      skipped.push({ task: t.taskId, reason: t.problem ?? 'needs a Python reference and seed inputs' });
      continue;
    }
    const [reference] = fromSources([t.groundTruthCode], {
      language: 'python',
      entry: t.entryPoint,
      label: 'reference',
    });
    const task = asTask(t, reference as Candidate, options.equality);
    for (const [model, codes] of byModel) {
      const pool = fromSources((codes.get(t.taskId)?.codes ?? []).slice(0, samples), {
        language: 'python',
        entry: t.entryPoint,
        tags: { model },
      });
      if (pool.length === 0) continue;
      const m = await measure(task, pool, {
        n: options.truthInputs ?? 200,
        seed: options.seed ?? 0,
        run: review.run,
      });
      const labelled = pool.map((c, i) => ({ c, i, error: m.candidateErrors[i]?.error ?? null }));
      const known = labelled.filter((x) => x.error !== null);
      const chosen =
        options.pick === 'all'
          ? known
          : [known.find((x) => x.error === 0), known.find((x) => (x.error as number) > 0)].filter(
              (x) => x !== undefined,
            );
      for (const x of chosen) {
        const results: Array<ReviewBenchItem['runs'][number]> = [];
        for (let r = 0; r < runs; r++) {
          const seed = review.seed + r;
          const rv = await reviewWith(task, x.c, { ...review, seed }, 'bench review');
          const all = [...rv.llm.calls];
          const tk = all.reduce((s, c) => s + (c.prompt ?? 0) + (c.completion ?? 0), 0);
          const priced = all.filter((c) => c.costUsd !== null);
          const cs = priced.length === 0 ? null : priced.reduce((s, c) => s + (c.costUsd as number), 0);
          tokens += tk;
          calls += all.length;
          liveCalls += all.filter((c) => c.live).length;
          if (cs !== null) cost = (cost ?? 0) + cs;
          results.push({
            seed,
            verdict: rv.verdict,
            reason: rv.reason,
            score: rv.score,
            tokens: tk,
            costUsd: cs,
          });
        }
        items.push({
          task: t.taskId,
          model,
          sample: x.i,
          truth: x.error === 0,
          error: x.error,
          runs: results,
        });
        options.onProgress?.(
          `${t.taskId} ${model}#${x.i}: truth ${x.error === 0 ? 'correct' : 'incorrect'}, verdicts ${results.map((r) => r.verdict).join(' ')}`,
        );
      }
    }
  }
  const perRun = Array.from({ length: runs }, (_, r) => figures(items, r));
  const reviewedTasks = new Set(items.map((i) => i.task)).size;
  return {
    items,
    perRun,
    meanMcc: meanOf(perRun.map((f) => f.mcc)),
    meanP4: meanOf(perRun.map((f) => f.p4)),
    stability: correctStability(
      items.map((i) => ({ truth: i.truth, verdicts: i.runs.map((r) => r.verdict === 'accept') })),
    ),
    intervals: (() => {
      const programs = items.map((i) => ({
        truth: i.truth,
        labels: i.runs.map((r) => r.verdict === 'accept'),
      }));
      const seed = options.seed ?? 0;
      return {
        mcc: classificationInterval(programs, 'mcc', { seed }),
        p4: classificationInterval(programs, 'p4', { seed }),
      };
    })(),
    tokensPerTask: reviewedTasks === 0 ? 0 : tokens / (reviewedTasks * runs),
    calls,
    liveCalls,
    costUsd: cost,
    skipped,
  };
};

const fmt = (x: number | null, digits = 3): string => (x === null ? 'undefined' : x.toFixed(digits));

/** The benchmark's table, in the paper's layout (MCC / P4 / k tokens per task) plus the matrices. @public */
export const renderReviewBench = (r: ReviewBenchResult): string => {
  const lines = [
    `grounded review (TRAILS) on ${r.items.length} programs, ${r.perRun.length} reruns`,
    `MCC ${fmt(r.meanMcc)} / P4 ${fmt(r.meanP4)} / ${(r.tokensPerTask / 1000).toFixed(1)}k tokens per task (means over ${r.perRun.length} reruns)`,
    ...r.perRun.map(
      (f, i) =>
        `  rerun ${i}: TP ${f.confusion.tp} FP ${f.confusion.fp} TN ${f.confusion.tn} FN ${f.confusion.fn}; MCC ${fmt(f.mcc)}, P4 ${fmt(f.p4)}${f.inconclusive ? `; ${f.inconclusive} inconclusive (counted as not accepted)` : ''}`,
    ),
    ...(['mcc', 'p4'] as const).map((k) => {
      const iv = r.intervals[k];
      return `${k.toUpperCase()} pooled over reruns ${iv.value.toFixed(3)}${iv.refused ? ` (no interval: ${iv.refused})` : ` (95% interval ${fmt(iv.low)} to ${fmt(iv.high)}, bootstrap over ${iv.programs} programs)`}`;
    }),
    `correct stability: correct ${r.stability.correct.stable}/${r.stability.correct.reachable} (${fmt(r.stability.correct.ratio)}), incorrect ${r.stability.incorrect.stable}/${r.stability.incorrect.reachable} (${fmt(r.stability.incorrect.ratio)})`,
    `LLM calls ${r.calls} (${r.liveCalls} live, ${r.calls - r.liveCalls} replayed); cost ${r.costUsd === null ? 'unpriced' : `$${r.costUsd.toFixed(4)}`}`,
    ...r.skipped.map((s) => `skipped ${s.task}: ${s.reason}`),
  ];
  return `${lines.join('\n')}\n`;
};
