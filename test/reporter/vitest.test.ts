import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportSchemaProblems } from '../helpers/report-schema.ts';
import { PLAIN_ENV, spawnVitest } from '../helpers/spawn-host.ts';
import { chromiumScreenshot } from './chromium.ts';
import { crosscheck, fixtures, readReport, summaryText, withoutTimings } from './helpers.ts';

/**
 * Real Vitest runs of test/fixtures/report-vitest (two spec files, three models, two tasks) with
 * the crosscheck reporter beside the default one: whole, and as two shards merged by the CLI.
 */

const work = mkdtempSync(join(tmpdir(), 'crosscheck-vitest-reporter-'));
const project = join(fixtures, 'report-vitest');

const vitest = async (name: string, args: readonly string[] = []) => {
  const out = join(work, name);
  const result = await spawnVitest(project, { args, env: { REPORT_OUT: out, ...PLAIN_ENV } });
  return { result, out };
};

let whole: Awaited<ReturnType<typeof vitest>>;

beforeAll(async () => {
  whole = await vitest('whole');
});

describe('Vitest reporter', () => {
  it('should print the suite summary after the default reporter', () => {
    // Assert: two checks fail by design (beta's sum pool disagrees), so Vitest exits 1.
    expect(whole.result.exitCode, whole.result.all).toBe(1);
    expect(whole.result.stdout).toContain('Tests  2 failed | 6 passed (8)');
    expect(summaryText(whole.result.stdout)).toMatchInlineSnapshot(`
      "   crosscheck  8 checks · 2 failed · 2 tasks (7 task × model pairs) · 2 pairs flagged (vitest)

              task  model  check                   m   n  Î ± ε          error          PAC         classes  time
        ✓     max   alpha  toHaveIncoherenceBelow  2  60  0.000 ± 0.181  0.000 ± 0.181  —           2        [...]ms
        ✓     max   beta   toHaveIncoherenceBelow  3  60  0.000 ± 0.181  0.000 ± 0.181  —           3        [...]ms
        ✓  ⚑  max   gamma  toHaveIncoherenceBelow  2  60  0.033 ± 0.181  0.017 ± 0.181  —           1+1      [...]ms
        ✓     max   —      toAgreeWithReference    1  40  —              0.000 ± 0.221  —           1        [...]ms
        ✓     sum   alpha  toHaveIncoherenceBelow  2  60  0.000 ± 0.181  0.000 ± 0.181  —           2        [...]ms
        ✗  ⚑  sum   beta   toBeCoherentAcross      3   1  —              —              incoherent  —        [...]ms
        ✗  ⚑  sum   beta   toHaveIncoherenceBelow  3  60  0.500 ± 0.181  0.250 ± 0.181  —           2+1      [...]ms
        ✓     sum   gamma  toHaveIncoherenceBelow  2  60  0.000 ± 0.181  0.750 ± 0.181  —           2        [...]ms
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates disagree) · m candidates · n inputs · Î ± ε incoherence ± half-width
          · PAC detection verdict · classes sizes of groups of identical candidates

        Suite  mean Î 0.089 over 6 task points · mean error lower bound 0.027 over 6 checks
          isolation none (trusted functions only)
          6 statistical claims at confidence 0.950 each; at least one may be false with probability up to 0.300 (union bound,
          Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each check then runs at δ / checks
        With references (6 task × model pairs)  mean error 0.169 · detection rate 67% · false positives 0
          undetected mean error 0.188 · Spearman(error, Î) 0.47 (moderate, n = 6)

        Models (rank 1 = best)
        model  coherent    rank  correct     rank  mean Î  mean error
        alpha  2/2 (100%)     1  2/2 (100%)     1   0.000       0.000
        beta   1/2 (50%)    2.5  1/2 (50%)      2   0.250       0.125
        gamma  1/2 (50%)    2.5  0/2 (0%)       3   0.017       0.383
        Spearman(coherent share, correct share)  0.87 (n = 3, too few points to judge: fewer than 5)"
    `);
  });

  it('should write the JSON report with test files relative to the root', () => {
    // Act
    const report = readReport(join(whole.out, 'report.json'));
    // Assert
    expect(report.run).toEqual({ framework: 'vitest', shard: null });
    expect(report.records.map((r) => `${r.test.file} > ${r.test.name}`)).toMatchInlineSnapshot(`
      [
        "max.spec.ts > max > alpha: incoherence below 0.5",
        "max.spec.ts > max > beta: incoherence below 0.5",
        "max.spec.ts > max > gamma: incoherence below 0.5",
        "max.spec.ts > max > one function against the reference",
        "sum.spec.ts > sum > alpha: incoherence below 0.5",
        "sum.spec.ts > sum > beta: PAC detection",
        "sum.spec.ts > sum > beta: incoherence below 0.5",
        "sum.spec.ts > sum > gamma: incoherence below 0.5",
      ]
    `);
  });

  it('should merge --shard=1/2 and --shard=2/2 into the summary of the unsharded run', async () => {
    // Act
    const one = await vitest('shard-1', ['--shard=1/2']);
    const two = await vitest('shard-2', ['--shard=2/2']);
    const merged = join(work, 'merged.json');
    const merge = await crosscheck([
      'report',
      'merge',
      join(two.out, 'report.json'),
      join(one.out, 'report.json'),
      '--out',
      merged,
    ]);
    const rendered = await crosscheck(['report', merged, '--width', '120']);
    // Assert
    expect(merge.stderr).toBe('');
    const shards = [one, two].map((s) => readReport(join(s.out, 'report.json')));
    expect(shards.map((s) => [s.run.shard, s.records.length])).toEqual([
      [{ count: 2, indexes: [1] }, expect.any(Number)],
      [{ count: 2, indexes: [2] }, expect.any(Number)],
    ]);
    expect(shards.every((s) => s.records.length > 0)).toBe(true);
    const report = readReport(merged);
    expect(report.run).toEqual({ framework: 'vitest', shard: { count: 2, indexes: [1, 2] } });
    expect(withoutTimings(report)).toEqual(withoutTimings(readReport(join(whole.out, 'report.json'))));
    // The merged report is one the project writes too: it must follow the published schema.
    expect(reportSchemaProblems(report)).toBe('');
    const body = (text: string) => text.split('\n').slice(1).join('\n');
    expect(body(summaryText(rendered.stdout))).toBe(body(summaryText(whole.result.stdout)));
    expect(summaryText(rendered.stdout).split('\n')[0]).toBe(
      '   crosscheck  8 checks · 2 failed · 2 tasks (7 task × model pairs) · 2 pairs flagged (vitest, shards 1, 2 of 2)',
    );
  });

  it('should write an HTML report that renders its plots in headless Chromium', async (context) => {
    // Act
    // Tall enough for the class bars, below the models table, its legend and the two scatter plots.
    const shot = await chromiumScreenshot(join(whole.out, 'report.html'), context, { height: 2400 });
    // Assert
    if (!shot) return;
    expect(shot.errors).toEqual([]);
    expect(shot.nonWhite, 'not a blank page').toBeGreaterThan(20_000);
    expect(shot.refLine, 'dashed reference lines (I = 2E, same rank)').toBeGreaterThan(150);
    expect(shot.points, 'plotted points and class bars').toBeGreaterThan(2_000);
  });
});
