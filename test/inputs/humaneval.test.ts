import { afterAll, describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/bench/dataset.ts';
import { fromSources } from '../../src/candidates/index.ts';
import { isCrosscheckError } from '../../src/errors/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { run } from '../../src/exec/run.ts';
import { argsKey } from '../../src/inputs/canonical-key.ts';
import { gen } from '../../src/inputs/index.ts';
import { defineTask } from '../../src/task/index.ts';
import { decode } from '../../src/values/index.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

afterAll(async () => {
  await closePythonWorkers();
});

describe('HumanEval inputs', () => {
  it('should parse every annotated HumanEval signature, and name the parameter of unannotated ones', async () => {
    if (!requireData()) return;
    let parsed = 0;
    for (const task of loadTasks(humanevalDir())) {
      if (!task.signature) continue;
      try {
        const inputs = await gen.fromSignature(task.signature).generate(20, { seed: 1 });
        expect(inputs.length).toBe(20);
        parsed++;
      } catch (error) {
        if (!isCrosscheckError(error)) throw error;
        expect(error.message).toMatch(/parameter `\w+` needs a type annotation/);
      }
    }
    expect(parsed).toBeGreaterThan(40);
  });

  it.each(['HumanEval/0', 'HumanEval/19', 'HumanEval/144', 'HumanEval/127'])(
    'should yield 1,000 draws that the Python ground truth of %s accepts',
    async (id) => {
      if (!requireData()) return;
      const task = loadTasks(humanevalDir()).find((t) => t.taskId === id)!;
      const reference = fromSources([task.groundTruthCode!], {
        language: 'python',
        entry: task.entryPoint,
      })[0]!;
      const g = gen
        .fromSeeds(
          task.seedInputs.map((s) => decode(s) as unknown[]),
          { language: 'python' },
        )
        .withReference(reference);
      const report = await g.generateWithReport(1000, { seed: 1 });
      expect(report.shortfall).toBeNull();
      expect(report.sampled).toBe(1000);
      expect(new Set(report.inputs.map(argsKey)).size).toBe(report.inputs.length);
      // Independently confirmed: the ground truth returns a value on every kept input.
      const matrix = await run(defineTask({ name: task.entryPoint, reference }), [], report.inputs);
      expect(matrix.reference?.outcomes.every((o) => o.kind === 'value')).toBe(true);
    },
  );
});
