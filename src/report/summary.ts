import type { CandidateTags } from '../candidates/index.ts';
import type { IsolationUsed } from '../exec/index.ts';
import {
  type AbstentionCounts,
  type AbstentionMetrics,
  abstentionMetrics,
  averageRanks,
  countDecisions,
  type RankedModel,
  type RankingAnalysis,
  rankModels,
  spearman,
} from '../stats/index.ts';
import { type LlmRecord, type LlmSummary, llmSummary } from './llm.ts';
import type {
  ClassRecord,
  CrosscheckRecord,
  EstimateRecord,
  PropertyData,
  RecordKind,
  WitnessRecord,
} from './record.ts';

/**
 * Suite aggregation: records in, one summary out. Pure and order-independent (rows are sorted by
 * test), so the summary of merged shards equals the summary of the unsharded run.
 * @packageDocumentation
 */

/** Verdict of a PAC detection, or null for other kinds. @public */
export type PacVerdict = 'coherent' | 'incoherent' | 'inconclusive';

/** One row per check (one record). @public */
export interface CheckRow {
  /** Test file, relative to the run's root when the reporter knew it. */
  readonly file: string | null;
  readonly test: string | null;
  readonly matcher: string;
  readonly negated: boolean;
  readonly kind: RecordKind;
  readonly task: string | null;
  /** The `model` tag, when the candidates share one. */
  readonly model: string | null;
  readonly tags: CandidateTags;
  /** Whether the assertion passed. */
  readonly verdict: 'pass' | 'fail';
  readonly m: number | null;
  readonly n: number | null;
  readonly seed: number | null;
  readonly incoherence: EstimateRecord | null;
  /** Error against the reference, when the task has one. */
  readonly error: EstimateRecord | null;
  /** E ≥ max(0, Î − ε)/2: needs no reference. */
  readonly errorLowerBound: number | null;
  readonly pac: PacVerdict | null;
  /** Whether candidates were seen to disagree; null when this kind of check cannot tell. */
  readonly disagreement: boolean | null;
  readonly classes: readonly ClassRecord[];
  /** The shrunk witness input (tagged wire JSON), if any. */
  readonly witness: string | null;
  /** The whole witness: input, each class's output on it, the reference's. */
  readonly witnessDetail: WitnessRecord | null;
  /** Spearman's ρ of a ranking check; null for other kinds. */
  readonly spearman: number | null;
  readonly durationMs: number;
  /** What its untrusted candidates ran under; null when it ran no code or the record is older. */
  readonly isolation: IsolationUsed | null;
  /** The pool checked (task and candidate ids, hashed); null for ranking or older records. */
  readonly pool: string | null;
  /** Candidate cells that timed out or crashed; null when the check ran no code or the record is older. */
  readonly unknownCells: number | null;
  /** Per candidate with unknown cells: `label: cells`. */
  readonly unknownByCandidate: ReadonlyArray<{ readonly label: string; readonly cells: number }>;
  /** How unknown cells counted (`disagree`, `inconclusive`, `exclude`), when known. */
  readonly unknownPolicy: string | null;
  /** Why the evidence supported no verdict, or null. */
  readonly inconclusive: string | null;
  /** Inputs the reference did not answer; null when the record does not say. */
  readonly referenceLost: number | null;
  /** What `unknown: 'exclude'` left out, as one sentence; null when nothing was. */
  readonly excluded: string | null;
  /**
   * A fast-check property run (kind `property`): what ran and how it ended. Null for other kinds.
   * Such rows carry no incoherence, error or PAC signal and join no task point.
   */
  readonly property: PropertyData | null;
  /** Tokens and cost of the model calls behind its candidates; null when none came from a model. */
  readonly llm?: LlmRecord | null;
  /** A triangulation check's selection or abstention; null for other kinds. */
  readonly triangulation: TriangulationRow | null;
  /** A grounded review's score against τ, its verdict and what was judged; only on review rows. */
  readonly review?: ReviewRow;
}

/** What a review record says, for its row: the score against τ, the verdict, the inputs judged. @public */
export interface ReviewRow {
  readonly verdict: 'accept' | 'reject' | 'inconclusive';
  /** Share of CORRECT among the judge's parseable verdicts; null when none. */
  readonly score: number | null;
  /** τ: the score at or above which the review accepts. */
  readonly threshold: number;
  /** Inputs judged: correct + incorrect + unparseable verdicts. */
  readonly judged: number;
  readonly correct: number;
  readonly incorrect: number;
  readonly unparseable: number;
  readonly reason: string;
}

/** What a triangulation record says, for the summary's selection and abstention columns. @public */
export interface TriangulationRow {
  readonly transformation: string;
  readonly outcome: 'selected' | 'abstained';
  readonly selected: string | null;
  readonly support: number | null;
  /**
   * The selected program's plausibility witnesses: the transformed candidates it agreed with, each
   * once (absent in older summaries; empty on abstention).
   */
  readonly witnesses?: readonly string[];
  /** The selection against the task's reference; null without one (or on abstention). */
  readonly correct: boolean | null;
  /** Whether some forward candidate is correct (ground truth "do not abstain"); null without a reference. */
  readonly solvable: boolean | null;
}

/** Triangulation over the suite, per model tag: N₁…N₅ where references decide them. @public */
export interface TriangulationFigures {
  readonly checks: number;
  readonly selected: number;
  readonly abstained: number;
  readonly models: ReadonlyArray<{
    readonly model: string | null;
    readonly checks: number;
    readonly abstained: number;
    /** Null when some check of the model has no reference. */
    readonly counts: AbstentionCounts | null;
    readonly metrics: AbstentionMetrics | null;
  }>;
}

/**
 * One task as one model did it: the checks of a task whose candidates share a `model` tag, joined.
 * The unit of the paper's per-task figures (figure 3, table 4).
 * @public
 */
export interface TaskPoint {
  readonly task: string;
  readonly model: string | null;
  /** Mean Î over the incoherence estimates of the task; null without one. */
  readonly incoherence: number | null;
  /** Mean Ê over the error estimates of the task; null without a reference. */
  readonly error: number | null;
  /** Any observed disagreement (Î > 0 or an incoherent detection); null without such a check. */
  readonly disagreement: boolean | null;
  readonly checks: number;
}

/**
 * Figures that need a reference (table 4 of the incoherence paper). Each point is one pool (one
 * task, one set of candidates): its error and its disagreement come from checks of that same
 * pool, never from a check of one of its candidates alone. @public
 */
export interface ReferenceFigures {
  /** Pools with both an error estimate and a disagreement signal. */
  readonly tasks: number;
  readonly meanError: number;
  /** Spearman's ρ between error and incoherence over task points with both; null if undefined. */
  readonly spearman: number | null;
  /** Task points behind `spearman` (absent in older summaries). */
  readonly spearmanPoints?: number;
  /** #(Ê > 0 ∧ disagreement) / #(Ê > 0); null when no task has error. */
  readonly detectionRate: number | null;
  /** Tasks flagged by disagreement although Ê = 0. */
  readonly falsePositives: number;
  /** Mean Ê over tasks without disagreement; null when every task disagreed. */
  readonly undetectedMeanError: number | null;
}

/** Suite-wide figures. @public */
export interface SuiteFigures {
  readonly checks: number;
  readonly failedChecks: number;
  /** (task, model) pairs: a task two models did counts twice. */
  readonly tasks: number;
  /** Distinct task names. */
  readonly distinctTasks: number;
  /** Distinct `model` tags among the task points. */
  readonly models: number;
  /** Tasks where candidates disagreed: some candidate is wrong, no oracle needed. */
  readonly flaggedTasks: number;
  /** Mean Î over the task points that have one (conclusive checks only). */
  readonly meanIncoherence: number | null;
  /** Task points behind `meanIncoherence` (absent in older summaries). */
  readonly meanIncoherenceOver?: number;
  /** Mean error lower bound over the conclusive checks that have one. */
  readonly meanErrorLowerBound: number | null;
  /** Checks behind `meanErrorLowerBound` (absent in older summaries). */
  readonly meanErrorLowerBoundOver?: number;
  /** Null when no task has both an error estimate and a disagreement signal. */
  readonly references: ReferenceFigures | null;
  /** Candidate cells that timed out or crashed, over all checks. */
  readonly unknownCells: number;
  /** Checks with unknown cells. */
  readonly checksWithUnknown: number;
  /** Checks whose evidence supported no verdict. */
  readonly inconclusiveChecks: number;
  /**
   * The statistical claims the passing checks make (a detection certificate, an interval below a
   * bound, an error bound), each holding with probability ≥ 1 − δ on its own: how many, and Σδ,
   * the union bound on the chance that at least one of them is false (absent in older summaries).
   */
  readonly claims?: { readonly count: number; readonly deltas: readonly number[]; readonly sumDelta: number };
  /** Checks whose figures leave out inputs or cells (`unknown: 'exclude'`; absent in older summaries). */
  readonly checksWithExclusions?: number;
  /** Checks per isolation that ran (`os`, `process`, `none`; `unknown` for records without it). */
  readonly isolation: Readonly<Partial<Record<IsolationUsed | 'unknown', number>>>;
  /**
   * fast-check property runs: counted here and in `checks`/`failedChecks` only. Their inputs are
   * biased, so they enter no task, flag, error-bound or detection figure.
   */
  readonly properties: { readonly runs: number; readonly failed: number };
  /** Triangulation checks (absent in older summaries; null without any). */
  readonly triangulation?: TriangulationFigures | null;
}

/** One model in the ranking table (figure 1 of the incoherence paper). Rank 1 is best. @public */
export interface ModelRow {
  readonly model: string;
  /** Tasks with a disagreement signal. */
  readonly tasks: number;
  readonly coherentTasks: number;
  readonly coherentShare: number | null;
  readonly coherenceRank: number | null;
  /** Tasks with an error estimate. */
  readonly referencedTasks: number;
  readonly correctTasks: number;
  readonly correctShare: number | null;
  readonly correctnessRank: number | null;
  readonly meanIncoherence: number | null;
  readonly meanError: number | null;
  /**
   * The model's place in the rankings by mean incoherence and mean error with their uncertainty:
   * estimate and interval, rank and rank interval, group (see {@link ModelRanking.uncertainty});
   * null where the model is not ranked by that figure. Absent in older summaries.
   */
  readonly intervals?: { readonly incoherence: RankedModel | null; readonly error: RankedModel | null };
}

/** Models ranked by share of coherent tasks and, with references, of correct tasks. @public */
export interface ModelRanking {
  readonly models: readonly ModelRow[];
  /** Spearman's ρ between the two shares over models that have both; null if undefined. */
  readonly spearman: number | null;
  /**
   * The rankings with their uncertainty (`rankModels` over the task points, seed 0): each task's
   * figure is one observation, so the bootstrap resamples tasks (each task's figure already
   * carries its candidates' variation). Null with fewer than two models. Absent in older summaries.
   */
  readonly uncertainty?: RankingAnalysis | null;
  /** Models behind `spearman` (absent in older summaries). */
  readonly spearmanModels?: number;
}

/** The suite summary every renderer draws. @public */
export interface Summary {
  readonly rows: readonly CheckRow[];
  readonly suite: SuiteFigures;
  readonly points: readonly TaskPoint[];
  readonly ranking: ModelRanking;
  /** Tokens and cost per model and for the suite, each call once; null when no check used a model. */
  readonly llm?: LlmSummary | null;
  /** Grounded reviews of the suite; absent when there was none. */
  readonly reviews?: ReviewSummary;
}

/** Totals over the suite's grounded reviews. @public */
export interface ReviewSummary {
  readonly checks: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly inconclusive: number;
  /** Mean score over reviews that have one. */
  readonly meanScore: number | null;
  /** Tokens of the calls behind the reviews (live and replayed). */
  readonly prompt: number;
  readonly completion: number;
  readonly liveCalls: number;
  readonly replayedCalls: number;
  /** Live spend; null when no live call was priced. */
  readonly liveCostUsd: number | null;
  /** What the replayed calls are worth at current prices (not spent today); null when none was priced. */
  readonly replayedCostUsd: number | null;
}

const addCost = (a: number | null, b: number | null): number | null =>
  a === null && b === null ? null : (a ?? 0) + (b ?? 0);

const reviewSummary = (records: readonly CrosscheckRecord[]): ReviewSummary | null => {
  const reviews = records.flatMap((r) => (r.kind === 'review' ? [r.data] : []));
  if (reviews.length === 0) return null;
  return {
    checks: reviews.length,
    accepted: reviews.filter((d) => d.verdict === 'accept').length,
    rejected: reviews.filter((d) => d.verdict === 'reject').length,
    inconclusive: reviews.filter((d) => d.verdict === 'inconclusive').length,
    meanScore: mean(reviews.flatMap((d) => (d.score === null ? [] : [d.score]))),
    prompt: reviews.reduce((a, d) => a + d.usage.live.prompt + d.usage.replayed.prompt, 0),
    completion: reviews.reduce((a, d) => a + d.usage.live.completion + d.usage.replayed.completion, 0),
    liveCalls: reviews.reduce((a, d) => a + d.usage.live.calls, 0),
    replayedCalls: reviews.reduce((a, d) => a + d.usage.replayed.calls, 0),
    liveCostUsd: reviews.reduce<number | null>((a, d) => addCost(a, d.usage.live.costUsd), null),
    replayedCostUsd: reviews.reduce<number | null>((a, d) => addCost(a, d.usage.replayed.costUsd), null),
  };
};

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;

// Spearman is undefined for fewer than two points or a constant side: report null, not NaN.
const rho = (xs: readonly number[], ys: readonly number[]): number | null => {
  if (xs.length < 2) return null;
  const r = spearman(xs, ys);
  return Number.isFinite(r) ? r : null;
};

const modelOf = (tags: CandidateTags): string | null =>
  tags.model === undefined ? null : String(tags.model);

/** The signals each record kind carries; an exhaustive table makes a new kind a compile error. */
const SIGNALS = {
  coherence: (r) => ({
    incoherence: r.data.incoherence,
    error: r.data.error,
    errorLowerBound: r.data.errorLowerBound,
    pac: null,
    disagreement: r.data.incoherence && r.inconclusive === null ? r.data.incoherence.estimate > 0 : null,
  }),
  error: (r) => ({
    incoherence: null,
    error: r.data.error,
    errorLowerBound: null,
    pac: null,
    disagreement: null,
  }),
  detection: (r) => ({
    incoherence: null,
    error: null,
    errorLowerBound: null,
    pac: r.data.verdict,
    disagreement: r.data.verdict === 'inconclusive' ? null : r.data.verdict === 'incoherent',
  }),
  ranking: () => ({ incoherence: null, error: null, errorLowerBound: null, pac: null, disagreement: null }),
  order: () => ({ incoherence: null, error: null, errorLowerBound: null, pac: null, disagreement: null }),
  triangulation: () => ({
    incoherence: null,
    error: null,
    errorLowerBound: null,
    pac: null,
    disagreement: null,
  }),
  review: () => ({ incoherence: null, error: null, errorLowerBound: null, pac: null, disagreement: null }),
  // A falsified property is no disagreement signal: fast-check's biased, shrunk inputs estimate nothing.
  property: () => ({ incoherence: null, error: null, errorLowerBound: null, pac: null, disagreement: null }),
} satisfies {
  [K in RecordKind]: (
    r: Extract<CrosscheckRecord, { kind: K }>,
  ) => Pick<CheckRow, 'incoherence' | 'error' | 'errorLowerBound' | 'pac' | 'disagreement'>;
};

/** One row of the summary table for one record. @public */
export const checkRow = (r: CrosscheckRecord): CheckRow => ({
  llm: r.llm ?? null,
  file: r.test.file,
  test: r.test.name,
  matcher: r.test.matcher,
  negated: r.test.negated,
  kind: r.kind,
  task: r.task,
  model: modelOf(r.tags),
  tags: r.tags,
  verdict: r.verdict,
  m: r.m,
  n: r.n,
  seed: r.seed,
  ...(SIGNALS[r.kind] as (x: CrosscheckRecord) => ReturnType<(typeof SIGNALS)['coherence']>)(r),
  classes: r.classes,
  witness: r.witness?.input ?? null,
  witnessDetail: r.witness ?? null,
  spearman: r.kind === 'ranking' ? r.data.spearman : null,
  durationMs: r.timings.durationMs,
  isolation: r.isolation ?? null,
  pool: r.pool ?? null,
  unknownCells: r.unknown?.cells ?? null,
  unknownByCandidate: r.unknown?.perCandidate ?? [],
  unknownPolicy: r.unknown?.policy ?? null,
  inconclusive: r.inconclusive ?? null,
  referenceLost: r.unknown?.referenceLost ?? null,
  excluded: r.unknown?.excluded ?? null,
  property: r.kind === 'property' ? r.data : null,
  triangulation: r.kind === 'triangulation' ? triangulationRow(r.data) : null,
  // Only review rows carry the field, so other rows keep their exact shape.
  ...(r.kind === 'review' ? { review: reviewRow(r.data) } : {}),
});

const reviewRow = (d: Extract<CrosscheckRecord, { kind: 'review' }>['data']): ReviewRow => ({
  verdict: d.verdict,
  score: d.score,
  threshold: d.threshold,
  judged: d.counts.correct + d.counts.incorrect + d.counts.unparseable,
  correct: d.counts.correct,
  incorrect: d.counts.incorrect,
  unparseable: d.counts.unparseable,
  reason: d.reason,
});

const triangulationRow = (
  d: Extract<CrosscheckRecord, { kind: 'triangulation' }>['data'],
): TriangulationRow | null => {
  if (d.outcome !== 'selected' && d.outcome !== 'abstained') return null;
  const sel = d.selected as { label?: unknown; support?: unknown; witnesses?: unknown } | null;
  const witnesses = Array.isArray(sel?.witnesses)
    ? [...new Set(sel.witnesses.filter((w): w is string => typeof w === 'string'))]
    : [];
  return {
    transformation: typeof d.transformation === 'string' ? d.transformation : '',
    outcome: d.outcome,
    selected: sel && typeof sel.label === 'string' ? sel.label : null,
    support: sel && typeof sel.support === 'number' ? sel.support : null,
    witnesses,
    correct: typeof d.correct === 'boolean' ? d.correct : null,
    solvable: typeof d.solvable === 'boolean' ? d.solvable : null,
  };
};

const triangulationFigures = (rows: readonly CheckRow[]): TriangulationFigures | null => {
  const tri = rows.filter(
    (r): r is CheckRow & { triangulation: TriangulationRow } => r.triangulation !== null,
  );
  if (tri.length === 0) return null;
  const byModel = new Map<string | null, TriangulationRow[]>();
  for (const r of tri) byModel.set(r.model, [...(byModel.get(r.model) ?? []), r.triangulation]);
  return {
    checks: tri.length,
    selected: tri.filter((r) => r.triangulation.outcome === 'selected').length,
    abstained: tri.filter((r) => r.triangulation.outcome === 'abstained').length,
    models: [...byModel.entries()]
      .sort(([a], [b]) => byText(a, b))
      .map(([model, ts]) => {
        const known = ts.every(
          (t) => t.solvable !== null && (t.outcome === 'abstained' || t.correct !== null),
        );
        const counts = known
          ? countDecisions(
              ts.map((t) =>
                t.outcome === 'abstained'
                  ? t.solvable
                    ? 'n3'
                    : 'n5'
                  : !t.solvable
                    ? 'n4'
                    : t.correct
                      ? 'n1'
                      : 'n2',
              ),
            )
          : null;
        return {
          model,
          checks: ts.length,
          abstained: ts.filter((t) => t.outcome === 'abstained').length,
          counts,
          metrics: counts ? abstentionMetrics(counts) : null,
        };
      }),
  };
};

const byText = (a: string | null, b: string | null): number =>
  (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;

/**
 * Records in a canonical order: by test file, then test name; a stable sort keeps the order of the
 * records of one test. Shards and workers deliver in any order; the summary must not depend on it.
 * @public
 */
export const sortRecords = (records: readonly CrosscheckRecord[]): CrosscheckRecord[] =>
  [...records].sort((a, b) => byText(a.test.file, b.test.file) || byText(a.test.name, b.test.name));

const byModelAndTask = (row: CheckRow): string => JSON.stringify([row.model, row.task]);

// Records older than the pool field cannot tell pools apart; they group by model and task.
const byPool = (row: CheckRow): string => row.pool ?? `legacy ${byModelAndTask(row)}`;

const taskPoints = (rows: readonly CheckRow[], keyOf = byModelAndTask): TaskPoint[] => {
  const groups = new Map<string, CheckRow[]>();
  for (const row of rows) {
    if (row.task === null) continue;
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const points = [...groups.values()].map((group): TaskPoint => {
    const first = group[0] as CheckRow;
    const signals = group.map((r) => r.disagreement).filter((d): d is boolean => d !== null);
    return {
      task: first.task as string,
      model: first.model,
      incoherence: mean(group.flatMap((r) => (r.incoherence ? [r.incoherence.estimate] : []))),
      error: mean(group.flatMap((r) => (r.error ? [r.error.estimate] : []))),
      disagreement: signals.length === 0 ? null : signals.some(Boolean),
      checks: group.length,
    };
  });
  return points.sort((a, b) => byText(a.model, b.model) || byText(a.task, b.task));
};

const referenceFigures = (points: readonly TaskPoint[]): ReferenceFigures | null => {
  const both = points.filter(
    (p): p is TaskPoint & { error: number; disagreement: boolean } =>
      p.error !== null && p.disagreement !== null,
  );
  if (both.length === 0) return null;
  const wrong = both.filter((p) => p.error > 0);
  const undetected = both.filter((p) => !p.disagreement);
  const paired = both.filter((p): p is typeof p & { incoherence: number } => p.incoherence !== null);
  return {
    tasks: both.length,
    meanError: mean(both.map((p) => p.error)) as number,
    spearman: rho(
      paired.map((p) => p.error),
      paired.map((p) => p.incoherence),
    ),
    spearmanPoints: paired.length,
    detectionRate: wrong.length === 0 ? null : wrong.filter((p) => p.disagreement).length / wrong.length,
    falsePositives: both.filter((p) => p.error === 0 && p.disagreement).length,
    undetectedMeanError: mean(undetected.map((p) => p.error)),
  };
};

// Rank 1 = best (highest share); ties share the mean rank, as in the paper's figure 1.
const ranksDescending = (shares: readonly (number | null)[]): (number | null)[] => {
  const known = shares.flatMap((s, i) => (s === null ? [] : [[s, i] as const]));
  const ranks = averageRanks(known.map(([s]) => -s));
  const out: (number | null)[] = shares.map(() => null);
  known.forEach(([, i], k) => {
    out[i] = ranks[k] as number;
  });
  return out;
};

const modelRanking = (points: readonly TaskPoint[]): ModelRanking => {
  const byModel = new Map<string, TaskPoint[]>();
  for (const p of points) {
    if (p.model === null) continue;
    byModel.set(p.model, [...(byModel.get(p.model) ?? []), p]);
  }
  const base = [...byModel.entries()]
    .sort(([a], [b]) => byText(a, b))
    .map(([model, ps]) => {
      const signalled = ps.filter((p) => p.disagreement !== null);
      const referenced = ps.filter((p) => p.error !== null);
      const coherentTasks = signalled.filter((p) => p.disagreement === false).length;
      const correctTasks = referenced.filter((p) => p.error === 0).length;
      return {
        model,
        tasks: signalled.length,
        coherentTasks,
        coherentShare: signalled.length ? coherentTasks / signalled.length : null,
        referencedTasks: referenced.length,
        correctTasks,
        correctShare: referenced.length ? correctTasks / referenced.length : null,
        meanIncoherence: mean(ps.flatMap((p) => (p.incoherence === null ? [] : [p.incoherence]))),
        meanError: mean(referenced.map((p) => p.error as number)),
      };
    });
  const uncertainty = rankTaskPoints(points);
  const placeOf = (metric: 'incoherence' | 'error', model: string): RankedModel | null =>
    uncertainty?.rankings[metric]?.models.find((r) => r.model === model) ?? null;
  const coherenceRanks = ranksDescending(base.map((m) => m.coherentShare));
  const correctnessRanks = ranksDescending(base.map((m) => m.correctShare));
  const models = base.map(
    (m, i): ModelRow => ({
      ...m,
      coherenceRank: coherenceRanks[i] ?? null,
      correctnessRank: correctnessRanks[i] ?? null,
      intervals: { incoherence: placeOf('incoherence', m.model), error: placeOf('error', m.model) },
    }),
  );
  const both = models.filter(
    (m): m is ModelRow & { coherentShare: number; correctShare: number } =>
      m.coherentShare !== null && m.correctShare !== null,
  );
  return {
    models,
    spearman: rho(
      both.map((m) => m.coherentShare),
      both.map((m) => m.correctShare),
    ),
    uncertainty,
    spearmanModels: both.length,
  };
};

/**
 * The ranking's uncertainty from task points: one observation per (model, task) with an
 * incoherence figure, and its error where it has one. Points carry no per-input count, so the
 * seed-stability redraws use 1000 inputs (the default n of the checks). Seed 0; null with fewer
 * than two models.
 * @public
 */
export const rankTaskPoints = (points: readonly TaskPoint[], confidence = 0.95): RankingAnalysis | null => {
  const usable = points.filter(
    (p): p is TaskPoint & { model: string; incoherence: number } =>
      p.model !== null && p.incoherence !== null && p.incoherence >= 0 && p.incoherence <= 1,
  );
  if (new Set(usable.map((p) => p.model)).size < 2) return null;
  // One observation per (model, task): points of several pools of one pair are averaged.
  const byPair = new Map<string, { model: string; task: string; inc: number[]; err: number[] }>();
  for (const p of usable) {
    const key = `${p.model}\u0000${p.task}`;
    const entry = byPair.get(key) ?? { model: p.model, task: p.task, inc: [], err: [] };
    entry.inc.push(p.incoherence);
    if (p.error !== null && p.error >= 0 && p.error <= 1) entry.err.push(p.error);
    byPair.set(key, entry);
  }
  const avg = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  return rankModels(
    [...byPair.values()].map((e) => ({
      model: e.model,
      task: e.task,
      n: 1000,
      disagreement: [avg(e.inc)],
      error: e.err.length === 0 ? null : [avg(e.err)],
    })),
    { seed: 0, confidence },
  );
};

// Ranking checks run no code; other records without the field predate it.
const isolationCounts = (rows: readonly CheckRow[]): SuiteFigures['isolation'] => {
  const counts: Partial<Record<IsolationUsed | 'unknown', number>> = {};
  for (const r of rows) {
    if (r.kind === 'ranking' || r.kind === 'order') continue;
    const key = r.isolation ?? 'unknown';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

/**
 * Aggregates the records of a run (or of merged shards) into the suite summary.
 * @param records - records in any order; rows come out in {@link sortRecords} order.
 * @public
 */
export const summarize = (records: readonly CrosscheckRecord[]): Summary => {
  const rows = sortRecords(records).map(checkRow);
  // Property runs are results of their own (biased inputs): they make no task point. Nor does an
  // inconclusive check: its numbers support no verdict, so they enter no mean, rate or flag.
  const measured = rows.filter((r) => r.kind !== 'property' && r.inconclusive === null);
  const properties = rows.filter((r) => r.kind === 'property');
  const points = taskPoints(measured);
  const withIncoherence = points.flatMap((p) => (p.incoherence === null ? [] : [p.incoherence]));
  const withBound = measured.flatMap((r) => (r.errorLowerBound === null ? [] : [r.errorLowerBound]));
  return {
    rows,
    suite: {
      checks: rows.length,
      failedChecks: rows.filter((r) => r.verdict === 'fail').length,
      tasks: points.length,
      distinctTasks: new Set(points.map((p) => p.task)).size,
      models: new Set(points.flatMap((p) => (p.model === null ? [] : [p.model]))).size,
      flaggedTasks: points.filter((p) => p.disagreement === true).length,
      meanIncoherence: mean(withIncoherence),
      meanIncoherenceOver: withIncoherence.length,
      meanErrorLowerBound: mean(withBound),
      meanErrorLowerBoundOver: withBound.length,
      references: referenceFigures(taskPoints(measured, byPool)),
      unknownCells: rows.reduce((a, r) => a + (r.unknownCells ?? 0), 0),
      checksWithUnknown: rows.filter((r) => (r.unknownCells ?? 0) > 0).length,
      inconclusiveChecks: rows.filter((r) => r.inconclusive !== null).length,
      checksWithExclusions: rows.filter((r) => r.excluded !== null).length,
      claims: claimsOf(records),
      isolation: isolationCounts(rows),
      properties: {
        runs: properties.length,
        failed: properties.filter((r) => r.verdict === 'fail').length,
      },
      triangulation: triangulationFigures(rows),
    },
    points,
    ranking: modelRanking(points),
    llm: llmSummary(records),
    // Only suites with reviews carry the field, so other reports keep their exact shape.
    ...reviewsField(records),
  };
};

/** δ of the claim a passing, conclusive, un-negated check makes; null when it makes none. */
const claimDelta = (r: CrosscheckRecord): number | null => {
  if (r.verdict !== 'pass' || r.test.negated || (r.inconclusive ?? null) !== null) return null;
  if (r.kind === 'detection') return r.data.verdict === 'coherent' ? r.data.delta : null;
  if (r.kind === 'coherence') return r.data.incoherence?.delta ?? null;
  if (r.kind === 'error') return r.data.error?.delta ?? null;
  return null;
};

const claimsOf = (records: readonly CrosscheckRecord[]): NonNullable<SuiteFigures['claims']> => {
  const deltas = records.flatMap((r) => {
    const d = claimDelta(r);
    return d === null ? [] : [d];
  });
  return {
    count: deltas.length,
    deltas,
    sumDelta: Math.min(
      1,
      deltas.reduce((a, b) => a + b, 0),
    ),
  };
};

const reviewsField = (records: readonly CrosscheckRecord[]): { reviews?: ReviewSummary } => {
  const reviews = reviewSummary(records);
  return reviews ? { reviews } : {};
};
