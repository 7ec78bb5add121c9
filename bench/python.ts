/**
 * Throughput of the Python runner: `npm run bench:python`.
 *
 * Runs 10 candidates × 10,000 inputs through the public `run()` API, for a trivial candidate and
 * a moderate one, and times the same calls made in a plain Python loop in one process (the floor
 * no runner can beat). Each figure is the best of a few repetitions, so that other load on a
 * shared machine inflates it less. Ends with one JSON line of the figures.
 */
import { execa } from 'execa';
import { closePythonWorkers } from '../src/exec/python/index.ts';
import { candidates, defineTask, run } from '../src/index.ts';

const CANDIDATES = 10;
const REPEATS = 3;
const INPUTS = 10_000;

const TRIVIAL = 'def f(x):\n    return x + 1\n';
const MODERATE = [
  'def f(xs):',
  '    seen = {}',
  '    for x in xs:',
  '        seen[x % 7] = seen.get(x % 7, 0) + x',
  '    return sorted(seen.items())',
  '',
].join('\n');

const trivialInputs = Array.from({ length: INPUTS }, (_, i) => [i]);
const moderateInputs = Array.from({ length: INPUTS }, (_, i) => [
  Array.from({ length: 20 }, (_, k) => (i * 31 + k * 17) % 1000),
]);

// Each candidate differs by a comment so that the runner treats them as distinct programs.
const sources = (code: string): string[] =>
  Array.from({ length: CANDIDATES }, (_, k) => `${code}# sample ${k}\n`);

const callsPerSec = async (code: string, inputs: number[][] | number[][][]): Promise<number> => {
  const task = defineTask({ name: 'f' });
  const cs = candidates.fromSources(sources(code), { language: 'python', entry: 'f' });
  // Warm-up: starts the workers, so the figure is steady-state throughput.
  await run(task, cs.slice(0, 2), inputs.slice(0, 100));
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < REPEATS; r++) {
    const started = performance.now();
    const matrix = await run(task, cs, inputs);
    best = Math.min(best, (performance.now() - started) / 1000);
    const failures = matrix.outcomes.flat().filter((o) => o.kind !== 'value').length;
    if (failures > 0) throw new Error(`${failures} calls did not return a value`);
  }
  return (CANDIDATES * inputs.length) / best;
};

/** Seconds for the same calls in one Python process, no runner: the floor. */
const plainLoopSeconds = async (code: string, inputs: unknown[][]): Promise<number> => {
  const script = [
    'import json, sys, time',
    'inputs = json.loads(sys.stdin.read())',
    'fns = []',
    `for k in range(${CANDIDATES}):`,
    '    ns = {}',
    `    exec(${JSON.stringify(code)}, ns)`,
    "    fns.append(ns['f'])",
    'best = float("inf")',
    `for _ in range(${REPEATS}):`,
    '    t = time.perf_counter()',
    '    for f in fns:',
    '        for args in inputs:',
    '            f(*args)',
    '    best = min(best, time.perf_counter() - t)',
    'print(best)',
  ].join('\n');
  const result = await execa('python3', ['-c', script], { input: JSON.stringify(inputs) });
  return Number(result.stdout.trim());
};

const trivialCallsPerSec = await callsPerSec(TRIVIAL, trivialInputs);
console.log(`trivial:  ${Math.round(trivialCallsPerSec).toLocaleString('en')} calls/s`);
const moderateCallsPerSec = await callsPerSec(MODERATE, moderateInputs);
console.log(`moderate: ${Math.round(moderateCallsPerSec).toLocaleString('en')} calls/s`);
const trivialLoop = await plainLoopSeconds(TRIVIAL, trivialInputs);
const moderateLoop = await plainLoopSeconds(MODERATE, moderateInputs);
const calls = CANDIDATES * INPUTS;
console.log(
  `plain loop (one process): trivial ${Math.round(calls / trivialLoop).toLocaleString('en')} calls/s, moderate ${Math.round(calls / moderateLoop).toLocaleString('en')} calls/s`,
);
const moderateOverPlainLoop = calls / moderateCallsPerSec / moderateLoop;
console.log(`moderate: runner time / plain loop time = ${moderateOverPlainLoop.toFixed(2)}`);
await closePythonWorkers();
console.log(
  JSON.stringify({
    trivialCallsPerSec: Math.round(trivialCallsPerSec),
    moderateCallsPerSec: Math.round(moderateCallsPerSec),
    moderateOverPlainLoop: Number(moderateOverPlainLoop.toFixed(3)),
  }),
);
