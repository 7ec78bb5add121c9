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
import { cpuSince, cpuSnapshot, loadText } from './cpu-tree.ts';
import { measureForkCost } from './per-candidate.ts';

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

/** Calls per second of wall time and per second of CPU time (host and workers), best of REPEATS. */
const callsPerSec = async (
  code: string,
  inputs: number[][] | number[][][],
): Promise<{ wall: number; cpu: number; hostUs: number; workersUs: number }> => {
  const task = defineTask({ name: 'f' });
  const cs = candidates.fromSources(sources(code), { language: 'python', entry: 'f' });
  // Warm-up: starts the workers, so the figure is steady-state throughput.
  await run(task, cs.slice(0, 2), inputs.slice(0, 100));
  let best = Number.POSITIVE_INFINITY;
  // The repetition that took the least CPU, host and workers apart.
  let split = { host: Number.POSITIVE_INFINITY, workers: 0 };
  for (let r = 0; r < REPEATS; r++) {
    const cpu0 = cpuSnapshot();
    const started = performance.now();
    const matrix = await run(task, cs, inputs);
    best = Math.min(best, (performance.now() - started) / 1000);
    const cpu = cpuSince(cpu0);
    if (cpu.host + cpu.workers < split.host + split.workers) split = cpu;
    const failures = matrix.outcomes.flat().filter((o) => o.kind !== 'value').length;
    if (failures > 0) throw new Error(`${failures} calls did not return a value`);
  }
  const calls = CANDIDATES * inputs.length;
  return {
    wall: calls / best,
    cpu: calls / (split.host + split.workers),
    hostUs: (split.host / calls) * 1e6,
    workersUs: (split.workers / calls) * 1e6,
  };
};

/** Seconds for the same calls in one Python process, no runner: the floor. */
const plainLoopSeconds = async (
  code: string,
  inputs: unknown[][],
): Promise<{ wall: number; cpu: number }> => {
  const script = [
    'import json, sys, time',
    'inputs = json.loads(sys.stdin.read())',
    'fns = []',
    `for k in range(${CANDIDATES}):`,
    '    ns = {}',
    `    exec(${JSON.stringify(code)}, ns)`,
    "    fns.append(ns['f'])",
    'best = float("inf")',
    'best_cpu = float("inf")',
    `for _ in range(${REPEATS}):`,
    '    t, c = time.perf_counter(), time.process_time()',
    '    for f in fns:',
    '        for args in inputs:',
    '            f(*args)',
    '    best = min(best, time.perf_counter() - t)',
    '    best_cpu = min(best_cpu, time.process_time() - c)',
    'print(best, best_cpu)',
  ].join('\n');
  const result = await execa('python3', ['-c', script], { input: JSON.stringify(inputs) });
  const [wall, cpu] = result.stdout.trim().split(' ').map(Number);
  return { wall: wall as number, cpu: cpu as number };
};

const fmt = (x: number): string => Math.round(x).toLocaleString('en');
const split = (x: { hostUs: number; workersUs: number }): string =>
  `CPU a call: host ${x.hostUs.toFixed(2)} µs, workers ${x.workersUs.toFixed(2)} µs (zygotes and their children)`;
const load0 = loadText();
const fork = await measureForkCost('python3');
const trivial = await callsPerSec(TRIVIAL, trivialInputs);
console.log(
  `trivial:  ${fmt(trivial.wall)} calls/s, ${fmt(trivial.cpu)} calls per CPU second (host and workers); ${split(trivial)}`,
);
const moderate = await callsPerSec(MODERATE, moderateInputs);
console.log(
  `moderate: ${fmt(moderate.wall)} calls/s, ${fmt(moderate.cpu)} calls per CPU second (host and workers); ${split(moderate)}`,
);
const trivialCallsPerSec = trivial.wall;
const moderateCallsPerSec = moderate.wall;
const trivialLoop = await plainLoopSeconds(TRIVIAL, trivialInputs);
const moderateLoop = await plainLoopSeconds(MODERATE, moderateInputs);
const calls = CANDIDATES * INPUTS;
console.log(
  `plain loop (one process): trivial ${fmt(calls / trivialLoop.wall)} calls/s, moderate ${fmt(calls / moderateLoop.wall)} calls/s (CPU: ${fmt(calls / trivialLoop.cpu)}, ${fmt(calls / moderateLoop.cpu)} calls per CPU second)`,
);
const moderateOverPlainLoop = calls / moderateCallsPerSec / moderateLoop.wall;
const moderateOverPlainLoopCpu = calls / moderate.cpu / moderateLoop.cpu;
console.log(
  `moderate: runner time / plain loop time = ${moderateOverPlainLoop.toFixed(2)} (wall), ${moderateOverPlainLoopCpu.toFixed(2)} (CPU)`,
);
console.log(
  `load average ${load0} before, ${loadText()} after; fork cost this hour ${fork.cpuMsPerFork.toFixed(2)} ms CPU per bare Python fork-and-exit`,
);
await closePythonWorkers();
console.log(
  JSON.stringify({
    trivialCallsPerSec: Math.round(trivialCallsPerSec),
    moderateCallsPerSec: Math.round(moderateCallsPerSec),
    moderateOverPlainLoop: Number(moderateOverPlainLoop.toFixed(3)),
    moderateOverPlainLoopCpu: Number(moderateOverPlainLoopCpu.toFixed(3)),
    forkCpuMs: fork.cpuMsPerFork,
    loadAverage: loadText(),
  }),
);
