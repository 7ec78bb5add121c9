import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatasetTask } from '../../src/bench/dataset.ts';
import { evaluateTask } from '../../src/bench/evaluate.ts';
import { resolveBenchOptions } from '../../src/bench/options.ts';
import type { TaskInputs } from '../../src/bench/task-inputs.ts';
import { fromSources } from '../../src/candidates/index.ts';
import { valueOutcome } from '../../src/exec/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';

/**
 * Issue 18: a task's candidates first run once over all its inputs instead of once per chunk of
 * 1000. Where a candidate meets a limit, chunks and one run differ (each chunk gets a fresh
 * timeout budget and its own share of the time limit), so such a candidate runs chunk by chunk
 * again. Either way the figures must be exactly those of the chunked run.
 */
// The options need a dataset directory; the task and its inputs are given directly.
const data = mkdtempSync(join(tmpdir(), 'crosscheck-single-run-'));
writeFileSync(join(data, 'tasks.jsonl'), '');
mkdirSync(join(data, 'candidates'));
afterAll(async () => {
  await closePythonWorkers();
  rmSync(data, { recursive: true, force: true });
});

const N = 1500;
const task: DatasetTask = {
  taskId: 'Synthetic/double',
  entryPoint: 'f',
  signature: undefined,
  description: undefined,
  prompt: undefined,
  groundTruthCode: 'def f(x):\n    return 2 * x\n',
  seedInputs: [[1]],
  test: undefined,
  language: 'python',
  raw: {},
};

const inputs = Array.from({ length: N }, (_, i) => [i]);
const prepared: Extract<TaskInputs, { ok: true }> = {
  ok: true,
  language: 'python',
  reference: fromSources([task.groundTruthCode as string], { language: 'python', entry: 'f' })[0] as never,
  inputs,
  weights: inputs.map((_, i) => (i % 3 === 0 ? 2 : 1)),
  errorWeights: inputs.map((_, i) => (i % 5 === 0 ? 0 : 1)),
  draws: N,
  referenceOutcomes: inputs.map(([x]) => valueOutcome(2 * (x as number))),
  gen: 'synthetic',
  shortfall: null,
};

const codes = new Map<string, string[]>([
  [
    'model_a',
    [
      'def f(x):\n    return 2 * x\n',
      // Wrong on a third of the inputs.
      'def f(x):\n    return 2 * x if x % 3 else x\n',
      // Hangs on one input in each chunk: one timeout per chunk leaves each chunk's budget
      // unspent, two in one run spend it.
      'def f(x):\n    while x in (10, 1200):\n        pass\n    return 2 * x\n',
      // Dies on one input: a crash, then a fresh process for the rest.
      'import os\ndef f(x):\n    if x == 700:\n        os._exit(3)\n    return x + x\n',
    ],
  ],
  [
    'model_b',
    [
      'def f(x):\n    return x * 2\n',
      'def f(x):\n    if x == 5:\n        raise ValueError("no")\n    return 2 * x\n',
      'def f(x):\n    return [x]\n',
    ],
  ],
]);

/** The pairs without wall-clock figures. */
const figures = (pairs: readonly unknown[]): unknown =>
  JSON.parse(
    JSON.stringify(pairs, (k, v) => (k === 'durationMs' || k === 'timings' ? undefined : v)),
  ) as unknown;

describe('one run per task, chunks where a limit was met', () => {
  it('gives exactly the figures of the chunked run', async () => {
    // Time enough that the hanging candidate's chunk share (a third of it) holds its one timeout
    // with room to spare: it is the timeout budget this test is about.
    const options = resolveBenchOptions({ data, seed: 5, estimator: 'paired', m: 10, candidateTimeMs: 3000 });
    const chunked = await evaluateTask(task, prepared, codes, options, undefined, undefined, 'chunks');
    const once = await evaluateTask(task, prepared, codes, options, undefined);
    expect(figures(once.pairs)).toEqual(figures(chunked.pairs));
    // The limits were met: the hanging candidate timed out once in each chunk, the crashing
    // one crashed once; in one run, the second timeout spends the hanging one's budget, so
    // without the chunked rerun its later calls would be skipped and the figures would differ.
    const unknown = (pairs: typeof chunked.pairs) =>
      (
        pairs.find((p) => p.model === 'model_a')?.record?.unknown as {
          perCandidate: Array<{ label: string; cells: number }>;
        } | null
      )?.perCandidate.map((c) => c.cells);
    expect(unknown(chunked.pairs)).toEqual([2, 1]);
    const unchecked = await evaluateTask(task, prepared, codes, options, undefined, undefined, 'unchecked');
    expect((unknown(unchecked.pairs) as number[])[0]).toBeGreaterThan(2);
    expect(figures(unchecked.pairs)).not.toEqual(figures(chunked.pairs));
    for (const p of once.pairs) expect(p.status).toBe('ok');
  }, 120_000);
});

describe('a task where most candidates meet a limit', () => {
  it('sends the candidates after the first single run straight to the chunks, with the same figures', async () => {
    // 40 candidates that die on the last input: every one needs the chunked run. Once the first
    // 16 showed it, the other 24 skip the single run (each would make N - 1 calls there first).
    const dying = Array.from(
      { length: 40 },
      (_, k) =>
        // Distinct programs (the sample number is in the text), or they would run once each.
        `import os\ndef f(x):\n    if x == ${N - 1}:\n        os._exit(${1 + (k % 3)})\n    return ${k % 2 ? 'x + x' : '2 * x'}  # ${k}\n`,
    );
    const many = new Map<string, string[]>([['model_c', dying]]);
    const options = resolveBenchOptions({ data, seed: 7, estimator: 'paired', m: 40 });
    const chunked = await evaluateTask(task, prepared, many, options, undefined, undefined, 'chunks');
    const once = await evaluateTask(task, prepared, many, options, undefined);
    expect(figures(once.pairs)).toEqual(figures(chunked.pairs));
    expect(once.pairs[0]?.status).toBe('ok');
    // The single run of the first 16 is the only work beyond the chunked run's.
    expect(once.calls - chunked.calls).toBeLessThanOrEqual(16 * N);
    expect(once.calls - chunked.calls).toBeGreaterThan(0);
  }, 240_000);
});

describe('identical programs', () => {
  it("run once per task, each sample getting its program's row, with the figures of running every sample", async () => {
    // Arrange: the same two programs, repeated across samples and models, and a twin dataset
    // where every repeat differs by a comment (a distinct text, the same behaviour).
    const right = 'def f(x):\n    return 2 * x\n';
    const wrong = 'def f(x):\n    return 2 * x if x % 3 else x\n';
    const repeated = new Map<string, string[]>([
      ['model_d', [right, right, wrong, right]],
      ['model_e', [wrong, right]],
    ]);
    const twins = new Map<string, string[]>([
      ['model_d', [right, `${right}# 2\n`, wrong, `${right}# 4\n`]],
      ['model_e', [`${wrong}# e\n`, `${right}# e\n`]],
    ]);
    const options = resolveBenchOptions({ data, seed: 3, estimator: 'paired', m: 10 });
    // Act
    const once = await evaluateTask(task, prepared, repeated, options, undefined);
    const each = await evaluateTask(task, prepared, twins, options, undefined);
    // Assert: the reference's calls, then two programs against six.
    expect(once.calls).toBe(N + 2 * N);
    expect(each.calls).toBe(N + 6 * N);
    const numbers = (pairs: typeof once.pairs) =>
      pairs.map((p) => ({
        model: p.model,
        status: p.status,
        incoherence: p.incoherence,
        error: p.error,
        classes: p.record?.classes.map((c) => c.share),
      }));
    expect(numbers(once.pairs)).toEqual(numbers(each.pairs));
    expect(once.pairs.find((p) => p.model === 'model_d')?.incoherence).toBeGreaterThan(0);
  }, 120_000);
});
