import { type Candidate, isCandidate } from '../candidates/index.ts';
import { CrosscheckError, describeValue, type KnownKeys, knownKeys } from '../errors/index.ts';
import type { ExecLimits } from '../exec/index.ts';
import type { Llm } from '../llm/index.ts';
import { isCalibration, type ThresholdCalibration } from './calibrate.ts';
import type { ReviewLlm } from './port.ts';

/** Options of {@link review}. @public */
export interface ReviewOptions<L = Llm> {
  /** The generator (from `createLlm`): scenarios, properties, inputs and repairs. */
  llm: L;
  /** The judge. @defaultValue `llm` */
  judge?: L;
  /** Scenarios s. @defaultValue 3 */
  scenarios?: number;
  /** Inputs kept per scenario k, after coverage dedup. @defaultValue 3 */
  inputsPerScenario?: number;
  /** Generation + repair steps per scenario g. @defaultValue 3 */
  repairBudget?: number;
  /**
   * Acceptance threshold τ on the share of CORRECT verdicts, or a {@link ThresholdCalibration}
   * from `calibrateThreshold` (its τ, recorded with the metric and sample it was chosen on).
   * @defaultValue 0.8
   */
  threshold?: number | ThresholdCalibration;
  /** Sampling temperature of every call. @defaultValue 0.5 */
  temperature?: number;
  /** Rerun index r: every model draw of this review uses sample index r. @defaultValue 0 */
  seed?: number;
  /** Consecutive scenarios without a valid input that reject the candidate. @defaultValue 2 */
  earlyStop?: number;
  /** Hard cap on model calls; past it the review is `inconclusive('budget')`. @defaultValue 40 */
  maxCalls?: number;
  /** Extension (not in the paper): judge deliberate rejections (`invalid` outcomes) too. @defaultValue false */
  judgeRejections?: boolean;
  /**
   * Extension (not in the paper): an input on which the candidate fails (an error, a timeout, a
   * crash) is normally the input's fault and is repaired or dropped, so a bug that always
   * crashes is never judged. With `'reference'` (the task's reference) or `'pool'` (a strict
   * majority of `pool` returns a value), such an input counts as valid and the judge sees the
   * candidate's failure as its output. @defaultValue null
   */
  confirmInputsWith?: 'reference' | 'pool' | null;
  /** The other samples of the task, for `confirmInputsWith: 'pool'` (the candidate itself is skipped). */
  pool?: readonly Candidate[];
  /** Limits of the candidate's calls. */
  run?: Partial<ExecLimits>;
  signal?: AbortSignal;
}

/** @internal */
export interface ResolvedReviewOptions<L = ReviewLlm> {
  readonly llm: L;
  readonly judge: L;
  readonly scenarios: number;
  readonly inputsPerScenario: number;
  readonly repairBudget: number;
  readonly threshold: number;
  /** How τ was chosen, when it came from `calibrateThreshold`. */
  readonly calibration: ReviewCalibration | null;
  readonly temperature: number;
  readonly seed: number;
  readonly earlyStop: number;
  readonly maxCalls: number;
  readonly judgeRejections: boolean;
  readonly confirmInputsWith: 'reference' | 'pool' | null;
  readonly pool: readonly Candidate[];
  readonly run: Partial<ExecLimits>;
  readonly signal: AbortSignal | undefined;
}

/** How a review's τ was calibrated: the metric, its value and the sample it was chosen on. @public */
export interface ReviewCalibration {
  readonly metric: 'mcc' | 'p4';
  readonly value: number;
  readonly programs: number;
  readonly correct: number;
  readonly incorrect: number;
}

const WHERE = 'review(task, candidate, options)';

/** The keys {@link review} takes, checked against {@link ReviewOptions}. @internal */
export const REVIEW_KEYS = knownKeys<ReviewOptions>({
  llm: true,
  judge: true,
  scenarios: true,
  inputsPerScenario: true,
  repairBudget: true,
  threshold: true,
  temperature: true,
  seed: true,
  earlyStop: true,
  maxCalls: true,
  judgeRejections: true,
  confirmInputsWith: true,
  pool: true,
  run: {
    timeoutMs: true,
    budgetMs: true,
    candidateTimeMs: true,
    maxOutputBytes: true,
    memoryMb: true,
  } satisfies KnownKeys<ExecLimits>,
  signal: true,
});

const bad = (name: string, rule: string, value: unknown, fix: string): never => {
  throw new CrosscheckError(
    'INVALID_OPTION',
    `review: \`${name}\` ${rule}, got ${describeValue(value)}. ${fix}`,
    {
      where: `${WHERE} { ${name} }`,
    },
  );
};

const int = (o: Record<string, unknown>, name: string, fallback: number, min: number): number => {
  const v = o[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    bad(name, `must be an integer ≥ ${min}`, v, `For example ${name}: ${fallback} (the default).`);
  return v as number;
};

const unit = (o: Record<string, unknown>, name: string, fallback: number, max: number): number => {
  const v = o[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max)
    bad(name, `must be a number in [0, ${max}]`, v, `For example ${name}: ${fallback} (the default).`);
  return v as number;
};

/** Resolves review options, one reader per field; `isLlm` says what counts as a client. @internal */
export const resolveReviewOptions = <L>(
  raw: ReviewOptions<L> | undefined,
  isLlm: (x: unknown) => x is L,
): ResolvedReviewOptions<L> => {
  if (typeof raw !== 'object' || raw === null)
    bad(
      'options',
      'must be an object with at least `llm`',
      raw,
      'Pass review(task, candidate, { llm: createLlm() }).',
    );
  const o = Object.assign(Object.create(null), raw) as Record<string, unknown>;
  if (!isLlm(o.llm))
    bad(
      'llm',
      'must be an LLM client',
      o.llm,
      'Create one with createLlm({ model, baseURL }) and pass { llm }, or set it once with configureReview({ llm }).',
    );
  if (o.judge !== undefined && !isLlm(o.judge))
    bad('judge', 'must be an LLM client', o.judge, 'Omit it to judge with `llm`.');
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal))
    bad('signal', 'must be an AbortSignal', o.signal, 'Pass an AbortController().signal.');
  if (o.run !== undefined && (typeof o.run !== 'object' || o.run === null))
    bad('run', 'must be an object of execution limits', o.run, 'For example run: { timeoutMs: 2000 }.');
  if (o.judgeRejections !== undefined && typeof o.judgeRejections !== 'boolean')
    bad('judgeRejections', 'must be a boolean', o.judgeRejections, 'Use true or false.');
  const confirm = o.confirmInputsWith ?? null;
  if (confirm !== null && confirm !== 'reference' && confirm !== 'pool')
    bad(
      'confirmInputsWith',
      "must be 'reference', 'pool' or null",
      confirm,
      "Use 'reference' with a task that has one, or 'pool' with { pool }.",
    );
  const pool = o.pool ?? [];
  if (!Array.isArray(pool) || !pool.every(isCandidate))
    bad(
      'pool',
      'must be an array of candidates',
      o.pool,
      'Pass the other samples of the task, e.g. from candidates.fromSources.',
    );
  if (confirm === 'pool' && (pool as unknown[]).length === 0)
    bad(
      'pool',
      "must hold the other samples when confirmInputsWith is 'pool'",
      o.pool,
      'Pass { pool: otherSamples }.',
    );
  return {
    llm: o.llm as L,
    judge: (o.judge ?? o.llm) as L,
    scenarios: int(o, 'scenarios', 3, 1),
    inputsPerScenario: int(o, 'inputsPerScenario', 3, 1),
    repairBudget: int(o, 'repairBudget', 3, 1),
    threshold: isCalibration(o.threshold) ? o.threshold.threshold : unit(o, 'threshold', 0.8, 1),
    calibration: isCalibration(o.threshold)
      ? {
          metric: o.threshold.metric,
          value: o.threshold.value,
          programs: o.threshold.programs,
          correct: o.threshold.correct,
          incorrect: o.threshold.incorrect,
        }
      : null,
    temperature: unit(o, 'temperature', 0.5, 2),
    seed: int(o, 'seed', 0, 0),
    earlyStop: int(o, 'earlyStop', 2, 1),
    maxCalls: int(o, 'maxCalls', 40, 1),
    judgeRejections: (o.judgeRejections as boolean | undefined) ?? false,
    confirmInputsWith: confirm as 'reference' | 'pool' | null,
    pool: pool as readonly Candidate[],
    run: (o.run as Partial<ExecLimits> | undefined) ?? {},
    signal: o.signal as AbortSignal | undefined,
  };
};
