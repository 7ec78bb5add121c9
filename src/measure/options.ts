import { type Candidate, isCandidate } from '../candidates/index.ts';
import { type Args, type Gen, isGen } from '../contract/index.ts';
import {
  CrosscheckError,
  describeValue,
  type KnownKeys,
  knownKeys,
  type OptionKeys,
  optionError,
  readFlag,
  readOptions,
  readSeed,
  readSignal,
} from '../errors/index.ts';
import { RUN_LIMIT_KEYS, type RunOptions } from '../exec/index.ts';
import { argsKey, isCrosscheckGen } from '../inputs/index.ts';
import { mulberry32 } from '../stats/index.ts';
import { isTask, type Task } from '../task/index.ts';
import { comparator, type Equality, equalityName } from '../values/index.ts';
import { type CellRules, defaultEquality, type UnknownPolicy } from './agreement.ts';

/** Options shared by {@link measure} and {@link detect}. All optional. @public */
export interface CommonOptions<A extends Args = Args> {
  /**
   * The inputs: a Gen (drawn with `seed`) or a fixed list of argument tuples (run whole, or, when
   * fewer draws are needed than it has rows, drawn uniformly with replacement with `seed`).
   * @defaultValue the task's `inputs`
   */
  inputs?: Gen<A> | readonly A[];
  /**
   * Seed of every random choice (the inputs drawn, the pairs of the `paired` estimator). The same
   * seed replays the same run; failure messages print it.
   * @defaultValue 42
   */
  seed?: number;
  /**
   * How outputs are compared.
   * @defaultValue the task's equality, else by the pool's languages: `'python'` for Python, `'mixed'` for several languages (numbers by value), else `'strict'`
   */
  equality?: Equality;
  /**
   * Two errors agree when their class names match; with this, their messages must match too.
   * @defaultValue false
   */
  compareErrorMessages?: boolean;
  /**
   * How timeouts and crashes count. `'disagree'`: an unknown cell disagrees with every other
   * cell (another unknown one too) and is wrong wherever the reference returns, so a candidate
   * that hangs cannot pass. `'inconclusive'`: the same numbers, but any unknown candidate cell
   * makes the verdict inconclusive. `'exclude'`: unknown cells leave every count; the estimates
   * are then only about the inputs where outcomes are known (use it to reproduce the paper).
   * @defaultValue 'disagree'
   */
  unknown?: UnknownPolicy;
  /**
   * Shrink the witness (a distinguishing input) while the disagreement persists; a number caps
   * the shrink steps (each runs every candidate once).
   * @defaultValue 200 steps
   */
  shrink?: boolean | number;
  /** Execution limits (per-call timeout, memory, budget). */
  run?: Omit<RunOptions, 'signal' | 'onProgress'>;
  signal?: AbortSignal;
}

/** Which estimator of incoherence {@link measure} uses. @public */
export type Estimator = 'all-pairs' | 'paired';

/** Options of {@link measure}. @public */
export interface MeasureOptions<A extends Args = Args> extends CommonOptions<A> {
  /**
   * Inputs to draw from a Gen. A fixed list runs whole unless `n` is below its length; then `n`
   * rows are drawn uniformly with replacement with `seed` (never the list's first `n`).
   * @defaultValue 1000
   */
  n?: number;
  /**
   * Confidence parameter: intervals hold with probability at least 1 − δ.
   * @defaultValue 0.05
   */
  delta?: number;
  /**
   * `all-pairs`: per input, the share of unordered candidate pairs that disagree (lower variance);
   * `paired`: one random pair of distinct candidates per input (the paper's Algorithm 2).
   * @defaultValue 'all-pairs'
   */
  estimator?: Estimator;
  /**
   * Fewest inputs to accept. A Gen that yields fewer distinct inputs than asked (its domain is
   * small or its filters reject most draws) makes the measurement inconclusive unless at least
   * this many ran.
   * @defaultValue the number asked (`n`, else 1000 from a Gen, else the whole fixed list)
   */
  minInputs?: number;
}

/** Options of {@link detect}. @public */
export interface DetectOptions<A extends Args = Args> extends CommonOptions<A> {
  /**
   * Incoherence threshold ε: "no disagreement" certifies incoherence ≤ ε.
   * @defaultValue 0.05
   */
  epsilon?: number;
  /**
   * Confidence parameter: a coder with incoherence ≥ ε escapes detection with probability ≤ δ.
   * @defaultValue 0.05
   */
  delta?: number;
}

const COMMON_KEYS = {
  inputs: true,
  seed: true,
  equality: true,
  compareErrorMessages: true,
  unknown: true,
  shrink: true,
  run: RUN_LIMIT_KEYS,
  signal: true,
} as const satisfies KnownKeys<CommonOptions>;

/** The keys {@link measure} takes, checked against {@link MeasureOptions}. @internal */
export const MEASURE_KEYS = knownKeys<MeasureOptions>({
  ...COMMON_KEYS,
  n: true,
  delta: true,
  estimator: true,
  minInputs: true,
});

/** The keys {@link detect} takes, checked against {@link DetectOptions}. @internal */
export const DETECT_KEYS = knownKeys<DetectOptions>({ ...COMMON_KEYS, epsilon: true, delta: true });

/** The resolved form shared by measure and detect. @internal */
export interface Resolved<A extends Args = Args> {
  readonly task: Task<A>;
  readonly candidates: readonly Candidate[];
  readonly source: Gen<A> | readonly A[];
  readonly gen: Gen<A> | null;
  readonly genDescription: string;
  readonly seed: number;
  readonly rules: CellRules;
  readonly equalityName: string;
  readonly shrinkSteps: number;
  readonly run: Omit<RunOptions, 'signal' | 'onProgress'>;
  readonly signal: AbortSignal | undefined;
}

export const DEFAULT_SEED = 42;
const DEFAULT_SHRINK_STEPS = 200;

const UNKNOWN_POLICIES: readonly UnknownPolicy[] = ['disagree', 'inconclusive', 'exclude'];

const readUnknown = (where: string, unknown: unknown): UnknownPolicy => {
  if (unknown === undefined) return 'disagree';
  if (!UNKNOWN_POLICIES.includes(unknown as UnknownPolicy)) {
    throw optionError({
      where,
      field: 'unknown',
      rule: "must be 'disagree', 'inconclusive' or 'exclude'",
      got: unknown,
      fix: "Pass e.g. { unknown: 'disagree' } (a timeout or crash counts as a disagreement).",
    });
  }
  return unknown as UnknownPolicy;
};

const readShrink = (where: string, shrink: unknown): number => {
  if (shrink === undefined || shrink === true) return DEFAULT_SHRINK_STEPS;
  if (shrink === false) return 0;
  if (typeof shrink !== 'number' || !Number.isInteger(shrink) || shrink < 0) {
    throw optionError({
      where,
      field: 'shrink',
      rule: 'must be a boolean or a non-negative integer number of steps',
      got: shrink,
      fix: 'Pass e.g. { shrink: 100 }.',
    });
  }
  return shrink as number;
};

const readSource = <A extends Args>(where: string, task: Task<A>, inputs: unknown): Gen<A> | readonly A[] => {
  const source = inputs ?? task.inputs;
  if (isGen(source)) return source as Gen<A>;
  if (Array.isArray(source) && source.length > 0 && source.every(Array.isArray))
    return source as unknown as readonly A[];
  throw optionError({
    where,
    field: 'inputs',
    rule: 'must be a Gen (from gen.*) or a non-empty array of argument tuples, here or in defineTask({ inputs })',
    got: source,
    fix: 'Pass e.g. { inputs: gen.fromSignature("(xs: number[]) => number") } or { inputs: [[[1, 2]], [[3]]] }.',
  });
};

/** Validates the task, candidates and shared options (one reader per field). @internal */
export const resolveCommon = <A extends Args>(
  where: string,
  task: Task<A>,
  candidates: readonly Candidate[],
  raw: CommonOptions<A> | undefined,
  known: OptionKeys,
  minCandidates: number,
): Resolved<A> => {
  if (!isTask(task)) {
    throw new CrosscheckError(
      'INVALID_TASK',
      `${where}: \`task\` must come from defineTask(), got ${describeValue(task)}.`,
      {
        where,
      },
    );
  }
  if (!Array.isArray(candidates) || candidates.length < minCandidates || !candidates.every(isCandidate)) {
    throw new CrosscheckError(
      'INVALID_CANDIDATES',
      `${where}: \`candidates\` must be an array of at least ${minCandidates} candidate${minCandidates === 1 ? '' : 's'} (from candidates.fromFunctions or fromSources), got ${describeValue(candidates)}.${minCandidates > 1 ? ' Agreement needs two programs to compare.' : ''}`,
      { where },
    );
  }
  const options = readOptions<CommonOptions<A>>(
    { where },
    raw,
    known as KnownKeys<CommonOptions<A>> & OptionKeys,
    '{ seed: 42 }',
  );
  const source = readSource(where, task, options.inputs);
  const gen = isGen(source) ? (source as Gen<A>) : null;
  const equality = options.equality ?? defaultEquality(task, candidates);
  let compare: ReturnType<typeof comparator>;
  try {
    compare = comparator(equality);
  } catch (error) {
    throw new CrosscheckError('INVALID_OPTION', `${where}: ${(error as Error).message}`, {
      where: `${where}, { equality }`,
      cause: error,
    });
  }
  return {
    task,
    candidates,
    source,
    gen,
    genDescription: gen ? gen.description : `${(source as readonly A[]).length} fixed inputs`,
    seed: readSeed({ where, field: 'seed' }, options.seed, DEFAULT_SEED),
    rules: {
      compare,
      compareErrorMessages: readFlag(
        { where, field: 'compareErrorMessages' },
        options.compareErrorMessages,
        false,
      ),
      unknown: readUnknown(where, options.unknown),
    },
    equalityName: equalityName(equality),
    shrinkSteps: readShrink(where, options.shrink),
    run: Object.assign(Object.create(null), options.run),
    signal: readSignal({ where, field: 'signal' }, options.signal),
  };
};

/**
 * The inputs of a run: distinct argument tuples, each standing for `weights[k]` i.i.d. draws from
 * the Gen or the fixed list (1 each when the whole list runs). Estimates average over draws, so they stay unbiased for the
 * Gen when it repeats values, while each distinct input runs once. @internal
 */
export interface DrawnInputs<A extends Args = Args> {
  readonly inputs: A[];
  readonly weights: number[];
  /** Σ weights: the draws behind the estimates. */
  readonly draws: number;
  /**
   * Distinct draws the Gen's reference filter could not judge (timeout, crash, budget spent), by
   * reason: left out of `inputs`. Empty for fixed inputs and Gens without a reference filter.
   */
  readonly lost: Readonly<Record<string, number>>;
  /**
   * The distribution the figures speak for: the Gen's description, "these k fixed inputs" (the
   * whole list ran) or "the uniform distribution over these k fixed inputs" (`n` of them drawn).
   */
  readonly population: string;
}

/** Groups draws by canonical key, in order of first draw. @internal */
export const groupDraws = <A extends Args>(draws: readonly A[]): Omit<DrawnInputs<A>, 'population'> => {
  const at = new Map<string, number>();
  const inputs: A[] = [];
  const weights: number[] = [];
  for (const args of draws) {
    const key = argsKey(args);
    const k = at.get(key);
    if (k === undefined) {
      at.set(key, inputs.push(args) - 1);
      weights.push(1);
    } else weights[k] = (weights[k] as number) + 1;
  }
  return { inputs, weights, draws: draws.length, lost: {} };
};

/** Draws the reference did not answer, in the Gen's filter and in the run, and what became of them. @public */
export interface ReferenceLoss {
  /** Distinct inputs the reference did not answer: `inGen + inRun`. */
  readonly inputs: number;
  /** Distinct draws the Gen's reference filter could not judge, left out of the inputs. */
  readonly inGen: number;
  /** Inputs where the task's reference timed out or crashed while measured. */
  readonly inRun: number;
  /** By reason, e.g. `reference: timeout (limit)`. */
  readonly reasons: Readonly<Record<string, number>>;
  /** True under `unknown: 'exclude'`: the figures are about the inputs the reference answered. */
  readonly excluded: boolean;
}

/** Adds up what the reference did not answer; null when it answered everything. @internal */
export const referenceLoss = (
  lost: Readonly<Record<string, number>>,
  inRun: number,
  policy: UnknownPolicy,
): ReferenceLoss | null => {
  const inGen = Object.values(lost).reduce((a, b) => a + b, 0);
  if (inGen + inRun === 0) return null;
  return {
    inputs: inGen + inRun,
    inGen,
    inRun,
    reasons: { ...lost, ...(inRun > 0 ? { 'reference: timeout or crash while measured': inRun } : {}) },
    excluded: policy === 'exclude',
  };
};

/** One sentence on a {@link ReferenceLoss}, for reasons, certificates and reports. @internal */
export const referenceLossText = (loss: ReferenceLoss): string => {
  const why = Object.entries(loss.reasons)
    .map(([reason, k]) => `${reason.replace(/^reference: /, '')} ${k}`)
    .join(', ');
  return loss.excluded
    ? `${loss.inputs} inputs the reference did not answer (${why}) were excluded (unknown: 'exclude'): the figures are about the inputs it answered`
    : `the reference did not answer on ${loss.inputs} inputs (${why}), so a candidate wrong exactly there would go unseen; raise the reference's timeoutMs or budgetMs, or pass unknown: 'exclude' to measure only the inputs it answered`;
};
/**
 * What a fixed list stands for once drawn: the whole list (every row ran once, so the figures are
 * exact about it) or uniform draws with replacement from it (i.i.d., so the intervals and the
 * certificate hold for the uniform distribution over the list). @internal
 */
export const fixedListText = (rows: number, sampled: boolean): string =>
  sampled
    ? `the uniform distribution over these ${rows} fixed inputs (draws with replacement)`
    : `these ${rows} fixed inputs`;

/** Offsets the list draws' seed, so they are not the stream of the `paired` estimator. */
const LIST_SEED = 0x1f2e3d4c;

/**
 * Draws (or takes) the inputs: `n` i.i.d. draws from a Gen with the seed, grouped into distinct
 * inputs with multiplicities. From a fixed list: the whole list, each row once, when `n` is
 * absent or not below its length; else `n` uniform draws with replacement, seeded. A prefix
 * would not do: a list is often ordered (by size, by case), and its first rows are not a sample
 * of it. With replacement, so the draws are i.i.d. and every guarantee for a Gen holds for the
 * uniform distribution over the list. @internal
 */
export const drawInputs = async <A extends Args>(
  r: Resolved<A>,
  n: number | undefined,
): Promise<DrawnInputs<A>> => {
  const options = { seed: r.seed, signal: r.signal };
  if (r.gen && isCrosscheckGen(r.gen)) {
    // The same draws as generate(), with what the filters left out and why.
    const report = await r.gen.generateWithReport(n ?? 1000, options);
    return {
      ...groupDraws(report.draws.map((k) => report.inputs[k] as A)),
      lost: report.lost,
      population: r.genDescription,
    };
  }
  if (r.gen) return { ...groupDraws(await r.gen.generate(n ?? 1000, options)), population: r.genDescription };
  const list = r.source as readonly A[];
  if (n === undefined || n >= list.length) {
    const inputs = [...list];
    return {
      inputs,
      weights: inputs.map(() => 1),
      draws: inputs.length,
      lost: {},
      population: fixedListText(list.length, false),
    };
  }
  const random = mulberry32(r.seed ^ LIST_SEED);
  const draws = Array.from({ length: n }, () => list[Math.floor(random() * list.length)] as A);
  return { ...groupDraws(draws), population: fixedListText(list.length, true) };
};
