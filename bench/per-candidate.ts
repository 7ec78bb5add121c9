/**
 * What one Python candidate costs, measured, for `bench:floor`'s breakdown (and the machine's
 * fork cost at this hour, which every clean process per candidate pays at least once).
 *
 * - {@link measureForkCost}: bench/fork-cost.py, a bare interpreter forking a child that exits.
 * - {@link measureCandidateCost}: bench/candidate-cost.py, the harness's own zygote loading and
 *   running trivial candidates inside the OS boundary (when there is one), its parts timed.
 * - {@link measureEndToEnd}: the same trivial candidates through the public `run()`, the CPU of
 *   the host and of every process below it.
 */
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { confine, releaseConfined } from '../src/exec/isolation/index.ts';
import { candidates, defineTask, run } from '../src/index.ts';
import { cpuSince, cpuSnapshot } from './cpu-tree.ts';

const root = resolve(import.meta.dirname, '..');

/** CPU of one bare Python fork-and-exit, and the page faults of each side. */
export interface ForkCost {
  readonly forks: number;
  readonly cpuMsPerFork: number;
  readonly parentCpuMs: number;
  readonly childCpuMs: number;
  readonly parentFaults: number;
  readonly childFaults: number;
}

/** The machine's fork cost now: `forks` bare fork-and-exits of a `python -S` interpreter. */
export const measureForkCost = async (python: string, forks = 300): Promise<ForkCost> => {
  const r = await execa(python, ['-S', '-s', '-B', join(root, 'bench', 'fork-cost.py'), String(forks)], {
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  return JSON.parse(String(r.stdout).trim()) as ForkCost;
};

/** Microseconds of CPU per candidate in the zygote, by part (bench/candidate-cost.py says how). */
export interface CandidateCost {
  readonly candidates: number;
  readonly cpuUs: number;
  readonly forkUs: number;
  readonly sandboxUs: number;
  readonly candidateUs: number;
  readonly filesUs: number;
  readonly pipesUs: number;
  readonly zygoteRestUs: number;
  readonly zygoteFaults: number;
  readonly childFaults: number;
  readonly forkOnlyChildFaults: number;
  readonly perCandidate: Readonly<Record<string, number>>;
}

/**
 * The harness's zygote on `count` trivial candidates, inside the OS boundary when `isolation` is
 * `'os'` (its working directory then a tmpfs, as a worker's is). `workdir` must exist on the host.
 */
export const measureCandidateCost = async (
  python: string,
  isolation: 'os' | 'process',
  workdir: string,
  count = 200,
): Promise<CandidateCost> => {
  const cmd = confine(
    {
      file: python,
      args: ['-S', '-s', '-B', join(root, 'bench', 'candidate-cost.py'), join(root, 'python'), String(count)],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workdir, TMPDIR: workdir },
      workdir,
      readOnly: [join(root, 'bench'), join(root, 'python')],
    },
    isolation,
  );
  // The sandbox's descriptors (the read-only folders, its system call filter) follow stdio.
  const r = await execa(cmd.file, cmd.args, {
    env: cmd.env,
    extendEnv: false,
    cwd: workdir,
    stdio: ['ignore', 'pipe', 'pipe', ...(cmd.fds as unknown as 3[])],
  }).finally(() => releaseConfined(cmd));
  return JSON.parse(String(r.stdout).trim().split('\n').pop() ?? '{}') as CandidateCost;
};

/** CPU microseconds per candidate through `run()`: the host's, and that of the processes below it. */
export interface EndToEndCost {
  readonly candidates: number;
  readonly hostUs: number;
  readonly workersUs: number;
}

/**
 * `count` distinct trivial Python candidates (a comment tells them apart), one call each,
 * through the public `run()` with the default isolation. The workers are started first, so the
 * figure is what a candidate adds, not a worker's start.
 */
export const measureEndToEnd = async (count = 200): Promise<EndToEndCost> => {
  const task = defineTask({ name: 'f' });
  const sources = (tag: string, n: number): string[] =>
    Array.from({ length: n }, (_, k) => `def f(x):\n    return x + 1\n# ${tag} ${k}\n`);
  await run(task, candidates.fromSources(sources('warm', 4), { language: 'python', entry: 'f' }), [[1]]);
  const cs = candidates.fromSources(sources('measured', count), { language: 'python', entry: 'f' });
  const before = cpuSnapshot();
  const matrix = await run(task, cs, [[1]]);
  const spent = cpuSince(before);
  const bad = matrix.outcomes.flat().filter((o) => o.kind !== 'value').length;
  if (bad > 0) throw new Error(`per-candidate cost: ${bad} of ${count} trivial calls did not return a value`);
  return {
    candidates: count,
    hostUs: Math.round((spent.host * 1e6) / count),
    workersUs: Math.round((spent.workers * 1e6) / count),
  };
};
