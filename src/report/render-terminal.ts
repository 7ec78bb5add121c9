import { isAbsolute, relative } from 'node:path';
import pc from 'picocolors';
import { neutralizeControls, neutralizeDeep } from '../values/index.ts';
import { GLYPHS } from './figures.ts';
import {
  checkName,
  claimsText,
  classesText,
  errorCell,
  estimate,
  flaggedText,
  hasResults,
  hasUnknown,
  isolationText,
  meanShare,
  ms,
  num,
  overText,
  PROPERTY_NOTE,
  pacText,
  pct,
  pointUnit,
  processIsolationWarning,
  propertyOutcomeText,
  propertyRunsText,
  ratio,
  resultText,
  reviewSuiteText,
  rhoStrength,
  taskCountText,
  terminalKey,
  unknownCell,
  unknownSuiteText,
  unrecordedText,
} from './format.ts';
import { checkLlmText, equivalenceText, llmSummaryLines } from './llm.ts';
import { missingShards } from './merge.ts';
import { rankingLines, reportRanking } from './render-ranking.ts';
import type { CrosscheckReport, RunInfo } from './report.ts';
import type { CheckRow, Summary, TriangulationFigures } from './summary.ts';
import { type Column, renderTable } from './table.ts';

/** Options of {@link renderTerminal}. @public */
export interface TerminalOptions {
  /**
   * Colours on or off.
   * @defaultValue picocolors' detection: off under `NO_COLOR` or without a TTY, on under `FORCE_COLOR`
   */
  readonly color?: boolean;
  /**
   * Maximum line width (at least 40). Optional columns drop and long figures are cut to fit;
   * what identifies a row (task, model, check, pool) never is: when it cannot fit as a table,
   * each row is printed as a small record instead.
   * @defaultValue `COLUMNS` when set, else the terminal's width, else {@link DEFAULT_WIDTH}
   */
  readonly width?: number;
}

/**
 * The width outside a terminal (a CI log, a file, a pipe): none is given, and log viewers do not
 * wrap at 80, so this leaves room for every column of a typical summary.
 * @internal
 */
export const DEFAULT_WIDTH = 120;

// Narrower than this, even the headline's figures would stand one per line.
const MIN_WIDTH = 40;

const positiveInt = (text: string | undefined): number | null =>
  text !== undefined && /^[1-9][0-9]*$/.test(text.trim()) ? Number(text.trim()) : null;

/**
 * The width the terminal summary fits: `options.width`, else the `COLUMNS` variable (as shells
 * and Python's `shutil.get_terminal_size` use it), else the terminal's width when stdout is a
 * TTY, else {@link DEFAULT_WIDTH}; never below 40.
 * @internal
 */
export const terminalWidth = (
  options: TerminalOptions = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
  stdout: { readonly isTTY?: boolean; readonly columns?: number } = process.stdout,
): number => {
  const tty = stdout.isTTY === true && (stdout.columns ?? 0) > 0 ? (stdout.columns as number) : null;
  return Math.max(MIN_WIDTH, options.width ?? positiveInt(env.COLUMNS) ?? tty ?? DEFAULT_WIDTH);
};

type Colors = ReturnType<typeof pc.createColors>;

const runText = (run: RunInfo): string => {
  if (run.shard === null) return run.framework;
  const missing = missingShards(run.shard);
  const shards = `shard${run.shard.indexes.length > 1 ? 's' : ''} ${run.shard.indexes.join(', ')} of ${run.shard.count}`;
  return `${run.framework}, ${shards}${missing.length ? `; missing ${missing.join(', ')}` : ''}`;
};

const headline = (report: CrosscheckReport, width: number, c: Colors): string[] => {
  const s = report.summary.suite;
  const parts: string[] = [
    `${s.checks} check${s.checks === 1 ? '' : 's'}`,
    s.failedChecks ? c.red(`${s.failedChecks} failed`) : c.green('0 failed'),
    ...unrecordedText(report.run).map((x) => c.red(x)),
    // A suite of property runs only has no tasks to count.
    ...(s.checks > 0 && s.checks === s.properties.runs
      ? []
      : [taskCountText(s), s.flaggedTasks ? c.yellow(flaggedText(s)) : flaggedText(s)]),
  ];
  const p = s.properties;
  if (p.runs > 0) {
    const runs = `${p.runs} property run${p.runs === 1 ? '' : 's'}`;
    parts.push(p.failed ? c.red(`${runs} (${p.failed} failed)`) : runs);
  }
  const last = parts.length - 1;
  parts[last] = `${parts[last]} ${c.dim(`(${runText(report.run)})`)}`;
  return flow(' crosscheck ', parts, width, (s) => c.bold(c.inverse(s)), ' ');
};

// Rows of one task, model and check that checked different pools (other candidates) need the
// pool to tell them apart: its hash, to the first 8 hex digits.
const poolColumn = (rows: readonly CheckRow[]): Column[] => {
  const pools = new Map<string, Set<string | null>>();
  for (const r of rows) {
    const key = JSON.stringify([r.task ?? r.test, r.model, checkName(r)]);
    pools.set(key, (pools.get(key) ?? new Set()).add(r.pool));
  }
  if (![...pools.values()].some((set) => set.size > 1)) return [];
  return [{ header: 'pool', cells: rows.map((r) => r.pool?.slice(0, 8) ?? GLYPHS.none), identity: true }];
};

const checksTable = (rows: readonly CheckRow[], width: number, c: Colors): string[] =>
  renderTable(
    [
      {
        header: ' ',
        cells: rows.map((r) => (r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail)),
        paint: (s, i) => (rows[i]?.verdict === 'pass' ? c.green(s) : c.red(s)),
      },
      {
        header: ' ',
        cells: rows.map((r) => (r.disagreement ? GLYPHS.flag : '')),
        paint: (s) => c.yellow(s),
      },
      // What tells the rows apart: never dropped or cut (a narrow terminal stacks the rows).
      { header: 'task', cells: rows.map((r) => r.task ?? r.test ?? GLYPHS.none), identity: true },
      ...(rows.some((r) => r.model !== null)
        ? [{ header: 'model', cells: rows.map((r) => r.model ?? GLYPHS.none), identity: true }]
        : []),
      { header: 'check', cells: rows.map(checkName), identity: true },
      ...poolColumn(rows),
      { header: 'm', cells: rows.map((r) => (r.m === null ? GLYPHS.none : String(r.m))), align: 'right' },
      { header: 'n', cells: rows.map((r) => (r.n === null ? GLYPHS.none : String(r.n))), align: 'right' },
      { header: `Î ${GLYPHS.pm} ε`, cells: rows.map((r) => estimate(r.incoherence)) },
      { header: 'error', cells: rows.map(errorCell) },
      { header: 'PAC', cells: rows.map((r) => pacText(r.pac)), drop: 2 },
      // Review and triangulation checks: what they found (their figures have no other column).
      ...(hasResults(rows)
        ? [{ header: 'result', cells: rows.map((r) => resultText(r) ?? GLYPHS.none), minWidth: 24 }]
        : []),
      // Shown whenever a check had timeouts or crashes, or was inconclusive.
      ...(hasUnknown(rows)
        ? [{ header: 'unknown', cells: rows.map(unknownCell), paint: (s: string) => c.yellow(s) }]
        : []),
      { header: 'classes', cells: rows.map((r) => classesText(r.classes, r.m)), drop: 5 },
      ...(rows.some((r) => r.llm)
        ? [{ header: 'tokens', cells: rows.map((r) => checkLlmText(r.llm) ?? GLYPHS.none), drop: 7 }]
        : []),
      {
        header: 'time',
        // Left-aligned: a slow check does not shift the other rows (and tests can mask timings).
        cells: rows.map((r) => ms(r.durationMs)),
        drop: 6,
        paint: (s) => c.dim(s),
      },
    ],
    width,
    c.bold,
  );

/**
 * Under the checks table, one line per check whose equality an LLM judge decided: which check,
 * the judge, and its agreement on the labelled pairs. A judge's "equal" is a model's opinion,
 * so a reader must see where one stood in for `===`.
 */
const judgeLines = (rows: readonly CheckRow[], width: number): string[] =>
  rows.flatMap((r) => {
    const text = equivalenceText(r.llm);
    if (text === null) return [];
    const who = [r.task ?? r.test ?? GLYPHS.none, ...(r.model === null ? [] : [r.model]), checkName(r)];
    return wordChunks(`${who.join(` ${GLYPHS.bullet} `)}: ${text}`, width - 4).map((x) => `    ${x}`);
  });

/** fast-check property runs: apart from the checks, with what replays each. */
const propertyLines = (rows: readonly CheckRow[], width: number, c: Colors): string[] => {
  if (rows.length === 0) return [];
  const data = rows.map((r) => r.property as NonNullable<CheckRow['property']>);
  return [
    `  ${c.bold('Properties')}`,
    ...wrap(PROPERTY_NOTE, width - 4).map((line) => `    ${c.dim(line)}`),
    ...renderTable(
      [
        {
          header: ' ',
          cells: rows.map((r) => (r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail)),
          paint: (s, i) => (rows[i]?.verdict === 'pass' ? c.green(s) : c.red(s)),
        },
        { header: 'task', cells: rows.map((r) => r.task ?? r.test ?? GLYPHS.none), identity: true },
        ...(rows.some((r) => r.model !== null)
          ? [{ header: 'model', cells: rows.map((r) => r.model ?? GLYPHS.none), identity: true }]
          : []),
        { header: 'property', cells: data.map((p) => p.property), identity: true },
        { header: 'runs', cells: data.map(propertyRunsText), align: 'right' },
        { header: 'result', cells: data.map(propertyOutcomeText) },
        { header: 'seed', cells: data.map((p) => String(p.seed)), align: 'right' },
        // The replay path stays (cut if need be): with the seed it reruns the counterexample.
        { header: 'path', cells: data.map((p) => p.path ?? GLYPHS.none), minWidth: 10 },
        { header: 'counterexample', cells: data.map((p) => p.counterexample ?? GLYPHS.none), minWidth: 14 },
      ],
      width,
      c.bold,
    ),
  ];
};

/** Words into lines of at most `width` characters (a longer word gets a line of its own). */
const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return line === '' ? lines : [...lines, line];
};

// Colour codes take no columns; built from the char code to keep control characters out of a regex literal.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const visibleLength = (s: string): number => s.replace(ANSI, '').length;

// Joins figures with bullets, wrapping at the width (a figure never splits).
const flow = (
  label: string,
  parts: readonly string[],
  width: number,
  paint = (s: string) => s,
  first = '  ',
): string[] => {
  const lines: string[] = [];
  let line = `  ${paint(label)}`;
  let visible = 2 + label.length;
  for (const [i, part] of parts.entries()) {
    const sep = i === 0 ? first : ` ${GLYPHS.bullet} `;
    const length = visibleLength(part);
    if (4 + length > width) {
      // A figure longer than a whole line starts its own lines and wraps between its words.
      const chunks = wordChunks(part, width - 4);
      lines.push(line);
      for (const chunk of chunks.slice(0, -1)) lines.push(`    ${chunk}`);
      const last = chunks[chunks.length - 1] ?? '';
      line = `    ${last}`;
      visible = 4 + visibleLength(last);
      continue;
    }
    if (visible + sep.length + length > width) {
      lines.push(line);
      line = `    ${part}`;
      visible = 4 + length;
    } else {
      line += sep + part;
      visible += sep.length + length;
    }
  }
  return [...lines, line];
};

/** A long sentence as parts of at most `max` characters, cut between words, so it wraps in narrow terminals. */
const wordChunks = (text: string | null, max: number): string[] => {
  if (text === null) return [];
  const parts: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > max) {
      parts.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') parts.push(line);
  return parts;
};

const suiteLines = (summary: Summary, width: number, c: Colors): string[] => {
  const s = summary.suite;
  const lines = flow(
    'Suite',
    [
      `mean Î ${meanShare(s.meanIncoherence)}${overText(s.meanIncoherenceOver, 'task point')}`,
      `mean error lower bound ${num(s.meanErrorLowerBound)}${overText(s.meanErrorLowerBoundOver, 'check')}`,
      `isolation ${isolationText(s)}`,
      ...[unknownSuiteText(s), processIsolationWarning(s)]
        .filter((x): x is string => x !== null)
        .map((x) => c.yellow(x)),
    ],
    width,
    c.bold,
  );
  // The suite-wide meaning of its claims, as its own sentence under the figures.
  lines.push(...wordChunks(claimsText(s), width - 4).map((x) => `    ${x}`));
  const r = s.references;
  if (r) {
    lines.push(
      ...flow(
        `With references (${r.tasks} ${pointUnit(s, r.tasks)})`,
        [
          `mean error ${num(r.meanError)}`,
          `detection rate ${pct(r.detectionRate)}`,
          `false positives ${r.falsePositives}`,
          `undetected mean error ${num(r.undetectedMeanError)}`,
          `Spearman(error, Î) ${num(r.spearman, 2)} (${rhoStrength(r.spearman, r.spearmanPoints ?? r.tasks)})`,
        ],
        width,
        c.bold,
      ),
    );
  }
  lines.push(...triangulationLines(s.triangulation ?? null, width, c));
  return lines;
};

/** Selection and abstention of triangulation checks, with Fig. 8's metrics per model where references decide N₁…N₅. */
const triangulationLines = (t: TriangulationFigures | null, width: number, c: Colors): string[] => {
  if (!t) return [];
  const lines = flow(
    `Triangulation (${t.checks} check${t.checks === 1 ? '' : 's'})`,
    [`selected ${t.selected}`, `abstained ${t.abstained}`],
    width,
    c.bold,
  );
  for (const m of t.models) {
    const k = m.counts;
    const parts = [`abstained ${m.abstained} of ${m.checks}`];
    if (k && m.metrics) {
      parts.push(
        `N₁…N₅ ${k.n1}/${k.n2}/${k.n3}/${k.n4}/${k.n5}`,
        `reliable acc. ${pct(m.metrics.reliableAccuracy)}`,
        `overall acc. ${pct(m.metrics.overallAccuracy)}`,
        `abstention F1 ${num(m.metrics.abstentionF1, 2)}`,
      );
    }
    lines.push(...flow(`  ${m.model ?? '(no model tag)'}`, parts, width, (x) => x));
  }
  return lines;
};

const rank = (r: number | null): string =>
  r === null ? GLYPHS.none : Number.isInteger(r) ? String(r) : r.toFixed(1);

const modelLines = (summary: Summary, width: number, c: Colors): string[] => {
  const models = summary.ranking.models;
  if (models.length === 0) return [];
  return [
    `  ${c.bold('Models')} ${c.dim('(rank 1 = best)')}`,
    ...renderTable(
      [
        { header: 'model', cells: models.map((m) => m.model), identity: true },
        { header: 'coherent', cells: models.map((m) => ratio(m.coherentTasks, m.tasks)) },
        { header: 'rank', cells: models.map((m) => rank(m.coherenceRank)), align: 'right' },
        { header: 'correct', cells: models.map((m) => ratio(m.correctTasks, m.referencedTasks)) },
        { header: 'rank', cells: models.map((m) => rank(m.correctnessRank)), align: 'right' },
        { header: 'mean Î', cells: models.map((m) => num(m.meanIncoherence)), align: 'right', drop: 2 },
        { header: 'mean error', cells: models.map((m) => num(m.meanError)), align: 'right', drop: 1 },
      ],
      width,
      c.bold,
    ),
    ...flow(
      'Spearman(coherent share, correct share)',
      [
        `${num(summary.ranking.spearman, 2)} (${rhoStrength(summary.ranking.spearman, summary.ranking.spearmanModels ?? summary.ranking.models.length)})`,
      ],
      width,
    ),
  ];
};

/**
 * The summary for a terminal: headline, one row per check, suite figures and the model ranking.
 * Honours `NO_COLOR` and fits the terminal width.
 * @public
 */
export const renderTerminal = (raw: CrosscheckReport, options: TerminalOptions = {}): string => {
  // Every string of the report is shown, never acted on: the colours below are the only
  // control sequences the terminal gets.
  const report = neutralizeDeep(raw);
  const c = pc.createColors(options.color ?? pc.isColorSupported);
  const width = terminalWidth(options);
  const summary = report.summary;
  const lines = headline(report, width, c);
  if (summary.rows.length === 0) {
    lines.push('  No crosscheck records in this run.');
    return `${lines.join('\n')}\n`;
  }
  const measured = summary.rows.filter((r) => r.kind !== 'property');
  if (measured.length > 0) {
    lines.push(
      '',
      ...checksTable(measured, width, c),
      ...judgeLines(measured, width),
      ...wordChunks(terminalKey(measured), width - 4).map((x) => `    ${c.dim(x)}`),
      '',
      ...suiteLines(summary, width, c),
    );
  }
  const properties = propertyLines(
    summary.rows.filter((r) => r.kind === 'property'),
    width,
    c,
  );
  if (properties.length) lines.push('', ...properties);
  const models = modelLines(summary, width, c);
  if (models.length) lines.push('', ...models);
  const ranking = reportRanking(report);
  if (ranking)
    lines.push(
      '',
      `  ${c.bold('Ranking with uncertainty')}`,
      ...rankingLines(ranking).map((l) => (l ? `  ${l}` : l)),
    );
  if (summary.reviews) lines.push('', `  ${c.bold('Grounded review')}  ${reviewSuiteText(summary.reviews)}`);
  if (summary.llm) {
    const [first, ...rest] = llmSummaryLines(summary.llm);
    lines.push('', `  ${c.bold('LLM')}  ${first}`, ...rest.map((l) => `       ${l}`));
  }
  return `\n${lines.join('\n')}\n`;
};

/**
 * The line that says where the reports went, for the terminal after the summary: paths relative
 * to `cwd` when they lie under it, absolute otherwise.
 * @public
 */
export const renderWritten = (
  files: readonly string[],
  options: TerminalOptions = {},
  cwd: string = process.cwd(),
): string => {
  const c = pc.createColors(options.color ?? pc.isColorSupported);
  const width = terminalWidth(options);
  const shown = files.map((file) => {
    const rel = relative(cwd, file);
    return neutralizeControls(rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel);
  });
  return `${flow('Reports', shown, width, c.bold).join('\n')}\n`;
};
