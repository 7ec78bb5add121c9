import { describe, expect, it } from 'vitest';
import {
  createReport,
  parseRecord,
  parseReport,
  renderHtml,
  renderJson,
  renderMarkdown,
  renderTerminal,
} from '../../src/report/index.ts';
import { coherence } from './records.ts';

/**
 * The ranking with its uncertainty in every rendering of a report: the summary's per-model rows
 * carry rank intervals as data, the terminal and Markdown show ranks with intervals, groups and
 * seed stability beside the sentence telling them apart, and the HTML draws forest plots.
 */

const records = Array.from({ length: 40 }, (_, t) => [
  coherence({ task: `t${t}`, model: 'alpha', incoherence: (t % 4) * 0.01, error: (t % 4) * 0.01 }),
  coherence({
    task: `t${t}`,
    model: 'beta',
    incoherence: 0.2 + (t % 5) * 0.02,
    error: 0.25 + (t % 3) * 0.02,
  }),
  coherence({
    task: `t${t}`,
    model: 'gamma',
    incoherence: 0.2 + ((t + 2) % 5) * 0.02,
    error: 0.25 + ((t + 1) % 3) * 0.02,
  }),
]).flat();
const report = () =>
  createReport(
    records.map((r) => parseRecord(r)),
    { framework: 'vitest', shard: null },
  );

describe('the ranking in reports', () => {
  it("should put each model's rank interval in the summary as data", () => {
    // Act
    const summary = parseReport(JSON.parse(renderJson(report()))).summary;
    // Assert
    const rows = Object.fromEntries(summary.ranking.models.map((m) => [m.model, m.intervals?.incoherence]));
    expect(rows.alpha).toMatchObject({ rank: 1, rankLow: 1, rankHigh: 1, group: 1 });
    expect(rows.beta).toMatchObject({ rankLow: 2, rankHigh: 3, group: 2 });
    expect(rows.gamma).toMatchObject({ rankLow: 2, rankHigh: 3, group: 2 });
    expect(summary.ranking.uncertainty?.rankings.error?.groups).toEqual([['alpha'], ['beta', 'gamma']]);
    expect(summary.ranking.uncertainty?.agreement?.means?.estimate).toBe(1);
  });

  it('should show ranks with intervals, groups and seed stability in the terminal and in Markdown', () => {
    for (const text of [renderTerminal(report(), { color: false, width: 200 }), renderMarkdown(report())]) {
      expect(text).toContain('Ranking with uncertainty');
      expect(text).toMatch(/1 \[1–1\]/);
      expect(text).toMatch(/\[2–3\]/);
      expect(text).toContain('alpha > {beta, gamma}');
      expect(text).toMatch(/seed stability/i);
      expect(text).toContain('seed stability only says how often new inputs');
    }
  });

  it('should draw a forest plot per ranking in the HTML, whiskers and rank intervals included', () => {
    // Act
    const html = renderHtml(report());
    // Assert
    const plots = html.match(/<svg[^>]*aria-label="mean (incoherence|error) with 95% intervals/g) ?? [];
    expect(plots).toHaveLength(2);
    expect(html).toMatch(/<line [^>]*stroke="#2f6fb0" stroke-width="2"\/>/);
    expect(html).toContain('<td class="num">1 [1–1]</td>');
  });

  it('should say which pairs could not be compared for lack of shared tasks', () => {
    // Arrange: delta measured only on tasks nobody else has
    const apart = createReport(
      [
        ...records,
        ...Array.from({ length: 10 }, (_, t) =>
          coherence({ task: `only${t}`, model: 'delta', incoherence: 0.9, error: 0.9 }),
        ),
      ].map((r) => parseRecord(r)),
      { framework: 'vitest', shard: null },
    );
    // Act & Assert
    for (const text of [
      renderTerminal(apart, { color: false, width: 400 }),
      renderMarkdown(apart),
      renderHtml(apart),
    ])
      expect(text).toMatch(/alpha–delta \(no task in common\)/);
  });

  it('should render a report whose bench ranking is damaged without it, not crash', () => {
    // Arrange: a hand-edited bench section.
    const damaged = { ...JSON.parse(renderJson(report())), bench: { ranking: { rankings: 'x' } } };
    // Act
    const md = renderMarkdown(parseReport(damaged));
    // Assert: the summary's own ranking is shown instead.
    expect(md).toContain('alpha > {beta, gamma}');
  });
});
