import { GLYPHS } from './figures.ts';
import type { ClassRecord, EstimateRecord, PropertyData } from './record.ts';
import type { CheckRow, PacVerdict, ReviewSummary, SuiteFigures } from './summary.ts';

/** Number formatting shared by the renderers, so every format shows the same figures. */

/** A number with `digits` decimals, or the dash for null. */
export const num = (x: number | null, digits = 3): string => (x === null ? GLYPHS.none : x.toFixed(digits));

/** A share as a whole percent. */
export const pct = (x: number | null): string => (x === null ? GLYPHS.none : `${Math.round(x * 100)}%`);

/** `k/n (p%)`. */
export const ratio = (k: number, n: number): string => (n === 0 ? GLYPHS.none : `${k}/${n} (${pct(k / n)})`);

/** An estimate with its interval's half-width: `0.125 ± 0.042`. */
export const estimate = (e: EstimateRecord | null): string =>
  e === null ? GLYPHS.none : `${num(e.estimate)} ${GLYPHS.pm} ${num(e.epsilon)}`;

/** Error if measured, else the oracle-free lower bound `≥ 0.010`. */
export const errorCell = (row: CheckRow): string =>
  row.error
    ? estimate(row.error)
    : row.errorLowerBound === null
      ? GLYPHS.none
      : `≥ ${num(row.errorLowerBound)}`;

/**
 * The unknown cells of a check: `3 (slow 3)`, `inconclusive` when the evidence supported no
 * verdict, the none glyph when the check ran no code.
 */
export const unknownCell = (row: CheckRow): string => {
  const who = row.unknownByCandidate.map((u) => `${u.label} ${u.cells}`).join(', ');
  const cells = row.unknownCells === null ? GLYPHS.none : `${row.unknownCells}${who ? ` (${who})` : ''}`;
  const lost = row.referenceLost ? `, reference did not answer ${row.referenceLost}` : '';
  const excluded = row.excluded === null ? '' : ', excluded';
  return `${cells}${lost}${excluded}${row.inconclusive === null ? '' : ', inconclusive'}`;
};

/** Whether the summary has anything to show in an unknown column (tables without it stay as they were). */
export const hasUnknown = (rows: readonly CheckRow[]): boolean =>
  rows.some(
    (r) =>
      (r.unknownCells ?? 0) > 0 ||
      r.inconclusive !== null ||
      (r.referenceLost ?? 0) > 0 ||
      r.excluded !== null,
  );

/** The suite's unknown cells and inconclusive checks, or null when there are none. */
export const unknownSuiteText = (s: {
  readonly unknownCells: number;
  readonly checksWithUnknown: number;
  readonly inconclusiveChecks: number;
  readonly checksWithExclusions?: number;
}): string | null =>
  s.unknownCells === 0 && s.inconclusiveChecks === 0 && !s.checksWithExclusions
    ? null
    : `${s.unknownCells} unknown cells (timeouts, crashes) in ${s.checksWithUnknown} checks; ${s.inconclusiveChecks} inconclusive${s.checksWithExclusions ? `; ${s.checksWithExclusions} with inputs or cells excluded (unknown: 'exclude')` : ''}`;

const ISOLATION_TEXT = {
  os: 'os (bubblewrap sandbox)',
  process: 'process (not a security boundary)',
  none: 'none (trusted functions only)',
  unknown: 'not recorded',
} as const;

/**
 * What a user must read beside results that ran under `'process'`, or null when none did: that
 * isolation stops accidents, not an attacker.
 */
export const processIsolationWarning = (s: Pick<SuiteFigures, 'isolation'>): string | null => {
  const n = s.isolation.process ?? 0;
  if (n === 0) return null;
  return (
    `${n} ${n === 1 ? 'check' : 'checks'} ran untrusted candidates under isolation 'process', which is not a ` +
    "security boundary: a candidate runs as this user and can read this process's environment (API keys), " +
    "memory and files. It guards against accidents, not attackers; use isolation 'os' (bubblewrap) for model-written code."
  );
};

/** The suite's isolation line: `os (bubblewrap sandbox)`, or each kind with its check count. */
export const isolationText = (s: SuiteFigures): string => {
  const kinds = (Object.keys(ISOLATION_TEXT) as Array<keyof typeof ISOLATION_TEXT>).filter(
    (k) => (s.isolation[k] ?? 0) > 0,
  );
  if (kinds.length === 0) return GLYPHS.none;
  if (kinds.length === 1) return ISOLATION_TEXT[kinds[0] as keyof typeof ISOLATION_TEXT];
  return kinds.map((k) => `${ISOLATION_TEXT[k]}: ${s.isolation[k]} checks`).join(', ');
};

/**
 * How many tasks a suite covers, as every renderer says it. `suite.tasks` counts (task, model)
 * pairs, so a task two models did counts twice; the headline names distinct tasks and adds the
 * pairs only when they differ. One function, so the terminal, Markdown and HTML cannot disagree.
 */
export const taskCountText = (s: Pick<SuiteFigures, 'tasks' | 'distinctTasks'>): string =>
  `${s.distinctTasks} task${s.distinctTasks === 1 ? '' : 's'}${s.tasks === s.distinctTasks ? '' : ` (${pairsText(s.tasks)})`}`;

/** `6 task × model pairs` (or `1 task × model pair`). */
export const pairsText = (k: number): string => `${k} task × model pair${k === 1 ? '' : 's'}`;

/**
 * The unit of figures counted per (task, model) pair, such as flagged tasks or tasks with
 * references: `tasks` when every task had one model, `task × model pairs` otherwise.
 */
export const pointUnit = (s: Pick<SuiteFigures, 'tasks' | 'distinctTasks'>, k: number): string =>
  s.tasks === s.distinctTasks ? `task${k === 1 ? '' : 's'}` : `task × model pair${k === 1 ? '' : 's'}`;

/**
 * `1 failed test without a check record (suite > test)`: failures the host reported that left no
 * record; empty when there are none or the host did not say.
 */
export const unrecordedText = (run: {
  readonly unrecordedFailures?: ReadonlyArray<{ readonly name: string }>;
}): string[] => {
  const failures = run.unrecordedFailures ?? [];
  if (failures.length === 0) return [];
  const shown = failures
    .slice(0, 3)
    .map((t) => t.name)
    .join('; ');
  const more = failures.length > 3 ? `; ${failures.length - 3} more` : '';
  return [
    `${failures.length} failed test${failures.length === 1 ? '' : 's'} without a check record (${shown}${more})`,
  ];
};

/**
 * The suite-wide meaning of its claims: `12 claims at confidence 0.95 each; at least one may be
 * false with probability up to 0.6 (union bound, Σδ)`; null without claims.
 */
export const claimsText = (s: {
  readonly claims?: { readonly count: number; readonly deltas: readonly number[]; readonly sumDelta: number };
}): string | null => {
  const c = s.claims;
  if (!c || c.count === 0) return null;
  // 1 − 0.95 is 0.050000000000000044: compare δ as printed.
  const distinct = [...new Set(c.deltas.map((d) => Number(d.toPrecision(6))))];
  const each =
    distinct.length === 1
      ? `at confidence ${num(1 - (distinct[0] as number))} each`
      : 'each at its own confidence';
  return `${c.count} statistical claim${c.count === 1 ? '' : 's'} ${each}; at least one may be false with probability up to ${num(c.sumDelta)} (union bound, Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each check then runs at δ / checks`;
};

/** ` over 9 tasks`: what a suite mean averages, when the summary says (older ones do not). */
export const overText = (k: number | undefined, unit: string): string =>
  k === undefined ? '' : ` over ${k} ${unit}${k === 1 ? '' : 's'}`;

/** `2 flagged`, or `2 pairs flagged` when flags count (task, model) pairs. */
export const flaggedText = (s: Pick<SuiteFigures, 'tasks' | 'distinctTasks' | 'flaggedTasks'>): string =>
  `${s.flaggedTasks} ${s.tasks === s.distinctTasks ? '' : `pair${s.flaggedTasks === 1 ? '' : 's'} `}flagged`;

/** Milliseconds, rounded. Tests mask these. */
export const ms = (d: number): string => `${Math.round(d)}ms`;

/** Class sizes (`2+1`) when m is known, else shares. */
export const classesText = (classes: readonly ClassRecord[], m: number | null): string => {
  if (classes.length === 0) return GLYPHS.none;
  return m === null
    ? classes.map((c) => pct(c.share)).join('+')
    : classes.map((c) => String(Math.round(c.share * m))).join('+');
};

/** The check's kind as the matcher wrote it, with `.not`. */
export const checkName = (row: CheckRow): string => `${row.negated ? '.not.' : ''}${row.matcher}`;

/** PAC verdict or dash. */
export const pacText = (pac: PacVerdict | null): string => pac ?? GLYPHS.none;

/**
 * Below this many points even ρ = ±1 arises between unrelated orders more than 5 % of the time
 * (two-sided: 2/4! = 8.3 % with 4 points, 2/5! = 1.7 % with 5), so no strength is named.
 */
const FEWEST_RHO_POINTS = 5;

/**
 * Interpretation of |ρ| (table 5 of the incoherence paper, Schober et al. 2018), with the number
 * of points it was computed over; with fewer than 5 no strength is named.
 */
export const rhoStrength = (r: number | null, n: number): string => {
  if (r === null) return `undefined, n = ${n}`;
  if (n < FEWEST_RHO_POINTS) return `n = ${n}, too few points to judge: fewer than ${FEWEST_RHO_POINTS}`;
  const a = Math.abs(r);
  const strength =
    a >= 0.9 ? 'very strong' : a >= 0.7 ? 'strong' : a >= 0.4 ? 'moderate' : a >= 0.1 ? 'weak' : 'negligible';
  return `${strength}${r < 0 ? ', negative' : ''}, n = ${n}`;
};

/** What a fast-check property run's rows say for its inputs; shown beside every property table. */
export const PROPERTY_NOTE =
  'fast-check runs: inputs are biased toward small and edge values and then shrunk, so a property that held gives no error bound and no PAC certificate; these runs count in no incoherence, error or detection figure.';

/** How a property run ended: `held`, `falsified (3 shrinks)`, `too many skips (120 skipped)`. */
export const propertyOutcomeText = (p: PropertyData): string => {
  switch (p.outcome) {
    case 'held':
      return 'held';
    case 'falsified':
      return `falsified (${p.shrinks} shrink${p.shrinks === 1 ? '' : 's'})`;
    case 'too-many-skips':
      return `too many skips (${p.skips} skipped)`;
    case 'interrupted':
      return 'interrupted';
  }
};

/** Runs done, and asked for when fewer: `50`, `12 of 100`. */
export const propertyRunsText = (p: PropertyData): string =>
  p.runsRequested !== null && p.runsRequested !== p.runs ? `${p.runs} of ${p.runsRequested}` : String(p.runs);

/** What replays the run: `{ seed: 7, path: "11:0", endOnFailure: true }`, or the seed alone. */
export const replayText = (p: PropertyData): string =>
  p.path === null
    ? `{ seed: ${p.seed} }`
    : `{ seed: ${p.seed}, path: ${JSON.stringify(p.path)}, endOnFailure: true }`;

/**
 * The suite's grounded reviews in one line: how many, their verdicts and mean score. A review is
 * an LLM judge's reading of outputs, not a proof, and the line says so.
 */
export const reviewSuiteText = (r: ReviewSummary): string =>
  `${r.checks} review${r.checks === 1 ? '' : 's'}: ${r.accepted} accepted, ${r.rejected} rejected, ` +
  `${r.inconclusive} inconclusive` +
  (r.meanScore === null ? '' : ` · mean score ${num(r.meanScore, 2)}`) +
  " (an LLM judge's verdicts on the outputs, not a proof)";

/**
 * A review's verdict as every report prints it: `accepted`, `rejected` or `inconclusive`. The
 * record keeps the judge's own word (`accept`, `reject`); a reader sees the outcome.
 */
export const reviewVerdictText = (verdict: string): string =>
  verdict === 'accept' ? 'accepted' : verdict === 'reject' ? 'rejected' : 'inconclusive';

/**
 * What a review or triangulation check found, for its row's result column: `accepted: score
 * 0.75 ≥ τ 0.50 on 4 judged inputs`, `selected right (support 2; witness dec)`, `abstained: no
 * program confirmed`; null for other kinds (their figures have columns of their own).
 */
export const resultText = (row: CheckRow): string | null => {
  const r = row.review;
  if (r) {
    const word = reviewVerdictText(r.verdict);
    const inputs = `${r.judged} judged input${r.judged === 1 ? '' : 's'}`;
    if (r.score === null) return `${word}: no parseable verdict on ${inputs}`;
    return `${word}: score ${num(r.score, 2)} ${r.score >= r.threshold ? '≥' : '<'} τ ${num(r.threshold, 2)} on ${inputs}`;
  }
  const t = row.triangulation;
  if (t) {
    if (t.outcome === 'abstained' || t.selected === null) return 'abstained: no program confirmed';
    const w = t.witnesses ?? [];
    const witnesses = w.length === 0 ? '' : `; witness${w.length === 1 ? '' : 'es'} ${w.join(', ')}`;
    return `selected ${t.selected}${t.support === null ? '' : ` (support ${t.support}${witnesses})`}`;
  }
  return null;
};

/** Whether any row has a result column to show (review and triangulation checks). */
export const hasResults = (rows: readonly CheckRow[]): boolean =>
  rows.some((r) => r.review !== undefined || r.triangulation !== null);

/**
 * The words every report uses for outcomes and columns, one or two plain sentences each: the
 * HTML and Markdown legends print this list, the terminal its short key ({@link TERMINAL_KEY}).
 */
export const LEGEND: ReadonlyArray<readonly [term: string, meaning: string]> = [
  [
    `${GLYPHS.pass} passed / ${GLYPHS.fail} failed`,
    'Whether the check’s assertion held. A failed check is either refuted by its figures or inconclusive.',
  ],
  [
    'inconclusive',
    'The evidence supported no verdict (too many timeouts or crashes, too few inputs): the check fails both ways and its figures enter no mean.',
  ],
  [
    `${GLYPHS.flag} flagged`,
    'Candidates gave different outputs on at least one input, so at least one of them is wrong. No reference is needed; a check can pass (incoherence under its bound) and still be flagged.',
  ],
  ['m', 'Candidates compared (programs sampled for the same task).'],
  ['n', 'Inputs each candidate ran on.'],
  [
    `Î ${GLYPHS.pm} ε`,
    'Incoherence: the share of (candidate pair, input) draws on which two candidates disagree, ± ε, the half-width of its confidence interval (the interval holds with probability 1 − δ).',
  ],
  [
    'error',
    'Share of candidate outputs that differ from the reference (when the task has one). “≥ x” is the lower bound E ≥ (Î − ε)/2, which needs no reference.',
  ],
  [
    'δ',
    'The chance a stated interval or certificate is wrong. Each passing check makes its claim at its own δ; the suite line adds them up (Σδ).',
  ],
  [
    'PAC',
    'A detection check’s verdict: coherent (N inputs without a disagreement, a certificate that incoherence is below ε), incoherent (a witness input was found), inconclusive.',
  ],
  ['ρ', 'Spearman’s rank correlation of a ranking check (1 = same order, −1 = reversed).'],
  [
    'classes',
    'Sizes of the groups of candidates that behaved identically on every input (2+1: two agree, one differs).',
  ],
  [
    'result',
    'A grounded review’s verdict, its score (share of the judge’s CORRECT verdicts) against τ and the inputs judged; a triangulation’s selected program with its support and witnesses, or its abstention.',
  ],
  ['unknown', 'Candidate cells that timed out or crashed, per candidate.'],
  ['seed', 'Seed of the input generator: rerunning with it draws the same inputs.'],
];

/** What each column of the Models table means, printed under it in HTML and Markdown. */
export const MODELS_LEGEND: ReadonlyArray<readonly [term: string, meaning: string]> = [
  [
    'coherent tasks',
    'Tasks on which the model’s candidates never disagreed, of the tasks it was checked on.',
  ],
  [
    'correct tasks',
    'Tasks with error 0 (every candidate output matched the reference), of the tasks that had a reference.',
  ],
  [
    'rank',
    'Place by the share in the column to its left (1 = highest share, best); tied models share the mean of their places.',
  ],
  ['mean Î', 'The model’s incoherence averaged over its tasks.'],
  ['mean error', 'The model’s error against the reference averaged over its tasks with one.'],
];

/** What each column of the fast-check property table means, printed under it in HTML and Markdown. */
export const PROPERTIES_LEGEND: ReadonlyArray<readonly [term: string, meaning: string]> = [
  ['runs', 'Inputs fast-check tried (“12 of 100” when the run stopped early).'],
  [
    'result',
    'held (no run broke the property), falsified (a counterexample was found and shrunk), too many skips (preconditions rejected most inputs), interrupted.',
  ],
  ['replay', 'The fast-check parameters that rerun exactly this run and its counterexample.'],
  ['counterexample', 'The shrunk input on which the property broke, with each candidate’s output.'],
];

/**
 * The terminal's key to the checks table, one line when it fits (the HTML and Markdown reports
 * carry the full {@link LEGEND}); `result` is explained only when that column is shown.
 */
export const terminalKey = (rows: readonly CheckRow[]): string =>
  `key: ${GLYPHS.pass} passed  ${GLYPHS.fail} failed  ${GLYPHS.flag} flagged (candidates disagree) · m candidates · n inputs · Î ${GLYPHS.pm} ε incoherence ± half-width · PAC detection verdict · classes sizes of groups of identical candidates` +
  (hasResults(rows) ? ' · result review verdict or triangulation pick' : '');

/**
 * The suite's outcome counts in the one vocabulary: `7 passed, 1 failed (1 inconclusive)`.
 * Inconclusive checks are failed checks whose evidence supported no verdict.
 */
export const outcomeText = (
  s: Pick<SuiteFigures, 'checks' | 'failedChecks' | 'inconclusiveChecks'>,
): string =>
  `${s.checks - s.failedChecks} passed, ${s.failedChecks} failed${s.inconclusiveChecks ? ` (${s.inconclusiveChecks} inconclusive)` : ''}`;

/**
 * A suite mean of shares: three decimals, but `< 0.001` for a positive mean that would print as
 * 0.000 (a flagged suite must never read as "mean incoherence 0.000").
 */
export const meanShare = (x: number | null): string =>
  x !== null && x > 0 && x < 0.0005 ? '< 0.001' : num(x);

/** What the mean incoherence counts, said beside it. */
export const MEAN_INCOHERENCE_NOTE =
  'per task, the share of candidate pairs that disagree on an input; flags count tasks with any disagreement, so a few disagreeing inputs flag a task whose mean stays near 0';
