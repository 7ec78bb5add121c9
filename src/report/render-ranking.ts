import {
  type EstimateInterval,
  type MetricRanking,
  minSharedTasks,
  type RankingAnalysis,
} from '../stats/index.ts';
import { GLYPHS } from './figures.ts';
import type { CrosscheckReport } from './report.ts';
import { escapeXml } from './svg.ts';

/**
 * The ranking with its uncertainty in every output: lines of text (terminal, `crosscheck bench`),
 * Markdown, and HTML with a forest plot (estimates with whiskers, ranks with their intervals).
 */

/** One sentence wherever both figures are shown: what each one answers. @public */
export const SEED_STABILITY_NOTE =
  'Uncertainty (the intervals) says how far the figures and the order could move with other tasks and other candidates from the same models; seed stability only says how often new inputs on these same tasks and candidates reproduce the order, so a ranking can be perfectly seed-stable and still not be told apart.';

const METRIC_TITLE = { incoherence: 'mean incoherence', error: 'mean error' } as const;

const f3 = (x: number): string => x.toFixed(3);
const pct = (x: number): string => `${Math.round(x * 100)}%`;
/** `0.123 [0.100, 0.150]`, or a dash. @public */
export const intervalText = (x: EstimateInterval | null): string =>
  x === null ? GLYPHS.none : `${f3(x.estimate)} [${f3(x.low)}, ${f3(x.high)}]`;
const rankText = (r: { rank: number; rankLow: number; rankHigh: number }): string =>
  `${r.rank} [${r.rankLow}–${r.rankHigh}]`;

/** The ranking of a report: the bench's (per-candidate) when it has one, else the summary's. @public */
export const reportRanking = (report: CrosscheckReport): RankingAnalysis | null => {
  const bench = report.bench as { ranking?: unknown } | undefined;
  if (bench?.ranking !== undefined && isRankingAnalysis(bench.ranking)) return bench.ranking;
  const own = report.summary.ranking.uncertainty;
  return own && isRankingAnalysis(own) ? own : null;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInterval = (v: unknown): boolean =>
  v === null || (isObject(v) && isNum(v.estimate) && isNum(v.low) && isNum(v.high));
const isMetricRanking = (v: unknown): boolean =>
  v === null ||
  (isObject(v) &&
    Array.isArray(v.models) &&
    v.models.every(
      (m) =>
        isObject(m) &&
        typeof m.model === 'string' &&
        ['rank', 'rankLow', 'rankHigh', 'estimate', 'low', 'high', 'group', 'seedStability'].every((k) =>
          isNum(m[k]),
        ),
    ) &&
    Array.isArray(v.groups) &&
    v.groups.every((g) => Array.isArray(g) && g.every((x) => typeof x === 'string')) &&
    isNum(v.seedStability));

/**
 * Whether a value read from a report file has the shape of a {@link RankingAnalysis}: a damaged
 * or hand-edited report renders without its ranking instead of crashing the renderer.
 * @public
 */
export const isRankingAnalysis = (v: unknown): v is RankingAnalysis =>
  isObject(v) &&
  isNum(v.confidence) &&
  isNum(v.resamples) &&
  isNum(v.seed) &&
  isNum(v.tasks) &&
  Array.isArray(v.models) &&
  v.models.every(
    (m) =>
      isObject(m) &&
      typeof m.model === 'string' &&
      isInterval(m.incoherence) &&
      isInterval(m.error) &&
      isInterval(m.detectionRate),
  ) &&
  isObject(v.rankings) &&
  isMetricRanking(v.rankings.incoherence) &&
  isMetricRanking(v.rankings.error) &&
  (v.agreement === null ||
    (isObject(v.agreement) && isInterval(v.agreement.shares) && isInterval(v.agreement.means)));

const rankings = (a: RankingAnalysis): MetricRanking[] =>
  [a.rankings.incoherence, a.rankings.error].filter((r): r is MetricRanking => r !== null);

const groupsText = (r: MetricRanking): string =>
  r.groups.map((g) => (g.length === 1 ? g[0] : `{${g.join(', ')}}`)).join(' > ');

/** A clause as a sentence of its own: capitalised (the full stop is the caller's). */
const sentence = (text: string): string => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;

/** Listed by name up to this many; the rest are counted. */
const MAX_LISTED = 8;

/**
 * The pairs that could not be separated whatever their figures, because the two models share no
 * task or too few: said outright, so that "cannot be told apart" is not read as "measured alike".
 * Reports written before pairs carried `sharedTasks` have nothing to say here.
 */
const fewSharedText = (r: MetricRanking, confidence: number): string | null => {
  const need = minSharedTasks(confidence);
  const few = r.pairs.filter((p) => typeof p.sharedTasks === 'number' && p.sharedTasks < need);
  if (few.length === 0) return null;
  const named = few
    .slice(0, MAX_LISTED)
    .map(
      (p) =>
        `${p.better}–${p.worse} (${p.sharedTasks === 0 ? 'no task in common' : `${p.sharedTasks} shared task${p.sharedTasks === 1 ? '' : 's'}`})`,
    );
  const more = few.length > MAX_LISTED ? ` and ${few.length - MAX_LISTED} more` : '';
  return `not comparable: ${named.join(', ')}${more}; a pair is compared only on the tasks both models were measured on, and separating at ${pct(confidence)} takes at least ${need} of them`;
};

const agreementText = (a: RankingAnalysis): string | null => {
  if (!a.agreement) return null;
  const parts = [
    a.agreement.shares &&
      `ρ = ${intervalText(a.agreement.shares)} on the shares of tasks with error 0 and incoherence 0`,
    a.agreement.means && `ρ = ${intervalText(a.agreement.means)} on the mean figures`,
  ].filter(Boolean);
  return parts.length === 0
    ? null
    : `agreement of the incoherence and error rankings (Spearman): ${parts.join('; ')}`;
};

const methodText = (a: RankingAnalysis): string =>
  `${pct(a.confidence)} intervals: two-stage bootstrap over ${a.tasks} tasks and the candidates within each (${a.resamples} resamples, seed ${a.seed}); rank intervals and groups from simultaneous pairwise intervals (max-t) on the tasks each pair shares, so the chance of any false separation is at most ${pct(1 - a.confidence)}.`;

/** The ranking as lines of plain text (terminal, `crosscheck bench`). @public */
export const rankingLines = (a: RankingAnalysis): string[] => {
  const lines: string[] = [methodText(a)];
  const byModel = new Map(a.models.map((m) => [m.model, m]));
  for (const r of rankings(a)) {
    const rows = [
      [
        'rank [interval]',
        'group',
        'model',
        `${METRIC_TITLE[r.metric]} [interval]`,
        'detection rate [interval]',
        'seed-stable',
      ],
      ...r.models.map((m) => [
        rankText(m),
        String(m.group),
        m.model,
        `${f3(m.estimate)} [${f3(m.low)}, ${f3(m.high)}]`,
        intervalText(byModel.get(m.model)?.detectionRate ?? null),
        pct(m.seedStability),
      ]),
    ];
    const widths = (rows[0] as string[]).map((_, k) => Math.max(...rows.map((row) => (row[k] ?? '').length)));
    lines.push('', `ranked by ${METRIC_TITLE[r.metric]} (lower is better):`);
    for (const row of rows)
      lines.push(
        row
          .map((x, k) => x.padEnd(widths[k] as number))
          .join('  ')
          .trimEnd(),
      );
    const few = fewSharedText(r, a.confidence);
    lines.push(
      `groups that cannot be told apart: ${groupsText(r)}`,
      ...(few ? [few] : []),
      `seed stability: ${pct(r.seedStability)} of input redraws reproduce the whole order`,
    );
  }
  const agree = agreementText(a);
  if (agree) lines.push('', agree);
  lines.push('', SEED_STABILITY_NOTE);
  return lines;
};

const mdCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The ranking as Markdown. @public */
export const rankingMarkdown = (a: RankingAnalysis): string[] => {
  const lines: string[] = ['### Ranking with uncertainty', '', methodText(a)];
  const byModel = new Map(a.models.map((m) => [m.model, m]));
  for (const r of rankings(a)) {
    lines.push(
      '',
      `Ranked by ${METRIC_TITLE[r.metric]} (lower is better):`,
      '',
      `| rank [interval] | group | model | ${METRIC_TITLE[r.metric]} [interval] | detection rate [interval] | seed-stable |`,
      '|---:|---:|---|---:|---:|---:|',
      ...r.models.map(
        (m) =>
          `| ${rankText(m)} | ${m.group} | ${mdCell(m.model)} | ${f3(m.estimate)} [${f3(m.low)}, ${f3(m.high)}] | ${intervalText(byModel.get(m.model)?.detectionRate ?? null)} | ${pct(m.seedStability)} |`,
      ),
      '',
      `Groups that cannot be told apart: ${mdCell(groupsText(r))}. Seed stability: ${pct(r.seedStability)} of input redraws reproduce the whole order.`,
    );
    const few = fewSharedText(r, a.confidence);
    if (few) lines.push('', `${mdCell(sentence(few))}.`);
  }
  const agree = agreementText(a);
  if (agree) lines.push('', `${sentence(agree)}.`);
  lines.push('', SEED_STABILITY_NOTE);
  return lines;
};

/**
 * A forest plot of one ranking: per model (best at the top) its estimate with the interval as
 * whiskers, its rank interval printed beside it, groups told apart by alternating shading.
 * @public
 */
export const forestPlot = (r: MetricRanking, confidence: number): string => {
  const labelW = 200;
  const plotW = 320;
  const rankW = 90;
  const rowH = 20;
  const top = 34;
  const width = labelW + plotW + rankW;
  const height = top + r.models.length * rowH + 30;
  const hi = Math.max(0.01, ...r.models.map((m) => m.high));
  const max = hi <= 0.1 ? Math.ceil(hi * 50) / 50 : hi <= 0.5 ? Math.ceil(hi * 10) / 10 : 1;
  const sx = (x: number) => labelW + (Math.min(max, Math.max(0, x)) / max) * (plotW - 20);
  const r1 = (x: number) => String(Math.round(x * 10) / 10);
  const title = `${METRIC_TITLE[r.metric]} with ${pct(confidence)} intervals (lower is better)`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<text x="${width / 2}" y="18" text-anchor="middle" class="title">${escapeXml(title)}</text>`,
    `<text x="${labelW + plotW + 8}" y="${top - 4}" class="tick">rank [interval]</text>`,
  ];
  r.models.forEach((m, i) => {
    const y = top + i * rowH;
    const mid = y + rowH / 2;
    if (m.group % 2 === 0)
      parts.push(
        `<rect x="0" y="${y}" width="${width}" height="${rowH}" fill="#f4f6f8"><title>group ${m.group}</title></rect>`,
      );
    const label = m.model.length > 30 ? `${m.model.slice(0, 29)}…` : m.model;
    const tip = `${m.model}: ${f3(m.estimate)} [${f3(m.low)}, ${f3(m.high)}], rank ${rankText(m)}, group ${m.group}`;
    parts.push(
      `<text x="${labelW - 8}" y="${mid + 4}" text-anchor="end" class="tick">${escapeXml(label)}</text>`,
      `<line x1="${r1(sx(m.low))}" y1="${mid}" x2="${r1(sx(m.high))}" y2="${mid}" stroke="#2f6fb0" stroke-width="2"/>`,
      `<line x1="${r1(sx(m.low))}" y1="${mid - 5}" x2="${r1(sx(m.low))}" y2="${mid + 5}" stroke="#2f6fb0" stroke-width="2"/>`,
      `<line x1="${r1(sx(m.high))}" y1="${mid - 5}" x2="${r1(sx(m.high))}" y2="${mid + 5}" stroke="#2f6fb0" stroke-width="2"/>`,
      `<circle cx="${r1(sx(m.estimate))}" cy="${mid}" r="4" class="point"><title>${escapeXml(tip)}</title></circle>`,
      `<text x="${labelW + plotW + 8}" y="${mid + 4}" class="tick">${escapeXml(rankText(m))}</text>`,
    );
  });
  const axisY = top + r.models.length * rowH + 4;
  parts.push(
    `<line x1="${labelW}" y1="${axisY}" x2="${labelW + plotW - 20}" y2="${axisY}" class="frame" stroke="#9aa4ae"/>`,
  );
  for (let k = 0; k <= 4; k++) {
    const t = (max * k) / 4;
    parts.push(
      `<text x="${r1(sx(t))}" y="${axisY + 14}" text-anchor="middle" class="tick">${t.toFixed(max <= 0.1 ? 3 : 2)}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
};

/** The ranking as an HTML section: forest plots, then the tables. @public */
export const rankingHtml = (a: RankingAnalysis): string => {
  const e = escapeXml;
  const byModel = new Map(a.models.map((m) => [m.model, m]));
  const out = ['<h2>Ranking with uncertainty</h2>', `<p>${e(methodText(a))}</p>`];
  out.push(
    `<div class="plots">${rankings(a)
      .map((r) => `<figure>${forestPlot(r, a.confidence)}</figure>`)
      .join('')}</div>`,
  );
  for (const r of rankings(a)) {
    out.push(
      `<h3>Ranked by ${e(METRIC_TITLE[r.metric])}</h3>`,
      `<table><thead><tr><th>rank [interval]</th><th>group</th><th>model</th><th>${e(METRIC_TITLE[r.metric])} [interval]</th><th>detection rate [interval]</th><th>seed-stable</th></tr></thead><tbody>`,
      ...r.models.map(
        (m) =>
          `<tr><td class="num">${e(rankText(m))}</td><td class="num">${m.group}</td><td>${e(m.model)}</td><td class="num">${e(`${f3(m.estimate)} [${f3(m.low)}, ${f3(m.high)}]`)}</td><td class="num">${e(intervalText(byModel.get(m.model)?.detectionRate ?? null))}</td><td class="num">${pct(m.seedStability)}</td></tr>`,
      ),
      '</tbody></table>',
      `<p>Groups that cannot be told apart: ${e(groupsText(r))}. Seed stability: ${pct(r.seedStability)} of input redraws reproduce the whole order.</p>`,
    );
    const few = fewSharedText(r, a.confidence);
    if (few) out.push(`<p>${e(sentence(few))}.</p>`);
  }
  const agree = agreementText(a);
  if (agree) out.push(`<p>${e(agree)}.</p>`);
  out.push(`<p>${e(SEED_STABILITY_NOTE)}</p>`);
  return out.join('\n');
};
