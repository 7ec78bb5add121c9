/**
 * Input generation benchmark (issue 4). For every HumanEval task of the shared data:
 * 1. generation speed of `gen.fromSeeds` before any validity filter (inputs drawn per second,
 *    dedup included);
 * 2. with the Python ground truth as reference filter, whether 1,000 valid draws (i.i.d.; the distinct
 *    ones among them run once) come
 *    out, and why not when they do not.
 * Progress goes to stderr; the last stdout line is one JSON object.
 *
 *   npm run bench:inputs -- [--seed 1] [--profile typed|difftrust] [--limit 150] [--no-reference]
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadTasks } from '../src/bench/dataset.ts';
import { usableSignature } from '../src/bench/task-inputs.ts';
import { fromSources } from '../src/candidates/index.ts';
import { closePythonWorkers } from '../src/exec/python/index.ts';
import { type CrosscheckGen, gen } from '../src/inputs/index.ts';
import { decode, type Tagged } from '../src/values/index.ts';

const TARGET = 1000;

const { values: flags } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    profile: { type: 'string', default: 'typed' },
    limit: { type: 'string' },
    'no-reference': { type: 'boolean', default: false },
    data: { type: 'string' },
  },
});
const seed = Number(flags.seed);
const profile = flags.profile === 'difftrust' ? 'difftrust' : 'typed';
const dataDir = resolve(
  flags.data ?? process.env.CROSSCHECK_DATA ?? join(import.meta.dirname, '..', '..', 'shared', 'data'),
  'humaneval',
);
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const tasks = loadTasks(dataDir).slice(0, flags.limit ? Number(flags.limit) : undefined);

const sourceFor = (task: (typeof tasks)[number]): CrosscheckGen =>
  gen.fromSeeds(
    task.seedInputs.map((s: Tagged) => decode(s) as unknown[]),
    {
      profile,
      language: 'python',
      signature: profile === 'typed' ? usableSignature(task.signature) : undefined,
    },
  );

// 1. Speed before the reference filter, after a short untimed warm-up (JIT, module loading).
for (const task of tasks.slice(0, 10)) await sourceFor(task).generate(TARGET, { seed: seed + 1 });
let drawn = 0;
let distinct = 0;
const cpuStarted = process.cpuUsage();
const started = performance.now();
for (const task of tasks) {
  const report = await sourceFor(task).generateWithReport(TARGET, { seed });
  drawn += report.drawn;
  distinct += report.inputs.length;
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const inputsPerSec = Math.round(drawn / seconds);
// Wall time is what the target is about; CPU time tells a busy machine from a slow generator.
log(
  `generation (${profile}, no filter): ${drawn} inputs drawn, ${distinct} distinct, in ${seconds.toFixed(2)} s: ` +
    `${inputsPerSec} inputs/s, ${Math.round(distinct / seconds)} distinct inputs/s ` +
    `(${Math.round(drawn / cpuSeconds)} inputs per CPU second)`,
);

// 2. 1,000 distinct inputs the ground truth accepts.
let reaching = 0;
const short: string[] = [];
if (!flags['no-reference']) {
  const filterStarted = performance.now();
  for (const [i, task] of tasks.entries()) {
    const t0 = performance.now();
    const reference = fromSources([task.groundTruthCode ?? ''], {
      language: 'python',
      entry: task.entryPoint,
    })[0];
    if (!reference) continue;
    const report = await sourceFor(task).withReference(reference).generateWithReport(TARGET, { seed });
    // Valid draws (i.i.d., duplicates counted); report.inputs are the distinct ones among them.
    const ok = report.sampled >= TARGET;
    if (ok) reaching++;
    const rejected = Object.entries(report.rejected)
      .sort((a, b) => b[1] - a[1])
      .map(([why, n]) => `${why} ×${n}`)
      .join(', ');
    const line =
      `[${i + 1}/${tasks.length}] ${task.taskId} ${task.entryPoint}: ${report.sampled} valid draws (${report.inputs.length} distinct) of ` +
      `${report.drawn} drawn (${report.duplicates} duplicates${rejected ? `; rejected: ${rejected}` : ''}) ` +
      `in ${((performance.now() - t0) / 1000).toFixed(2)} s`;
    log(ok ? line : `${line}\n    short: ${report.shortfall}`);
    if (!ok) short.push(`${task.taskId} (${report.sampled}): ${report.shortfall}; rejected: ${rejected}`);
  }
  log(`reference filter: ${((performance.now() - filterStarted) / 1000).toFixed(1)} s`);
  if (short.length > 0) log(`tasks short of ${TARGET}:\n  ${short.join('\n  ')}`);
  await closePythonWorkers();
}

const summary = {
  tasks: tasks.length,
  tasksReaching1000: flags['no-reference'] ? null : reaching,
  shareReaching1000: flags['no-reference'] ? null : Number((reaching / tasks.length).toFixed(4)),
  inputsPerSec,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
