import type { CandidateTags } from '../candidates/index.ts';
import { CrosscheckError, describeValue } from '../errors/index.ts';
import type { IsolationUsed } from '../exec/index.ts';
import type { Detection, Measurement, Witness } from '../measure/index.ts';
import type { Interval } from '../stats/index.ts';
import { type LlmRecord, tokensOf } from './llm.ts';
import { recordProblem } from './record-schema.ts';

/**
 * The record every matcher writes for the reporter (docs/design.md, "Records and reports"): versioned,
 * plain JSON (no undefined, NaN or class instances), one per assertion.
 * @packageDocumentation
 */

/** Schema tag and version of {@link CrosscheckRecord}. Bump the version on any breaking change. @public */
export const RECORD_SCHEMA = 'crosscheck/record';
/** @public */
export const RECORD_VERSION = 1;

/** Any JSON value. @public */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An estimate with its interval (Hoeffding; all-pairs: Hoeffding ∩ empirical Bernstein). @public */
export interface EstimateRecord {
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  readonly epsilon: number;
  readonly delta: number;
  readonly n: number;
}

/** A shrunk witness with each class's output on it. @public */
export interface WitnessRecord {
  /**
   * `hyperproperty`: a triangulation counterexample (outputs labelled p and q); `relation
   * violated`: a metamorphic relation's two calls (outputs labelled by candidate and call).
   */
  readonly reason: Witness['reason'] | 'hyperproperty' | 'relation violated';
  /** The shrunk input, tagged wire JSON text. */
  readonly input: string;
  /** The input as first found. */
  readonly original: string;
  readonly shrinkSteps: number | null;
  readonly outputs: ReadonlyArray<{
    readonly labels: readonly string[];
    readonly kind: string;
    readonly outcome: string;
  }>;
  readonly reference: string | null;
}

/** One equivalence class of candidates. @public */
export interface ClassRecord {
  readonly labels: readonly string[];
  readonly share: number;
  /** Its one member had timeouts or crashes, so it was not classified (absent in older records). */
  readonly unknown?: boolean;
}

/** Timeouts and crashes of a check, and how they counted. @public */
export interface UnknownRecord {
  /** Candidate cells with a timeout or crash. */
  readonly cells: number;
  /** Reference cells with a timeout or crash. */
  readonly referenceCells: number;
  /** The `unknown` option: `disagree`, `inconclusive` or `exclude`. */
  readonly policy: string;
  /** Per candidate with any unknown cell. */
  readonly perCandidate: ReadonlyArray<{ readonly label: string; readonly cells: number }>;
  /**
   * Inputs the reference did not answer (timeout, crash, budget spent), in the Gen's reference
   * filter or while measured (absent in older records).
   */
  readonly referenceLost?: number;
  /** What `unknown: 'exclude'` left out, as one sentence; null when nothing (absent in older records). */
  readonly excluded?: string | null;
}

/** Payload of a `coherence` record (`toHaveIncoherenceBelow`). @public */
export interface CoherenceData {
  readonly estimator: string;
  readonly incoherence: EstimateRecord | null;
  /** The asserted bound on incoherence. */
  readonly bound: number | null;
  readonly errorLowerBound: number | null;
  /** Measured against the reference, when the task has one. */
  readonly error: EstimateRecord | null;
  readonly semanticEntropy: number;
  readonly disagreements: number;
  readonly unknownCells: number;
}

/** Payload of an `error` record (`toAgreeWithReference`). @public */
export interface ErrorData {
  readonly error: EstimateRecord | null;
  readonly maxError: number;
  readonly candidates: ReadonlyArray<{
    readonly label: string;
    readonly error: number | null;
    readonly n: number;
  }>;
  readonly unknownCells: number;
}

/** Payload of a `detection` record (`toBeCoherentAcross`). @public */
export interface DetectionData {
  readonly verdict: Detection['verdict'];
  readonly epsilon: number;
  readonly delta: number;
  /** N = ⌈ln δ / ln(1 − ε)⌉. */
  readonly required: number;
  readonly inputsRun: number;
  readonly inputsCounted: number;
  readonly unknownCells: number;
  readonly certificate: string | null;
  readonly reason: string | null;
}

/** Payload of a `ranking` record (`toRankLike`). @public */
export interface RankingData {
  /** Spearman's ρ; null when a side is constant. */
  readonly spearman: number | null;
  readonly minSpearman: number;
  /** Names of the ranked items (indexes as strings for arrays). */
  readonly items: readonly string[];
  readonly received: readonly number[];
  readonly expected: readonly number[];
  /**
   * One-sided permutation p-value of ρ: the chance that unrelated orders reach it (exact up to 8
   * items); null when ρ is undefined. Absent in older records.
   */
  readonly pValue?: number | null;
  /** Largest accepted p-value (absent in older records). */
  readonly alpha?: number;
}

/** Payload of an `order` record (`toRankModels`): a stated order checked against a ranking. @public */
export interface OrderData {
  /** The figure ranked on (lower is better). */
  readonly metric: 'incoherence' | 'error';
  readonly confidence: number;
  /** The stated order, best first. */
  readonly stated: readonly string[];
  /** Each stated "above over below" the ranking does not separate at the confidence, and why. */
  readonly unsupported: readonly {
    readonly above: string;
    readonly below: string;
    readonly reason: string;
  }[];
  /** The stated models' ranks with their intervals. */
  readonly ranks: readonly {
    readonly model: string;
    readonly rank: number;
    readonly rankLow: number;
    readonly rankHigh: number;
  }[];
}

/** How a fast-check property run ended. @public */
export type PropertyOutcome = 'held' | 'falsified' | 'too-many-skips' | 'interrupted';

/** What each candidate returned over the inputs a property run gave it. @public */
export interface PropertyCandidateRecord {
  readonly label: string;
  /**
   * `toSatisfyRelation` only (absent elsewhere): whether this candidate's calls kept the relation,
   * violated it (a shrunk witness exists), or gave no pair to relate.
   */
  readonly verdict?: 'held' | 'violated' | 'inconclusive';
  readonly value: number;
  readonly invalid: number;
  readonly error: number;
  readonly timeout: number;
  readonly crash: number;
}

/**
 * Payload of a `property` record: one run of a fast-check bridge property (`coherenceProperty`)
 * under `fc.assert`, `fc.check`, `@fast-check/vitest` or `@fast-check/jest`. It says what ran and
 * how it ended, nothing more: fast-check draws biased inputs (small values and edge cases
 * first) and shrinks, so a run that held supports no error bound and no PAC certificate, and
 * the reporters keep these records out of every incoherence, error and detection figure.
 * @public
 */
export interface PropertyData {
  /** The bridge function that built the property, e.g. `coherenceProperty`. */
  readonly property: string;
  /** Always true: the inputs were fast-check's biased draws, so no bound follows from a run. */
  readonly biased: true;
  readonly outcome: PropertyOutcome;
  /** fast-check's seed of the run (also the record's `seed`). */
  readonly seed: number;
  /** fast-check's path to the counterexample; replay with `{ seed, path, endOnFailure: true }`. */
  readonly path: string | null;
  /** Runs asked for (fast-check's `numRuns`), when known. */
  readonly runsRequested: number | null;
  /** Runs done; on failure, up to and including the first failing one. */
  readonly runs: number;
  /** Inputs skipped as invalid (`fc.pre`), before the first failure. */
  readonly skips: number;
  readonly shrinks: number;
  /** Inputs the candidates ran on, shrinking included. */
  readonly inputsRun: number;
  /** The counterexample as fast-check prints it (`fc.stringify`), or null. */
  readonly counterexample: string | null;
  /** Why the run failed, as the property threw it (first lines), or null. */
  readonly failure: string | null;
  /** Per candidate, its outcomes over the inputs run. */
  readonly candidates: readonly PropertyCandidateRecord[];
}

/** Payload of each record kind. Triangulation and review are owned by their modules. @public */
/** Token and cost totals of a set of model calls. @public */
export interface ReviewUsageRecord {
  readonly calls: number;
  readonly prompt: number;
  readonly completion: number;
  /** Sum over priced calls; null when none was priced. */
  readonly costUsd: number | null;
  readonly unpricedCalls: number;
}

/** Payload of a `review` record (grounded review, `toPassGroundedReview`). @public */
export interface ReviewData {
  readonly method: 'trails';
  /** Departures from the paper's procedure that were on (e.g. `judgeRejections`). */
  readonly extensions: readonly string[];
  readonly threshold: number;
  /** How τ was calibrated on a labelled sample (metric, its value there, the sample's size); null or absent for a fixed τ. */
  readonly calibration?: {
    readonly metric: 'mcc' | 'p4';
    readonly value: number;
    readonly programs: number;
    readonly correct: number;
    readonly incorrect: number;
  } | null;
  /** Share of CORRECT among parseable verdicts; null when none. */
  readonly score: number | null;
  readonly verdict: 'accept' | 'reject' | 'inconclusive';
  readonly reason: string;
  readonly counts: { readonly correct: number; readonly incorrect: number; readonly unparseable: number };
  readonly scenarios: ReadonlyArray<{
    readonly id: string;
    readonly title: string;
    readonly status: string;
    readonly steps: number;
    readonly kept: number;
  }>;
  /** Judged triples (scenario id, input, output, verdict, the judge's reason); at most 60. */
  readonly inputs: ReadonlyArray<{
    readonly scenario: string;
    readonly input: string;
    readonly output: string;
    readonly verdict: string;
    readonly reason: string;
  }>;
  readonly generatorModel: string;
  readonly judgeModel: string;
  readonly dedup: 'lines' | 'input-key';
  /** Truth against the reference, when the check knew it. */
  readonly truth: 'correct' | 'incorrect' | null;
  /** Model calls live and replayed from the cache (a replayed call is worth its cost, not spent). */
  readonly usage: { readonly live: ReviewUsageRecord; readonly replayed: ReviewUsageRecord };
  /** Per equivalence class of a pool review; null for one candidate. */
  readonly classes: ReadonlyArray<{
    readonly labels: readonly string[];
    readonly share: number;
    readonly verdict: string;
    readonly score: number | null;
  }> | null;
}

/** Payload of each record kind. Triangulation is owned by its module. @public */
export interface RecordData {
  coherence: CoherenceData;
  error: ErrorData;
  detection: DetectionData;
  ranking: RankingData;
  order: OrderData;
  property: PropertyData;
  triangulation: { readonly [key: string]: JsonValue };
  review: ReviewData;
}

/** @public */
export type RecordKind = keyof RecordData;

/** Human titles of record kinds; the `satisfies` makes a new kind a compile error here. @public */
export const RECORD_KINDS = {
  coherence: 'incoherence estimate',
  error: 'error against the reference',
  detection: 'PAC detection',
  triangulation: 'semantic triangulation',
  review: 'grounded review',
  ranking: 'ranking agreement',
  order: 'model order at a confidence',
  property: 'fast-check property run',
} as const satisfies Record<RecordKind, string>;

/** Which test wrote a record. @public */
export interface TestIdentity {
  /** Test file path, when the host says. */
  readonly file: string | null;
  /** Full test name (describe blocks and title). */
  readonly name: string | null;
  /** The matcher, e.g. `toBeCoherentAcross`. */
  readonly matcher: string;
  /** Whether the assertion was `.not`. */
  readonly negated: boolean;
}

/** Fields every record has. @public */
export interface RecordBase<K extends RecordKind = RecordKind> {
  readonly schema: typeof RECORD_SCHEMA;
  readonly version: typeof RECORD_VERSION;
  readonly kind: K;
  readonly test: TestIdentity;
  readonly task: string | null;
  /** Tags all candidates share (model, temperature, ...). */
  readonly tags: CandidateTags;
  /** Whether the assertion passed (after `.not`). */
  readonly verdict: 'pass' | 'fail';
  readonly seed: number | null;
  /** Candidates. */
  readonly m: number | null;
  /** Inputs run. */
  readonly n: number | null;
  /** Which input distribution: the guarantees hold for it. */
  readonly gen: string | null;
  readonly witness: WitnessRecord | null;
  readonly classes: readonly ClassRecord[];
  readonly timings: { readonly durationMs: number };
  /**
   * What the untrusted candidates ran under: `'os'` (bubblewrap), `'process'` (no OS boundary),
   * `'none'` (only trusted functions ran); null when the check ran no code (ranking) or the
   * record predates the field.
   */
  readonly isolation: IsolationUsed | null;
  /**
   * Which pool was checked: `poolIdentity(task, candidate ids)`. Error and disagreement are only
   * compared within one pool. Null when the check ran no pool (ranking) or the record is older.
   */
  readonly pool: string | null;
  /** Timeouts and crashes; null when the check ran no code or the record is older. */
  readonly unknown: UnknownRecord | null;
  /** Why the evidence supports no verdict (the check then failed both ways), or null. */
  readonly inconclusive: string | null;
  readonly tokens: {
    readonly prompt: number;
    readonly completion: number;
    readonly costUsd: number | null;
  } | null;
  /** The model calls behind the candidates (absent in older records; null when none came from a model). */
  readonly llm?: LlmRecord | null;
  readonly data: RecordData[K];
}

/** A record: one per assertion, discriminated by `kind`. @public */
export type CrosscheckRecord = { [K in RecordKind]: RecordBase<K> }[RecordKind];

/** What the matcher knows about the assertion. @public */
export interface RecordContext {
  readonly test: TestIdentity;
  readonly pass: boolean;
  /** Candidate tags, to keep the ones they all share. */
  readonly tags?: readonly CandidateTags[];
  /** The model calls behind the candidates: `llmRecord(candidates)`. */
  readonly llm?: LlmRecord | null;
}

/** Tags every candidate has with the same value, without the per-candidate `sample`. @public */
export const commonTags = (all: readonly CandidateTags[]): CandidateTags => {
  const [first, ...rest] = all;
  if (!first) return {};
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(first)) {
    if (k !== 'sample' && rest.every((t) => t[k] === v)) out[k] = v;
  }
  return out;
};

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

const estimate = (i: Interval | null): EstimateRecord | null =>
  i && { estimate: i.estimate, lower: i.lower, upper: i.upper, epsilon: i.epsilon, delta: i.delta, n: i.n };

const witnessRecord = (w: Witness | null): WitnessRecord | null =>
  w && {
    reason: w.reason,
    input: w.text,
    original: w.original.text,
    shrinkSteps: w.shrink?.steps ?? null,
    outputs: w.outputs.map((o) => ({ labels: [...o.labels], kind: o.kind, outcome: o.outcome })),
    reference: w.reference,
  };

const base = <K extends RecordKind>(
  kind: K,
  ctx: RecordContext,
  fields: Partial<Omit<RecordBase<K>, 'schema' | 'version' | 'kind' | 'test' | 'verdict' | 'tags' | 'data'>>,
  data: RecordData[K],
): RecordBase<K> => ({
  schema: RECORD_SCHEMA,
  version: RECORD_VERSION,
  kind,
  test: { ...ctx.test },
  task: fields.task ?? null,
  tags: commonTags(ctx.tags ?? []),
  verdict: ctx.pass ? 'pass' : 'fail',
  seed: fields.seed ?? null,
  m: fields.m ?? null,
  n: fields.n ?? null,
  gen: fields.gen ?? null,
  witness: fields.witness ?? null,
  classes: fields.classes ?? [],
  timings: fields.timings ?? { durationMs: 0 },
  isolation: fields.isolation ?? null,
  pool: fields.pool ?? null,
  unknown: fields.unknown ?? null,
  inconclusive: fields.inconclusive ?? null,
  tokens: fields.tokens ?? (ctx.llm ? tokensOf(ctx.llm) : null),
  llm: ctx.llm ?? null,
  data,
});

const fromMeasurement = (m: Measurement) => ({
  task: m.task,
  seed: m.seed,
  m: m.m,
  n: m.n,
  gen: m.gen,
  witness: witnessRecord(m.witness),
  classes: m.classes.map((c) => ({ labels: [...c.labels], share: c.share, unknown: c.unknown })),
  timings: { durationMs: m.durationMs },
  isolation: m.isolation,
  pool: m.pool,
  unknown: {
    ...unknownRecord(
      m.unknown.cells,
      m.unknown.referenceCells,
      m.unknownPolicy,
      m.candidates.map((c) => c.label),
      m.unknown.perCandidate,
    ),
    referenceLost: m.referenceLoss?.inputs ?? 0,
    excluded: m.excluded,
  },
  inconclusive: m.inconclusive,
});

/** The unknown-cell summary of a check. @public */
export const unknownRecord = (
  cells: number,
  referenceCells: number,
  policy: string,
  labels: readonly string[],
  perCandidate: readonly number[],
): UnknownRecord => ({
  cells,
  referenceCells,
  policy,
  perCandidate: perCandidate.flatMap((k, i) => (k > 0 ? [{ label: labels[i] ?? `#${i}`, cells: k }] : [])),
});

/** Record of an incoherence estimate against a bound. @public */
export const coherenceRecord = (
  m: Measurement,
  bound: number | null,
  ctx: RecordContext,
): RecordBase<'coherence'> =>
  base('coherence', ctx, fromMeasurement(m), {
    estimator: m.estimator,
    incoherence: estimate(m.incoherence),
    bound,
    errorLowerBound: m.errorLowerBound,
    error: estimate(m.error),
    semanticEntropy: m.semanticEntropy,
    disagreements: m.disagreements,
    unknownCells: m.unknown.cells,
  });

/** Record of a grounded review. @public */
export const reviewRecord = (
  ctx: RecordContext,
  fields: Partial<
    Pick<
      RecordBase<'review'>,
      'task' | 'seed' | 'm' | 'n' | 'classes' | 'timings' | 'isolation' | 'inconclusive' | 'tokens'
    >
  >,
  data: ReviewData,
): RecordBase<'review'> => base('review', ctx, fields, data);

/** Record of error against the reference. @public */
export const errorRecord = (m: Measurement, maxError: number, ctx: RecordContext): RecordBase<'error'> =>
  base('error', ctx, fromMeasurement(m), {
    error: estimate(m.error),
    maxError,
    candidates: m.candidateErrors.map((c) => ({ label: c.label, error: c.error, n: c.n })),
    unknownCells: m.unknown.cells,
  });

/** Record of a PAC detection. @public */
export const detectionRecord = (
  d: Detection,
  ctx: RecordContext,
  labels?: readonly string[],
): RecordBase<'detection'> =>
  base(
    'detection',
    ctx,
    {
      task: d.task,
      seed: d.seed,
      m: d.m,
      n: d.inputsRun,
      gen: d.gen,
      witness: witnessRecord(d.witness),
      timings: { durationMs: d.durationMs },
      isolation: d.isolation,
      pool: d.pool,
      unknown: {
        ...unknownRecord(d.unknownCells, 0, d.unknownPolicy, labels ?? [], d.unknownPerCandidate),
        referenceLost: d.referenceLoss?.inputs ?? 0,
        excluded: d.excluded,
      },
      inconclusive: d.verdict === 'inconclusive' ? d.reason : null,
    },
    {
      verdict: d.verdict,
      epsilon: d.epsilon,
      delta: d.delta,
      required: d.required,
      inputsRun: d.inputsRun,
      inputsCounted: d.inputsCounted,
      unknownCells: d.unknownCells,
      certificate: d.certificate,
      reason: d.reason,
    },
  );

/** Record of a stated model order checked against a ranking's separations. @public */
export const orderRecord = (d: OrderData, ctx: RecordContext): RecordBase<'order'> =>
  base(
    'order',
    ctx,
    { m: d.stated.length },
    {
      metric: d.metric,
      confidence: d.confidence,
      stated: [...d.stated],
      unsupported: d.unsupported.map((u) => ({ ...u })),
      ranks: d.ranks.map((r) => ({ ...r })),
    },
  );

/** Record of a ranking comparison. @public */
export const rankingRecord = (
  r: {
    spearman: number;
    minSpearman: number;
    items: readonly string[];
    received: readonly number[];
    expected: readonly number[];
    pValue?: number;
    alpha?: number;
    /** Why the items cannot support the threshold, or null. */
    inconclusive?: string | null;
  },
  ctx: RecordContext,
): RecordBase<'ranking'> =>
  base(
    'ranking',
    ctx,
    { m: r.items.length, inconclusive: r.inconclusive ?? null },
    {
      spearman: finite(r.spearman),
      minSpearman: r.minSpearman,
      items: [...r.items],
      received: [...r.received],
      expected: [...r.expected],
      ...(r.pValue === undefined ? {} : { pValue: finite(r.pValue) }),
      ...(r.alpha === undefined ? {} : { alpha: r.alpha }),
    },
  );

/**
 * Record of one fast-check property run (see {@link PropertyData}). `witness` is the shrunk
 * disagreement with each class's outcome on it, when the run found one.
 * @public
 */
export const propertyRecord = (
  fields: {
    readonly task: string | null;
    readonly m: number;
    readonly gen: string | null;
    readonly witness: WitnessRecord | null;
    readonly durationMs: number;
    readonly isolation: IsolationUsed | null;
    readonly pool: string | null;
    /** Why the run, though fast-check found no counterexample, supports no verdict. */
    readonly inconclusive?: string | null;
  },
  data: PropertyData,
  ctx: RecordContext,
): RecordBase<'property'> =>
  base(
    'property',
    ctx,
    {
      task: fields.task,
      seed: data.seed,
      m: fields.m,
      n: data.runs,
      gen: fields.gen,
      witness: fields.witness,
      timings: { durationMs: fields.durationMs },
      isolation: fields.isolation,
      pool: fields.pool,
      inconclusive: fields.inconclusive ?? null,
    },
    data,
  );

/** One JSON line (no trailing newline). @public */
export const serializeRecord = (record: CrosscheckRecord): string => JSON.stringify(record);

/**
 * Parses and checks one record (a JSON line, or an already parsed value from `task.meta`).
 * Throws a `CrosscheckError` for anything that is not a record of this schema version.
 * @public
 */
export const parseRecord = (input: string | unknown): CrosscheckRecord => {
  const where = 'parseRecord(input)';
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new CrosscheckError('INVALID_INPUT', `${where}: not JSON: ${(error as Error).message}.`, {
        where,
        cause: error,
      });
    }
  }
  const r = value as Partial<CrosscheckRecord> | null;
  if (typeof r !== 'object' || r === null || r.schema !== RECORD_SCHEMA) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${where}: expected a ${RECORD_SCHEMA} object, got ${describeValue(value)}.`,
      {
        where,
      },
    );
  }
  if (r.version !== RECORD_VERSION) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${where}: record version ${describeValue(r.version)} is not supported (this crosscheck reads version ${RECORD_VERSION}). Use the crosscheck version that wrote it.`,
      { where },
    );
  }
  if (typeof r.kind !== 'string' || !Object.hasOwn(RECORD_KINDS, r.kind)) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${where}: unknown record kind ${describeValue(r.kind)}; expected one of ${Object.keys(RECORD_KINDS).join(', ')}.`,
      { where },
    );
  }
  const problem = recordProblem(r as Record<string, unknown>, r.kind);
  if (problem !== null) {
    throw new CrosscheckError(
      'INVALID_INPUT',
      `${where}: ${problem}. The record is damaged or was not written by crosscheck; write it again.`,
      { where },
    );
  }
  // Records written before a field existed say nothing about it.
  const defaults = { isolation: null, pool: null, unknown: null, inconclusive: null };
  return { ...defaults, ...r } as CrosscheckRecord;
};
