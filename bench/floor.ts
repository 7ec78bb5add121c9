/**
 * How far the benchmark is from the bare cost of its calls: `npm run bench:floor` (issue 18).
 *
 * On 20 HumanEval tasks and two models, in the paper configuration (the options of
 * `npm run bench:paper`), it runs `crosscheck bench` in this process and records the exact
 * inputs each task ran. Then it times the floor: one plain Python process (bench/floor.py) that
 * calls the reference and every candidate on those inputs in a loop, with no process per
 * candidate, no encoding, no transport and no comparison. It prints wall and CPU time of both
 * (CPU: user + system of this process and of every process below it), their ratios, and where
 * the benchmark's CPU time went. Ends with one JSON line {"cpuOverFloor", "wallOverFloor", ...}.
 *
 *   npm run bench:floor -- [--tasks HumanEval/123,HumanEval/129] [--models gpt_4o,gpt_3_5|all]
 *
 * Other tasks and models show where a larger run's time goes (the defaults are issue 18's).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import {
  type DatasetTask,
  listModels,
  loadCandidates,
  progressReporter,
  resolveBenchOptions,
  runBench,
} from '../src/bench/index.ts';
import { benchPhases, resetBenchPhases } from '../src/bench/phases.ts';
import { taskInputs } from '../src/bench/task-inputs.ts';
import { fromSources } from '../src/candidates/index.ts';
import { commaList } from '../src/cli/comma-list.ts';
import { confine, releaseConfined, resolveIsolation } from '../src/exec/isolation/index.ts';
import { checkPython, closePythonWorkers } from '../src/exec/python/index.ts';
import { encode } from '../src/values/index.ts';
import { cpuSince, cpuSnapshot, faultSnapshot, faultsSince, loadText } from './cpu-tree.ts';
import { measureCandidateCost, measureEndToEnd, measureForkCost } from './per-candidate.ts';

const { values: flags } = parseArgs({
  options: { tasks: { type: 'string' }, models: { type: 'string' } },
});
const TASKS =
  commaList(flags.tasks) ??
  [0, 1, 10, 11, 19, 24, 67, 77, 81, 89, 113, 119, 127, 130, 135, 144, 145, 152, 155, 159].map(
    (k) => `HumanEval/${k}`,
  );
const data = resolve(process.env.CROSSCHECK_DATA ?? join(import.meta.dirname, '..', '..', 'shared', 'data'));
if (!existsSync(join(data, 'humaneval', 'tasks.jsonl.gz'))) {
  console.error(
    `bench:floor: no HumanEval data at ${join(data, 'humaneval')}; set CROSSCHECK_DATA to the shared data directory.`,
  );
  process.exit(1);
}
const MODELS =
  flags.models === 'all'
    ? listModels(join(data, 'humaneval'))
    : (commaList(flags.models) ?? ['gpt_4o', 'llama_3_1_8b_instruct']);
if (TASKS.length === 0 || MODELS.length === 0) {
  console.error('bench:floor: --tasks and --models take comma-separated names (--models all: every model).');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'crosscheck-floor-'));
const benchOptions = {
  data: join(data, 'humaneval'),
  models: MODELS,
  tasks: TASKS,
  equality: 'difftrust',
  estimator: 'paired',
  profile: 'difftrust',
  out: join(dir, 'bench.json'),
} as const;
const options = resolveBenchOptions(benchOptions);

const since = cpuSince;
const load = loadText;

// 1. The benchmark, as `crosscheck bench` runs it, recording the inputs of each task.
console.error(
  `bench:floor: ${TASKS.length} tasks × ${MODELS.length} models, paper configuration; load ${load()}`,
);
const inputs = new Map<string, readonly (readonly unknown[])[]>();
const tasks = new Map<string, DatasetTask>();
resetBenchPhases();
const benchCpu0 = cpuSnapshot();
const benchFaults0 = faultSnapshot();
const benchWall0 = performance.now();
// Progress as `crosscheck bench` shows it: a line redrawn on a terminal, one every 10 s in a log
// (a run over every task and model takes minutes; the default one, half a minute).
const progress = progressReporter(process.stderr);
const result = await runBench(benchOptions, {
  onInputs: (task, xs) => {
    inputs.set(task.taskId, xs);
    tasks.set(task.taskId, task);
  },
  onProgress: (p) => progress.update(p),
});
progress.clear();
const benchWall = (performance.now() - benchWall0) / 1000;
const benchCpu = since(benchCpu0);
const benchFaults = faultsSince(benchFaults0);
await closePythonWorkers();
const phases = { ...benchPhases };
const failed = result.pairs.filter((p) => p.status !== 'ok');
if (failed.length > 0) console.error(`bench:floor: ${failed.length} pairs failed: ${failed[0]?.reason}`);
console.error(`bench: ${benchWall.toFixed(1)} s wall, ${result.calls} calls; load ${load()}`);

// 2. Input generation and the reference filter alone (the same inputs: checked).
const inputsCpu0 = cpuSnapshot();
const again = new Map<string, Awaited<ReturnType<typeof taskInputs>>>();
for (const id of TASKS) {
  const task = tasks.get(id);
  if (task) again.set(id, await taskInputs(task, options, undefined));
}
const inputsCpu = since(inputsCpu0);
// Checked outside the timing, in wire form: inputs may hold what JSON.stringify refuses (a Python
// int past 2^53 is a BigInt) or collapses (a set, a tuple).
const wire = (xs: readonly (readonly unknown[])[] | undefined): string =>
  JSON.stringify((xs ?? []).map((args) => encode(args)));
for (const [id, prepared] of again) {
  if (!prepared.ok || wire(prepared.inputs) !== wire(inputs.get(id))) {
    throw new Error(`bench:floor: ${id}: generating the inputs again gave other inputs`);
  }
}
await closePythonWorkers();

// 3. The floor: the same calls in one plain Python loop.
const candidatesOf = new Map(MODELS.map((m) => [m, loadCandidates(options.data, m)]));
const prepare = (code: string, entry: string): string => {
  const [c] = fromSources([code], { language: 'python', entry });
  return (c as { prepared: string | null; code: string }).prepared ?? code;
};
const work = {
  timeoutMs: options.timeoutMs,
  candidateTimeMs: options.candidateTimeMs,
  budgetMs: options.budgetMs,
  maxOutputBytes: options.maxOutputBytes,
  tasks: TASKS.flatMap((id) => {
    const task = tasks.get(id);
    const xs = inputs.get(id);
    if (!task || !xs || !task.groundTruthCode) return [];
    return [
      {
        task: id,
        entry: task.entryPoint,
        reference: prepare(task.groundTruthCode, task.entryPoint),
        candidates: MODELS.flatMap((m) =>
          (candidatesOf.get(m)?.get(id)?.codes ?? [])
            .slice(0, options.m)
            .map((code) => prepare(code, task.entryPoint)),
        ),
        inputs: xs.map((args) => encode(args)),
      },
    ];
  }),
};
// The candidates are untrusted: the floor runs inside the OS boundary when there is one (which
// costs nothing per call: the process is confined once). Its folder is all it may write.
const isolation = resolveIsolation('auto');
// The work goes in a folder of its own, mounted read-only: under 'os' the floor's working
// directory is a fresh tmpfs inside the sandbox, where a file written on the host is not seen.
const floorDir = join(dir, 'floor');
mkdirSync(floorDir);
const workDir = join(dir, 'work');
mkdirSync(workDir);
const workFile = join(workDir, 'work.json');
writeFileSync(workFile, JSON.stringify(work));
console.error(
  `bench:floor: exported ${work.tasks.reduce((s, t) => s + t.inputs.length, 0)} inputs of ${work.tasks.length} tasks to ${workFile}`,
);
const root = resolve(import.meta.dirname, '..');
const python = await checkPython(process.env.CROSSCHECK_PYTHON ?? 'python3', 'CROSSCHECK_PYTHON');
const cmd = confine(
  {
    file: python.executable,
    args: ['-s', '-B', join(root, 'bench', 'floor.py'), workFile],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONHASHSEED: '0', HOME: floorDir, TMPDIR: floorDir },
    workdir: floorDir,
    readOnly: [join(root, 'bench'), join(root, 'python'), workDir],
  },
  isolation,
);
// The floor's progress (a line per tenth of its tasks) goes straight to this terminal. The
// sandbox's descriptors (the read-only folders, its system call filter) follow stdio.
const floorFaults0 = faultSnapshot();
const floorRun = await execa(cmd.file, cmd.args, {
  env: cmd.env,
  extendEnv: false,
  cwd: floorDir,
  // (execa passes a number through as that descriptor; its types only name 0 to 2.)
  stdio: ['ignore', 'pipe', 'inherit', ...(cmd.fds as unknown as 3[])],
}).finally(() => releaseConfined(cmd));
// The floor's process tree is reaped by now: its faults are in this process's children's count.
const floorFaults = faultsSince(floorFaults0);
const floor = JSON.parse(String(floorRun.stdout).trim().split('\n').pop() ?? '{}') as {
  referenceCalls: number;
  candidateCalls: number;
  referenceSeconds: number;
  candidateSeconds: number;
  timeouts: number;
  skipped: number;
  wallSeconds: number;
  cpuSeconds: number;
  encodeSeconds: number;
  repeatCalls: number;
  repeatSeconds: number;
};

// 4. What one candidate costs, with the boundary on, and the machine's fork cost this hour
// (the floor of a clean process per candidate), measured now, beside the figures they explain.
const forkCost = await measureForkCost(python.executable);
const costDir = join(dir, 'per-candidate');
mkdirSync(costDir);
const zygoteCost = await measureCandidateCost(python.executable, isolation, costDir);
const endToEnd = await measureEndToEnd();
await closePythonWorkers();

// 5. Figures.
const benchTotal = benchCpu.host + benchCpu.workers;
const callShare = floor.candidateSeconds / Math.max(1e-9, floor.candidateSeconds + floor.referenceSeconds);
// The bench runs each distinct program of a task once; the floor calls every sample. The bench's
// share of the calls is the floor's, less the repeats it did not make.
const distinctShare = 1 - floor.repeatSeconds / Math.max(1e-9, floor.candidateSeconds);
const candidateCalls = floor.cpuSeconds * callShare * distinctShare;
const encodeShare = 1 - floor.repeatCalls / Math.max(1, floor.candidateCalls);
// The floor over distinct programs only: what a plain loop that also skipped repeats would cost.
const distinctFloorCpu = floor.cpuSeconds * (1 - callShare * (1 - distinctShare));
// The two parts that are what is left once the others are taken out.
const WORKER_REST = 'transport, worker side (forks, loads, pipes, checks)';
const HOST_REST = 'transport, host side, and the rest';
const parts: Array<[string, number]> = [
  ['input generation (host, with the filter’s host side)', inputsCpu.host],
  ['reference filter (its calls in the worker)', inputsCpu.workers],
  ['candidate calls (the floor loop’s share)', candidateCalls],
  ['encoding results (the harness encoder, timed alone)', floor.encodeSeconds * encodeShare],
  [WORKER_REST, benchCpu.workers - inputsCpu.workers - candidateCalls - floor.encodeSeconds * encodeShare],
  ['comparison (outcomes to cells: parsing, canonical keys)', phases.cellsMs / 1000],
  ['analysis (pairs, groups, draws, records)', phases.analysisMs / 1000],
  [HOST_REST, benchCpu.host - inputsCpu.host - phases.cellsMs / 1000 - phases.analysisMs / 1000],
];
const benchFaultTotal = benchFaults.host + benchFaults.workers;
const floorFaultTotal = floorFaults.host + floorFaults.workers;
const count = (x: number): string => Math.round(x).toLocaleString('en');
const us = (x: number): string => `${count(x)} µs`;
/** The per-candidate line: end to end through run(), then the zygote's parts (bench/per-candidate.ts). */
const perCandidateLine = (): string =>
  [
    `per candidate: ${us(endToEnd.hostUs + endToEnd.workersUs)} CPU (run() of ${endToEnd.candidates} trivial candidates, one call each: host ${us(endToEnd.hostUs)}, workers ${us(endToEnd.workersUs)}),`,
    `  of which, in the zygote (${us(zygoteCost.cpuUs)}, its own code timed on ${zygoteCost.candidates} candidates): fork ${us(zygoteCost.forkUs)}, sandbox ${us(zygoteCost.sandboxUs)},`,
    `  files ${us(zygoteCost.filesUs)}, pipes ${us(zygoteCost.pipesUs)}, zygote's other work ${us(zygoteCost.zygoteRestUs)}, the candidate's load and call ${us(zygoteCost.candidateUs)};`,
    `  host ${us(endToEnd.hostUs)}. Page faults a candidate: ${zygoteCost.zygoteFaults} in the zygote, ${zygoteCost.childFaults} in its child (${zygoteCost.forkOnlyChildFaults} for a child that only exits);`,
    `  ${Object.entries(zygoteCost.perCandidate)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')} a candidate.`,
    `fork cost this hour: ${forkCost.cpuMsPerFork.toFixed(2)} ms CPU per bare Python fork-and-exit (parent ${forkCost.parentCpuMs.toFixed(2)} ms, child ${forkCost.childCpuMs.toFixed(2)} ms; ${forkCost.parentFaults} + ${forkCost.childFaults} page faults).`,
  ].join('\n');
const s = (x: number): string => `${x.toFixed(2).padStart(7)} s`;
const pct = (x: number): string => `${((100 * x) / benchTotal).toFixed(0).padStart(3)} %`;
// The transport lines are what is left once the other parts are taken out. Where candidates run
// into their limits, the floor's share of the calls can exceed what the bench spent on them (its
// timeout budget stops a hung candidate sooner than the floor's timer), and the rest goes below
// zero: then it is not known, and printed so.
const residuals = new Set([WORKER_REST, HOST_REST]);
const known = (name: string, x: number): boolean => !residuals.has(name) || x >= 0;
const unknownParts = parts.filter(([name, x]) => !known(name, x));
const lines = [
  '',
  `                     wall        CPU     (load ${load()}; isolation ${isolation})`,
  `bench             ${s(benchWall)}  ${s(benchTotal)}   host ${benchCpu.host.toFixed(2)} s + workers ${benchCpu.workers.toFixed(2)} s; ${result.calls} calls`,
  `floor             ${s(floor.wallSeconds)}  ${s(floor.cpuSeconds)}   ${floor.referenceCalls + floor.candidateCalls} calls (${floor.timeouts} timeouts, ${floor.skipped} skipped)`,
  `bench / floor     ${(benchWall / floor.wallSeconds).toFixed(1).padStart(7)} ×  ${(benchTotal / floor.cpuSeconds).toFixed(1).padStart(7)} ×`,
  `  page faults: bench ${count(benchFaultTotal)} (host ${count(benchFaults.host)}, workers ${count(benchFaults.workers)}), floor ${count(floorFaultTotal)}: ${(benchFaultTotal / Math.max(1, floorFaultTotal)).toFixed(1)} ×.`,
  `  A fault's cost moves with the VM's hour far more than a call's; this ratio is how far a slow hour can move the CPU ratio.`,
  `  the floor calls every sample; ${floor.repeatCalls} of its ${floor.candidateCalls} candidate calls repeat a program of the same task, which the bench runs once.`,
  `  Over a floor that also skipped them (${distinctFloorCpu.toFixed(2)} s of CPU): ${(benchTotal / distinctFloorCpu).toFixed(1)} × CPU.`,
  '',
  perCandidateLine(),
  '',
  'where the bench’s CPU time went:',
  ...parts.map(([name, x]) => `  ${name.padEnd(58)} ${known(name, x) ? `${s(x)}  ${pct(x)}` : '      —'}`),
  ...(unknownParts.length > 0
    ? [
        `  —: below zero (${unknownParts.map(([, x]) => x.toFixed(2)).join(', ')} s) once the floor's share of the calls is taken out: the floor spent more on candidates that ran into a limit than the bench did.`,
      ]
    : []),
  '',
];
console.error(lines.join('\n'));
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    cpuOverFloor: Number((benchTotal / floor.cpuSeconds).toFixed(2)),
    wallOverFloor: Number((benchWall / floor.wallSeconds).toFixed(2)),
    bench: {
      wallSeconds: benchWall,
      cpuSeconds: benchTotal,
      hostCpuSeconds: benchCpu.host,
      calls: result.calls,
    },
    floor: { wallSeconds: floor.wallSeconds, cpuSeconds: floor.cpuSeconds },
    pageFaults: { bench: benchFaults, floor: floorFaultTotal },
    cpuOverDistinctFloor: Number((benchTotal / distinctFloorCpu).toFixed(2)),
    breakdown: Object.fromEntries(
      parts.map(([name, x]) => [name.split(' (')[0], known(name, x) ? Number(x.toFixed(3)) : null]),
    ),
    perCandidate: { ...endToEnd, zygote: zygoteCost },
    forkCost,
    loadAverage: loadavg()[0],
  }),
);
