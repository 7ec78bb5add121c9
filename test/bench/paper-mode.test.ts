import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTasks, resolveBenchOptions, runBench } from '../../src/bench/index.ts';
import { taskInputs } from '../../src/bench/task-inputs.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

/**
 * Issue 14, defect 11: the paper mode (`--estimator paired`) computes error as the paper's code
 * does: one random candidate per draw, on n draws of its own.
 */
const dir = mkdtempSync(join(tmpdir(), 'crosscheck-paper-mode-'));
afterAll(async () => {
  await closePythonWorkers();
  rmSync(dir, { recursive: true, force: true });
});

const N = 60;
const TASKS = ['HumanEval/1', 'HumanEval/6', 'HumanEval/10', 'HumanEval/11'];

describe.runIf(requireData())('benchmark paper mode', () => {
  it('draws n inputs for incoherence and n further ones for error', async () => {
    const task = loadTasks(humanevalDir()).find((t) => t.taskId === 'HumanEval/1');
    if (!task) throw new Error('HumanEval/1 missing');
    const paired = await taskInputs(
      task,
      resolveBenchOptions({ data: humanevalDir(), n: N, estimator: 'paired' }),
      undefined,
    );
    if (!paired.ok) throw new Error(paired.reason);
    const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(paired.weights)).toBe(N);
    expect(sum(paired.errorWeights)).toBe(N);
    // Separate draws: some inputs serve only one of the two estimates.
    expect(paired.weights.some((w, k) => w > 0 && paired.errorWeights[k] === 0)).toBe(true);
    const shared = await taskInputs(task, resolveBenchOptions({ data: humanevalDir(), n: N }), undefined);
    if (!shared.ok) throw new Error(shared.reason);
    expect(shared.errorWeights).toEqual(shared.weights);
  }, 120_000);

  it('measures error with one random candidate per draw (eq. 9), all-pairs with every candidate', async () => {
    const run = (estimator: 'paired' | 'all-pairs') =>
      runBench({
        data: humanevalDir(),
        models: ['gpt_3_5'],
        tasks: TASKS,
        m: 4,
        n: N,
        seed: 3,
        estimator,
        jobs: 1,
        out: join(dir, `${estimator}.json`),
      });
    const paired = await run('paired');
    const ok = paired.pairs.filter((p) => p.status === 'ok');
    expect(ok.length).toBeGreaterThan(2);
    for (const p of ok) {
      const data = p.record?.data as { error: { n: number; estimate: number }; incoherence: { n: number } };
      expect(data.error.n).toBe(N);
      expect(data.incoherence.n).toBe(N);
      // One Bernoulli per draw: Ê · n is a whole number of wrong draws.
      const wrongDraws = data.error.estimate * N;
      expect(Math.abs(wrongDraws - Math.round(wrongDraws))).toBeLessThan(1e-9);
    }
    // The all-pairs error averages over the 4 candidates, so it is not always a multiple of 1/n.
    const allPairs = await run('all-pairs');
    const fractional = allPairs.pairs
      .filter((p) => p.status === 'ok')
      .map(
        (p) => ((p.record as { data: unknown }).data as { error: { estimate: number } }).error.estimate * N,
      )
      .filter((x) => Math.abs(x - Math.round(x)) > 1e-9);
    expect(fractional.length).toBeGreaterThan(0);
  }, 300_000);
});
