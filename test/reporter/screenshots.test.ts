import { copyFileSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_ENV, spawnVitest } from '../helpers/spawn-host.ts';
import { chromiumDom, chromiumScreenshot, type ShotOptions } from './chromium.ts';
import { decodePng } from './png.ts';

/**
 * The HTML report of a real Vitest run (test/fixtures/report-kinds: a flagged pool, a detection,
 * a ranking, grounded reviews, a triangulation selection and abstention, a pipeline check) opened in headless
 * Chromium: the overview, the legend, and a flagged, a review and a triangulation row expanded.
 * The assertions read what the page shows (its DOM after the script ran); the PNGs are kept in
 * test-output/screenshots/ (or $CROSSCHECK_SHOT_DIR) for a person to look at.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const SHOTS = process.env.CROSSCHECK_SHOT_DIR ?? join(ROOT, 'test-output', 'screenshots');
const work = mkdtempSync(join(tmpdir(), 'crosscheck-screenshots-'));
let html: string;

beforeAll(async () => {
  const out = join(work, 'report');
  const run = await spawnVitest(join(ROOT, 'test', 'fixtures', 'report-kinds'), {
    env: { REPORT_OUT: out, ...PLAIN_ENV },
    // A whole Vitest run on a shared machine: give it room, as the heavy suite runs one file at a time.
    timeoutMs: 240_000,
  });
  expect(run.exitCode, run.all).toBe(0);
  html = join(out, 'report.html');
  mkdirSync(SHOTS, { recursive: true });
});

/**
 * The page's DOM and a screenshot saved as `name`, 1300 × 2600 px (tall enough to hold the checks
 * table below the cards and plots, expanded row included); null without Chromium.
 */
const open = async (name: string, context: TestContext, options: ShotOptions) => {
  const dom = await chromiumDom(html, context, { width: 1300, height: 1000, ...options });
  const shot = await chromiumScreenshot(html, context, { width: 1300, height: 2600, ...options });
  if (!dom || !shot) return null;
  const png = join(SHOTS, name);
  copyFileSync(shot.png, png);
  console.log(`screenshot: ${png}`);
  expect(shot.errors).toEqual([]);
  const image = decodePng(png);
  expect(image.width).toBe(1300);
  // A blank or broken page is nearly all white and compresses to almost nothing.
  expect(statSync(png).size).toBeGreaterThan(20_000);
  expect(shot.nonWhite).toBeGreaterThan(10_000);
  return dom;
};

/** Text of the expanded row's detail (`dt: dd` per line), from the DOM. */
const detailOf = (dom: string): string =>
  [
    ...(/<tr class="detail">([\s\S]*?)<\/tr>/.exec(dom)?.[1] ?? '').matchAll(
      /<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g,
    ),
  ]
    .map((m) => `${m[1]}: ${m[2]}`)
    .join('\n');

describe('HTML report in headless Chromium', () => {
  it('shows the overview with its cards and the legend', async (context) => {
    const dom = await open('overview.png', context, {});
    if (!dom) return;
    expect(dom).toMatch(/<b>8<\/b><span>passed<\/span>/);
    expect(dom).toContain('flagged task: candidates disagreed on some input');
    const legend = /<details open="" id="legend"[^>]*>([\s\S]*?)<\/details>/.exec(dom)?.[1] ?? '';
    for (const term of [
      '⚑ flagged',
      'Î ± ε',
      'PAC',
      'classes',
      'δ',
      'error',
      'm',
      'n',
      'result',
      'inconclusive',
    ])
      expect(legend).toContain(`<dt>${term}</dt>`);
    expect(legend).toContain('Candidates gave different outputs on at least one input');
    expect(dom).toContain('8 checks');
    expect(dom).toContain('<th title="sort by result"');
    // The Models table explains its columns under it.
    const models = /<details open="" id="models-legend"[^>]*>([\s\S]*?)<\/details>/.exec(dom)?.[1] ?? '';
    for (const term of ['coherent tasks', 'correct tasks', 'rank', 'mean Î', 'mean error'])
      expect(models).toContain(`<dt>${term}</dt>`);
  });

  it('expands a flagged row to its witness', async (context) => {
    const dom = await open('flagged-row.png', context, { hash: '#flagged&open=1' });
    if (!dom) return;
    expect(dom).toContain('2 of 8 checks');
    const detail = detailOf(dom);
    expect(detail).toMatch(/witness: \[-?\d+,-?\d+\]/);
    expect(detail).toMatch(/right, alsoRight: → -?\d+/);
    expect(detail).toMatch(/wrongOnOdd: → -?\d+/);
  });

  it('expands a review row to its score against τ, verdict and judged inputs', async (context) => {
    const dom = await open('review-row.png', context, { hash: '#task=median&open=1' });
    if (!dom) return;
    expect(dom).toContain('rejected: score 0.50 &lt; τ 0.80 on 2 judged inputs');
    const detail = detailOf(dom);
    expect(detail).toContain('review: rejected: score 0.50 &lt; τ 0.80');
    // The result column wraps instead of running past the page: nothing scrolls sideways at 1300 px.
    expect(dom).toContain('data-overflow="false"');
    expect(detail).toContain('judged inputs: 2 (1 CORRECT, 1 INCORRECT, 0 unparseable)');
  });

  it('expands a triangulation row to the selected program and its witnesses', async (context) => {
    const dom = await open('triangulation-row.png', context, { hash: '#task=inc&open=1' });
    if (!dom) return;
    expect(dom).toContain('abstained: no program confirmed');
    const detail = detailOf(dom);
    expect(detail).toContain('triangulation: fwd-inv');
    expect(detail).toContain('selected: right (support 1)');
    expect(detail).toContain('witnesses: dec');
  });
});
