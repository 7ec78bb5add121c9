import { afterAll, describe, expect, it } from 'vitest';
import { fromSources } from '../../src/candidates/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { measure } from '../../src/measure/index.ts';
import { defineTask } from '../../src/task/index.ts';

afterAll(() => closePythonWorkers());

describe('measure over many chunks', () => {
  it('should keep a candidate that spent its timeout budget out of later chunks, counting its cells as unknown', async () => {
    // Arrange: `hang` loops forever; 100 ms per call and a 300 ms budget spend it in the first chunk.
    const task = defineTask({
      name: 'f',
      inputs: Array.from({ length: 450 }, (_, i) => [i]),
      timeoutMs: 100,
    });
    const candidates = fromSources(
      [
        { source: 'def f(x):\n    return x', label: 'a' },
        { source: 'def f(x):\n    return x + 0', label: 'b' },
        { source: 'def f(x):\n    while True:\n        pass', label: 'hang' },
      ],
      { language: 'python', entry: 'f' },
    );
    // Act
    const m = await measure(task, candidates, { run: { budgetMs: 300 }, unknown: 'exclude' });
    // Assert: every cell of `hang` is unknown, and it ran (timed out) only in the first chunk; with
    // unknown cells excluded, the two that ran agree.
    expect(m.n).toBe(450);
    expect(m.unknown.timeouts).toBe(450);
    expect(m.candidates[2]!.stats.budgetSpent).toBe(true);
    expect(m.candidates[2]!.stats.timeouts).toBeLessThanOrEqual(4);
    expect(m.incoherence).toMatchObject({ estimate: 0, n: 450 });
    // A candidate with unknown outcomes is never classified with others (issue 14, defect 4).
    expect(m.classes.map((c) => c.labels)).toEqual([['a', 'b'], ['hang']]);
  });
});
