import { describe, expect, it } from 'vitest';
import {
  type CrosscheckRecord,
  createReport,
  parseRecord,
  renderHtml,
  renderMarkdown,
  renderTerminal,
  serializeRecord,
  summarize,
} from '../../src/report/index.ts';
import { coherence, detection } from './records.ts';

/** Issue 14: unknown cells and inconclusive checks show in every summary; pools are not mixed. */

const hanging = (): CrosscheckRecord => ({
  ...coherence({ task: 'sum', model: 'beta', incoherence: 0.3, error: 0.2 }),
  pool: 'p-beta',
  unknown: {
    cells: 31,
    referenceCells: 0,
    policy: 'disagree',
    perCandidate: [{ label: 'hangs', cells: 31 }],
  },
});

const silent = (): CrosscheckRecord => ({
  ...detection({ task: 'max', model: 'beta', verdict: 'inconclusive' }),
  pool: 'p-max',
  unknown: { cells: 0, referenceCells: 0, policy: 'disagree', perCandidate: [] },
  inconclusive: 'only 0 of 2 candidates returned a value, so agreement says nothing: f#0 (EntryNotFound: …)',
});

describe('unknown cells in the summary', () => {
  it('should count unknown cells per check and per candidate, and inconclusive checks', () => {
    const s = summarize([hanging(), silent()]);
    expect(s.suite).toMatchObject({ unknownCells: 31, checksWithUnknown: 1, inconclusiveChecks: 1 });
    expect(s.rows.map((r) => [r.unknownCells, r.unknownByCandidate, r.inconclusive !== null])).toEqual([
      [31, [{ label: 'hangs', cells: 31 }], false],
      [0, [], true],
    ]);
  });

  it('should show them in the terminal, Markdown and HTML', () => {
    const report = createReport([hanging(), silent()], { framework: 'vitest', shard: null });
    const terminal = renderTerminal(report, { color: false, width: 160 });
    expect(terminal).toContain('unknown');
    expect(terminal).toContain('31 (hangs 31)');
    expect(terminal).toContain('0, inconclusive');
    expect(terminal).toContain('31 unknown cells (timeouts, crashes) in 1 checks; 1 inconclusive');
    expect(renderMarkdown(report)).toContain('| 31 (hangs 31) |');
    // The HTML table shows them in each row's details (its data is JSON read by the page).
    expect(renderHtml(report)).toContain('"u":"31 (hangs 31)"');
  });

  it('should read records written before the fields existed as saying nothing', () => {
    const old = JSON.parse(serializeRecord(hanging()));
    delete old.pool;
    delete old.unknown;
    delete old.inconclusive;
    expect(parseRecord(JSON.stringify(old))).toMatchObject({ pool: null, unknown: null, inconclusive: null });
  });
});

describe('pools in the reference figures', () => {
  it('should not join the error of one pool with the disagreement of another of the same task', () => {
    const flagged = { ...detection({ task: 'sum', verdict: 'incoherent' }), pool: 'pool-of-4' };
    const one = { ...coherence({ task: 'sum', incoherence: 0, error: 0 }), pool: 'first-alone' };
    // The single-candidate check has no disagreement of its own to speak of.
    const alone = { ...one, data: { ...one.data, incoherence: null } };
    expect(summarize([flagged, alone]).suite.references).toBeNull();
    // Records without a pool (older ones) still group by model and task.
    const legacy = summarize([
      { ...flagged, pool: null },
      { ...alone, pool: null },
    ]);
    expect(legacy.suite.references).toMatchObject({ falsePositives: 1 });
  });
});
