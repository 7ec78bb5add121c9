import { copyFileSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CrosscheckRecord, createReport, renderHtml } from '../../src/report/index.ts';
import { coherence } from '../report/records.ts';
import { chromiumDom, chromiumScreenshot } from './chromium.ts';
import { decodePng } from './png.ts';

/**
 * The HTML report of a benchmark-sized run (400 tasks × 2 models, as `crosscheck bench` writes
 * one): it leads with the models and the plots, and its checks table filters to the flagged
 * pairs and expands a row to its witness, in headless Chromium at 1,300 px without overflowing.
 */

const TASKS = 400;
const MODELS = ['gpt-4o', 'ministral-8b'];

/** Deterministic spread of figures: every 7th pair disagrees and carries a witness. */
const records = (): CrosscheckRecord[] =>
  MODELS.flatMap((model, k) =>
    Array.from({ length: TASKS }, (_, t) => {
      const flagged = (t + k) % 7 === 0;
      const incoherence = flagged ? 0.05 + ((t * 37) % 40) / 100 : 0;
      const base = coherence({
        task: `HumanEval/${t}`,
        model,
        incoherence,
        error: flagged ? incoherence * 0.8 : ((t * 13) % 5) / 100,
        classes: flagged ? [0.6, 0.4] : [1],
        pass: !flagged,
      });
      return {
        ...base,
        seed: 1000 + t,
        witness: flagged
          ? {
              reason: 'candidates disagree',
              input: `[[${t}, ${t + 1}, -${t}], "<b>x</b>"]`,
              original: `[[${t}, ${t + 1}, -${t}, 99, 12], "<b>x</b>"]`,
              shrinkSteps: 4,
              outputs: [
                { labels: [`${model}#0`, `${model}#2`], kind: 'value', outcome: String(t) },
                { labels: [`${model}#1`], kind: 'error', outcome: 'IndexError: list index out of range' },
              ],
              reference: String(t),
            }
          : null,
      } as CrosscheckRecord;
    }),
  );

describe('the HTML report of 400 tasks × 2 models', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-html-table-'));
  const file = join(dir, 'report.html');
  const html = renderHtml(createReport(records(), { framework: 'crosscheck bench', shard: null }));
  writeFileSync(file, html);

  it('should be one file with no external assets, leading with the models and the plots', () => {
    expect(html).not.toMatch(/<link|<img|src=|url\(|@import/);
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:/);
    const at = (s: string) => html.indexOf(s);
    expect(at('<h2>Models</h2>')).toBeGreaterThan(0);
    expect(at('<h2>Models</h2>')).toBeLessThan(at('<h2>Plots</h2>'));
    expect(at('<h2>Plots</h2>')).toBeLessThan(at('<h2>Checks</h2>'));
    // No 800-bar chart: per-check class bars are for small runs only.
    expect(html).not.toContain('Class shares per check');
    expect(html).toContain('400</b><span>tasks (800 task × model pairs)');
    // Witness text is data for the script, never markup.
    expect(html).not.toContain('<b>x</b>');
  });

  it('should filter to the flagged pairs and expand the first to its witness, without overflowing at 1,300 px', async (context) => {
    // Act
    const dom = await chromiumDom(file, context, { hash: '#flagged&open=0', width: 1300, height: 1000 });
    const shot = await chromiumScreenshot(file, context, {
      hash: '#flagged&open=0',
      width: 1300,
      height: 2400,
    });
    // Assert
    if (!dom || !shot) return;
    const flagged = records().filter((r) => r.witness !== null).length;
    expect(dom).toContain(`${flagged} of 800 checks`);
    expect(dom).toContain('data-overflow="false"');
    expect(dom.match(/<tr class="row/g)).toHaveLength(100);
    const detail = /<tr class="detail">([\s\S]*?)<\/tr>/.exec(dom)?.[1] ?? '';
    expect(detail).toContain('[[0, 1, -0], "&lt;b&gt;x&lt;/b&gt;"]');
    expect(detail).toContain('IndexError: list index out of range');
    expect(detail).toContain('<dt>seed</dt><dd>1000</dd>');
    expect(shot.errors).toEqual([]);
    expect(decodePng(shot.png).width).toBe(1300);
    expect(shot.points, 'the plots are drawn').toBeGreaterThan(100);
    copyFileSync(shot.png, join(process.env.CROSSCHECK_SHOT_DIR ?? dir, 'report-400x2.png'));
    console.log(`report-400x2.html: ${(statSync(file).size / 1024).toFixed(0)} KiB; screenshot ${shot.png}`);
  });

  it('should stay one page of rows at 10,000 checks', () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      records().map((r) => ({ ...r, task: `${r.task}-${i}` }) as CrosscheckRecord),
    ).flat();
    const big = renderHtml(createReport(many, { framework: 'crosscheck bench', shard: null }));
    expect(many).toHaveLength(20_000);
    // The rows travel as data (about 0.3 KiB each); the page renders 100 of them at a time.
    expect(big.length / many.length).toBeLessThan(600);
  });
});
