/**
 * The benchmark on data with no repeated programs: `npm run bench:distinct`.
 *
 * About a quarter of HumanEval's samples repeat another sample of the same task, and the
 * benchmark runs a repeated program once; so on that data the cost of a candidate's own process
 * is partly hidden. Here every sample is made distinct by a comment at its end (which changes
 * nothing it computes), so every sample is a candidate with a process of its own. It runs
 * `crosscheck bench` in the paper configuration (the options of `npm run bench:paper`) on a copy
 * of the data made so, in this process, and prints wall time, CPU time (this process and every
 * process below it), calls per second of each, CPU per candidate, the load average and the
 * machine's fork cost this hour. Ends with one JSON line of the figures.
 *
 *   npm run bench:distinct -- [--tasks HumanEval/0,HumanEval/1|all] [--models gpt_4o,gpt_3_5|all]
 *
 * The defaults are bench:floor's 20 tasks and two models. Data: $CROSSCHECK_DATA/humaneval, else
 * ../shared/data/humaneval beside the package.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { listModels, loadCandidates, loadTasks, progressReporter, runBench } from '../src/bench/index.ts';
import { commaList } from '../src/cli/comma-list.ts';
import { checkPython, closePythonWorkers } from '../src/exec/python/index.ts';
import { cpuSince, cpuSnapshot, loadText } from './cpu-tree.ts';
import { measureForkCost } from './per-candidate.ts';

const { values: flags } = parseArgs({
  options: { tasks: { type: 'string' }, models: { type: 'string' } },
});
const data = join(
  resolve(process.env.CROSSCHECK_DATA ?? join(import.meta.dirname, '..', '..', 'shared', 'data')),
  'humaneval',
);
if (!existsSync(join(data, 'tasks.jsonl.gz'))) {
  console.error(
    `bench:distinct: no HumanEval data at ${data}; set CROSSCHECK_DATA to the shared data directory.`,
  );
  process.exit(1);
}
const FLOOR_TASKS = [0, 1, 10, 11, 19, 24, 67, 77, 81, 89, 113, 119, 127, 130, 135, 144, 145, 152, 155, 159];
const TASKS =
  flags.tasks === 'all'
    ? loadTasks(data).map((t) => t.taskId)
    : (commaList(flags.tasks) ?? FLOOR_TASKS.map((k) => `HumanEval/${k}`));
const MODELS =
  flags.models === 'all'
    ? listModels(data)
    : (commaList(flags.models) ?? ['gpt_4o', 'llama_3_1_8b_instruct']);
if (TASKS.length === 0 || MODELS.length === 0) {
  console.error('bench:distinct: --tasks and --models take comma-separated names (or all).');
  process.exit(2);
}

// The copy: the same tasks; each model's samples, every one ending in a comment of its own.
const dir = mkdtempSync(join(tmpdir(), 'crosscheck-distinct-'));
const copy = join(dir, 'humaneval');
mkdirSync(join(copy, 'candidates'), { recursive: true });
symlinkSync(join(data, 'tasks.jsonl.gz'), join(copy, 'tasks.jsonl.gz'));
let samples = 0;
for (const model of MODELS) {
  const chosen = new Set(TASKS);
  const rows = [...loadCandidates(data, model).values()]
    .filter((c) => chosen.has(c.taskId))
    .map((c) => ({
      task_id: c.taskId,
      codes: c.codes.map((code, k) => `${code}\n# crosscheck distinct sample ${k}\n`),
    }));
  samples += rows.reduce((n, r) => n + r.codes.length, 0);
  writeFileSync(
    join(copy, 'candidates', `${model}.jsonl`),
    `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`,
  );
}

const python = await checkPython(process.env.CROSSCHECK_PYTHON ?? 'python3', 'CROSSCHECK_PYTHON');
const fork = await measureForkCost(python.executable);
console.error(
  `bench:distinct: ${TASKS.length} tasks × ${MODELS.length} models, every sample distinct; load ${loadText()}`,
);
const progress = progressReporter(process.stderr);
const cpu0 = cpuSnapshot();
const wall0 = performance.now();
const result = await runBench(
  {
    data: copy,
    models: MODELS,
    tasks: TASKS,
    equality: 'difftrust',
    estimator: 'paired',
    profile: 'difftrust',
    out: join(dir, 'bench.json'),
  },
  { onProgress: (p) => progress.update(p) },
);
progress.clear();
const wall = (performance.now() - wall0) / 1000;
// Taken before the workers stop: their children's time is in their own counters until then.
const cpu = cpuSince(cpu0);
await closePythonWorkers();
rmSync(dir, { recursive: true, force: true });
const failed = result.pairs.filter((p) => p.status !== 'ok');
if (failed.length > 0) console.error(`bench:distinct: ${failed.length} pairs failed: ${failed[0]?.reason}`);
const total = cpu.host + cpu.workers;
// m candidates a pair, each a process of its own here (none repeats another).
const candidates = result.pairs.reduce((n, p) => n + (p.status === 'ok' ? p.m : 0), 0);
const lines = [
  '',
  `bench:distinct  ${result.calls} calls, load ${loadText()}`,
  `  wall ${wall.toFixed(1)} s: ${Math.round(result.calls / wall).toLocaleString('en')} calls/s`,
  `  CPU  ${total.toFixed(1)} s (host ${cpu.host.toFixed(1)} s + workers ${cpu.workers.toFixed(1)} s): ${Math.round(result.calls / total).toLocaleString('en')} calls per CPU second`,
  ...(candidates > 0
    ? [
        `  ${candidates} candidates: ${((1000 * total) / candidates).toFixed(1)} ms of CPU each, calls included`,
      ]
    : []),
  `  fork cost this hour: ${fork.cpuMsPerFork.toFixed(2)} ms CPU per bare Python fork-and-exit`,
  '',
];
console.error(lines.join('\n'));
console.log(
  JSON.stringify({
    calls: result.calls,
    samples,
    wallSeconds: Number(wall.toFixed(2)),
    cpuSeconds: Number(total.toFixed(2)),
    hostCpuSeconds: Number(cpu.host.toFixed(2)),
    callsPerSecond: Math.round(result.calls / wall),
    callsPerCpuSecond: Math.round(result.calls / total),
    forkCpuMs: fork.cpuMsPerFork,
    loadAverage: loadText(),
  }),
);
