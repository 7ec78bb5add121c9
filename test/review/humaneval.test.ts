import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadTasks } from '../../src/bench/index.ts';
import { fromSources } from '../../src/candidates/index.ts';
import { closeSandboxPools } from '../../src/exec/index.ts';
import { startScriptedLlmServer } from '../../src/llm/testing/index.ts';
import { benchReview, type ReviewBenchResult, renderReviewBench, review } from '../../src/review/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { crosscheck } from '../reporter/helpers.ts';
import { client, tempCache } from './helpers.ts';
import {
  alwaysCorrectJudge,
  coinJudge,
  FIXTURE_MODEL,
  FIXTURES,
  fixtureDataset,
  hasData,
  type Judge,
  oracleJudge,
  swappedJudge,
  type TaskTruth,
  taskTruths,
} from './humaneval-script.ts';

/**
 * Grounded review on real HumanEval programs (llama_3_1_8b_instruct samples with known truth),
 * the scripted generator serving each task's seed inputs, and judges defined here, all through
 * the scripted loopback server. Skipped without the shared data; failing under CI without it.
 */
const run = hasData || process.env.CI ? describe : describe.skip;

const ids = [...new Set([...Object.keys(FIXTURES.correct), ...Object.keys(FIXTURES.wrong)])];

run('grounded review on HumanEval fixtures', () => {
  let truths: Map<string, TaskTruth>;
  let dir: string;
  beforeAll(async () => {
    truths = await taskTruths(ids);
    dir = mkdtempSync(join(tmpdir(), 'crosscheck-review-bench-'));
    fixtureDataset(dir);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await closeSandboxPools();
  });

  const bench = async (judge: Judge, runs = 1): Promise<ReviewBenchResult> => {
    const { startScriptedLlmServer: start } = await import('../../src/llm/testing/index.ts');
    const server = await start({
      rules: (await import('./humaneval-script.ts')).humanevalRules(truths, judge),
    });
    const cache = tempCache();
    try {
      return await benchReview({
        data: dir,
        models: [FIXTURE_MODEL],
        runs,
        review: { llm: client(server.url, cache.dir) },
      });
    } finally {
      await server.close();
      cache.cleanup();
    }
  };

  /** The confusion matrix of one rerun, counted by hand from the items. */
  const handCount = (r: ReviewBenchResult, run: number) => {
    const c = { tp: 0, fp: 0, tn: 0, fn: 0 };
    for (const i of r.items) {
      const accepted = i.runs[run]?.verdict === 'accept';
      if (i.truth && accepted) c.tp++;
      else if (!i.truth && accepted) c.fp++;
      else if (!i.truth) c.tn++;
      else c.fn++;
    }
    return c;
  };

  it('should accept the correct and reject the wrong fixtures under an oracle judge', async () => {
    const { humanevalRules } = await import('./humaneval-script.ts');
    const server = await startScriptedLlmServer({ rules: humanevalRules(truths, oracleJudge) });
    const cache = tempCache();
    const llm = client(server.url, cache.dir);
    const tasks = loadTasks(dir);
    const codes = loadCandidates(dir, FIXTURE_MODEL);
    try {
      for (const [kind, picks] of Object.entries(FIXTURES)) {
        for (const [id, sample] of Object.entries(picks)) {
          const t = tasks.find((x) => x.taskId === id)!;
          const all = codes.get(id)!.codes;
          // The fixture dataset keeps the task's picks in index order.
          const both = [
            (FIXTURES.correct as Record<string, number>)[id],
            (FIXTURES.wrong as Record<string, number>)[id],
          ]
            .filter((x) => x !== undefined)
            .sort((a, b) => (a as number) - (b as number));
          const [candidate] = fromSources([all[both.indexOf(sample)]!], {
            language: 'python',
            entry: t.entryPoint,
            label: `${id}#${sample}`,
          });
          const task = defineTask({
            name: id,
            entry: t.entryPoint,
            signature: t.signature,
            description: t.description,
          });
          const r = await review(task, candidate!, { llm });
          if (kind === 'correct') {
            expect([id, r.verdict, r.score]).toEqual([id, 'accept', 1]);
          } else {
            expect([id, r.verdict]).toEqual([id, 'reject']);
            expect(r.counts.incorrect).toBeGreaterThan(0);
          }
        }
      }
    } finally {
      await server.close();
      cache.cleanup();
    }
  });

  it('should give MCC 1 and P4 1 for the oracle judge, matching the hand count', async () => {
    const r = await bench(oracleJudge);
    // Truth recomputed by the benchmark (error against the reference on 200 inputs) matches the fixtures.
    expect(r.items.map((i) => `${i.task}#${i.sample} ${i.truth}`).sort()).toEqual(
      [
        'HumanEval/11#0 true',
        'HumanEval/41#0 false',
        'HumanEval/62#0 true',
        'HumanEval/83#0 false',
        'HumanEval/84#0 false',
        'HumanEval/84#1 true',
        'HumanEval/113#0 true',
        'HumanEval/130#0 false',
      ].sort(),
    );
    expect(r.perRun[0]?.confusion).toEqual(handCount(r, 0));
    expect(r.perRun[0]?.confusion).toEqual({ tp: 4, fp: 0, tn: 4, fn: 0 });
    expect([r.meanMcc, r.meanP4]).toEqual([1, 1]);
    expect(r.tokensPerTask).toBeGreaterThan(0);
    // Eight programs are too few for an interval: the figure is given, the interval refused with why.
    expect(r.intervals.mcc.value).toBe(1);
    expect(r.intervals.mcc.refused).toMatch(/^8 programs \(4 correct, 4 incorrect\)/);
  });

  it('should give MCC −1 and P4 0 for the swapped judge', async () => {
    const r = await bench(swappedJudge);
    expect(r.perRun[0]?.confusion).toEqual(handCount(r, 0));
    expect(r.perRun[0]?.confusion).toEqual({ tp: 0, fp: 4, tn: 0, fn: 4 });
    expect([r.meanMcc, r.meanP4]).toEqual([-1, 0]);
  });

  it('should give MCC 0 and P4 0 for the always-CORRECT judge (a zero column), counted in the means', async () => {
    const r = await bench(alwaysCorrectJudge);
    expect(r.perRun[0]?.confusion).toEqual({ tp: 4, fp: 4, tn: 0, fn: 0 });
    expect([r.perRun[0]?.mcc, r.perRun[0]?.p4]).toEqual([0, 0]);
    expect([r.meanMcc, r.meanP4]).toEqual([0, 0]);
    expect(renderReviewBench(r)).toContain('(means over 1 reruns)');
    // Perfectly stable, yet only the correct share counts: 4 stable correct of 8 ever labelled correct.
    expect(r.stability.correct).toEqual({ stable: 4, reachable: 8, ratio: 0.5 });
  });

  it('should give a random judge the MCC and P4 of its hand-counted matrices, near 0, with reruns that differ', async () => {
    const r = await bench(coinJudge(7, 0.5), 3);
    for (let k = 0; k < 3; k++) {
      const c = handCount(r, k);
      expect(r.perRun[k]?.confusion).toEqual(c);
      const d = (c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn);
      expect(r.perRun[k]?.mcc).toEqual(d === 0 ? 0 : (c.tp * c.tn - c.fp * c.fn) / Math.sqrt(d));
    }
    const pooled = r.perRun.reduce(
      (a, f) => ({
        tp: a.tp + f.confusion.tp,
        fp: a.fp + f.confusion.fp,
        tn: a.tn + f.confusion.tn,
        fn: a.fn + f.confusion.fn,
      }),
      { tp: 0, fp: 0, tn: 0, fn: 0 },
    );
    const d =
      (pooled.tp + pooled.fp) * (pooled.tp + pooled.fn) * (pooled.tn + pooled.fp) * (pooled.tn + pooled.fn);
    const pooledMcc = d === 0 ? 0 : (pooled.tp * pooled.tn - pooled.fp * pooled.fn) / Math.sqrt(d);
    expect(Math.abs(pooledMcc)).toBeLessThan(0.5);
    // Reruns draw distinct sample indices, so a random judge's verdicts change between them.
    expect(r.items.some((i) => new Set(i.runs.map((x) => x.score)).size > 1)).toBe(true);
  });

  it('should print the figures from the command line: crosscheck bench review', async () => {
    const { humanevalRules } = await import('./humaneval-script.ts');
    const server = await startScriptedLlmServer({ rules: humanevalRules(truths, oracleJudge) });
    const cache = tempCache();
    try {
      const out = join(cache.dir, 'bench-review.json');
      const result = await crosscheck(
        [
          'bench',
          'review',
          '--data',
          dir,
          '--models',
          // Spaces and an empty name, as a shell line or a CI matrix may leave them.
          ` ${FIXTURE_MODEL} ,`,
          '--runs',
          '1',
          '--model',
          'gen-test',
          '--base-url',
          server.url,
          '--out',
          out,
        ],
        { CROSSCHECK_LLM_CACHE: 'read-write', CROSSCHECK_LLM_CACHE_DIR: join(cache.dir, 'llm-cache') },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain('grounded review (TRAILS) on 8 programs, 1 reruns');
      expect(result.stdout).toMatch(/MCC 1\.000 \/ P4 1\.000 \/ \d+\.\dk tokens per task/);
      expect(result.stdout).toContain('rerun 0: TP 4 FP 0 TN 4 FN 0; MCC 1.000, P4 1.000');
      expect(result.stdout).toMatch(/cost unpriced/);
      const bad = await crosscheck(['bench', 'review', '--models', FIXTURE_MODEL]);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('--data and --models are required');
      const none = await crosscheck(['bench', 'review', '--data', dir, '--models', ' , ']);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toContain('--models names no model');
    } finally {
      await server.close();
      cache.cleanup();
    }
  });
});
