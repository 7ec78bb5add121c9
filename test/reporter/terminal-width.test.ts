import { describe, expect, it } from 'vitest';
import { createReport, renderTerminal } from '../../src/report/index.ts';
import { PLAIN_ENV, spawnVitest } from '../helpers/spawn-host.ts';
import { coherence, detection } from '../report/records.ts';
import { fixtures } from './helpers.ts';

/**
 * The terminal summary keeps what tells its rows apart (task, model, check, pool) at every
 * width: a table where it fits, a record per row where it does not; the rest drops or wraps.
 */

// Two pools of one task, model and check (different candidates), and a second check of the first.
const TASK = 'words';
const MODEL = 'gpt-4o';
const report = () =>
  createReport(
    [
      { ...coherence({ task: TASK, model: MODEL, incoherence: 0, error: 0 }), pool: '1f2e3d4c5b6a7988' },
      {
        ...coherence({
          task: TASK,
          model: MODEL,
          incoherence: 0.3,
          error: 0.2,
          classes: [0.5, 0.5],
          pass: false,
        }),
        pool: '9a8b7c6d5e4f3021',
      },
      { ...detection({ task: TASK, model: MODEL, verdict: 'coherent' }), pool: '1f2e3d4c5b6a7988' },
    ],
    { framework: 'vitest', shard: null },
  );
const at = (width: number) => renderTerminal(report(), { color: false, width });
const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('terminal summary width', () => {
  it('should stack the rows at 60 columns, keeping task, model, check and pool whole', () => {
    const text = at(60);
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text).toMatchInlineSnapshot(`
      "
         crosscheck  3 checks · 1 failed · 1 task
          1 flagged (vitest)

            task · model · check · pool
        ✓   words · gpt-4o · toHaveIncoherenceBelow · 1f2e3d4c
              m 3 · n 100 · Î ± ε 0.000 ± 0.100
              error 0.000 ± 0.100 · PAC — · classes 3 · time 12ms
        ✗ ⚑ words · gpt-4o · toHaveIncoherenceBelow · 9a8b7c6d
              m 3 · n 100 · Î ± ε 0.300 ± 0.100
              error 0.200 ± 0.100 · PAC — · classes 2+2
              time 12ms
        ✓   words · gpt-4o · toBeCoherentAcross · 1f2e3d4c
              m 2 · n 59 · Î ± ε — · error — · PAC coherent
              classes — · time 3ms
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates disagree)
          · m candidates · n inputs · Î ± ε incoherence ±
          half-width · PAC detection verdict · classes sizes of
          groups of identical candidates

        Suite  mean Î 0.150 over 1 task point
          mean error lower bound 0.050 over 2 checks
          isolation os (bubblewrap sandbox)
          2 statistical claims at confidence 0.950 each; at least
          one may be false with probability up to 0.100 (union
          bound, Σδ). For a suite-wide δ, set configureSuite({
          delta, checks }) once: each check then runs at δ /
          checks
        With references (2 tasks)  mean error 0.100
          detection rate 100% · false positives 0
          undetected mean error 0.000
          Spearman(error, Î) 1.00 (n = 2, too few points to judge:
          fewer than 5)

        Models (rank 1 = best)
        model   coherent  rank  correct   rank  mean Î  mean error
        gpt-4o  0/1 (0%)     1  0/1 (0%)     1   0.150       0.100
        Spearman(coherent share, correct share)
          — (undefined, n = 1)
      "
    `);
  });

  it('should drop optional figures at 100 columns, never the identifying columns', () => {
    const text = at(100);
    expect(widest(text)).toBeLessThanOrEqual(100);
    expect(text).toMatchInlineSnapshot(`
      "
         crosscheck  3 checks · 1 failed · 1 task · 1 flagged (vitest)

              task   model   check                   pool      m    n  Î ± ε          error
        ✓     words  gpt-4o  toHaveIncoherenceBelow  1f2e3d4c  3  100  0.000 ± 0.100  0.000 ± 0.100
        ✗  ⚑  words  gpt-4o  toHaveIncoherenceBelow  9a8b7c6d  3  100  0.300 ± 0.100  0.200 ± 0.100
        ✓     words  gpt-4o  toBeCoherentAcross      1f2e3d4c  2   59  —              —
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates disagree) · m candidates · n inputs · Î ± ε
          incoherence ± half-width · PAC detection verdict · classes sizes of groups of identical
          candidates

        Suite  mean Î 0.150 over 1 task point · mean error lower bound 0.050 over 2 checks
          isolation os (bubblewrap sandbox)
          2 statistical claims at confidence 0.950 each; at least one may be false with probability up to
          0.100 (union bound, Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each
          check then runs at δ / checks
        With references (2 tasks)  mean error 0.100 · detection rate 100% · false positives 0
          undetected mean error 0.000
          Spearman(error, Î) 1.00 (n = 2, too few points to judge: fewer than 5)

        Models (rank 1 = best)
        model   coherent  rank  correct   rank  mean Î  mean error
        gpt-4o  0/1 (0%)     1  0/1 (0%)     1   0.150       0.100
        Spearman(coherent share, correct share)  — (undefined, n = 1)
      "
    `);
  });

  it('should show every column at 200 columns', () => {
    const text = at(200);
    expect(widest(text)).toBeLessThanOrEqual(200);
    expect(text).toMatchInlineSnapshot(`
      "
         crosscheck  3 checks · 1 failed · 1 task · 1 flagged (vitest)

              task   model   check                   pool      m    n  Î ± ε          error          PAC       classes  time
        ✓     words  gpt-4o  toHaveIncoherenceBelow  1f2e3d4c  3  100  0.000 ± 0.100  0.000 ± 0.100  —         3        12ms
        ✗  ⚑  words  gpt-4o  toHaveIncoherenceBelow  9a8b7c6d  3  100  0.300 ± 0.100  0.200 ± 0.100  —         2+2      12ms
        ✓     words  gpt-4o  toBeCoherentAcross      1f2e3d4c  2   59  —              —              coherent  —        3ms
          key: ✓ passed  ✗ failed  ⚑ flagged (candidates disagree) · m candidates · n inputs · Î ± ε incoherence ± half-width · PAC detection verdict · classes sizes of groups of identical candidates

        Suite  mean Î 0.150 over 1 task point · mean error lower bound 0.050 over 2 checks · isolation os (bubblewrap sandbox)
          2 statistical claims at confidence 0.950 each; at least one may be false with probability up to 0.100 (union bound, Σδ). For a suite-wide δ, set configureSuite({ delta, checks }) once: each check
          then runs at δ / checks
        With references (2 tasks)  mean error 0.100 · detection rate 100% · false positives 0 · undetected mean error 0.000 · Spearman(error, Î) 1.00 (n = 2, too few points to judge: fewer than 5)

        Models (rank 1 = best)
        model   coherent  rank  correct   rank  mean Î  mean error
        gpt-4o  0/1 (0%)     1  0/1 (0%)     1   0.150       0.100
        Spearman(coherent share, correct share)  — (undefined, n = 1)
      "
    `);
  });
});

describe('terminal summary in a CI log (CI=true, stdout not a TTY)', () => {
  // A real Vitest run of test/fixtures/report-width, its stdout a pipe.
  const run = (columns: string) =>
    spawnVitest(`${fixtures}/report-width`, { env: { ...PLAIN_ENV, CI: 'true', COLUMNS: columns } });
  const summary = (stdout: string) => stdout.slice(stdout.indexOf('   crosscheck  '));

  const TASK = 'count-the-distinct-words-of-a-sentence';
  const MODEL = 'a-model-with-a-long-name-v2';

  it('should use the default width and keep every identifying column when COLUMNS is unset', async () => {
    const { exitCode, all, stdout } = await run('');
    expect(exitCode, all).toBe(0);
    const text = summary(stdout);
    expect(widest(text)).toBeLessThanOrEqual(120);
    const rows = text.split('\n').filter((l) => l.includes(TASK));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toContain(MODEL);
    expect(rows.filter((r) => r.includes('toHaveIncoherenceBelow'))).toHaveLength(2);
    expect(rows.filter((r) => r.includes('toBeCoherentAcross'))).toHaveLength(1);
    // The two pools of one check are told apart by their hashes.
    const pools = rows
      .filter((r) => r.includes('toHaveIncoherenceBelow'))
      .map((r) => r.match(/\b[0-9a-f]{8}\b/)?.[0]);
    expect(pools.every((p) => p !== undefined) && new Set(pools).size, text).toBe(2);
  });

  it('should honour COLUMNS', async () => {
    const { exitCode, all, stdout } = await run('60');
    expect(exitCode, all).toBe(0);
    const text = summary(stdout);
    expect(widest(text), text).toBeLessThanOrEqual(60);
    expect(text.split('\n').filter((l) => l.includes(TASK))).toHaveLength(3);
    expect(text.match(/toHaveIncoherenceBelow/g)).toHaveLength(2);
    expect(text).toContain('toBeCoherentAcross');
  });
});
