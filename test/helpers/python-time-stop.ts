import { closePythonWorkers, configurePython } from '../../src/exec/python/index.ts';
import { candidates, defineTask, type Outcome, run } from '../../src/index.ts';

/**
 * Where a Python candidate's time (`candidateTimeMs`) runs out must not depend on how soon the
 * zygote looked: each call of this candidate takes 20 ms of CPU time, so its calls start at 0,
 * 20, …, 200 ms of the batch's CPU time. Under a 210 ms limit the first 11 start within it and
 * the 12th, at 220 ms, does not: 10 ms of margin either way. (It reads the thread's clock: with
 * RLIMIT_CPU set, Linux updates a process's CPU clock only at each scheduler tick, 4 ms here,
 * so a loop on that clock overshoots by up to a tick.)
 */
const TWENTY_MS =
  'import time\ndef f(x):\n    end = time.thread_time() + 0.02\n    while time.thread_time() < end:\n        pass\n    return x + 1';
export const CALLS_WITHIN = 11;

/**
 * Runs the candidate on 30 inputs in one worker (a row split over two would get the limit
 * twice), then puts the Python runner back to its defaults for the tests after it.
 */
export const runUntilTimeIsSpent = async (): Promise<{
  outcomes: readonly Outcome[];
  budgetSpent: boolean;
}> => {
  configurePython({ workers: 1 });
  try {
    const [candidate] = candidates.fromSources([TWENTY_MS], { language: 'python', entry: 'f' });
    const inputs = Array.from({ length: 30 }, (_, i) => [i]);
    const matrix = await run(defineTask({ name: 'f', timeoutMs: 1000 }), [candidate!], inputs, {
      candidateTimeMs: 210,
    });
    return { outcomes: matrix.outcomes[0]!, budgetSpent: matrix.candidates[0]!.stats.budgetSpent };
  } finally {
    configurePython({});
    await closePythonWorkers();
  }
};

/** What the run above must give, busy machine or not: 11 values, then `budget` for the rest. */
export const expectedStop = (): unknown[] =>
  Array.from({ length: 30 }, (_, i) =>
    i < CALLS_WITHIN ? { kind: 'value', value: i + 1 } : { kind: 'timeout', reason: 'budget' },
  );

/** The outcomes in the shape of {@link expectedStop}. */
export const stopShape = (outcomes: readonly Outcome[]): unknown[] =>
  outcomes.map((o) =>
    o.kind === 'value'
      ? { kind: o.kind, value: o.value }
      : { kind: o.kind, reason: 'reason' in o ? o.reason : undefined },
  );
