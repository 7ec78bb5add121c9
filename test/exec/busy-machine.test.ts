import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import { candidates, closeSandboxPools, defineTask, run } from '../../src/index.ts';
import { expectedStop, runUntilTimeIsSpent, stopShape } from '../helpers/python-time-stop.ts';

// A busy machine must not change a verdict. This file makes one: it pins itself (and so the
// workers it starts) to one CPU and puts BUSY spinning processes on the same CPU, so a call gets
// about 1/(BUSY + 1) of a core. A Python call that needs 600 ms of CPU then takes about 8 s of
// wall time, past the 6 s it may spend sleeping at a 1 s limit: only a limit that leaves out the
// time spent waiting for a CPU lets it finish.

const BUSY = 12;
const hasTaskset = (() => {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const BURN = [
  'import time',
  'def f(x):',
  '    end = time.process_time() + 0.6',
  '    while time.process_time() < end:',
  '        pass',
  '    return x + 1',
].join('\n');
const SLEEP = 'import time\ndef f(x):\n    time.sleep(60)\n    return x\n';

const pin = (cpus: string): void => {
  execFileSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
};

describe.skipIf(!hasTaskset)('a busy machine (one CPU shared with spinning processes)', () => {
  const spinners: ChildProcess[] = [];

  beforeAll(async () => {
    // Find the interpreter first (a one-off probe, not a call); workers started before the pin
    // would run on every CPU, so they are closed.
    const [probe] = candidates.fromSources(['def f(x):\n    return x\n'], { language: 'python', entry: 'f' });
    await run(defineTask({ name: 'f' }), [probe!], [[1]]);
    await Promise.all([closePythonWorkers(), closeSandboxPools()]);
    pin('0');
    for (let i = 0; i < BUSY; i++) {
      // Each in a session of its own: with autogroup scheduling, the CPU is shared out by
      // session first, and the workers run in sessions of their own.
      // They spin only while this process lives, and five minutes at most: a test run that dies
      // before its afterAll must not leave them eating the machine.
      const spin = `while kill -0 ${process.pid} 2>/dev/null; do :; done`;
      spinners.push(spawn('timeout', ['300', 'sh', '-c', spin], { stdio: 'ignore', detached: true }));
    }
  });

  afterAll(async () => {
    for (const s of spinners) {
      try {
        if (s.pid !== undefined) process.kill(-s.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    pin(`0-${availableParallelism() - 1}`);
    await Promise.all([closePythonWorkers(), closeSandboxPools()]);
  });

  it('should let a Python call that needs 600 ms of CPU finish within its 1 s limit, and still end one that sleeps', async () => {
    // Arrange
    const task = defineTask({ name: 'f', timeoutMs: 1000 });
    const [burner, sleeper] = candidates.fromSources([BURN, SLEEP], { language: 'python', entry: 'f' });

    // Act
    const matrix = await run(task, [burner!, sleeper!], [[1]]);

    // Assert
    expect(matrix.outcomes[0]?.[0]).toMatchObject({ kind: 'value', value: 2 });
    expect(matrix.outcomes[1]?.[0]).toMatchObject({ kind: 'timeout', reason: 'call' });
  });

  it('should stop a Python candidate whose time runs out at the call an idle machine stops it at', async () => {
    // The zygote looks at its child less often here (it waits for the CPU too), and the
    // child's replies leave in other batches; neither may move the last call that runs.
    // Act
    const { outcomes, budgetSpent } = await runUntilTimeIsSpent();
    // Assert: what test/exec/candidate-time.test.ts gets on an idle machine.
    expect(stopShape(outcomes)).toEqual(expectedStop());
    expect(budgetSpent).toBe(true);
  });

  it('should load a Python candidate whose top level needs 400 ms of CPU (an import) under a 250 ms call limit', async () => {
    // Arrange: the top level stands in for `import numpy` (150-300 ms of CPU, more under load).
    const task = defineTask({ name: 'f', timeoutMs: 250 });
    const importer = [
      'import time',
      '_end = time.process_time() + 0.4',
      'while time.process_time() < _end:',
      '    pass',
      'def f(x):',
      '    return x + 1',
    ].join('\n');
    const [candidate] = candidates.fromSources([importer], { language: 'python', entry: 'f' });

    // Act
    const matrix = await run(task, [candidate!], [[1], [2]]);

    // Assert: the outcomes of an idle machine.
    expect(matrix.outcomes[0]).toEqual([
      expect.objectContaining({ kind: 'value', value: 2 }),
      expect.objectContaining({ kind: 'value', value: 3 }),
    ]);
  });
});
