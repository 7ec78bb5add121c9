import type { ReviewCalibration } from './options.ts';
import type { ReviewCall } from './port.ts';

/** One behavior scenario of a specification (category partitioning). @public */
export interface Scenario {
  /** `S1`…`Ss`, renumbered by crosscheck. */
  readonly id: string;
  /** At most 80 characters. */
  readonly title: string;
  /** The characteristic partitioned, e.g. "length of xs". */
  readonly category: string;
  /** The partition, e.g. "even length ≥ 2". */
  readonly choice: string;
  /** Free text. */
  readonly preconditions: string;
  /** What the specification says happens; given to input generation only, never to the judge. */
  readonly behavior: string;
}

/**
 * A judge's answer on one triple; `NOT_JUDGED` when the review ended (early stop, call budget)
 * before the judge was asked.
 * @public
 */
export type JudgeVerdict = 'CORRECT' | 'INCORRECT' | 'UNPARSEABLE' | 'NOT_JUDGED';

/** One judged (scenario, input, output) triple. @public */
export interface ReviewedInput {
  /** The input in the task language's literal syntax, as the judge saw it. */
  readonly input: string;
  /** The observed behavior, as the judge saw it (`returned: …` or `raised …`). */
  readonly output: string;
  readonly verdict: JudgeVerdict;
  /** The judge's reasoning (for UNPARSEABLE: its whole last answer). */
  readonly reason: string;
  /** The candidate's lines the call executed (its coverage class); `null` without line coverage. */
  readonly lines: readonly number[] | null;
  /**
   * Set when the candidate failed on this input and `confirmInputsWith` vouched for it (the
   * reference, or a majority of the pool, returned a value): the judge saw the failure. For the
   * disagreement scenario S*: `pool` (the samples disagree there).
   */
  readonly confirmedBy?: 'reference' | 'pool';
}

/** A scenario with what happened to it. @public */
export interface ReviewedScenario extends Scenario {
  readonly status: 'judged' | 'skipped' | 'not-reached';
  /** Generation and repair steps spent (≤ the repair budget g). */
  readonly steps: number;
  /** Inputs the model wrote for it, over all steps. */
  readonly generated: number;
  /** Inputs that ran to a value (or a judged rejection), before coverage dedup. */
  readonly valid: number;
  readonly inputs: readonly ReviewedInput[];
  /** Why inputs were invalid at the last step (for skipped scenarios, the reason of the skip). */
  readonly lastErrors: readonly string[];
}

/** Token and cost totals of a set of calls. @public */
export interface ReviewUsageTotals {
  readonly calls: number;
  readonly prompt: number;
  readonly completion: number;
  /** Sum over priced calls; `null` when no call was priced. */
  readonly costUsd: number | null;
  readonly unpricedCalls: number;
  /** Calls whose server reported no usage. */
  readonly unreportedCalls: number;
}

/** The model calls behind one review. @public */
export interface ReviewLlmRecord {
  readonly calls: readonly ReviewCall[];
  readonly live: ReviewUsageTotals;
  readonly replayed: ReviewUsageTotals;
  readonly generatorModel: string;
  readonly judgeModel: string;
}

/** Why a review ended as it did. @public */
export type ReviewReason =
  | 'score'
  | 'no-valid-inputs'
  | 'no-parseable-inputs'
  | 'no-parseable-verdicts'
  | 'no-scenarios'
  | 'budget';

/** The result of {@link review}. @public */
export interface Review {
  readonly verdict: 'accept' | 'reject' | 'inconclusive';
  readonly reason: ReviewReason;
  /**
   * What stopped the review before judging, in words (`no-scenarios`, `no-parseable-inputs`: the
   * generator, not the candidate, failed); otherwise null.
   */
  readonly problem: string | null;
  /** Share of CORRECT among parseable verdicts; `null` when none was judged. */
  readonly score: number | null;
  readonly threshold: number;
  /** How `threshold` was calibrated (from `calibrateThreshold`); null for a fixed τ. */
  readonly calibration: ReviewCalibration | null;
  readonly counts: { readonly correct: number; readonly incorrect: number; readonly unparseable: number };
  readonly scenarios: readonly ReviewedScenario[];
  /** Properties the model extracted (parameters, types, constraints, exceptions), as it wrote them. */
  readonly properties: string;
  readonly candidate: { readonly label: string; readonly id: string };
  /** The rerun index r: every model draw of this review used sample index r. */
  readonly seed: number;
  /** `lines`: coverage-based dedup; `input-key`: exact duplicates only (no coverage for this candidate). */
  readonly dedup: 'lines' | 'input-key';
  /** Departures from the paper's procedure that were switched on. */
  readonly extensions: readonly string[];
  readonly llm: ReviewLlmRecord;
  /** Wall time, for information only. */
  readonly durationMs: number;
}
