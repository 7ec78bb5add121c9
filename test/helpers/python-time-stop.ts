import { closePythonWorkers, configurePython } from '../../src/exec/python/index.ts';
import { candidates, defineTask, type Outcome, run } from '../../src/index.ts';

/**
 * Where a Python candidate's time (`candidateTimeMs`) runs out must not depend on how soon the
 * zygote looked: each call of this candidate takes 40 ms of CPU time, so its calls start at 0,
 * 40, …, 400 ms of the batch's CPU time. Under a 420 ms limit the first 11 start within it and
 * the 12th, at 440 ms, does not: 20 ms of margin either way, for the harness's own time between
 * calls and the clock's grain.
 *
 * The candidate loops on its thread's clock, which Linux keeps exact. The process clock, once
 * RLIMIT_CPU is armed, moves only at a scheduler tick (4 ms here, 10 ms on a kernel built with
 * HZ=100), so a loop on it overshoots by up to a tick. The harness once read the batch's start on
 * that clock, a tick stale at worst, and so charged this candidate up to a tick more: on a CI
 * runner under load that cost it its 11th call when calls took 20 ms and the margin was 10 ms.
 */
const FORTY_MS =
  'import time\ndef f(x):\n    end = time.thread_time() + 0.04\n    while time.thread_time() < end:\n        pass\n    return x + 1';
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
    const [candidate] = candidates.fromSources([FORTY_MS], { language: 'python', entry: 'f' });
    const inputs = Array.from({ length: 30 }, (_, i) => [i]);
    const matrix = await run(defineTask({ name: 'f', timeoutMs: 1000 }), [candidate!], inputs, {
      candidateTimeMs: 420,
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
