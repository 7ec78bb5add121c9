import { neutralizeDeep } from '../values/index.ts';
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
  LEGEND,
  MEAN_INCOHERENCE_NOTE,
  MODELS_LEGEND,
  meanShare,
  num,
  outcomeText,
  overText,
  PROPERTIES_LEGEND,
  PROPERTY_NOTE,
  pacText,
  pct,
  pointUnit,
  processIsolationWarning,
  propertyOutcomeText,
  propertyRunsText,
  ratio,
  replayText,
  resultText,
  reviewSuiteText,
  rhoStrength,
  taskCountText,
  unknownCell,
  unknownSuiteText,
  unrecordedText,
} from './format.ts';
import { candidateLlmLines, checkLlmText, equivalenceText, llmSummaryLines } from './llm.ts';
import { missingShards } from './merge.ts';
import { rankingMarkdown, reportRanking } from './render-ranking.ts';
import type { CrosscheckReport } from './report.ts';
import type { Summary } from './summary.ts';

// Pipes and newlines would break a table cell; backslashes and backticks would start markup.
const cell = (text: string): string =>
  text.replace(/[\\`*_|<>[\]]/g, (ch) => `\\${ch}`).replace(/\r?\n/g, ' ');

const table = (
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
) => [
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (right.includes(i) ? ' ---: ' : ' --- ')).join('|')}|`,
  ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
];

const checks = (summary: Summary): string[] => {
  // The unknown column shows whenever a check had timeouts or crashes, or was inconclusive.
  const unknown = hasUnknown(summary.rows);
  const llm = summary.rows.some((r) => r.llm);
  const results = hasResults(summary.rows);
  return table(
    [
      '',
      'task',
      'model',
      'check',
      'm',
      'n',
      'Î ± ε',
      'error',
      'PAC',
      'ρ',
      ...(results ? ['result'] : []),
      ...(unknown ? ['unknown'] : []),
      'classes',
      'seed',
      ...(llm ? ['tokens'] : []),
    ],
    summary.rows
      .filter((r) => r.kind !== 'property')
      .map((r) => [
        `${r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail}${r.disagreement ? ` ${GLYPHS.flag}` : ''}`,
        r.task ?? r.test ?? GLYPHS.none,
        r.model ?? GLYPHS.none,
        checkName(r),
        r.m === null ? GLYPHS.none : String(r.m),
        r.n === null ? GLYPHS.none : String(r.n),
        estimate(r.incoherence),
        errorCell(r),
        pacText(r.pac),
        r.spearman === null ? GLYPHS.none : num(r.spearman, 2),
        ...(results ? [resultText(r) ?? GLYPHS.none] : []),
        ...(unknown ? [unknownCell(r)] : []),
        classesText(r.classes, r.m),
        r.seed === null ? GLYPHS.none : String(r.seed),
        ...(llm ? [checkLlmText(r.llm) ?? GLYPHS.none] : []),
      ]),
    [4, 5, 9, 11 + (results ? 1 : 0) + (unknown ? 1 : 0)],
  );
};

/** fast-check property runs, apart from the checks (a job summary has a size limit: at most 200). */
const properties = (summary: Summary): string[] => {
  const rows = summary.rows.filter((r) => r.kind === 'property');
  if (rows.length === 0) return [];
  const shown = rows.slice(0, 200);
  return [
    '',
    '### Property runs (fast-check)',
    '',
    `_${PROPERTY_NOTE}_`,
    '',
    ...table(
      ['', 'task', 'model', 'test', 'property', 'runs', 'result', 'replay', 'counterexample'],
      shown.map((r) => {
        const p = r.property as NonNullable<typeof r.property>;
        return [
          r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail,
          r.task ?? GLYPHS.none,
          r.model ?? GLYPHS.none,
          r.test ?? GLYPHS.none,
          p.property,
          propertyRunsText(p),
          propertyOutcomeText(p),
          replayText(p),
          p.counterexample ?? GLYPHS.none,
        ];
      }),
      [5],
    ),
    ...(rows.length > shown.length
      ? ['', `… and ${rows.length - shown.length} more in the JSON report`]
      : []),
    '',
    ...legend(PROPERTIES_LEGEND),
  ];
};

const MAX_WITNESSES = 50;

/** The evidence of each check that has a witness: the input, each class's output, the reference. */
const witnesses = (summary: Summary): string[] => {
  const all = summary.rows.filter((r) => r.witnessDetail !== null);
  if (all.length === 0) return [];
  // Failed checks first; a job summary has a size limit, so long lists stop after MAX_WITNESSES.
  const rows = [...all.filter((r) => r.verdict === 'fail'), ...all.filter((r) => r.verdict === 'pass')].slice(
    0,
    MAX_WITNESSES,
  );
  const more = all.length - rows.length;
  const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\r?\n/g, ' ')}\``;
  return [
    '',
    '### Witnesses',
    '',
    ...rows.flatMap((r) => {
      const w = r.witnessDetail as NonNullable<typeof r.witnessDetail>;
      return [
        `- ${r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail} ${cell(r.task ?? r.test ?? '?')}${r.model ? ` (${cell(r.model)})` : ''}, ${cell(checkName(r))}, seed ${r.seed ?? GLYPHS.none}: input ${code(w.input)}${w.reason ? ` (${cell(w.reason)})` : ''}`,
        ...w.outputs.map((o) => `  - ${cell(o.labels.join(', '))} → ${code(o.outcome)}`),
        ...(w.reference === null ? [] : [`  - reference → ${code(w.reference)}`]),
      ];
    }),
    ...(more > 0 ? [`- … and ${more} more in the JSON and HTML reports`] : []),
  ];
};

/** What each word and column of a table means, under the table. */
const legend = (terms: ReadonlyArray<readonly [string, string]>): string[] => [
  '<details open><summary>Legend</summary>',
  '',
  ...terms.map(([term, meaning]) => `- **${cell(term)}**: ${meaning}`),
  '',
  '</details>',
];

/**
 * The model calls of each check whose candidates were pipeline samples or whose equality an LLM
 * judge decided: tokens and cost per sample, and the judge with its agreement on labelled pairs.
 * The checks table has one tokens cell per check; this is where a sample's share is read.
 */
const llmChecks = (summary: Summary): string[] => {
  const all = summary.rows.filter((r) => r.llm?.candidates || r.llm?.equivalence);
  if (all.length === 0) return [];
  const rows = all.slice(0, MAX_WITNESSES);
  const more = all.length - rows.length;
  return [
    '',
    '### LLM calls per check',
    '',
    ...rows.flatMap((r) => {
      const judge = equivalenceText(r.llm);
      return [
        `- ${r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail} ${cell(r.task ?? r.test ?? '?')}${r.model ? ` (${cell(r.model)})` : ''}, ${cell(checkName(r))}: ${cell(checkLlmText(r.llm) ?? GLYPHS.none)}${judge === null ? '' : `; ${cell(judge)}`}`,
        ...candidateLlmLines(r.llm).map((c) => `  - ${cell(c.label)}: ${cell(c.text)}`),
      ];
    }),
    ...(more > 0 ? [`- … and ${more} more in the JSON and HTML reports`] : []),
  ];
};

/** Bolds the leading figure: `3 tasks` → `**3** tasks`. */
const bold = (text: string): string => text.replace(/^(\d+)/, '**$1**');

const suite = (summary: Summary): string[] => {
  const s = summary.suite;
  const lines = [
    `- **${s.checks}** checks: ${outcomeText(s)}; ${bold(taskCountText(s))}, ${bold(flaggedText(s))} (candidates disagreed on some input)`,
    `- mean incoherence Î ${meanShare(s.meanIncoherence)}${overText(s.meanIncoherenceOver, 'task point')} (${MEAN_INCOHERENCE_NOTE}); mean error lower bound ${num(s.meanErrorLowerBound)}${overText(s.meanErrorLowerBoundOver, 'check')} (inconclusive checks count in no mean)`,
    `- isolation: ${isolationText(s)}`,
    ...[claimsText(s), unknownSuiteText(s), processIsolationWarning(s)]
      .filter((x): x is string => x !== null)
      .map((x) => `- ${x}`),
  ];
  const r = s.references;
  if (r) {
    lines.push(
      '',
      `With references (${r.tasks} ${pointUnit(s, r.tasks)}):`,
      '',
      ...table(
        [
          'mean error',
          'mean incoherence',
          'Spearman (error, Î)',
          'detection rate',
          'false positives',
          'undetected mean error',
        ],
        [
          [
            num(r.meanError),
            num(s.meanIncoherence),
            `${num(r.spearman, 2)} (${rhoStrength(r.spearman, r.spearmanPoints ?? r.tasks)})`,
            pct(r.detectionRate),
            String(r.falsePositives),
            num(r.undetectedMeanError),
          ],
        ],
      ),
    );
  }
  const t = s.triangulation;
  if (t) {
    lines.push(
      '',
      `Triangulation (${t.checks} checks: ${t.selected} selected, ${t.abstained} abstained):`,
      '',
      ...table(
        [
          'model',
          'checks',
          'abstained',
          'N₁',
          'N₂',
          'N₃',
          'N₄',
          'N₅',
          'reliable acc.',
          'overall acc.',
          'abstention F1',
        ],
        t.models.map((m) => [
          m.model ?? GLYPHS.none,
          String(m.checks),
          String(m.abstained),
          ...(['n1', 'n2', 'n3', 'n4', 'n5'] as const).map((k) =>
            m.counts ? String(m.counts[k]) : GLYPHS.none,
          ),
          pct(m.metrics?.reliableAccuracy ?? null),
          pct(m.metrics?.overallAccuracy ?? null),
          num(m.metrics?.abstentionF1 ?? null, 2),
        ]),
      ),
    );
  }
  return lines;
};

const models = (summary: Summary): string[] => {
  const ms = summary.ranking.models;
  if (ms.length === 0) return [];
  const rank = (x: number | null) => (x === null ? GLYPHS.none : String(x));
  return [
    '### Models',
    '',
    ...table(
      ['model', 'coherent tasks', 'rank', 'correct tasks', 'rank', 'mean Î', 'mean error'],
      ms.map((m) => [
        m.model,
        ratio(m.coherentTasks, m.tasks),
        rank(m.coherenceRank),
        ratio(m.correctTasks, m.referencedTasks),
        rank(m.correctnessRank),
        num(m.meanIncoherence),
        num(m.meanError),
      ]),
      [2, 4, 5, 6],
    ),
    '',
    `Spearman (coherent share, correct share): ${num(summary.ranking.spearman, 2)} (${rhoStrength(summary.ranking.spearman, summary.ranking.spearmanModels ?? summary.ranking.models.length)}). Rank 1 is best.`,
    '',
    ...legend(MODELS_LEGEND),
  ];
};

/**
 * The summary as GitHub-flavoured Markdown (for `$GITHUB_STEP_SUMMARY` or a PR comment).
 * @public
 */
export const renderMarkdown = (raw: CrosscheckReport): string => {
  // Every string of the report is shown, never acted on by a terminal that prints the file.
  const report = neutralizeDeep(raw, { newlines: true });
  const { run, summary } = report;
  const missing = missingShards(run.shard);
  const shard = run.shard ? `, shards ${run.shard.indexes.join(', ')} of ${run.shard.count}` : '';
  // The header's strings are escaped as the cells are: a report file is anyone's to write.
  const lines = [`## crosscheck report`, '', `_${cell(`${run.framework}${shard}`)}_`];
  if (missing.length) lines.push('', `> **Incomplete:** shards ${cell(missing.join(', '))} are missing.`);
  lines.push(...unrecordedText(run).map((x) => `\n> **${cell(x)}**`));
  if (summary.rows.length === 0)
    return `${[...lines, '', 'No crosscheck records in this run.'].join('\n')}\n`;
  const measured = summary.rows.some((r) => r.kind !== 'property');
  if (measured)
    lines.push('', ...suite(summary), '', '### Checks', '', ...checks(summary), '', ...legend(LEGEND));
  lines.push(...properties(summary), ...witnesses(summary), ...llmChecks(summary));
  const m = models(summary);
  if (m.length) lines.push('', ...m);
  const ranking = reportRanking(report);
  if (ranking) lines.push('', ...rankingMarkdown(ranking));
  if (summary.reviews) lines.push('', '### Grounded review', '', reviewSuiteText(summary.reviews));
  if (summary.llm) lines.push('', '### LLM', '', ...llmSummaryLines(summary.llm).map((l) => `- ${cell(l)}`));
  return `${lines.join('\n')}\n`;
};
