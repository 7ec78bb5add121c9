import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCandidates, loadTasks } from '../../src/bench/dataset.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, decode, defineTask, type OutcomeMatrix, run, type Tagged } from '../../src/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

const MODEL = 'gpt_4o';
const SAMPLES = 10;

describe.skipIf(!requireData())('HumanEval through the Python runner', () => {
  // Loaded before the tests, not at collection: Vitest collects a skipped suite too, and without
  // the data this file must skip, not fail.
  let tasks: ReturnType<typeof loadTasks> = [];
  let byTask: ReturnType<typeof loadCandidates> = new Map();
  beforeAll(() => {
    tasks = loadTasks(humanevalDir());
    byTask = loadCandidates(humanevalDir(), MODEL);
  });

  afterAll(() => closePythonWorkers());

  it('should pass the benchmark check() of every ground truth when run through the harness', async () => {
    // Arrange: one candidate per task that defines the ground truth, the benchmark's check and a
    // zero-argument entry calling check on the ground truth.
    const checks = candidates.fromSources(
      tasks.map((t) => ({
        source: [
          t.groundTruthCode ?? '',
          t.test ?? '',
          'def __crosscheck_check():',
          `    check(${t.entryPoint})`,
          '    return True',
          '',
        ].join('\n\n'),
        label: t.taskId,
      })),
      { language: 'python', entry: '__crosscheck_check' },
    );

    // Act
    const matrix = await run(defineTask({ name: 'humaneval-check' }), checks, [[]], {
      timeoutMs: 20_000,
      budgetMs: 60_000,
    });

    // Assert
    const failed = matrix.outcomes
      .map((row, i) => ({ task: tasks[i]?.taskId, outcome: row[0] }))
      .filter(({ outcome }) => !(outcome?.kind === 'value' && outcome.tagged === true));
    expect(tasks.length).toBe(150);
    expect(failed).toEqual([]);
  });

  it(`should run the ground truth and the first ${SAMPLES} ${MODEL} candidates on every seed input`, async () => {
    // Arrange
    const matrices: Array<{ taskId: string; matrix: OutcomeMatrix }> = [];

    // Act
    for (const t of tasks) {
      const [reference] = candidates.fromSources([t.groundTruthCode ?? ''], {
        language: 'python',
        entry: t.entryPoint,
        label: 'ground truth',
      });
      const codes = byTask.get(t.taskId)?.codes.slice(0, SAMPLES) ?? [];
      const cs = candidates.fromSources(codes, {
        language: 'python',
        entry: t.entryPoint,
        tags: { model: MODEL },
      });
      const task = defineTask({ name: t.taskId, entry: t.entryPoint, reference });
      const inputs = t.seedInputs.map((args) => decode(args as Tagged) as unknown[]);
      matrices.push({ taskId: t.taskId, matrix: await run(task, cs, inputs, { timeoutMs: 1000 }) });
    }

    // Assert: the reference returns a value on every seed, and every cell has an outcome.
    const referenceFailures = matrices.flatMap(({ taskId, matrix }) =>
      (matrix.reference?.outcomes ?? [])
        .map((o, j) => ({ taskId, input: j, outcome: o }))
        .filter(({ outcome }) => outcome.kind !== 'value'),
    );
    expect(referenceFailures).toEqual([]);
    for (const { taskId, matrix } of matrices) {
      const task = tasks.find((t) => t.taskId === taskId);
      expect(matrix.candidates.length, taskId).toBe(Math.min(SAMPLES, byTask.get(taskId)?.codes.length ?? 0));
      expect(matrix.reference?.outcomes.length, taskId).toBe(task?.seedInputs.length);
      for (const row of matrix.outcomes) {
        expect(row.length, taskId).toBe(task?.seedInputs.length);
        expect(
          row.every((o) => ['value', 'invalid', 'error', 'timeout', 'crash'].includes(o.kind)),
          taskId,
        ).toBe(true);
      }
    }
    const seeds = tasks.reduce((n, t) => n + t.seedInputs.length, 0);
    expect(seeds).toBeGreaterThan(1000);
  });
});
