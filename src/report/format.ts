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
