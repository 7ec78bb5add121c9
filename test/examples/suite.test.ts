import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type HostRun, PLAIN_ENV, spawnNpmScript } from '../helpers/spawn-host.ts';
import { readReport, summaryText } from '../reporter/helpers.ts';

/**
 * `npm run demo` ends with the example suite (examples/suite) under the default reporter and the
 * crosscheck one. Run it as the demo does, through the npm script, so the demo cannot rot: every
 * check passes, and the summary shows flagged tasks, a coherent-but-wrong pool and the ranking.
 */

const root = resolve(import.meta.dirname, '..', '..');
const out = join(root, 'examples', 'suite', '.crosscheck');

let run: HostRun;

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  run = await spawnNpmScript('demo:suite', { env: PLAIN_ENV });
});

describe('the example suite', () => {
  it('should be what npm run demo runs after the demo script', () => {
    // Arrange
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Assert
    expect(scripts.demo).toBe('node --import tsx examples/demo.ts && npm run demo:suite');
    expect(scripts['demo:suite']).toBe('vitest run --root examples/suite');
  });

  it('should pass every check', () => {
    // Assert
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('Test Files  3 passed (3)');
    expect(run.stdout).toContain('Tests  11 passed (11)');
  });

  it('should print the crosscheck summary after the default reporter', () => {
    // Assert
    expect(run.stdout.indexOf('Tests  11 passed')).toBeLessThan(run.stdout.indexOf(' crosscheck '));
    expect(summaryText(run.stdout)).toMatchInlineSnapshot(`
      "   crosscheck  11 checks · 0 failed · 3 tasks (6 task × model pairs) · 2 pairs flagged (vitest)

              task       model    check                        m    n  Î ± ε          error          PAC         classes
        ✓     median     model-a  toHaveIncoherenceBelow       3  300  0.000 ± 0.047  0.000 ± 0.047  —           3
        ✓     median     model-a  toBeCoherentAcross           3   59  —              —              coherent    —
        ✓  ⚑  median     model-b  .not.toHaveIncoherenceBelow  3  300  0.491 ± 0.081  0.277 ± 0.081  —           1+1+1
        ✓  ⚑  median     model-b  .not.toBeCoherentAcross      3    1  —              —              incoherent  —
        ✓     median     model-a  toAgreeWithReference         1  300  —              0.000 ± 0.047  —           1
        ✓     toRoman    model-a  toBeCoherentAcross           3   59  —              —              coherent    —
        ✓  ⚑  toRoman    model-b  .not.toHaveIncoherenceBelow  3  300  0.247 ± 0.081  ≥ 0.083        —           2+1
        ✓  ⚑  toRoman    model-b  .not.toBeCoherentAcross      3    3  —              —              incoherent  —
        ✓     wordCount  model-a  toHaveIncoherenceBelow       3  300  0.000 ± 0.047  0.000 ± 0.047  —           3
        ✓     wordCount  model-b  .not.toAgreeWithReference    1  300  —              0.667 ± 0.081  —           1
        ✓     wordCount  model-b  toHaveIncoherenceBelow       3  300  0.000 ± 0.047  0.667 ± 0.081  —           3
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates disagree) · m candidates · n inputs · Î ± ε incoherence ± half-width
          · PAC detection verdict · classes sizes of groups of identical candidates

        Suite  mean Î 0.148 over 5 task points · mean error lower bound 0.058 over 5 checks
          isolation os (bubblewrap sandbox)
          6 statistical claims at confidence 0.950 each; at least one may be false with probability up to 0.300 (union bound,
          Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each check then runs at δ / checks
        With references (4 task × model pairs)  mean error 0.236 · detection rate 50% · false positives 0
          undetected mean error 0.222 · Spearman(error, Î) 0.27 (n = 4, too few points to judge: fewer than 5)

        Models (rank 1 = best)
        model    coherent    rank  correct     rank  mean Î  mean error
        model-a  3/3 (100%)     1  2/2 (100%)     1   0.000       0.000
        model-b  1/3 (33%)      2  0/2 (0%)       2   0.246       0.472
        Spearman(coherent share, correct share)  1.00 (n = 2, too few points to judge: fewer than 5)"
    `);
  });

  it('should write the JSON and HTML reports where git ignores them, and say where', () => {
    // Assert
    expect(run.stdout).toContain(
      '  Reports  examples/suite/.crosscheck/report.json · examples/suite/.crosscheck/report.html\n',
    );
    const report = readReport(join(out, 'report.json'));
    expect(report.run).toEqual({ framework: 'vitest', shard: null });
    expect(report.records).toHaveLength(11);
    expect(report.records.every((r) => r.verdict === 'pass')).toBe(true);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
    expect(existsSync(join(out, 'report.md'))).toBe(false);
  });
});
