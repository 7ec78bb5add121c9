import { type Candidate, fromSources } from '../candidates/index.ts';
import type { Args } from '../contract/index.ts';
import { isCrosscheckError } from '../errors/index.ts';
import type { Outcome } from '../exec/index.ts';
import { gen } from '../inputs/index.ts';
import { decode, type Tagged } from '../values/index.ts';
import type { DatasetTask } from './dataset.ts';
import type { BenchLanguage, ResolvedBenchOptions } from './options.ts';

/**
 * Inputs of one task, generated once and shared by every model (the seeds, the reference and
 * the seed of the task are the same for all of them).
 */

/** The inputs of a task, or why it has none. @internal */
export type TaskInputs =
  | {
      readonly ok: true;
      readonly language: BenchLanguage;
      readonly reference: Candidate;
      /** Distinct inputs, in order of first draw: each runs once. */
      readonly inputs: readonly Args[];
      /** Per input: the i.i.d. draws it stands for in the incoherence estimate. */
      readonly weights: readonly number[];
      /**
       * Per input: the draws it stands for in the error estimate. The same as `weights`, except
       * with the `paired` estimator (the paper's protocol), whose error uses n draws of its own.
       */
      readonly errorWeights: readonly number[];
      /** Draws behind the incoherence estimate (n, unless the Gen ran short). */
      readonly draws: number;
      /** The reference's outcome on each input, from the filter: it never runs twice. */
      readonly referenceOutcomes: readonly Outcome[];
      readonly gen: string;
      /** Why fewer than n inputs came out; null when n did. */
      readonly shortfall: string | null;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * A 32-bit hash (FNV-1a) of the run seed and a name: each task (and pair) gets its own stream.
 * The seed enters only through its decimal text: XOR-ing it into the offset basis as well
 * cancelled it for seeds 0–9 (s ^ ('0' + s) is 0x30 for every s < 10), so those ten seeds gave
 * one and the same run. @internal
 */
export const subSeed = (seed: number, ...names: readonly string[]): number => {
  let h = 0x811c9dc5;
  for (const ch of `${seed}\u0000${names.join('\u0000')}`)
    h = Math.imul(h ^ (ch.codePointAt(0) as number), 0x01000193) >>> 0;
  return h | 0;
};

/** The task's language: `--language`, else the task's own, if crosscheck runs it. @internal */
export const languageOf = (task: DatasetTask, options: ResolvedBenchOptions): BenchLanguage | string =>
  options.language ?? task.language;

/** The signature, when it parses: it types what the seeds leave open (empty seed lists). @internal */
export const usableSignature = (signature: string | undefined): string | undefined => {
  if (!signature) return undefined;
  try {
    gen.fromSignature(signature);
    return signature;
  } catch {
    return undefined;
  }
};

/**
 * n reference-filtered inputs from the task's seeds with the run's profile. Never throws for a
 * bad task (no reference, no seeds, unparseable seeds): the reason comes back instead. Aborts
 * propagate.
 * @internal
 */
export const taskInputs = async (
  task: DatasetTask,
  options: ResolvedBenchOptions,
  signal: AbortSignal | undefined,
): Promise<TaskInputs> => {
  if (task.problem) return { ok: false, reason: task.problem };
  const language = languageOf(task, options);
  if (!(['python', 'javascript', 'typescript'] as const).includes(language as BenchLanguage)) {
    return { ok: false, reason: `language ${JSON.stringify(language)} has no runner; pass --language` };
  }
  if (!task.groundTruthCode) return { ok: false, reason: 'no ground_truth_code (the reference)' };
  if (task.seedInputs.length === 0)
    return {
      ok: false,
      reason:
        'no seed inputs: give seed_inputs_tagged, EvalPlus base_input, or MBPP test_list asserts with literal arguments',
    };
  try {
    const [reference] = fromSources([task.groundTruthCode], {
      language: language as BenchLanguage,
      entry: task.entryPoint,
      label: 'ground truth',
    });
    const seeds = task.seedInputs.map((s) => decode(s as Tagged) as unknown[]);
    const source = gen
      .fromSeeds(seeds, {
        profile: options.profile,
        language: language === 'python' ? 'python' : 'javascript',
        signature: options.profile === 'typed' ? usableSignature(task.signature) : undefined,
      })
      .withReference(reference as Candidate, {
        timeoutMs: options.timeoutMs,
        budgetMs: options.budgetMs,
        maxOutputBytes: options.maxOutputBytes,
      });
    // The paper measures error on inputs of its own: n more draws, split off after the first n
    // (half each when the Gen runs short). A value drawn in both halves still runs once.
    const separate = options.estimator === 'paired';
    const report = await source.generateWithReport(separate ? 2 * options.n : options.n, {
      seed: subSeed(options.seed, task.taskId),
      signal,
    });
    const split = separate ? Math.min(options.n, Math.ceil(report.sampled / 2)) : report.sampled;
    const weights = report.inputs.map(() => 0);
    const errorWeights = report.inputs.map(() => 0);
    report.draws.forEach((k, i) => {
      if (i < split) weights[k] = (weights[k] as number) + 1;
      if (i >= split || !separate) errorWeights[k] = (errorWeights[k] as number) + 1;
    });
    if (report.inputs.length === 0) {
      return { ok: false, reason: `no valid input: ${report.shortfall ?? 'the generator produced none'}` };
    }
    return {
      ok: true,
      language: language as BenchLanguage,
      reference: reference as Candidate,
      inputs: report.inputs,
      weights,
      errorWeights,
      draws: split,
      referenceOutcomes: report.referenceOutcomes ?? [],
      gen: source.description,
      shortfall: report.shortfall,
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    return {
      ok: false,
      reason: `input generation failed: ${isCrosscheckError(error) ? error.message : String(error)}`,
    };
  }
};
