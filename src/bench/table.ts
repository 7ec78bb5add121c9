import { rankingLines } from '../report/index.ts';
import { type ModelFigures, meanOver } from './figures.ts';
import type { BenchResult } from './runner.ts';

/**
 * The paper-style table (table 4 plus false positives) as text, with the paper's figures and
 * the differences under each model when the dataset has `paper_logs/`; and the summary JSON line.
 */

type Column = {
  readonly title: string;
  readonly pick: (m: ModelFigures) => number | null;
  readonly int?: boolean;
};

const COLUMNS: readonly Column[] = [
  { title: 'tasks', pick: (m) => m.tasks, int: true },
  // Pairs that could not be measured: not a verdict on the model ("failed" is a check's outcome).
  { title: 'not run', pick: (m) => m.failedTasks, int: true },
  { title: 'error', pick: (m) => m.meanError },
  { title: 'incoh.', pick: (m) => m.meanIncoherence },
  { title: 'spearman', pick: (m) => m.spearman },
  { title: 'detect', pick: (m) => m.detectionRate },
  { title: 'undet.err', pick: (m) => m.undetectedMeanError },
  { title: 'false+', pick: (m) => m.falsePositives, int: true },
];

/**
 * What each column means, under the table: a person reads the table in a terminal or a CI log,
 * away from the docs. Figures are means over the model's tasks that ran.
 */
const KEY = [
  'key: error  share of candidate outputs that differ from the reference · incoh.  share of candidate pairs that disagree (no reference needed)',
  '     spearman  rank correlation of error and incoherence over tasks · detect  share of tasks with error > 0 whose incoherence is > 0 too',
  '     undet.err  mean error of the tasks incoherence missed · false+  tasks with incoherence > 0 and error 0',
  '     not run  pairs that could not be measured (see the log), in no figure: no verdict on the code',
];

const cell = (x: number | null, int = false): string => (x === null ? '—' : int ? String(x) : x.toFixed(4));
const delta = (a: number | null, b: number | null, int = false): string => {
  if (a === null || b === null) return '';
  const d = a - b;
  return `${d >= 0 ? '+' : ''}${int ? String(d) : d.toFixed(4)}`;
};

/** The mean row over models: counts are summed, rates averaged (as the paper's "Mean" row). */
const meanRow = (models: readonly ModelFigures[]): ModelFigures => {
  const sum = (pick: (m: ModelFigures) => number): number => models.reduce((s, m) => s + pick(m), 0);
  return {
    model: 'mean',
    tasks: sum((m) => m.tasks),
    failedTasks: sum((m) => m.failedTasks),
    meanError: meanOver(models, (m) => m.meanError),
    meanIncoherence: meanOver(models, (m) => m.meanIncoherence),
    spearman: meanOver(models, (m) => m.spearman),
    detectionRate: meanOver(models, (m) => m.detectionRate),
    undetectedMeanError: meanOver(models, (m) => m.undetectedMeanError),
    falsePositives: sum((m) => m.falsePositives),
    correctShare: meanOver(models, (m) => m.correctShare),
    coherentShare: meanOver(models, (m) => m.coherentShare),
  };
};

/** The table as lines of text. @public */
export const renderBenchTable = (result: BenchResult): string => {
  const paper = result.paper;
  const rows: string[][] = [['model', ...(paper ? [''] : []), ...COLUMNS.map((c) => c.title)]];
  const line = (label: string, kind: string, values: readonly string[]): void => {
    rows.push([label, ...(paper ? [kind] : []), ...values]);
  };
  const withMean = [...result.models, meanRow(result.models)];
  const paperMean = paper ? meanRow(paper.models) : null;
  for (const ours of withMean) {
    line(
      ours.model,
      'ours',
      COLUMNS.map((c) => cell(c.pick(ours), c.int)),
    );
    const theirs = ours.model === 'mean' ? paperMean : paper?.models.find((p) => p.model === ours.model);
    if (!theirs) continue;
    line(
      '',
      'paper',
      COLUMNS.map((c) => cell(c.pick(theirs), c.int)),
    );
    line(
      '',
      'diff',
      COLUMNS.map((c) => delta(c.pick(ours), c.pick(theirs), c.int)),
    );
  }
  const widths = (rows[0] as string[]).map((_, k) => Math.max(...rows.map((r) => (r[k] ?? '').length)));
  const text = rows.map((r) =>
    r
      .map((x, k) => (k < (paper ? 2 : 1) ? x.padEnd(widths[k] as number) : x.padStart(widths[k] as number)))
      .join('  ')
      .trimEnd(),
  );
  const o = result.options;
  const tail = [
    `ranking agreement (Spearman, share of tasks with error 0 vs incoherence 0): ${cell(result.rankingAgreement)}` +
      (paper ? ` (paper: ${cell(paper.rankingAgreement)})` : ''),
    ...(paper
      ? [
          `mean |our mean incoherence − paper's| over models: ${cell(paper.meanAbsIncoherenceDiff)}; ` +
            `mean error: ${cell(paper.meanAbsErrorDiff)}`,
        ]
      : []),
    `m = ${o.m}, n = ${o.n}, seed ${o.seed}, equality ${o.equality ?? 'python (default)'}, estimator ${o.estimator}, ` +
      `profile ${o.profile}; ${result.wallSeconds.toFixed(1)} s, ${result.calls} calls` +
      (result.callsPerSec === null ? '' : `, ${Math.round(result.callsPerSec)} calls/s`) +
      (result.complete ? '' : ' — INTERRUPTED: figures cover the finished pairs; rerun to resume'),
  ];
  const ranking = result.ranking ? ['', ...rankingLines(result.ranking)] : [];
  return `${[...text, ...KEY, '', ...tail, ...ranking].join('\n')}\n`;
};

/** The one JSON line a run ends with on stdout (its fields stay as they are; `null` where a figure does not apply). @public */
export const summaryLine = (result: BenchResult): string =>
  JSON.stringify({
    models: result.models.map((m) => ({
      model: m.model,
      tasks: m.tasks,
      failedTasks: m.failedTasks,
      meanError: m.meanError,
      meanIncoherence: m.meanIncoherence,
      spearman: m.spearman,
      detectionRate: m.detectionRate,
      undetectedMeanError: m.undetectedMeanError,
      falsePositives: m.falsePositives,
    })),
    rankingAgreement: result.rankingAgreement,
    ranking: result.ranking,
    wallSeconds: Number(result.wallSeconds.toFixed(3)),
    callsPerSec: result.callsPerSec === null ? null : Math.round(result.callsPerSec),
  });
