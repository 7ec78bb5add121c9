import { neutralizeDeep } from '../values/index.ts';
import { GLYPHS } from './figures.ts';
import {
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
  pct,
  pointUnit,
  processIsolationWarning,
  propertyOutcomeText,
  propertyRunsText,
  ratio,
  replayText,
  reviewSuiteText,
  rhoStrength,
  taskCountText,
  unknownSuiteText,
} from './format.ts';
import { checksSection, TABLE_STYLE } from './html-table.ts';
import { llmSummaryLines, usd } from './llm.ts';
import { missingShards } from './merge.ts';
import { rankingHtml, reportRanking } from './render-ranking.ts';
import type { CrosscheckReport } from './report.ts';
import type { Summary } from './summary.ts';
import { escapeXml as e, type PlotPoint, scatterPlot, shareBars } from './svg.ts';

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d232a;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#5b6570;margin-bottom:16px}.warn{color:#9a5b00;font-weight:600}
.cards{display:flex;flex-wrap:wrap;gap:10px}.card{border:1px solid #d8dde3;border-radius:6px;padding:8px 12px;min-width:120px}
.card b{display:block;font-size:20px}.card span{color:#5b6570;font-size:12px}
table{border-collapse:collapse;margin:6px 0}th,td{border-bottom:1px solid #e4e7eb;padding:4px 10px;text-align:left;white-space:nowrap}
th{background:#f4f6f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#1f7a3a}.fail{color:#b3261e}.flag{color:#b56a00}
.plots{display:flex;flex-wrap:wrap;gap:18px}.plots figure{margin:0;border:1px solid #e4e7eb;border-radius:6px;padding:6px}
figcaption{font-size:12px;color:#5b6570;max-width:420px}
svg .title{font-size:13px;font-weight:600}svg .tick{font-size:11px;fill:#4a545e}svg .axis{font-size:12px}
svg .frame{fill:none;stroke:#9aa4ae}svg .grid{stroke:#eceff2}svg .ref{stroke:#c4413b;stroke-dasharray:6 4;stroke-width:1.5}
svg .reflabel{font-size:11px;fill:#c4413b}svg .point{fill:#2f6fb0;fill-opacity:.75;stroke:#fff}svg .plabel{font-size:11px}
.scroll{overflow-x:auto;max-width:100%}
.empty{color:#5b6570;font-style:italic;padding:20px}
.legend{margin:6px 0 10px;max-width:1240px}.legend summary{cursor:pointer;font-weight:600}
.legend dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0 0;font-size:13px}.legend dt{font-weight:600;white-space:nowrap}.legend dd{margin:0;color:#3a434c}
`;

const ticks = (max: number): number[] => {
  const step = max <= 0.1 ? 0.02 : max <= 0.25 ? 0.05 : max <= 0.5 ? 0.1 : 0.2;
  return Array.from(
    { length: Math.floor(max / step + 1e-9) + 1 },
    (_, i) => Math.round(i * step * 100) / 100,
  );
};

const empty = (title: string, why: string): string =>
  `<figure><div class="empty" style="width:400px">${e(title)}: ${e(why)}</div></figure>`;

// Figure 3 of the incoherence paper: one point per task, error over incoherence, with E = I/2.
const errorVsIncoherence = (summary: Summary): string => {
  const title = 'Error vs incoherence per task';
  const points = summary.points.filter(
    (p): p is typeof p & { incoherence: number; error: number } => p.incoherence !== null && p.error !== null,
  );
  if (points.length === 0) return empty(title, 'no task has both an incoherence estimate and a reference');
  const max = Math.min(1, Math.max(0.1, ...points.flatMap((p) => [p.incoherence, p.error])) * 1.1);
  const plotted: PlotPoint[] = points.map((p) => ({
    x: p.incoherence,
    y: p.error,
    title: `${p.task}${p.model ? ` (${p.model})` : ''}: Î = ${num(p.incoherence)}, E = ${num(p.error)}`,
  }));
  return `<figure>${scatterPlot(plotted, {
    title,
    xLabel: 'incoherence Î',
    yLabel: 'error E',
    x: [0, max],
    y: [0, max],
    ticks: ticks(max),
    lines: [{ from: [0, 0], to: [max, max / 2], label: 'I = 2E' }],
  })}<figcaption>Theorem 4.1: I ≤ 2E, so every task lies on or above the dashed line. Tasks on the left edge have error the candidates did not reveal.</figcaption></figure>`;
};

// Figure 1 of the incoherence paper: models ranked by error against ranked by incoherence.
const rankingPlot = (summary: Summary): string => {
  const title = 'Model ranking: error vs incoherence';
  const models = summary.ranking.models.filter(
    (m): m is typeof m & { coherenceRank: number; correctnessRank: number } =>
      m.coherenceRank !== null && m.correctnessRank !== null,
  );
  if (models.length === 0) return empty(title, 'needs models (the `model` tag) with references');
  const k = Math.max(...models.flatMap((m) => [m.coherenceRank, m.correctnessRank]));
  return `<figure>${scatterPlot(
    models.map((m) => ({
      x: m.correctnessRank,
      y: m.coherenceRank,
      label: m.model,
      title: `${m.model}: rank ${m.correctnessRank} by correct tasks, ${m.coherenceRank} by coherent tasks`,
    })),
    {
      title,
      xLabel: 'rank by share of correct tasks (error = 0)',
      yLabel: 'rank by share of coherent tasks',
      x: [0.5, k + 0.5],
      y: [0.5, k + 0.5],
      ticks: Array.from({ length: Math.ceil(k) }, (_, i) => i + 1),
      lines: [{ from: [0.5, 0.5], to: [k + 0.5, k + 0.5], label: 'same rank' }],
      invertY: false,
    },
  )}<figcaption>Rank 1 is best. Spearman ρ = ${num(summary.ranking.spearman, 2)} (${e(rhoStrength(summary.ranking.spearman, summary.ranking.spearmanModels ?? summary.ranking.models.length))}).</figcaption></figure>`;
};

/** Above this many checks the per-check bars would be a wall; the table shows classes per row. */
const MAX_CLASS_BARS = 40;

const classPlot = (summary: Summary): string => {
  const title = 'Class shares per check';
  const rows = summary.rows.filter((r) => r.classes.length > 0);
  if (rows.length === 0) return empty(title, 'no check recorded equivalence classes');
  if (rows.length > MAX_CLASS_BARS) return '';
  return `<figure>${shareBars(
    rows.map((r) => ({
      label: `${r.task ?? r.test ?? '?'}${r.model ? ` · ${r.model}` : ''} · ${r.kind}`,
      shares: r.classes.map((c) => ({ share: c.share, title: `${c.labels.join(', ')}: ${pct(c.share)}` })),
    })),
    title,
  )}<figcaption>Candidates grouped by identical behaviour on every input; one colour per class, largest first.</figcaption></figure>`;
};

const htmlTable = (
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: readonly number[] = [],
) =>
  `<table><thead><tr>${header.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => `<td${numeric.includes(i) ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;

const card = (value: string, label: string): string =>
  `<div class="card"><b>${e(value)}</b><span>${e(label)}</span></div>`;

/** Tokens and cost per model and for the suite (live vs replayed), when a check used a model. */
const llmSection = (summary: Summary): string => {
  const s = summary.llm;
  if (!s) return '';
  const cost = (a: number | null, b: number | null) =>
    a === null && b === null ? null : (a ?? 0) + (b ?? 0);
  const rows = s.models
    .map(
      (m) =>
        `<tr><td>${e(m.model)}</td><td class="num">${m.live.calls}</td><td class="num">${m.replayed.calls}</td>` +
        `<td class="num">${m.live.prompt + m.replayed.prompt}</td><td class="num">${m.live.completion + m.replayed.completion}</td>` +
        `<td class="num">${e(usd(m.live.costUsd))}</td><td class="num">${e(usd(cost(m.live.costUsd, m.replayed.costUsd)))}</td></tr>`,
    )
    .join('');
  return `<h2>LLM</h2>
<ul>${llmSummaryLines(s)
    .map((l) => `<li>${e(l)}</li>`)
    .join('')}</ul>
<table><thead><tr><th>model</th><th>live calls</th><th>replayed calls</th><th>prompt tokens</th><th>completion tokens</th><th>live spend</th><th>worth</th></tr></thead><tbody>${rows}</tbody></table>`;
};

const suiteCards = (summary: Summary): string => {
  const s = summary.suite;
  const cards = [
    card(String(s.checks), 'checks'),
    card(String(s.checks - s.failedChecks), 'passed'),
    card(
      String(s.failedChecks),
      s.inconclusiveChecks ? `failed (${s.inconclusiveChecks} inconclusive)` : 'failed',
    ),
    card(String(s.distinctTasks), taskCountText(s).replace(/^\d+ /, '')),
    card(
      String(s.flaggedTasks),
      `flagged ${pointUnit(s, s.flaggedTasks)}: candidates disagreed on some input`,
    ),
    card(meanShare(s.meanIncoherence), `mean incoherence Î${overText(s.meanIncoherenceOver, 'task point')}`),
    card(num(s.meanErrorLowerBound), `mean error lower bound${overText(s.meanErrorLowerBoundOver, 'check')}`),
    card(isolationText(s), 'isolation'),
    ...[processIsolationWarning(s)]
      .filter((x): x is string => x !== null)
      .map((x) => card('not a boundary', x)),
    ...(unknownSuiteText(s) === null
      ? []
      : [card(String(s.unknownCells), `unknown cells; ${s.inconclusiveChecks} inconclusive checks`)]),
  ];
  const r = s.references;
  if (r) {
    cards.push(
      card(num(r.meanError), `mean error (${r.tasks} ${pointUnit(s, r.tasks)} with references)`),
      card(pct(r.detectionRate), 'detection rate'),
      card(String(r.falsePositives), 'false positives'),
      card(num(r.undetectedMeanError), 'undetected mean error'),
      card(num(r.spearman, 2), 'Spearman (error, incoherence)'),
    );
  }
  return `<div class="cards" title="${e(outcomeText(s))}">${cards.join('')}</div><p class="meta">Mean incoherence: ${e(MEAN_INCOHERENCE_NOTE)}.</p>`;
};

const modelsTable = (summary: Summary): string => {
  const ms = summary.ranking.models;
  if (ms.length === 0) return '';
  const rank = (x: number | null) => (x === null ? GLYPHS.none : String(x));
  return `<h2>Models</h2>${htmlTable(
    ['model', 'coherent tasks', 'rank', 'correct tasks', 'rank', 'mean Î', 'mean error'],
    ms.map((m) =>
      [
        m.model,
        ratio(m.coherentTasks, m.tasks),
        rank(m.coherenceRank),
        ratio(m.correctTasks, m.referencedTasks),
        rank(m.correctnessRank),
        num(m.meanIncoherence),
        num(m.meanError),
      ].map(e),
    ),
    [2, 4, 5, 6],
  )}<p>Spearman (coherent share, correct share): ${e(num(summary.ranking.spearman, 2))} (${e(rhoStrength(summary.ranking.spearman, summary.ranking.spearmanModels ?? summary.ranking.models.length))}). Rank 1 is best.</p>${legendSection(MODELS_LEGEND, 'models-legend')}`;
};

/** Most property runs drawn as rows; the JSON report keeps every one. */
const MAX_PROPERTY_ROWS = 1000;

/** fast-check property runs: a table of their own, each counterexample and witness as text. */
const propertySection = (summary: Summary): string => {
  const rows = summary.rows.filter((r) => r.kind === 'property');
  if (rows.length === 0) return '';
  const shown = rows.slice(0, MAX_PROPERTY_ROWS);
  const body = shown.map((r) => {
    const p = r.property as NonNullable<typeof r.property>;
    const w = r.witnessDetail;
    const witness = w
      ? [`input ${w.input}${w.original !== w.input ? ` (shrunk from ${w.original})` : ''}`]
          .concat(w.outputs.map((o) => `${o.labels.join(', ')} → ${o.outcome}`))
          .concat(w.reference === null ? [] : [`reference → ${w.reference}`])
      : [];
    return [
      `<span class="${r.verdict}">${r.verdict === 'pass' ? GLYPHS.pass : GLYPHS.fail}</span>`,
      e(r.task ?? GLYPHS.none),
      e(r.model ?? GLYPHS.none),
      e(r.test ?? GLYPHS.none),
      e(p.property),
      e(propertyRunsText(p)),
      e(propertyOutcomeText(p)),
      `<code>${e(replayText(p))}</code>`,
      `<code>${e(p.counterexample ?? GLYPHS.none)}</code>${witness.map((x) => `<br><code>${e(x)}</code>`).join('')}`,
    ];
  });
  return `<h2 id="properties">Property runs (fast-check)</h2><p class="meta">${e(PROPERTY_NOTE)}</p><div class="scroll">${htmlTable(
    ['', 'task', 'model', 'test', 'property', 'runs', 'result', 'replay', 'counterexample'],
    body,
    [5],
  )}</div>${rows.length > shown.length ? `<p>${e(`… and ${rows.length - shown.length} more in the JSON report`)}</p>` : ''}${legendSection(PROPERTIES_LEGEND, 'properties-legend')}`;
};

/**
 * What each word and column of a table means (open, so a screenshot shows it): the checks
 * table's above it (`id="legend"`), the others' under their table.
 */
const legendSection = (terms: ReadonlyArray<readonly [string, string]> = LEGEND, id = 'legend'): string =>
  `<details open id="${id}" class="legend"><summary>Legend</summary><dl>${terms
    .map(([term, meaning]) => `<dt>${e(term)}</dt><dd>${e(meaning)}</dd>`)
    .join('')}</dl></details>`;

const rankingSection = (report: CrosscheckReport): string => {
  const ranking = reportRanking(report);
  return ranking ? rankingHtml(ranking) : '';
};

/**
 * The report as one self-contained HTML page (inline CSS, SVG and script; nothing fetched):
 * suite figures, the per-model table, error vs incoherence per task with the I = 2E line, the
 * model ranking by error vs by incoherence, class shares per check (small runs), and the checks
 * table: sortable, filterable (flagged, failed, model, task), paginated, each row expanding to
 * its witness.
 * @public
 */
export const renderHtml = (raw: CrosscheckReport): string => {
  // Every string of the report is shown, never acted on by a terminal that prints the file.
  const report = neutralizeDeep(raw, { newlines: true });
  const { run, summary } = report;
  const missing = missingShards(run.shard);
  const shard = run.shard ? `, shards ${run.shard.indexes.join(', ')} of ${run.shard.count}` : '';
  const measured = summary.rows.some((r) => r.kind !== 'property');
  const body =
    summary.rows.length === 0
      ? '<p>No crosscheck records in this run.</p>'
      : [
          ...(measured
            ? [
                suiteCards(summary),
                modelsTable(summary),
                rankingSection(report),
                summary.reviews
                  ? `<h2>Grounded review</h2>\n<p>${e(reviewSuiteText(summary.reviews))}</p>`
                  : '',
                llmSection(summary),
                '<h2>Plots</h2>',
                `<div class="plots">${errorVsIncoherence(summary)}${rankingPlot(summary)}${classPlot(summary)}</div>`,
                '<h2>Checks</h2>',
                legendSection(),
                checksSection(summary),
              ]
            : []),
          propertySection(summary),
        ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>crosscheck report</title>
<style>${STYLE}${TABLE_STYLE}</style>
</head>
<body>
<h1>crosscheck report</h1>
<div class="meta">${e(run.framework)}${e(shard)}${missing.length ? ` <span class="warn">incomplete: shards ${e(missing.join(', '))} missing</span>` : ''}</div>
${body}
</body>
</html>
`;
};
