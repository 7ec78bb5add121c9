import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BenchOptions,
  type BenchResult,
  mergeBenchReports,
  parseShard,
  renderBenchTable,
  runBench,
  shardPairs,
  summaryLine,
} from '../../src/bench/index.ts';
import { parseBenchArgs } from '../../src/cli/bench.ts';
import { reportCommand } from '../../src/cli/report.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { type CrosscheckReport, createReport, mergeReports, renderJson } from '../../src/report/index.ts';
import { reportSchemaProblems } from '../helpers/report-schema.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

/**
 * Issue 18 item 3: `crosscheck bench --shard i/k` splits the (model, task) pairs, and
 * `crosscheck report merge` joins the shard reports into the report of the unsharded run.
 */

const thrown = (f: () => unknown): Error & { code?: string } => {
  try {
    f();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
};

describe('--shard i/k', () => {
  it('should parse i/k and refuse anything else with a typed error saying what to write', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 3 / 3 ')).toEqual({ index: 3, count: 3 });
    for (const bad of ['0/3', '4/3', 'x', '1/0', '', '1/3/3', '-1/3', '1.5/3', '2', '1/100000']) {
      const error = thrown(() => parseShard(bad));
      expect(isCrosscheckError(error), bad).toBe(true);
      expect(error.code).toBe('INVALID_OPTION');
      expect(error.message).toContain('crosscheck bench --shard');
      expect(error.message).toContain('Write --shard i/k with 1 ≤ i ≤ k');
    }
    expect(thrown(() => parseShard('4/3')).message).toContain('shard 4 of 3 does not exist');
  });

  it('should refuse a bad --shard from the command line before any work', async () => {
    const data = mkdtempSync(join(tmpdir(), 'crosscheck-shard-args-'));
    writeFileSync(join(data, 'tasks.jsonl'), '');
    const options = parseBenchArgs(['--data', data, '--shard', '4/3']) as BenchOptions;
    expect(options.shard).toBe('4/3');
    await expect(runBench(options)).rejects.toThrow(/--shard must have 1 ≤ i ≤ k .*Write --shard i\/k/);
    rmSync(data, { recursive: true, force: true });
  });

  it('should put every pair in exactly one shard, whatever the order of models and tasks', () => {
    const models = ['m3', 'm1', 'm2', 'm16'];
    const tasks = Array.from({ length: 7 }, (_, i) => `T/${(i * 5) % 7}`);
    const all = shardPairs(models, tasks, null).map((p) => `${p.model}@${p.task}`);
    expect(all).toHaveLength(28);
    for (const k of [1, 2, 3, 8, 28, 40]) {
      const shards = Array.from({ length: k }, (_, i) =>
        shardPairs(models, tasks, { index: i + 1, count: k }).map((p) => `${p.model}@${p.task}`),
      );
      expect(shards.flat().sort(), `k = ${k}`).toEqual([...all].sort());
      const sizes = shards.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes), `k = ${k}: balanced`).toBeLessThanOrEqual(1);
      // Reordered inputs (another file order, another --models order) give the same shards.
      const again = Array.from({ length: k }, (_, i) =>
        shardPairs([...models].reverse(), [...tasks].reverse(), { index: i + 1, count: k }).map(
          (p) => `${p.model}@${p.task}`,
        ),
      );
      expect(again).toEqual(shards);
    }
  });
});

const haveData = requireData();
if (!haveData) {
  console.warn(
    `shard.test.ts: merge test skipped, no HumanEval data at ${humanevalDir()} (under CI this fails).`,
  );
}

describe.runIf(haveData)('crosscheck report merge of bench shards', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-shard-'));
  // A small subset, read from the shared data at run time: 4 tasks × 2 models, 8 pairs in 3 shards.
  const options = {
    models: ['gpt_4o', 'llama_3_1_8b_instruct'],
    tasks: ['HumanEval/0', 'HumanEval/24', 'HumanEval/11', 'HumanEval/77'],
    m: 5,
    n: 120,
    seed: 13,
    jobs: 2,
  } satisfies Omit<BenchOptions, 'data'>;
  let whole: BenchResult;
  const files: string[] = [];
  const save = (name: string, report: CrosscheckReport): string => {
    const path = join(dir, name);
    writeFileSync(path, renderJson(report));
    return path;
  };
  const read = (path: string): CrosscheckReport => JSON.parse(readFileSync(path, 'utf8'));
  /** Wall-clock timings are measured, never reproduced: every other field must be. */
  const untimed = (report: CrosscheckReport) => ({
    ...report,
    records: report.records.map((r) => ({ ...r, timings: { durationMs: 0 } })),
    summary: { ...report.summary, rows: report.summary.rows.map((r) => ({ ...r, durationMs: 0 })) },
  });
  const merge = (args: readonly string[]) => {
    const out: string[] = [];
    const code = reportCommand(['merge', ...args], {
      stdout: (t) => out.push(t),
      readFile: (p) => readFileSync(p, 'utf8'),
    });
    return { code, out: out.join('') };
  };

  beforeAll(async () => {
    whole = await runBench({ ...options, data: humanevalDir(), out: join(dir, 'whole.json') });
    // The shards see the models in another order, as another machine's listing might give them.
    for (const i of [1, 2, 3]) {
      const shard = await runBench({
        ...options,
        models: [...options.models].reverse(),
        data: humanevalDir(),
        shard: `${i}/3`,
        out: join(dir, `shard-${i}.json`),
      });
      files.push(save(`shard-${i}.report.json`, shard.report));
    }
  }, 900_000);

  afterAll(async () => {
    await closePythonWorkers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should split the 8 pairs into shards of 2, 3 and 3, each its own', () => {
    const pairs = files.map(
      (f) => (read(f).bench as { pairs: Array<{ model: string; task: string }> }).pairs,
    );
    expect(pairs.map((p) => p.length)).toEqual([2, 3, 3]);
    expect(new Set(pairs.flat().map((p) => `${p.model}@${p.task}`)).size).toBe(8);
    expect(files.map((f) => read(f).run.shard)).toEqual([1, 2, 3].map((i) => ({ count: 3, indexes: [i] })));
  });

  it('should merge shards 1/3, 2/3 and 3/3 into exactly the unsharded report, figures included', () => {
    // Act
    const out = join(dir, 'merged.json');
    const { code, out: text } = merge([
      files[2] as string,
      files[0] as string,
      files[1] as string,
      '--out',
      out,
    ]);
    // Assert
    expect(code, text).toBe(0);
    expect(text).toContain('merged 3 bench reports (8 pairs');
    const merged = read(out);
    const unsharded = JSON.parse(renderJson(whole.report)) as CrosscheckReport;
    expect(untimed(merged)).toEqual(untimed(unsharded));
    // The per-model figures are the run's own (table 4), recomputed from the joined pairs.
    const figures = (merged.bench as { figures: { models: unknown; rankingAgreement: unknown } }).figures;
    expect(figures.models).toEqual(JSON.parse(JSON.stringify(whole.models)));
    expect(figures.rankingAgreement).toEqual(whole.rankingAgreement);
    // The ranking's intervals too: the bootstrap reads the joined per-candidate figures, seeded.
    const ranking = (merged.bench as { ranking: unknown }).ranking;
    expect(whole.ranking).not.toBeNull();
    expect(ranking).toEqual(JSON.parse(JSON.stringify(whole.ranking)));
    expect(merged.records).toHaveLength(whole.report.records.length);
    expect((merged.bench as { pairs: unknown[] }).pairs).toHaveLength(8);
    expect(merged.run).toEqual({ framework: 'crosscheck bench', shard: null });
    // Merged shards are a report the project writes: they must follow the published schema.
    expect(reportSchemaProblems(merged)).toBe('');
  });

  it('should print the ranking with its intervals in the bench table and its JSON line', () => {
    // Act
    const table = renderBenchTable(whole);
    const line = JSON.parse(summaryLine(whole));
    // Assert
    expect(table).toContain('ranked by mean incoherence (lower is better):');
    expect(table).toMatch(/rank \[interval\] +group +model/);
    expect(table).toContain('seed stability only says how often new inputs');
    expect(line.ranking.rankings.incoherence.models[0]).toMatchObject({
      rank: 1,
      rankLow: expect.any(Number),
      rankHigh: expect.any(Number),
    });
  });

  it('should refuse a shard whose per-candidate figures are not shares', () => {
    const shard = read(files[0] as string) as CrosscheckReport & {
      bench: { pairs: Array<Record<string, unknown>> };
    };
    const pair = shard.bench.pairs.find((p) => p.status === 'ok') as { candidates: { error: unknown[] } };
    pair.candidates.error[0] = 7;
    expect(thrown(() => mergeBenchReports([shard], ['r0'])).message).toMatch(
      /pairs\[\d+\] must be .*candidates/,
    );
  });

  it('should merge what is there and say which shard is missing', () => {
    const out = join(dir, 'partial.json');
    const { code, out: text } = merge([files[0] as string, files[2] as string, '--out', out]);
    expect(code).toBe(1);
    expect(text).toContain('INCOMPLETE: shard 2 missing');
    const partial = read(out);
    expect(partial.run.shard).toEqual({ count: 3, indexes: [1, 3] });
    expect((partial.bench as { complete: boolean }).complete).toBe(false);
    expect(reportSchemaProblems(partial)).toBe('');
  });

  it('should refuse the same shard twice, shards of other runs, and damaged or mixed reports', () => {
    const shard1 = read(files[0] as string);
    const shard2 = read(files[1] as string);
    const message = (reports: unknown[]) =>
      thrown(() =>
        mergeBenchReports(
          reports,
          reports.map((_, i) => `r${i}`),
        ),
      );
    const withIdentity = (report: CrosscheckReport, change: (identity: Record<string, unknown>) => void) => {
      const copy = JSON.parse(JSON.stringify(report)) as CrosscheckReport & {
        bench: { identity: Record<string, unknown> };
      };
      change(copy.bench.identity);
      return copy;
    };
    expect(message([shard1, shard1]).message).toContain('shard 1/3 is in both r0 and r1');
    const seed = message([
      shard1,
      withIdentity(shard2, (id) => ((id.options as { seed: number }).seed = 14)),
    ]);
    expect(seed.code).toBe('INVALID_INPUT');
    expect(seed.message).toContain('shards of different runs (--seed: 13 vs 14)');
    expect(message([shard1, withIdentity(shard2, (id) => (id.dataset = 'f'.repeat(64)))]).message).toContain(
      'the data (tasks or candidates) differ',
    );
    expect(
      message([shard1, withIdentity(shard2, (id) => (id.options as { n: number }).n++)]).message,
    ).toContain('--n: 120 vs 121');
    const otherSplit = { ...shard2, run: { ...shard2.run, shard: { count: 4, indexes: [2] } } };
    expect(message([shard1, otherSplit]).message).toMatch(
      /is a shard of 4 but r0 is a shard of 3|not in this shard/,
    );
    const stray = JSON.parse(JSON.stringify(shard2)) as { bench: { pairs: Array<{ task: string }> } };
    (stray.bench.pairs[0] as { task: string }).task = 'HumanEval/0';
    expect(message([shard1, stray]).message).toContain('not in this shard');
    const testReport = createReport([], { framework: 'vitest', shard: { count: 3, indexes: [2] } });
    expect(message([shard1, testReport]).message).toContain('is not a crosscheck bench report');
    // The test-reporter merge refuses bench reports rather than drop their pairs and figures.
    expect(thrown(() => mergeReports([shard1, shard2])).message).toContain('is a crosscheck bench report');
  });
});
