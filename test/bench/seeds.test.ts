import { afterAll, describe, expect, it } from 'vitest';
import { loadTasks, resolveBenchOptions } from '../../src/bench/index.ts';
import { subSeed, taskInputs } from '../../src/bench/task-inputs.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { argsKey } from '../../src/inputs/canonical-key.ts';
import { humanevalDir, requireData } from '../helpers/shared-data.ts';

afterAll(() => closePythonWorkers());

describe('benchmark seeds (issue 14, defect 8)', () => {
  it('gives every run seed its own task stream, seeds 0–9 included', () => {
    for (const task of ['HumanEval/0', 'HumanEval/12', 'x']) {
      const seeds = Array.from({ length: 40 }, (_, s) => subSeed(s - 5, task));
      expect(new Set(seeds).size).toBe(seeds.length);
    }
  });

  it.runIf(requireData())(
    'draws a different input set for each of seeds 0..9',
    async () => {
      const task = loadTasks(humanevalDir()).find((t) => t.taskId === 'HumanEval/0');
      if (!task) throw new Error('HumanEval/0 missing');
      const sets: string[] = [];
      for (let seed = 0; seed < 10; seed++) {
        const options = resolveBenchOptions({ data: humanevalDir(), n: 15, seed });
        const prepared = await taskInputs(task, options, undefined);
        if (!prepared.ok) throw new Error(prepared.reason);
        sets.push(prepared.inputs.map((a) => argsKey(a)).join('\n'));
      }
      expect(new Set(sets).size).toBe(10);
    },
    120_000,
  );
});
