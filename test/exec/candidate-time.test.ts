import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkers } from '../../src/exec/command/index.ts';
import { closePythonWorkers } from '../../src/exec/python/index.ts';
import {
  type Candidate,
  CrosscheckError,
  candidates,
  closeSandboxPools,
  defineTask,
  type Outcome,
  run,
} from '../../src/index.ts';
import { expectedStop, runUntilTimeIsSpent, stopShape } from '../helpers/python-time-stop.ts';

// `candidateTimeMs` bounds the time of all of a candidate's calls, slow ones that finish
// included: CPU time in the sandbox, the Python runner and command workers, wall time for trusted
// functions. Each backend must stop a candidate whose every call takes about 20 ms well before
// its 200 inputs (4 s), skip the rest as `timeout`/`budget`, and leave a fast neighbour untouched.
// The slow candidates spend CPU, not wall time: a wall-clock spin spends less CPU the busier the
// machine, so more of its calls would fit in the limit.

const WORKER = join(import.meta.dirname, '..', 'fixtures', 'command-node', 'worker.mjs');
const N = 200;
const inputs = Array.from({ length: N }, (_, i) => [i]);
const task = defineTask({ name: 'f', timeoutMs: 1000 });
const LIMIT_MS = 300;

const FAST_JS = 'function f(x) { return x + 1 }';
// 20 ms of CPU a call, however busy the machine is.
const SLOW_PY =
  'import time\ndef f(x):\n    end = time.process_time() + 0.02\n    while time.process_time() < end:\n        pass\n    return x + 1';
// A fixed amount of work, about 20 ms of CPU here (vm contexts have no CPU clock).
const SLOW_CPU_JS =
  'function f(x) { let s = 0; for (let k = 0; k < 3e7; k++) s += k % 7; return x + 1 + (s & 0) }';
const FAST_PY = 'def f(x):\n    return x + 1';

afterAll(async () => {
  await Promise.all([closeSandboxPools(), closePythonWorkers(), closeWorkers()]);
});

const expectStopped = (row: readonly Outcome[], budgetSpent: boolean) => {
  const ran = row.filter((o) => o.kind === 'value');
  const skipped = row.filter((o) => o.kind === 'timeout' && o.reason === 'budget');
  // About LIMIT_MS / 20 ms calls ran (twice that when a row is split across two workers): far
  // fewer than all, and each with its right value.
  expect(ran.length).toBeGreaterThan(2);
  expect(ran.length).toBeLessThan(N / 3);
  expect(ran.length + skipped.length).toBe(N);
  row.forEach((o, i) => {
    if (o.kind === 'value') expect(o.value).toBe(i + 1);
  });
  expect(budgetSpent).toBe(true);
};

const cases: Array<[string, () => Candidate[]]> = [
  [
    'the JavaScript sandbox',
    () => candidates.fromSources([SLOW_CPU_JS, FAST_JS], { language: 'javascript', entry: 'f' }),
  ],
  ['the Python runner', () => candidates.fromSources([SLOW_PY, FAST_PY], { language: 'python', entry: 'f' })],
  [
    'a command worker',
    () =>
      candidates.fromCommand(['node', WORKER], [SLOW_CPU_JS, FAST_JS], {
        entry: 'f',
        language: 'javascript',
      }),
  ],
  [
    'trusted functions',
    () =>
      candidates.fromFunctions([
        (x: number) => {
          const end = Date.now() + 20;
          while (Date.now() < end) {}
          return x + 1;
        },
        (x: number) => x + 1,
      ]),
  ],
];

describe('run with candidateTimeMs', () => {
  it.each(cases)('should stop a candidate whose calls are slow in %s', async (_, make) => {
    // Act
    const m = await run(task, make(), inputs, { candidateTimeMs: LIMIT_MS });
    // Assert
    expectStopped(m.outcomes[0]!, m.candidates[0]!.stats.budgetSpent);
    expect(m.outcomes[1]!.map((o) => (o.kind === 'value' ? o.value : o.kind))).toEqual(
      inputs.map(([x]) => (x as number) + 1),
    );
    expect(m.candidates[1]!.stats.budgetSpent).toBe(false);
    expect(m.limits.candidateTimeMs).toBe(LIMIT_MS);
  });

  it('should stop a Python candidate at the first call that starts past its time, not when the zygote next looks', async () => {
    // Act
    const { outcomes, budgetSpent } = await runUntilTimeIsSpent();
    // Assert
    expect(stopShape(outcomes)).toEqual(expectedStop());
    expect(budgetSpent).toBe(true);
  });

  it('should set no limit by default', async () => {
    const m = await run(task, candidates.fromFunctions([(x: number) => x]), [[1]]);
    expect(m.limits.candidateTimeMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('should reject a limit that is not a positive number', async () => {
    const cs = candidates.fromFunctions([(x: number) => x]);
    for (const bad of [0, -5, Number.NaN, '100']) {
      const error = await run(task, cs, [[1]], { candidateTimeMs: bad as number }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CrosscheckError);
      expect((error as CrosscheckError).code).toBe('INVALID_OPTION');
      expect((error as Error).message).toContain('`candidateTimeMs` must be a positive number');
    }
  });
});
