import { describe, expect, it } from 'vitest';
import {
  createReport,
  parseRecord,
  renderMarkdown,
  renderTerminal,
  summarize,
} from '../../src/report/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { triangulate, triangulationRecord } from '../../src/triangulate/index.ts';
import { js } from './helpers.ts';

// Records of triangulation checks reach the summary: selection and abstention columns, and
// N1..N5 with Fig. 8's metrics per model where the records know the ground truth.
const task = defineTask({ name: 'inc', signature: '(x: int) -> int' });
const f = js({ ok: (x: number) => x + 1, bad: (x: number) => x + 2 });
const q = js({ inv: (y: number) => y - 1 });
const ctx = (name: string, pass: boolean) => ({
  test: { file: 'tri.test.ts', name, matcher: 'toBeTriangulatedBy', negated: false },
  pass,
  tags: [{ model: 'm1' }],
});

describe('triangulation records in the summary', () => {
  it('counts selections, abstentions and N1..N5 per model; renders them in the terminal and Markdown', async () => {
    const inputs = [[1], [2], [3]];
    const sel = await triangulate(task, [f.bad!, f.ok!], {
      transformation: 'fwd-inv',
      witnesses: [q.inv!],
      inputs,
    });
    const abs = await triangulate(task, [f.bad!], { transformation: 'fwd-inv', witnesses: [q.inv!], inputs });
    const records = [
      triangulationRecord(sel, ctx('selects', true), { correct: [false, true] }), // N1
      triangulationRecord(abs, ctx('abstains, solvable', false), { correct: [true] }), // N3 (pretend the pool was solvable)
      triangulationRecord(abs, ctx('abstains, unsolvable', false), { correct: [false] }), // N5
    ].map((r) => parseRecord(JSON.parse(JSON.stringify(r))));
    const s = summarize(records);
    expect(s.suite.triangulation).toMatchObject({ checks: 3, selected: 1, abstained: 2 });
    const m = s.suite.triangulation?.models[0];
    expect(m?.counts).toEqual({ n1: 1, n2: 0, n3: 1, n4: 0, n5: 1 });
    expect(m?.metrics?.reliableAccuracy).toBe(1);
    expect(s.rows.map((r) => r.triangulation?.outcome)).toEqual(['abstained', 'abstained', 'selected']);
    const report = createReport(records, { framework: 'vitest', shard: null });
    expect(renderTerminal(report, { color: false, width: 120 })).toContain('N₁…N₅ 1/0/1/0/1');
    expect(renderMarkdown(report)).toContain('Triangulation (3 checks: 1 selected, 2 abstained)');
    // Each row says what it found: the selected program with its witnesses, or the abstention.
    expect(s.rows.find((r) => r.test === 'selects')?.triangulation?.witnesses).toEqual(['inv']);
    const md = renderMarkdown(report);
    expect(md).toContain('| selected ok (support 1; witness inv) |');
    expect(md.match(/abstained: no program confirmed/g)).toHaveLength(2);
    expect(md).toContain('<details open><summary>Legend</summary>');
    expect(renderTerminal(report, { color: false, width: 200 })).toContain(
      'selected ok (support 1; witness inv)',
    );
  });
});
