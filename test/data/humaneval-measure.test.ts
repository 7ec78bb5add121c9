import { afterAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadTasks } from '../../src/bench/dataset.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, decode, defineTask, isCrosscheckError, type Tagged } from '../../src/index.ts';
import { gen } from '../../src/inputs/index.ts';
import { measure } from '../../src/measure/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

const MODEL = 'gpt_4o';
const SAMPLES = 10;
/**
 * 300 inputs a task, not the paper's 1000: the claim here (no task flagged without a real error,
 * I <= 2E) holds at any n, and this file was the heavy suite's longest by far (537 s of a CI run);
 * the paper's configuration is `npm run bench:paper`'s (a sample of it is pinned by test/bench/pin.test.ts).
 */
const INPUTS = 300;
const SEED = 2026;
/**
 * Per task, in wall time, as the paper's stage limit: a task that exceeds it is left out of
 * every metric. The paper allowed 60 s on a machine of its own; here five heavy files share two
 * cores, and a slower CI runner took past 60 s on one task, so the limit is 180 s.
 */
const TASK_LIMIT_MS = 180_000;
/**
 * Call limits. A HumanEval call takes microseconds, so 250 ms only catches hangs; a candidate
 * that hangs may lose 1.5 s in all. Unknown (timeout/crash) cells are excluded from every figure
 * asserted here, so tighter limits change how long hangs cost, not what is measured.
 */
const LIMITS = { timeoutMs: 250, budgetMs: 1500 };

describe.skipIf(!requireData())('incoherence on HumanEval (gpt_4o, m = 10, n = 300)', () => {
  afterAll(() => closePythonWorkers());

  it('should flag no task whose candidates are all correct (I > 0 ⇒ E > 0), and print the detection rate', async () => {
    // Arrange
    const tasks = loadTasks(humanevalDir());
    const byTask = loadCandidates(humanevalDir(), MODEL);
    const rows: Array<{ taskId: string; incoherence: number; error: number; unknown: number }> = [];
    const failed: string[] = [];
    const started = performance.now();

    // Act
    for (const t of tasks) {
      const [reference] = candidates.fromSources([t.groundTruthCode ?? ''], {
        language: 'python',
        entry: t.entryPoint,
        label: 'ground truth',
      });
      const pool = candidates.fromSources(byTask.get(t.taskId)?.codes.slice(0, SAMPLES) ?? [], {
        language: 'python',
        entry: t.entryPoint,
        tags: { model: MODEL },
      });
      const seeds = t.seedInputs.map((args) => decode(args as Tagged) as unknown[]);
      // Inputs the ground truth accepts, as in the paper (it keeps inputs where the reference does not raise).
      const inputs = gen.fromSeeds(seeds, { language: 'python' }).withReference(reference!, LIMITS);
      const task = defineTask({ name: t.taskId, entry: t.entryPoint, reference, inputs });
      let m: Awaited<ReturnType<typeof measure>>;
      try {
        m = await measure(task, pool, {
          n: INPUTS,
          seed: SEED,
          shrink: false,
          // As the comment on LIMITS says and the paper's code does: unknown cells are no
          // observation. (Under the default 'disagree' a call that times out near the limit, in a
          // candidate and the reference alike, counts as a disagreement with no error to match.)
          unknown: 'exclude',
          run: LIMITS,
          signal: AbortSignal.timeout(TASK_LIMIT_MS),
        });
      } catch (error) {
        if (!isCrosscheckError(error) || error.code !== 'ABORTED') throw error;
        failed.push(t.taskId);
        continue;
      }
      rows.push({
        taskId: t.taskId,
        incoherence: m.incoherence?.estimate ?? 0,
        error: m.error?.estimate ?? 0,
        unknown: m.unknown.cells,
      });
      if (process.env.CROSSCHECK_PROGRESS) {
        const mb = Math.round(process.memoryUsage().rss / 2 ** 20);
        process.stderr.write(
          `${t.taskId} I=${rows.at(-1)?.incoherence.toFixed(3)} E=${rows.at(-1)?.error.toFixed(3)} ${Math.round(m.durationMs)} ms ${mb} MB\n`,
        );
      }
    }
    const seconds = (performance.now() - started) / 1000;

    // Assert: Theorem 4.1 on real code; no task is flagged without a real error.
    const falsePositives = rows.filter((r) => r.incoherence > 0 && r.error === 0);
    const wrong = rows.filter((r) => r.error > 0);
    const detected = wrong.filter((r) => r.incoherence > 0);
    const violations = rows.filter((r) => r.incoherence > 2 * r.error + 1e-12);
    console.log(
      [
        `HumanEval ${MODEL}: ${rows.length} tasks, m = ${SAMPLES}, n = ${INPUTS}, seed ${SEED}, ${seconds.toFixed(0)} s`,
        `over the ${TASK_LIMIT_MS / 1000} s limit, left out: ${failed.join(', ') || 'none'}`,
        `tasks with error > 0: ${wrong.length}; flagged (incoherence > 0): ${detected.length}`,
        `detection rate: ${(detected.length / Math.max(1, wrong.length)).toFixed(4)}; false positives: ${falsePositives.length}`,
        `mean error ${(rows.reduce((s, r) => s + r.error, 0) / rows.length).toFixed(4)}, mean incoherence ${(rows.reduce((s, r) => s + r.incoherence, 0) / rows.length).toFixed(4)}`,
        `unknown cells (timeouts, crashes): ${rows.reduce((s, r) => s + r.unknown, 0)}`,
      ].join('\n'),
    );
    expect(rows.length + failed.length).toBe(150);
    expect(failed.length).toBeLessThanOrEqual(5);
    expect(falsePositives).toEqual([]);
    expect(violations).toEqual([]);
  }, 1_800_000);
});
