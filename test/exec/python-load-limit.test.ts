import { afterAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, defineTask, run } from '../../src/index.ts';

// A candidate's top level (its imports) is not a call: it has a CPU-time limit of its own, far
// above what importing a library costs, so that a per-call limit tuned for calls that take
// microseconds does not turn every outcome of a candidate that imports numpy into a timeout, and
// a busy machine (which makes the same import cost more CPU) cannot change that verdict. A top
// level that never ends is still ended.

afterAll(async () => {
  await closePythonWorkers();
});

const python = (sources: string[]) => candidates.fromSources(sources, { language: 'python', entry: 'f' });

/** A top level that needs `seconds` of CPU, as importing a large library does, then a fast `f`. */
const slowImport = (seconds: number): string =>
  [
    'import time',
    `_end = time.process_time() + ${seconds}`,
    'while time.process_time() < _end:',
    '    pass',
    'def f(x):',
    '    return x + 1',
  ].join('\n');

describe('the load of a Python candidate', () => {
  it('should let a top level that needs 600 ms of CPU load under a 250 ms per-call limit', async () => {
    // Arrange
    const task = defineTask({ name: 'f', timeoutMs: 250 });
    const [slow] = python([slowImport(0.6)]);

    // Act
    const matrix = await run(task, [slow!], [[1], [2], [3]]);

    // Assert
    expect(matrix.outcomes[0]).toEqual([
      expect.objectContaining({ kind: 'value', value: 2 }),
      expect.objectContaining({ kind: 'value', value: 3 }),
      expect.objectContaining({ kind: 'value', value: 4 }),
    ]);
  }, 120_000);

  it('should still end a top level that never finishes, as a timeout of every input', async () => {
    // Arrange
    const task = defineTask({ name: 'f', timeoutMs: 250 });
    const [forever] = python(['while True:\n    pass\ndef f(x):\n    return x\n']);

    // Act
    const matrix = await run(task, [forever!], [[1], [2]]);

    // Assert
    expect(matrix.outcomes[0]?.map((o) => o.kind)).toEqual(['timeout', 'timeout']);
  }, 180_000);
});
