import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportSchemaProblems } from '../helpers/report-schema.ts';
import { installPackage, PLAIN_ENV, spawnJest } from '../helpers/spawn-host.ts';
import { crosscheck, fixtures, readReport, summaryText, withoutTimings } from './helpers.ts';

/**
 * Real Jest runs of test/fixtures/report-jest (the suite of report-vitest, as native ESM) with the
 * crosscheck reporter beside the default one: whole, and as two shards merged by the CLI.
 */

const work = mkdtempSync(join(tmpdir(), 'crosscheck-jest-reporter-'));
const project = join(fixtures, 'report-jest');

const jest = async (name: string, args: readonly string[] = [], env: Record<string, string> = {}) => {
  const out = join(work, name);
  const result = await spawnJest(join(project, 'jest.config.mjs'), {
    // A fresh cache has no timings, so Jest does not fall back to running in band.
    args: ['--cacheDirectory', join(work, `${name}-cache`), '--maxWorkers=2', ...args],
    env: { REPORT_OUT: out, ...PLAIN_ENV, ...env },
  });
  return { result, pid: result.pid, out };
};

let whole: Awaited<ReturnType<typeof jest>>;
let recordsParent: string;

beforeAll(async () => {
  await installPackage(project, {
    '.': 'src/index.ts',
    './inputs': 'src/inputs/index.ts',
    './jest': 'matchers/jest.ts',
    './jest-reporter': 'reporter/jest.ts',
  });
  recordsParent = mkdtempSync(join(work, 'records-'));
  whole = await jest('whole', [], { RECORDS_PARENT: recordsParent });
});

describe('Jest reporter', () => {
  it('should print the suite summary the Vitest reporter prints for the same suite', () => {
    // Assert
    expect(whole.result.exitCode, whole.result.all).toBe(1);
    expect(whole.result.stderr).toContain('Tests:       2 failed, 6 passed, 8 total');
    expect(summaryText(whole.result.stdout)).toMatchInlineSnapshot(`
      "   crosscheck  8 checks · 2 failed · 2 tasks (7 task × model pairs) · 2 pairs flagged (jest)

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

  it('should route the records of every worker through the directory it exports', () => {
    // Assert: one JSON-lines file per worker process, none from Jest's own process.
    const [dir] = readdirSync(recordsParent);
    const files = readdirSync(join(recordsParent, dir!));
    expect(files).toHaveLength(2);
    expect(files).not.toContain(`records-${whole.pid}.jsonl`);
    const report = readReport(join(whole.out, 'report.json'));
    expect(report.run).toEqual({ framework: 'jest', shard: null });
    expect(report.records).toHaveLength(8);
  });

  it('should write a report.json that docs/report.schema.json accepts', () => {
    // Act
    const report = readReport(join(whole.out, 'report.json'));
    // Assert
    expect(report.run.framework).toBe('jest');
    expect(reportSchemaProblems(report)).toBe('');
  });

  it('should merge --shard=1/2 and --shard=2/2 into the summary of the unsharded run', async () => {
    // Act
    const one = await jest('shard-1', ['--shard=1/2']);
    const two = await jest('shard-2', ['--shard=2/2']);
    const merged = join(work, 'merged.json');
    const merge = await crosscheck([
      'report',
      'merge',
      join(one.out, 'report.json'),
      join(two.out, 'report.json'),
      '--out',
      merged,
    ]);
    const rendered = await crosscheck(['report', merged, '--width', '120']);
    // Assert
    expect(merge.stderr).toBe('');
    const shards = [one, two].map((s) => readReport(join(s.out, 'report.json')));
    expect(shards.map((s) => s.run.shard)).toEqual([
      { count: 2, indexes: [1] },
      { count: 2, indexes: [2] },
    ]);
    expect(shards.every((s) => s.records.length > 0)).toBe(true);
    const report = readReport(merged);
    expect(report.run).toEqual({ framework: 'jest', shard: { count: 2, indexes: [1, 2] } });
    expect(withoutTimings(report)).toEqual(withoutTimings(readReport(join(whole.out, 'report.json'))));
    expect(reportSchemaProblems(report)).toBe('');
    const body = (text: string) => text.split('\n').slice(1).join('\n');
    expect(body(summaryText(rendered.stdout))).toBe(body(summaryText(whole.result.stdout)));
  });
});
